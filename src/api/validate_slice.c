/* validate_slice.c: ResourceSlice validation (k8s.io/kubernetes
 * pkg/apis/resource/validation): metadata, driver and pool, update
 * immutability, the node-selection one-of (validate_slice_node_selection.c),
 * devices vs sharedCounters, the device list (per device:
 * validate_slice_device.c), shared counter sets, partitionTypeAttribute and
 * skipNodeOperations, in kube-apiserver's order. */
#include "api/validate.h"
#include "api/validate_keyed_set.h"
#include "api/validate_names.h"
#include "api/validate_resource.h"
#include "api/validate_skip_node_ops.h"
#include "api/validate_slice_internal.h"
#include <stdlib.h>
#include <string.h>

enum { SLICE_DEVICES_MAX = 128, SLICE_DEVICES_ADVANCED_MAX = 64, SLICE_COUNTER_SETS_MAX = 8 };

static void validate_pool(errlist *e, fpath *p, const resource_pool *pool) {
  size_t m = fp_field(p, "name");
  vn_pool_name(e, p, pool->name ? pool->name->str : "");
  fp_pop(p, m);
  if (pool->resource_slice_count <= 0) {
    m = fp_field(p, "resourceSliceCount");
    fe_invalid_int(e, p, pool->resource_slice_count, "must be greater than zero");
    fp_pop(p, m);
  }
  if (pool->generation < 0) {
    m = fp_field(p, "generation");
    fe_invalid_int(e, p, pool->generation, "must be greater than or equal to zero");
    fp_pop(p, m);
  }
}

static bool str_eq(const char *a, const char *b) { return a == b || (a && b && strcmp(a, b) == 0); }

/* `<path>: Invalid value: <new>: field is immutable` when new != old; NULL renders as null. */
static void immutable_str(errlist *e, fpath *p, const char *field1, const char *field2, const char *now, const char *was) {
  if (str_eq(now, was)) return;
  size_t m = fp_field(p, field1);
  if (field2) fp_field(p, field2);
  if (now) fe_invalid_str(e, p, now, "field is immutable");
  else fe_invalid(e, p, "null", "field is immutable");
  fp_pop(p, m);
}

static bool any_device(const resource_slice_spec *s, bool (*pred)(const device *)) {
  for (uint32_t i = 0; i < s->devices.n; i++)
    if (pred(&s->devices.items[i])) return true;
  return false;
}

static bool has_taints(const device *d) { return d->taints.n > 0; }
static bool consumes_counters(const device *d) { return d->consumes_counters.n > 0; }
static bool has_list_attributes(const device *d) {
  for (uint32_t i = 0; i < d->attributes.n; i++)
    if (device_attribute_is_list(&d->attributes.items[i].value)) return true;
  return false;
}

static const device *lookup_device(const resource_slice_spec *old, const atom *name) {
  if (!old) return NULL;
  for (uint32_t i = 0; i < old->devices.n; i++)
    if (old->devices.items[i].name == name) return &old->devices.items[i];
  return NULL;
}

typedef struct {
  const resource_slice_spec *old;
  const bool *per_device_node_selection;
} device_ctx;

static void each_device(errlist *e, fpath *p, const void *item, const void *arg) {
  const device_ctx *c = arg;
  const device *d = item;
  validate_slice_device(e, p, d, lookup_device(c->old, d->name), c->per_device_node_selection);
}

static void validate_devices(errlist *e, fpath *p, const resource_slice_spec *s, const resource_slice_spec *old) {
  size_t max = SLICE_DEVICES_MAX;
  if (any_device(s, has_taints) || any_device(s, consumes_counters) || any_device(s, has_list_attributes))
    max = SLICE_DEVICES_ADVANCED_MAX;
  device_ctx c = {old, s->per_device_node_selection_set ? &s->per_device_node_selection : NULL};
  size_t m = fp_field(p, "devices");
  validate_keyed_set(e, p, &(keyed_set){s->devices.items, s->devices.n, &device_desc, max, false, each_device, &c});
  fp_pop(p, m);
}

static void each_counter_set(errlist *e, fpath *p, const void *item, const void *arg) {
  (void)arg;
  validate_counter_set(e, p, item);
}

static void validate_shared_counters(errlist *e, fpath *p, const counter_set_list *sets) {
  size_t m = fp_field(p, "sharedCounters");
  validate_keyed_set(e, p, &(keyed_set){sets->items, sets->n, &counter_set_desc, SLICE_COUNTER_SETS_MAX, false,
                                        each_counter_set, NULL});
  fp_pop(p, m);
}

/* The attribute partitionTypeAttribute names: by its full name, or bare when
 * its domain is the slice's driver. */
static const device_attribute *partition_attribute(const device *d, const char *name, const char *bare) {
  for (uint32_t i = 0; i < d->attributes.n; i++)
    if (strcmp(d->attributes.items[i].key->str, name) == 0) return &d->attributes.items[i].value;
  for (uint32_t i = 0; bare && i < d->attributes.n; i++)
    if (strcmp(d->attributes.items[i].key->str, bare) == 0) return &d->attributes.items[i].value;
  return NULL;
}

static void validate_partition_type_attribute(errlist *e, fpath *p, const resource_slice_spec *s) {
  const char *name = s->partition_type_attribute->str;
  size_t m = fp_field(p, "partitionTypeAttribute");
  if (!any_device(s, consumes_counters)) {
    fe_invalid_str(e, p, name, "may only be set on a slice which declares devices that consume counters");
    fp_pop(p, m);
    return;
  }
  bool well_formed = vn_fully_qualified_name(e, p, name);
  fp_pop(p, m);
  if (!well_formed) return;
  const char *driver = s->driver ? s->driver->str : "";
  size_t dl = strlen(driver);
  const char *bare = strncmp(name, driver, dl) == 0 && name[dl] == '/' ? name + dl + 1 : NULL;
  m = fp_field(p, "devices");
  for (uint32_t i = 0; i < s->devices.n; i++) {
    const device *d = &s->devices.items[i];
    if (!d->consumes_counters.n) continue;
    size_t mi = fp_index(p, i);
    fp_field(p, "attributes");
    fp_key(p, name);
    const device_attribute *a = partition_attribute(d, name, bare);
    if (!a) {
      fe_required(e, p, "device consumes counters and `partitionTypeAttribute` names this attribute, so it must be set");
    } else if (!a->string) {
      char *v = render_json_value(&device_attribute_desc, a);
      fe_invalid(e, p, v, "must be a string value because `partitionTypeAttribute` names this attribute");
      free(v);
    }
    fp_pop(p, mi);
  }
  fp_pop(p, m);
}

static void validate_spec(errlist *e, fpath *p, const resource_slice_spec *s, const resource_slice_spec *old) {
  size_t m = fp_field(p, "driver");
  if (!s->driver || !s->driver->len) fe_required(e, p, NULL); /* and no format error, as kube-apiserver */
  else vn_driver_name(e, p, s->driver->str);
  fp_pop(p, m);
  m = fp_field(p, "pool");
  validate_pool(e, p, &s->pool);
  fp_pop(p, m);
  if (old) {
    immutable_str(e, p, "pool", "name", s->pool.name ? s->pool.name->str : "", old->pool.name ? old->pool.name->str : "");
    immutable_str(e, p, "driver", NULL, s->driver ? s->driver->str : "", old->driver ? old->driver->str : "");
    immutable_str(e, p, "nodeName", NULL, s->node_name, old->node_name);
  }
  validate_slice_node_selection(e, p, s);
  if (s->shared_counters.set && s->devices.set)
    fe_invalid_str(e, p, "", "only one of `sharedCounters` or `devices` is allowed");
  validate_devices(e, p, s, old);
  validate_shared_counters(e, p, &s->shared_counters);
  if (s->partition_type_attribute) validate_partition_type_attribute(e, p, s);
  m = fp_field(p, "skipNodeOperations");
  validate_skip_node_operations(e, p, &s->skip_node_operations);
  fp_pop(p, m);
}

void validate_resource_slice(const admission_ctx *ctx, admit_op op, resource_slice *obj, const resource_slice *old,
                             errlist *errs) {
  (void)ctx;
  fpath p = {STRBUF_INIT};
  size_t m = fp_field(&p, "metadata");
  if (op == ADMIT_CREATE || !old) validate_object_meta(errs, &p, &obj->metadata, false);
  else validate_object_meta_update(errs, &p, &obj->metadata, &old->metadata);
  fp_pop(&p, m);
  fp_field(&p, "spec");
  validate_spec(errs, &p, &obj->spec, op == ADMIT_CREATE || !old ? NULL : &old->spec);
  fp_free(&p);
}
