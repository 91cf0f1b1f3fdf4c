/* validate_node_allocatable.c: a device's nodeAllocatableResources (alpha;
 * k8s.io/kubernetes pkg/apis/resource/validation). The field is kept as raw
 * JSON (types.h), so this walks the JSON: keys must be node-allocatable
 * resource names, each entry needs a mapping or an overhead, mappings name an
 * existing capacity with a positive multiplier, overheads are non-negative.
 * Quantities that do not parse are left alone (the typed API would refuse them
 * at decode). */
#include "api/validate_slice_internal.h"
#include "util/die.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_node_allocatable_name(const char *name) {
  return strcmp(name, "cpu") == 0 || strcmp(name, "memory") == 0 || strcmp(name, "ephemeral-storage") == 0 ||
         strncmp(name, "hugepages-", 10) == 0;
}

/* *q from a JSON quantity (string or number); false when absent or unparsable. */
static bool json_quantity(const json_t *v, quantity *q) {
  char num[64];
  const char *s = json_string_value(v);
  if (!s && json_is_integer(v)) {
    snprintf(num, sizeof num, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
    s = num;
  }
  return s && quantity_parse(s, strlen(s), q, NULL);
}

/* Invalid at p.field with the quantity's canonical text when pred(q) fails. */
static void check_quantity(errlist *e, fpath *p, const json_t *obj, const char *field, bool positive,
                           const char *detail) {
  quantity q;
  if (!json_quantity(json_object_get(obj, field), &q)) return;
  if (positive ? q.nanos > 0 : q.nanos >= 0) return;
  char buf[64];
  size_t m = fp_field(p, field);
  fe_invalid_str(e, p, quantity_format_str(&q, buf, sizeof buf), detail);
  fp_pop(p, m);
}

static bool has_capacity(const device *d, const char *key) {
  for (uint32_t i = 0; i < d->capacity.n; i++)
    if (strcmp(d->capacity.items[i].key->str, key) == 0) return true;
  return false;
}

static void validate_mapping(errlist *e, fpath *p, const json_t *mapping, const device *d) {
  const json_t *key = json_object_get(mapping, "capacityKey");
  const json_t *multiplier = json_object_get(mapping, "capacityMultiplier");
  bool has_key = key && !json_is_null(key), has_multiplier = multiplier && !json_is_null(multiplier);
  size_t m;
  if (has_key) {
    const char *k = json_string_value(key);
    m = fp_field(p, "capacityKey");
    if (!k || !*k) {
      fe_invalid_str(e, p, "", "capacityKey must not be an empty string");
    } else if (!has_capacity(d, k)) {
      char *q = fe_quote(k);
      fe_not_found(e, p, q, NULL);
      free(q);
    }
    fp_pop(p, m);
    if (!has_multiplier) {
      m = fp_field(p, "capacityMultiplier");
      fe_required(e, p, "capacityMultiplier is required when capacityKey is set");
      fp_pop(p, m);
    } else {
      check_quantity(e, p, mapping, "capacityMultiplier", true, "must be positive");
    }
  }
  check_quantity(e, p, mapping, "deviceMultiplier", true, "must be positive");
  if (has_multiplier && !has_key) {
    m = fp_field(p, "capacityKey");
    fe_required(e, p, "capacityKey is required when capacityMultiplier is set");
    fp_pop(p, m);
  }
}

static void validate_overhead(errlist *e, fpath *p, const json_t *overhead) {
  const json_t *per_pod = json_object_get(overhead, "perPod"), *per_container = json_object_get(overhead, "perContainer");
  if ((!per_pod || json_is_null(per_pod)) && (!per_container || json_is_null(per_container))) {
    fe_invalid_str(e, p, "", "at least one of perPod or perContainer must be set");
    return;
  }
  check_quantity(e, p, overhead, "perPod", false, "must be non-negative");
  check_quantity(e, p, overhead, "perContainer", false, "must be non-negative");
}

static int cmp_str(const void *x, const void *y) { return strcmp(*(const char *const *)x, *(const char *const *)y); }

void validate_node_allocatable_resources(errlist *e, fpath *p, const device *d) {
  const json_t *resources = d->node_allocatable_resources;
  size_t n = json_object_size(resources);
  if (!n) return;
  const char **names = xmalloc(n * sizeof *names);
  size_t i = 0;
  const char *name;
  json_t *entry;
  json_object_foreach((json_t *)resources, name, entry) names[i++] = name;
  qsort(names, n, sizeof *names, cmp_str);
  size_t m = fp_field(p, "nodeAllocatableResources");
  for (i = 0; i < n; i++) {
    entry = json_object_get(resources, names[i]);
    size_t mk = fp_key(p, names[i]);
    if (!is_node_allocatable_name(names[i])) fe_invalid_str(e, p, names[i], "must be a node allocatable resource name");
    const json_t *mapping = json_object_get(entry, "mapping"), *overhead = json_object_get(entry, "overhead");
    bool has_mapping = json_is_object(mapping), has_overhead = json_is_object(overhead);
    if (!has_mapping && !has_overhead) fe_required(e, p, "at least one of mapping or overhead must be set");
    if (has_mapping) {
      size_t mm = fp_field(p, "mapping");
      validate_mapping(e, p, mapping, d);
      fp_pop(p, mm);
    }
    if (has_overhead) {
      size_t mo = fp_field(p, "overhead");
      validate_overhead(e, p, overhead);
      fp_pop(p, mo);
    }
    fp_pop(p, mk);
  }
  fp_pop(p, m);
  free(names);
}
