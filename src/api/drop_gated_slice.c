/* drop_gated_slice.c: ResourceSlice fields cleared when their feature gate is
 * off (the slice strategy's dropDisabledFields), each with a warning, unless
 * the stored object (on update) already uses the feature: DRADeviceTaints
 * (device taints), DRAPartitionableDevices (sharedCounters,
 * perDeviceNodeSelection, device consumesCounters and per-device node
 * selection), DRADeviceBindingConditions with DRAResourceClaimDeviceStatus
 * (binding fields), DRAConsumableCapacity (allowMultipleAllocations, capacity
 * requestPolicy) and DRAListTypeAttributes (list-valued attributes). */
#include "api/admission_steps.h"
#include "api/validate_slice_internal.h"
#include "util/strbuf.h"
#include <string.h>

typedef struct {
  const admission_ctx *ctx;
  const char *name;
  gate_id gate;
} dropper;

/* Warns about spec[.devices[i]][.<field>[<key>]]. */
static void warn(const dropper *dr, int device, const char *field, const char *key) {
  strbuf sb = STRBUF_INIT;
  sb_puts(&sb, "spec");
  if (device >= 0) sb_printf(&sb, ".devices[%d]", device);
  sb_printf(&sb, ".%s", field);
  if (key) sb_printf(&sb, "[%s]", key);
  admission_warn_dropped(dr->ctx, "ResourceSlice", dr->name, sb_str(&sb), dr->gate);
  sb_free(&sb);
}

#define DROP_LIST(dr, i, l, field)                   \
  do {                                               \
    if ((l).set) warn(dr, i, field, NULL);           \
    memset(&(l), 0, sizeof(l));                      \
  } while (0)
#define DROP_FLAG(dr, i, flag, field)                \
  do {                                               \
    if (flag##_set) warn(dr, i, field, NULL);        \
    flag = false, flag##_set = false;                \
  } while (0)

static bool any_device(const resource_slice *s, bool (*uses)(const device *)) {
  for (uint32_t i = 0; s && i < s->spec.devices.n; i++)
    if (uses(&s->spec.devices.items[i])) return true;
  return false;
}

static bool uses_taints(const device *d) { return d->taints.n > 0; }
static bool uses_partitioning(const device *d) {
  return d->consumes_counters.n > 0 || d->node_name || d->node_selector || d->all_nodes_set;
}
static bool uses_binding(const device *d) {
  return d->binds_to_node_set || d->binding_conditions.n || d->binding_failure_conditions.n;
}
static bool uses_consumable_capacity(const device *d) {
  if (d->allow_multiple_allocations_set) return true;
  for (uint32_t i = 0; i < d->capacity.n; i++)
    if (d->capacity.items[i].value.request_policy) return true;
  return false;
}
static bool uses_list_attributes(const device *d) {
  for (uint32_t i = 0; i < d->attributes.n; i++)
    if (device_attribute_is_list(&d->attributes.items[i].value)) return true;
  return false;
}

static void drop_taints(const dropper *dr, resource_slice *s) {
  for (uint32_t i = 0; i < s->spec.devices.n; i++) DROP_LIST(dr, (int)i, s->spec.devices.items[i].taints, "taints");
}

static void drop_partitioning(const dropper *dr, resource_slice *s) {
  DROP_LIST(dr, -1, s->spec.shared_counters, "sharedCounters");
  DROP_FLAG(dr, -1, s->spec.per_device_node_selection, "perDeviceNodeSelection");
  for (uint32_t i = 0; i < s->spec.devices.n; i++) {
    device *d = &s->spec.devices.items[i];
    DROP_LIST(dr, (int)i, d->consumes_counters, "consumesCounters");
    if (d->node_name) warn(dr, (int)i, "nodeName", NULL);
    d->node_name = NULL;
    if (d->node_selector) warn(dr, (int)i, "nodeSelector", NULL);
    d->node_selector = NULL;
    DROP_FLAG(dr, (int)i, d->all_nodes, "allNodes");
  }
}

static void drop_binding(const dropper *dr, resource_slice *s) {
  for (uint32_t i = 0; i < s->spec.devices.n; i++) {
    device *d = &s->spec.devices.items[i];
    DROP_FLAG(dr, (int)i, d->binds_to_node, "bindsToNode");
    DROP_LIST(dr, (int)i, d->binding_conditions, "bindingConditions");
    DROP_LIST(dr, (int)i, d->binding_failure_conditions, "bindingFailureConditions");
  }
}

static void drop_consumable_capacity(const dropper *dr, resource_slice *s) {
  for (uint32_t i = 0; i < s->spec.devices.n; i++) {
    device *d = &s->spec.devices.items[i];
    DROP_FLAG(dr, (int)i, d->allow_multiple_allocations, "allowMultipleAllocations");
    for (uint32_t k = 0; k < d->capacity.n; k++) {
      device_capacity_entry *c = &d->capacity.items[k];
      if (!c->value.request_policy) continue;
      strbuf f = STRBUF_INIT;
      sb_printf(&f, "capacity[%s].requestPolicy", c->key->str);
      warn(dr, (int)i, sb_str(&f), NULL);
      sb_free(&f);
      c->value.request_policy = NULL;
    }
  }
}

static void drop_list_attributes(const dropper *dr, resource_slice *s) {
  for (uint32_t i = 0; i < s->spec.devices.n; i++) {
    device *d = &s->spec.devices.items[i];
    for (uint32_t k = 0; k < d->attributes.n; k++) {
      device_attribute_entry *en = &d->attributes.items[k];
      device_attribute *a = &en->value;
      if (!device_attribute_is_list(a)) continue;
      warn(dr, (int)i, "attributes", en->key->str);
      memset(&a->ints, 0, sizeof a->ints);
      memset(&a->bools, 0, sizeof a->bools);
      memset(&a->strings, 0, sizeof a->strings);
      memset(&a->versions, 0, sizeof a->versions);
    }
  }
}

void drop_gated_resource_slice(const admission_ctx *ctx, admit_op op, resource_slice *obj, const resource_slice *old) {
  if (op == ADMIT_CREATE) old = NULL;
  const struct {
    gate_id gate, also;
    bool (*uses)(const device *);
    bool slice_level_use;
    void (*drop)(const dropper *, resource_slice *);
  } steps[] = {
      {GATE_DEVICE_TAINTS, GATE_DEVICE_TAINTS, uses_taints, false, drop_taints},
      {GATE_PARTITIONABLE_DEVICES, GATE_PARTITIONABLE_DEVICES, uses_partitioning,
       old && (old->spec.shared_counters.n || old->spec.per_device_node_selection_set), drop_partitioning},
      {GATE_DEVICE_BINDING_CONDITIONS, GATE_RESOURCE_CLAIM_DEVICE_STATUS, uses_binding, false, drop_binding},
      {GATE_CONSUMABLE_CAPACITY, GATE_CONSUMABLE_CAPACITY, uses_consumable_capacity, false, drop_consumable_capacity},
      {GATE_LIST_TYPE_ATTRIBUTES, GATE_LIST_TYPE_ATTRIBUTES, uses_list_attributes, false, drop_list_attributes},
  };
  for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
    bool on = gate_on(&ctx->gates, steps[i].gate) && gate_on(&ctx->gates, steps[i].also);
    if (on || steps[i].slice_level_use || any_device(old, steps[i].uses)) continue;
    gate_id off = gate_on(&ctx->gates, steps[i].gate) ? steps[i].also : steps[i].gate;
    dropper dr = {ctx, obj->metadata.name, off};
    steps[i].drop(&dr, obj);
  }
}
