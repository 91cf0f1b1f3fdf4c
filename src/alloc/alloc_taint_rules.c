/* alloc_taint_rules.c: DeviceTaintRules as the allocator sees them
 * (docs/allocator.md, 'Counters, capacity and taints'): like kube-scheduler's
 * ResourceSlice tracker (k8s.io/dynamic-resource-allocation
 * resourceslice/tracker), a device a rule selects carries the rule's taint
 * after the taints its slice gives it, so toleration checks, pruning and
 * --explain treat both alike. */
#include "alloc/alloc_internal.h"
#include <string.h>

bool alloc_rule_selects(const device_taint_rule *rule, const atom *driver, const atom *pool, const atom *name) {
  const device_taint_selector *s = rule->spec.device_selector;
  if (!s) return false;
  return (!s->driver || s->driver == driver) && (!s->pool || s->pool == pool) && (!s->device || s->device == name);
}

const device *alloc_with_rule_taints(arena *a, const alloc_input *in, const atom *driver, const atom *pool,
                                     const device *d) {
  if (!in->n_taint_rules || !gate_on(&in->gates, GATE_DEVICE_TAINTS) || !gate_on(&in->gates, GATE_DEVICE_TAINT_RULES))
    return d;
  const atom *name = d->name ? d->name : atom_cstr("");
  device *copy = NULL;
  for (size_t i = 0; i < in->n_taint_rules; i++) {
    if (!alloc_rule_selects(in->taint_rules[i], driver, pool, name)) continue;
    if (!copy) {
      copy = arena_alloc(a, sizeof *copy);
      *copy = *d;
      copy->taints.items = arena_alloc(a, (d->taints.n + in->n_taint_rules) * sizeof *copy->taints.items);
      if (d->taints.n) memcpy(copy->taints.items, d->taints.items, d->taints.n * sizeof *copy->taints.items);
      copy->taints.set = true;
    }
    copy->taints.items[copy->taints.n++] = in->taint_rules[i]->spec.taint;
  }
  return copy ? copy : d;
}
