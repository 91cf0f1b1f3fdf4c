/* pod_status.c: pod conditions as the controllers write them (type,
 * status, reason, message; lastTransitionTime moves when the status
 * flips), and the PodScheduled condition as kube-scheduler writes it: False with reason and message while pending, True once bound;
 * lastTransitionTime moves only when the status flips. Unchanged
 * conditions are not written, so a retry that fails the same way is quiet. */
#include "sched/cycle.h"
#include <string.h>

static bool same(const char *a, const char *b) { return !strcmp(a ? a : "", b ? b : ""); }

static bool unchanged(const pod *p, const char *status, const char *reason, const char *message) {
  for (uint32_t i = 0; i < p->status.conditions.n; i++) {
    const pod_condition *c = &p->status.conditions.items[i];
    if (same(c->type, "PodScheduled"))
      return same(c->status, status) && same(c->reason, reason) && same(c->message, message);
  }
  return false;
}

void sched_set_pod_scheduled(sched_loop *l, const char *ns, const char *name, bool scheduled, const char *reason,
                             const char *message) {
  store_obj *po = sched_get(l, KIND_POD, ns, name);
  if (!po) return;
  if (unchanged(po->object->typed, scheduled ? "True" : "False", reason, message)) {
    store_obj_unref(po);
    return;
  }
  api_object *o = sched_derive(po);
  store_obj_unref(po);
  sched_pod_condition(l, o, scheduled, reason, message);
  sched_update_changed(l, o, WRITER_SCHEDULER_STATUS);
}

void sched_pod_condition(sched_loop *l, api_object *o, bool scheduled, const char *reason, const char *message) {
  sched_pod_set_condition(l, o, "PodScheduled", scheduled ? "True" : "False", reason, message);
}

void sched_pod_set_condition(sched_loop *l, api_object *o, const char *type, const char *status, const char *reason,
                             const char *message) {
  pod *np = o->typed;
  pod_condition_list *cl = &np->status.conditions;
  uint32_t at = cl->n;
  for (uint32_t i = 0; i < cl->n; i++)
    if (same(cl->items[i].type, type)) at = i;
  /* a copy of the list: o may share it with the stored version (sched_derive) */
  uint32_t n = at < cl->n ? cl->n : cl->n + 1;
  pod_condition *items = arena_grow(o->arena, cl->items, cl->n * sizeof *items, n * sizeof *items);
  *cl = (pod_condition_list){items, n, true};
  pod_condition *slot = &items[at];
  if (!slot->type) slot->type = arena_strdup(o->arena, type);
  if (!slot->last_transition_time || !same(slot->status, status))
    slot->last_transition_time = arena_strdup(o->arena, l->now_text);
  slot->status = arena_strdup(o->arena, status);
  slot->reason = reason ? arena_strdup(o->arena, reason) : NULL;
  slot->message = message ? arena_strdup(o->arena, message) : NULL;
}
