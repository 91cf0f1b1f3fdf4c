/* validate_slice_attributes.c: a device's attributes and capacities
 * (k8s.io/kubernetes pkg/apis/resource/validation): QualifiedName keys
 * reported at the map path, each attribute holding exactly one value of
 * bounded size, and each capacity's requestPolicy allowed only on
 * multi-allocatable devices. Maps are walked in sorted key order. */
#include "api/validate_map.h"
#include "api/validate_names.h"
#include "api/validate_render.h"
#include "api/validate_resource.h"
#include "api/validate_request_policy.h"
#include "api/validate_slice_internal.h"
#include <stdlib.h>
#include <string.h>

enum { ATTRIBUTE_VALUE_MAX_BYTES = 64 };

bool device_attribute_is_list(const device_attribute *a) {
  return a->ints.set || a->bools.set || a->strings.set || a->versions.set;
}

static void string_value(errlist *e, fpath *p, const char *v) {
  if (strlen(v) > ATTRIBUTE_VALUE_MAX_BYTES) fe_too_long(e, p, ATTRIBUTE_VALUE_MAX_BYTES);
}

/* Semver format, then the same 64-byte limit (vn_semver checks both). */
static void version_value(errlist *e, fpath *p, const char *v) { vn_semver(e, p, v); }

static void list_not_empty(errlist *e, fpath *p, bool set, uint32_t n, const char *field, int *num_fields) {
  if (!set) return;
  (*num_fields)++;
  if (n) return;
  size_t m = fp_field(p, field);
  fe_invalid(e, p, "[]", "must not be empty if specified");
  fp_pop(p, m);
}

static void each_string(errlist *e, fpath *p, const char *field, const dstr_list *l,
                        void (*check)(errlist *, fpath *, const char *)) {
  size_t m = fp_field(p, field);
  for (uint32_t i = 0; i < l->n; i++) {
    size_t mi = fp_index(p, i);
    check(e, p, l->items[i]);
    fp_pop(p, mi);
  }
  fp_pop(p, m);
}

/* The value is a union, checked declaratively: its members in declaration
 * order, and the ones set shown as "{int, bool}". */
static void union_error(errlist *e, fpath *p, const device_attribute *a) {
  static const char members[] = "`int`, `bool`, `string`, `version`, `ints`, `bools`, `strings`, `versions`";
  const struct {
    bool set;
    const char *name;
  } m[] = {{a->int__set, "int"},     {a->bool__set, "bool"},   {a->string != NULL, "string"},
           {a->version != NULL, "version"}, {a->ints.set, "ints"}, {a->bools.set, "bools"},
           {a->strings.set, "strings"}, {a->versions.set, "versions"}};
  strbuf set = STRBUF_INIT;
  for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
    if (m[i].set) sb_printf(&set, "%s%s", set.len ? ", " : "{", m[i].name);
  strbuf msg = STRBUF_INIT;
  if (!set.len) {
    sb_printf(&msg, "must specify one of: %s", members);
    fe_invalid_str(e, p, "", sb_str(&msg));
  } else {
    sb_putc(&set, '}');
    sb_printf(&msg, "must specify exactly one of: %s", members);
    fe_invalid_str(e, p, sb_str(&set), sb_str(&msg));
  }
  sb_free(&msg);
  sb_free(&set);
}

static void validate_attribute(errlist *e, fpath *p, const device_attribute *a) {
  int num_fields = a->bool__set + a->int__set;
  if (a->string) {
    num_fields++;
    size_t m = fp_field(p, "string");
    string_value(e, p, a->string);
    fp_pop(p, m);
  }
  if (a->version) {
    num_fields++;
    size_t m = fp_field(p, "version");
    version_value(e, p, a->version);
    fp_pop(p, m);
  }
  list_not_empty(e, p, a->bools.set, a->bools.n, "bools", &num_fields);
  list_not_empty(e, p, a->ints.set, a->ints.n, "ints", &num_fields);
  list_not_empty(e, p, a->strings.set, a->strings.n, "strings", &num_fields);
  each_string(e, p, "strings", &a->strings, string_value);
  list_not_empty(e, p, a->versions.set, a->versions.n, "versions", &num_fields);
  each_string(e, p, "versions", &a->versions, version_value);
  if (num_fields != 1) union_error(e, p, a);
}

void validate_device_attributes(errlist *e, fpath *p, const device *d) {
  if (!d->attributes.n) return; /* no path to push, no order to sort */
  size_t m = fp_field(p, "attributes");
  uint32_t *order = MAP_SORTED_ORDER(&d->attributes);
  for (uint32_t k = 0; k < d->attributes.n; k++) {
    const device_attribute_entry *en = &d->attributes.items[order[k]];
    vn_qualified_name(e, p, en->key->str);
    size_t mk = fp_key_truncated(p, en->key->str, SLICE_QUALIFIED_KEY_MAX);
    validate_attribute(e, p, &en->value);
    fp_pop(p, mk);
  }
  free(order);
  fp_pop(p, m);
}

void validate_device_capacities(errlist *e, fpath *p, const device *d) {
  if (!d->capacity.n) return;
  bool multi = d->allow_multiple_allocations_set && d->allow_multiple_allocations;
  size_t m = fp_field(p, "capacity");
  uint32_t *order = MAP_SORTED_ORDER(&d->capacity);
  for (uint32_t k = 0; k < d->capacity.n; k++) {
    const device_capacity_entry *en = &d->capacity.items[order[k]];
    vn_qualified_name(e, p, en->key->str);
    if (!en->value.request_policy) continue;
    size_t mk = fp_key_truncated(p, en->key->str, SLICE_QUALIFIED_KEY_MAX);
    size_t mp = fp_field(p, "requestPolicy");
    if (multi) validate_request_policy(e, p, &en->value.value, en->value.request_policy);
    else fe_forbidden(e, p, "allowMultipleAllocations must be true");
    fp_pop(p, mp);
    fp_pop(p, mk);
  }
  free(order);
  fp_pop(p, m);
}
