/* validate_slice_counters.c: shared counter sets of a ResourceSlice and the
 * counters a device consumes from them (k8s.io/kubernetes
 * pkg/apis/resource/validation): non-empty names and maps, DNS-label counter
 * names, size limits. */
#include "api/validate_map.h"
#include "api/validate_names.h"
#include "api/validate_slice_internal.h"
#include <stdlib.h>

enum { COUNTERS_PER_SET_MAX = 32 };

void validate_counter_map(errlist *e, fpath *p, const counter_map *counters, size_t max) {
  if (counters->n > max) {
    fe_too_many(e, p, counters->n, max);
    return;
  }
  uint32_t *order = MAP_SORTED_ORDER(counters);
  for (uint32_t k = 0; k < counters->n; k++) vn_dns_label(e, p, counters->items[order[k]].key->str);
  free(order);
}

/* The name (or counterSet) field and the counters map, as both types have. */
static void name_and_counters(errlist *e, fpath *p, const char *name_field, const atom *name,
                              const counter_map *counters) {
  size_t m = fp_field(p, name_field);
  if (!name || !name->len) fe_required(e, p, NULL);
  else vn_dns_label(e, p, name->str);
  fp_pop(p, m);
  m = fp_field(p, "counters");
  if (counters->n == 0) fe_required(e, p, NULL);
  else validate_counter_map(e, p, counters, COUNTERS_PER_SET_MAX);
  fp_pop(p, m);
}

void validate_counter_set(errlist *e, fpath *p, const counter_set *cs) {
  name_and_counters(e, p, "name", cs->name, &cs->counters);
}

void validate_counter_consumption(errlist *e, fpath *p, const device_counter_consumption *c) {
  name_and_counters(e, p, "counterSet", c->counter_set, &c->counters);
}
