/* taint_eviction.c: NoExecute device taints (KEP-5055; upstream,
 * k8s.io/kubernetes pkg/controller/devicetainteviction), from the devices'
 * slices and, with DRADeviceTaintRules on, from DeviceTaintRules that select
 * them. For every allocated claim the eviction time is the earliest, over
 * its devices' NoExecute taints, of timeAdded (taint not tolerated) or
 * timeAdded + tolerationSeconds (smallest matching NoExecute toleration,
 * negative = 0; a match without seconds tolerates forever). Scheduled pods
 * using the claim (reserved for them or their PodGroup) are evicted once
 * that time is not after --now: condition DisruptionTarget, then deletion,
 * and an Event. A pod whose eviction is still ahead gets an Event saying
 * when. The rules behind an eviction are told to taint_rule_status.c. */
#include "sched/claims.h"
#include "sched/rfc3339.h"
#include "sched/devices.h"
#include "sched/filter.h"
#include "alloc/alloc.h"
#include "store/meta.h"
#include "util/die.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NEVER INT64_MAX
#define EVENT_REASON "DeviceTaintManagerEviction"
#define EVENT_SOURCE "device-taint-eviction-controller"

static const char *s_or(const char *s) { return s ? s : ""; }


/* When the result's device must be given up because of taint t. Only
 * tolerations naming the NoExecute effect count, as in upstream's
 * claimEvictionTime: one without an effect lets the pod be scheduled but
 * does not keep it running. */
static int64_t taint_deadline(const device_request_allocation_result *r, const device_taint *t, int64_t now) {
  int64_t added = now, best = -1;
  sched_parse_time(t->time_added, &added);
  for (uint32_t i = 0; i < r->tolerations.n; i++) {
    const device_toleration *tol = &r->tolerations.items[i];
    if (!tol->effect || strcmp(tol->effect, "NoExecute") ||
        !sched_toleration_matches(tol->key, tol->operator_, tol->value, tol->effect, t->key, t->value, t->effect))
      continue;
    if (!tol->toleration_seconds_set) return NEVER;
    int64_t s = tol->toleration_seconds < 0 ? 0 : tol->toleration_seconds;
    if (best < 0 || s < best) best = s;
  }
  return best < 0 ? added : added + best;
}

/* The NoExecute taints of one allocated device: its slice's, then those of
 * the NoExecute rules selecting it. */
static int64_t result_deadline(sched_loop *l, const device_request_allocation_result *r, sched_rule_names *reasons) {
  int64_t when = NEVER;
  const device *d = sched_devices_find(l, r->driver, r->pool, r->device);
  for (uint32_t t = 0; d && t < d->taints.n; t++) {
    if (!d->taints.items[t].effect || strcmp(d->taints.items[t].effect, "NoExecute")) continue;
    int64_t w = taint_deadline(r, &d->taints.items[t], l->opt.now);
    if (w < when) when = w;
  }
  size_t n_rules;
  store_obj *const *rules = sched_devices_taint_rules(l, &n_rules);
  for (size_t i = 0; i < n_rules; i++) {
    const device_taint_rule *rule = rules[i]->object->typed;
    const char *e = rule->spec.taint.effect;
    if (!e || strcmp(e, "NoExecute") || !alloc_rule_selects(rule, r->driver, r->pool, r->device)) continue;
    int64_t w = taint_deadline(r, &rule->spec.taint, l->opt.now);
    if (w == NEVER) continue;
    if (reasons) sched_rule_names_add(reasons, rule->metadata.name);
    if (w < when) when = w;
  }
  return when;
}

/* When the claim's pods must go; reasons (may be NULL) gets the rules behind it. */
static int64_t claim_deadline(sched_loop *l, const resource_claim *c, sched_rule_names *reasons) {
  int64_t when = NEVER;
  const allocation_result *a = c->status.allocation;
  for (uint32_t i = 0; a && a->devices && i < a->devices->results.n; i++) {
    int64_t w = result_deadline(l, &a->devices->results.items[i], reasons);
    if (w < when) when = w;
  }
  return when;
}

bool sched_rule_taint_affects(const device_taint_rule *rule, const resource_claim *c) {
  device_taint as_no_execute = rule->spec.taint;
  as_no_execute.effect = "NoExecute";
  const allocation_result *a = c->status.allocation;
  for (uint32_t i = 0; a && a->devices && i < a->devices->results.n; i++) {
    const device_request_allocation_result *r = &a->devices->results.items[i];
    if (alloc_rule_selects(rule, r->driver, r->pool, r->device) && taint_deadline(r, &as_no_execute, 0) != NEVER)
      return true;
  }
  return false;
}

static void mark_disruption(sched_loop *l, store_obj *po) {
  api_object *o = api_object_clone(po->object);
  pod *p = o->typed;
  pod_condition_list *cl = &p->status.conditions;
  pod_condition *items = arena_grow(o->arena, cl->items, cl->n * sizeof *items, (cl->n + 1) * sizeof *items);
  pod_condition *c = &items[cl->n];
  c->type = arena_strdup(o->arena, "DisruptionTarget");
  c->status = arena_strdup(o->arena, "True");
  c->last_transition_time = arena_strdup(o->arena, l->now_text);
  c->reason = arena_strdup(o->arena, "DeletionByDeviceTaintManager");
  c->message = arena_strdup(o->arena, "Device Taint manager: deleting due to NoExecute taint");
  *cl = (pod_condition_list){items, cl->n + 1, true};
  sched_update(l, o, WRITER_CONTROLLER_MANAGER_STATUS);
}

/* Evicts (or announces) one scheduled pod; true when something was written. */
static bool handle_pod(sched_loop *l, store_obj *po, int64_t when, const sched_rule_names *reasons) {
  const pod *p = po->object->typed;
  if (!sched_pod_may_be_evicted(p)) return false;
  if (when > l->opt.now) {
    char t[21], msg[200];
    meta_format_time(when, t);
    snprintf(msg, sizeof msg, "Device Taint manager: pod will be deleted at %s due to NoExecute taint", t);
    bool announced = sched_pod_event(l, p, "Normal", EVENT_REASON, msg, EVENT_SOURCE);
    if (announced) sched_taint_rules_pod_pending(l, reasons);
    return announced;
  }
  sched_pod_event(l, p, "Normal", EVENT_REASON, "Marking for deletion", EVENT_SOURCE);
  char *ns = xstrdup(s_or(p->metadata.namespace_)), *name = xstrdup(p->metadata.name), *uid = xstrdup(s_or(p->metadata.uid));
  mark_disruption(l, po);
  store_preconditions pre = {.uid = uid};
  if (store_delete(l->st, KIND_POD, ns, name, &pre, NULL) == STORE_OK) sched_taint_rules_pod_evicted(l, reasons);
  free(ns);
  free(name);
  free(uid);
  return true;
}

bool sched_pod_may_be_evicted(const pod *p) {
  return p->spec.node_name && *p->spec.node_name && !p->metadata.deletion_timestamp;
}

void sched_claim_each_pod(sched_loop *l, const resource_claim *c, void (*fn)(void *ctx, store_obj *pod), void *ctx) {
  const char *ns = s_or(c->metadata.namespace_);
  for (uint32_t r = 0; r < c->status.reserved_for.n; r++) {
    const resource_claim_consumer_reference *e = &c->status.reserved_for.items[r];
    bool group = e->api_group && !strcmp(e->api_group, SCHED_SCHEDULING_GROUP);
    if (group) {
      store_list lst = {0};
      store_query q = {.kind = KIND_POD, .namespace_ = ns, .index = STORE_INDEX_POD_GROUP, .key = e->name,
                       .order = STORE_BY_CREATION};
      store_list_query(l->st, &q, &lst);
      for (size_t k = 0; k < lst.n; k++) fn(ctx, lst.items[k]);
      store_list_free(&lst);
      continue;
    }
    store_obj *po = sched_get(l, KIND_POD, ns, e->name);
    if (po && e->uid && store_obj_meta(po)->uid && !strcmp(e->uid, store_obj_meta(po)->uid)) fn(ctx, po);
    store_obj_unref(po);
  }
}

typedef struct claims_vec {
  store_obj **v;
  size_t n;
} claims_vec;

static void collect(void *ctx, store_obj *claim) {
  claims_vec *cv = ctx;
  cv->v = xrealloc(cv->v, (cv->n + 1) * sizeof *cv->v);
  cv->v[cv->n++] = store_obj_ref(claim);
}

static int cmp_claim(const void *a, const void *b) {
  const object_meta *x = store_obj_meta(*(store_obj *const *)a), *y = store_obj_meta(*(store_obj *const *)b);
  int c = strcmp(s_or(x->namespace_), s_or(y->namespace_));
  return c ? c : strcmp(x->name, y->name);
}

typedef struct next_ctx {
  sched_loop *l;
  int64_t when;
} next_ctx;

static void earliest(void *ctx, store_obj *claim) {
  next_ctx *n = ctx;
  int64_t w = claim_deadline(n->l, claim->object->typed, NULL);
  if (w > n->l->opt.now && w < n->when) n->when = w;
}

/* Nothing to evict while no claim holds devices: asked first, as the
 * NoExecute check refreshes the device topology after every slice change. */
static bool may_evict(sched_loop *l) {
  return gate_on(&l->opt.gates, GATE_DEVICE_TAINTS) && sched_devices_any_held(l) && sched_devices_any_no_execute(l);
}

int64_t sched_taint_eviction_next(sched_loop *l) {
  if (!may_evict(l)) return 0;
  next_ctx n = {l, NEVER};
  sched_devices_each_held(l, earliest, &n);
  return n.when == NEVER ? 0 : n.when;
}

typedef struct evict_ctx {
  sched_loop *l;
  int64_t when;
  const sched_rule_names *reasons;
  bool did;
} evict_ctx;

static void evict_one(void *ctx, store_obj *po) {
  evict_ctx *e = ctx;
  e->did |= handle_pod(e->l, po, e->when, e->reasons);
}

bool sched_taint_eviction(sched_loop *l) {
  if (!may_evict(l)) return false;
  claims_vec cv = {0};
  sched_devices_each_held(l, collect, &cv);
  if (cv.n) qsort(cv.v, cv.n, sizeof *cv.v, cmp_claim);
  evict_ctx e = {l, 0, NULL, false};
  for (size_t i = 0; i < cv.n; i++) {
    const resource_claim *c = cv.v[i]->object->typed;
    sched_rule_names reasons = {0};
    e.when = claim_deadline(l, c, &reasons);
    e.reasons = &reasons;
    if (e.when != NEVER) sched_claim_each_pod(l, c, evict_one, &e);
    sched_rule_names_free(&reasons);
  }
  for (size_t i = 0; i < cv.n; i++) store_obj_unref(cv.v[i]);
  free(cv.v);
  return e.did;
}
