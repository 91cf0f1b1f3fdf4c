/* validate_slice_device.c: one device of a ResourceSlice (k8s.io/kubernetes
 * pkg/apis/resource/validation), in kube-apiserver's order: name,
 * attribute/capacity totals, attributes, capacities and taints (both skipped
 * on update when unchanged from the stored device of the same name), counter
 * consumption, per-device node selection, binding conditions,
 * nodeAllocatableResources. */
#include "api/codec.h"
#include "api/validate_resource.h"
#include "api/validate_keyed_set.h"
#include "api/validate_names.h"
#include "api/validate_slice_internal.h"
#include <stdio.h>

enum {
  ATTRIBUTES_AND_CAPACITIES_MAX = 32,
  ATTRIBUTE_VALUES_MAX = 48,
  TAINTS_MAX = 16,
  COUNTER_CONSUMPTIONS_MAX = 2,
};

static uint32_t attribute_values(const device *d) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < d->attributes.n; i++) {
    const device_attribute *a = &d->attributes.items[i].value;
    uint32_t list = a->bools.n + a->ints.n + a->strings.n + a->versions.n;
    n += list ? list : 1;
  }
  return n;
}

static bool capacities_equal(const device_capacity_map *x, const device_capacity_map *y) {
  if (x->n != y->n) return false;
  for (uint32_t i = 0; i < x->n; i++) {
    bool found = false;
    for (uint32_t j = 0; j < y->n && !found; j++)
      found = x->items[i].key == y->items[j].key &&
              codec_equal(&device_capacity_desc, &x->items[i].value, &y->items[j].value);
    if (!found) return false;
  }
  return true;
}

static bool taints_equal(const device_taint_list *x, const device_taint_list *y) {
  if (x->n != y->n) return false;
  for (uint32_t i = 0; i < x->n; i++)
    if (!codec_equal(&device_taint_desc, &x->items[i], &y->items[i])) return false;
  return true;
}

static void validate_taints(errlist *e, fpath *p, const device_taint_list *taints) {
  size_t m = fp_field(p, "taints");
  if (taints->n > TAINTS_MAX) {
    fe_too_many(e, p, taints->n, TAINTS_MAX);
  } else {
    for (uint32_t i = 0; i < taints->n; i++) {
      size_t mi = fp_index(p, i);
      validate_device_taint(e, p, &taints->items[i], NULL);
      fp_pop(p, mi);
    }
  }
  fp_pop(p, m);
}

static void each_consumption(errlist *e, fpath *p, const void *item, const void *arg) {
  (void)arg;
  validate_counter_consumption(e, p, item);
}

static void validate_consumptions(errlist *e, fpath *p, const device_counter_consumption_list *l) {
  size_t m = fp_field(p, "consumesCounters");
  validate_keyed_set(e, p, &(keyed_set){l->items, l->n, &device_counter_consumption_desc, COUNTER_CONSUMPTIONS_MAX,
                                        false, each_consumption, NULL});
  fp_pop(p, m);
}

void validate_slice_device(errlist *e, fpath *p, const device *d, const device *old, const bool *per_device_node_selection) {
  size_t m = fp_field(p, "name");
  vn_dns_label(e, p, d->name ? d->name->str : "");
  fp_pop(p, m);
  char detail[96];
  uint32_t total = d->attributes.n + d->capacity.n;
  if (total > ATTRIBUTES_AND_CAPACITIES_MAX) {
    snprintf(detail, sizeof detail, "the total number of attributes and capacities must not exceed %d",
             ATTRIBUTES_AND_CAPACITIES_MAX);
    fe_invalid_int(e, p, total, detail);
  }
  uint32_t values = attribute_values(d);
  if (values > ATTRIBUTE_VALUES_MAX) {
    snprintf(detail, sizeof detail, "the total number of attribute values must not exceed %d", ATTRIBUTE_VALUES_MAX);
    fe_invalid_int(e, p, values, detail);
  }
  validate_device_attributes(e, p, d);
  if (!old || !capacities_equal(&old->capacity, &d->capacity)) validate_device_capacities(e, p, d);
  if (!old || !taints_equal(&old->taints, &d->taints)) validate_taints(e, p, &d->taints);
  validate_consumptions(e, p, &d->consumes_counters);
  validate_device_node_selection(e, p, d, per_device_node_selection);
  validate_binding_conditions(e, p, &d->binding_conditions, &d->binding_failure_conditions);
  validate_node_allocatable_resources(e, p, d);
}
