/* preemption.c: kube-scheduler's DefaultPreemption PostFilter (k8s.io/
 * kubernetes pkg/scheduler/framework/plugins/defaultpreemption and
 * framework/preemption) for a pod no node fits, with a fit check that
 * understands devices. docs/overview.md, 'Preemption'.
 *
 * - Eligible: spec.preemptionPolicy is not Never, and no pod on the node
 *   already nominated for it is still terminating because of preemption
 *   (unless that node is now UnschedulableAndUnresolvable).
 * - The nodes tried: those the scan refused as Unschedulable (resources,
 *   pod count, devices). Per node in name order: the potential victims are
 *   the node's units of lower priority (victims.h: a pod, or a whole
 *   disruptionMode All PodGroup). The pod must fit once all are gone; then
 *   they are reprieved one by one, those that would break a
 *   PodDisruptionBudget first (filterPodsWithPDBViolation), each part most
 *   important first, and each that makes the pod not fit again is a victim.
 * - The fit check is the scheduler's own, nominated pods counted: the node
 *   filters with the victims' requests and pod count taken off, the node
 *   selectors of the pod's allocated claims, and the allocator over the
 *   node's devices as if the claims that only victims reserve held none (a
 *   claim reserved for a remaining pod, or for a PodGroup, keeps its
 *   devices).
 * - The node: the fewest budget violations, the lowest highest victim
 *   priority, the lowest sum of priorities, the fewest victims, the latest
 *   start of the highest-priority victims, then the first in name order.
 * - Then the victims get condition DisruptionTarget (PreemptionByScheduler)
 *   and are deleted gracefully, each with the Event "Preempted"; pods of
 *   lower priority nominated to the node lose their nomination, and the
 *   pod's status.nominatedNodeName names the node. The pod waits parked;
 *   when the victims are gone, their devices free and it is retried.
 * - No candidate: "preemption: 0/N nodes are available: ..." with each
 *   node's reason, as upstream's FitError over the preemption statuses. */
#include "alloc/alloc.h"
#include "sched/claims.h"
#include "sched/cycle.h"
#include "sched/devices.h"
#include "sched/preemption.h"
#include "sched/victims.h"
#include "util/die.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SCHEDULER_NAME "default-scheduler"
#define DEFAULT_GRACE_SECONDS 30

static const char *s_or(const char *s) { return s ? s : ""; }

/* A pod a candidate evicts. */
typedef struct victim {
  store_obj *obj;
  const pod *p;
  const char *start; /* status.startTime, "" when not started (counts as now) */
} victim;

const char *sched_pod_start_time(const pod *p) {
  return p->status.start_time ? p->status.start_time : "";
}

int sched_cmp_start(const char *a, const char *b) {
  if (!*a || !*b) return !*a - !*b;
  return strcmp(a, b);
}

const char *sched_pod_preemption_policy(const pod *p) {
  return json_string_value(json_object_get(p->spec._extra, "preemptionPolicy"));
}

bool sched_pod_terminating_by_preemption(const pod *p) {
  if (!p->metadata.deletion_timestamp) return false;
  for (uint32_t i = 0; i < p->status.conditions.n; i++) {
    const pod_condition *c = &p->status.conditions.items[i];
    if (c->type && !strcmp(c->type, "DisruptionTarget") && c->status && !strcmp(c->status, "True") && c->reason &&
        !strcmp(c->reason, "PreemptionByScheduler"))
      return true;
  }
  return false;
}

static store_list pods_on(sched_loop *l, const char *node) {
  store_list lst = {0};
  store_query q = {.kind = KIND_POD, .index = STORE_INDEX_POD_NODE, .key = node, .order = STORE_BY_NAME};
  store_list_query(l->st, &q, &lst);
  return lst;
}

/* PodEligibleToPreemptOthers: NULL, or why the pod may not preempt. A
 * nominated node refused as UnschedulableAndUnresolvable (or gone) does
 * not hold it back. */
static const char *not_eligible(sched_loop *l, const pod *p, const bool *preemptable) {
  const char *policy = sched_pod_preemption_policy(p);
  if (policy && !strcmp(policy, "Never")) return "not eligible due to preemptionPolicy=Never.";
  const char *nominated = p->status.nominated_node_name;
  if (!nominated || !*nominated) return NULL;
  size_t n_nodes;
  const sched_node_entry *nodes = sched_nodes(l, &n_nodes);
  bool resolvable = false;
  for (size_t i = 0; i < n_nodes; i++)
    if (!strcmp(nodes[i].n->metadata.name, nominated)) resolvable = preemptable[i];
  if (!resolvable) return NULL;
  store_list lst = pods_on(l, nominated);
  bool waiting = false;
  for (size_t i = 0; i < lst.n && !waiting; i++) {
    const pod *q = lst.items[i]->object->typed;
    waiting = q->spec.priority < p->spec.priority && sched_pod_terminating_by_preemption(q);
  }
  store_list_free(&lst);
  return waiting ? "not eligible due to a terminating pod on the nominated node." : NULL;
}

/* ---- the fit check ---- */

typedef struct fit_check {
  sched_cycle *cy;
  const sched_node_entry *node;
  sched_units *u;            /* removed: the unit's flag */
  sched_node_usage *on_node; /* per unit: what its pods here add to the node */
  store_obj **freed;         /* claims only removed victims reserve */
  size_t n_freed, cap_freed;
} fit_check;

/* A held claim frees its devices when every consumer is a removed victim. */
static void collect_freed(void *ctx, store_obj *co) {
  fit_check *f = ctx;
  const resource_claim_consumer_reference_list *r = &((const resource_claim *)co->object->typed)->status.reserved_for;
  bool all = r->n > 0;
  for (uint32_t i = 0; i < r->n && all; i++)
    all = r->items[i].resource && !strcmp(r->items[i].resource, "pods") && sched_units_uid_removed(f->u, r->items[i].uid);
  if (!all) return;
  f->freed = xgrow(f->freed, f->n_freed, &f->cap_freed, sizeof *f->freed, 8);
  f->freed[f->n_freed++] = co;
}

/* The filters as RunFilterPluginsWithNominatedPods runs them; why (or
 * NULL) gets the refusing plugin's reasons. */
static bool fits(fit_check *f, sched_reasons *why) {
  sched_cycle *cy = f->cy;
  sched_loop *l = cy->l;
  const node *nd = f->node->n;
  sched_node_usage u = {.pods = f->node->usage->pods, .max_pods = f->node->usage->max_pods};
  sched_amounts_add_all(&u.requested, &f->node->usage->requested);
  for (size_t i = 0; i < f->u->n; i++)
    if (f->u->v[i].removed) u.pods -= f->on_node[i].pods, sched_amounts_sub(&u.requested, &f->on_node[i].requested);
  sched_reasons reasons = {0};
  bool ok = sched_filter_with_nominated(cy, f->node, &u, why ? why : &reasons);
  sched_reasons_free(&reasons);
  sched_amounts_free(&u.requested);
  for (size_t i = 0; ok && i < cy->n_claims; i++) {
    const allocation_result *a = cy->claims[i].c->status.allocation;
    ok = !a || !a->node_selector || alloc_node_selector_matches_lazily(a->node_selector, nd);
    if (!ok && why) sched_reasons_add(why, SCHED_REASON_NOT_AVAILABLE);
  }
  if (!ok) return false;
  const resource_claim **batch = xcalloc(cy->n_claims + 2, sizeof *batch);
  size_t nb = 0;
  for (size_t i = 0; i < cy->n_claims; i++)
    if (cy->claims[i].to_allocate) batch[nb++] = cy->claims[i].c;
  api_object *ext = cy->ext.n ? sched_extended_claim(cy->p, &cy->ext, nd) : NULL;
  if (ext) batch[nb++] = ext->typed;
  if (nb) {
    f->n_freed = 0;
    sched_devices_each_held(l, collect_freed, f);
    arena *a = arena_new();
    allocation_result **results = NULL;
    char *err = NULL;
    ok = sched_devices_allocate_without(l, nd, f->freed, f->n_freed, batch, nb, a, &results, &err) == SCHED_FIT;
    if (!ok && why) sched_reasons_add(why, err ? err : SCHED_REASON_CANNOT_ALLOCATE);
    free(err);
    arena_free(a);
  }
  api_object_free(ext);
  free(batch);
  return ok;
}

/* ---- candidates ---- */

typedef struct candidate {
  const sched_node_entry *node;
  victim *victims; /* most important first; the objects are references */
  size_t n;
  size_t pdb_violations; /* victims whose eviction breaks a PodDisruptionBudget */
} candidate;

static void victims_free(victim *v, size_t n) {
  for (size_t i = 0; i < n; i++) store_obj_unref(v[i].obj);
  free(v);
}

typedef enum {
  VICTIMS_FOUND,
  VICTIMS_NONE,    /* no pod of lower priority on the node */
  VICTIMS_NO_HELP, /* the pod does not fit even without them: why says why */
  VICTIMS_EMPTY,   /* the pod fits without evicting anyone */
} victims_result;

/* What the unit's pods on the node add to it. */
static void usage_on_node(const sched_unit *v, const char *node, sched_node_usage *out) {
  for (size_t k = 0; k < v->n; k++) {
    const pod *p = v->pods[k]->object->typed;
    if (strcmp(p->spec.node_name, node)) continue;
    sched_amounts req = {0};
    sched_pod_requests(p, &req);
    out->pods++;
    sched_amounts_add_all(&out->requested, &req);
    sched_amounts_free(&req);
  }
}

/* The candidate's victims: the removed units' pods, most important unit first. */
static void take_victims(const sched_units *u, const sched_node_entry *ne, size_t broken, candidate *out) {
  size_t n = 0;
  for (size_t i = 0; i < u->n; i++) n += u->v[i].removed ? u->v[i].n : 0;
  *out = (candidate){.node = ne, .victims = xcalloc(n, sizeof *out->victims), .pdb_violations = broken};
  for (size_t i = 0; i < u->n; i++)
    for (size_t k = 0; u->v[i].removed && k < u->v[i].n; k++) {
      const pod *p = u->v[i].pods[k]->object->typed;
      out->victims[out->n++] = (victim){store_obj_ref(u->v[i].pods[k]), p, sched_pod_start_time(p)};
    }
}

/* SelectVictimsOnNode: every lower-priority unit on the node removed (with
 * WorkloadAwarePreemption a disruptionMode All group goes whole, its pods
 * elsewhere too), the pod must fit; then the units are reprieved one by
 * one, those that would break a budget first, each group most important
 * first, and each that makes the pod not fit again stays a victim. */
static victims_result select_victims(sched_cycle *cy, const sched_node_entry *ne, const sched_pdbs *pdbs,
                                     candidate *out, sched_reasons *why) {
  const char *node = ne->n->metadata.name;
  sched_units u;
  sched_units_collect(cy->l, cy->p->spec.priority, node,
                      gate_on(&cy->l->opt.gates, GATE_WORKLOAD_AWARE_PREEMPTION), &u);
  if (!u.n) {
    sched_units_free(&u);
    return VICTIMS_NONE;
  }
  sched_units_sort(&u);
  sched_units_mark_violations(&u, pdbs);
  sched_node_usage *on_node = xcalloc(u.n, sizeof *on_node);
  for (size_t i = 0; i < u.n; i++) u.v[i].removed = true, usage_on_node(&u.v[i], node, &on_node[i]);
  fit_check f = {.cy = cy, .node = ne, .u = &u, .on_node = on_node};
  victims_result r = fits(&f, why) ? VICTIMS_FOUND : VICTIMS_NO_HELP;
  size_t chosen = 0, broken = 0;
  for (int pass = 0; r == VICTIMS_FOUND && pass < 2; pass++)
    for (size_t i = 0; i < u.n; i++) {
      if (u.v[i].violating != !pass) continue;
      u.v[i].removed = false; /* reprieved, unless the pod no longer fits */
      if (!fits(&f, NULL)) u.v[i].removed = true, chosen++, broken += u.v[i].violating;
    }
  free(f.freed);
  if (r == VICTIMS_FOUND && !chosen) r = VICTIMS_EMPTY;
  if (r == VICTIMS_FOUND) take_victims(&u, ne, broken, out);
  for (size_t i = 0; i < u.n; i++) sched_amounts_free(&on_node[i].requested);
  free(on_node);
  sched_units_free(&u);
  return r;
}

/* pickOneNodeForPreemption: < 0 when a is the better node. */
static int cmp_candidates(const candidate *a, const candidate *b) {
  if (a->pdb_violations != b->pdb_violations) return a->pdb_violations < b->pdb_violations ? -1 : 1;
  int64_t ha = a->victims[0].p->spec.priority, hb = b->victims[0].p->spec.priority;
  if (ha != hb) return ha < hb ? -1 : 1;
  /* each priority + MaxInt32 + 1, so negative priorities do not favour more victims */
  int64_t sa = 0, sb = 0;
  for (size_t i = 0; i < a->n; i++) sa += a->victims[i].p->spec.priority + INT32_MAX + 1LL;
  for (size_t i = 0; i < b->n; i++) sb += b->victims[i].p->spec.priority + INT32_MAX + 1LL;
  if (sa != sb) return sa < sb ? -1 : 1;
  if (a->n != b->n) return a->n < b->n ? -1 : 1;
  /* the earliest start among the highest-priority victims: the later the better */
  const char *ea = a->victims[0].start, *eb = b->victims[0].start;
  for (size_t i = 1; i < a->n && a->victims[i].p->spec.priority == ha; i++)
    if (sched_cmp_start(a->victims[i].start, ea) < 0) ea = a->victims[i].start;
  for (size_t i = 1; i < b->n && b->victims[i].p->spec.priority == hb; i++)
    if (sched_cmp_start(b->victims[i].start, eb) < 0) eb = b->victims[i].start;
  return -sched_cmp_start(ea, eb);
}

/* ---- actuation ---- */

void sched_evict_victim(sched_loop *l, const store_obj *victim, const char *preemptor_type, const char *preemptor_uid,
                        const char *node) {
  const pod *was = victim->object->typed;
  if (was->metadata.deletion_timestamp) return; /* graceful deletion under way: no second call */
  api_object *o = api_object_clone(victim->object);
  strbuf msg = STRBUF_INIT;
  sb_printf(&msg, SCHEDULER_NAME ": preempting to accommodate a higher priority %s", preemptor_type);
  sched_pod_set_condition(l, o, "DisruptionTarget", "True", "PreemptionByScheduler", sb_str(&msg));
  const pod *p = o->typed;
  char *ns = xstrdup(s_or(p->metadata.namespace_)), *name = xstrdup(p->metadata.name),
       *uid = xstrdup(s_or(p->metadata.uid));
  json_t *grace = json_object_get(p->spec._extra, "terminationGracePeriodSeconds");
  int64_t seconds = json_is_integer(grace) ? json_integer_value(grace) : DEFAULT_GRACE_SECONDS;
  sched_update(l, o, WRITER_SCHEDULER_STATUS);
  /* a grace of 0 deletes at once; the store wants > 0 for a graceful delete */
  store_preconditions pre = {.uid = uid, .grace_period_seconds = seconds > 0 ? seconds : 0};
  store_delete(l->st, KIND_POD, ns, name, &pre, NULL);
  sb_truncate(&msg, 0);
  sb_printf(&msg, "Preempted by %s %s on node %s", preemptor_type, s_or(preemptor_uid), node);
  sched_pod_event(l, was, "Normal", "Preempted", sb_str(&msg), SCHEDULER_NAME);
  sb_free(&msg);
  free(ns);
  free(name);
  free(uid);
}

/* Writes status.nominatedNodeName (node NULL: removes it). */
static void set_nominated(sched_loop *l, store_obj *po, const char *node) {
  api_object *o = api_object_clone(po->object);
  pod *np = o->typed;
  np->status.nominated_node_name = node ? arena_strdup(o->arena, node) : NULL;
  sched_update(l, o, WRITER_SCHEDULER_STATUS);
}

/* Lower-priority pods nominated to the node may no longer fit there: their
 * nomination goes (upstream's prepareCandidate). */
static void clear_lower_nominations(sched_loop *l, const pod *p, const char *node) {
  store_list all = {0};
  store_query q = {.kind = KIND_POD, .order = STORE_BY_NAME};
  store_list_query(l->st, &q, &all);
  for (size_t i = 0; i < all.n; i++) {
    const pod *other = all.items[i]->object->typed;
    const char *at = other->status.nominated_node_name;
    if (at && !strcmp(at, node) && other->spec.priority < p->spec.priority) set_nominated(l, all.items[i], NULL);
  }
  store_list_free(&all);
}

void sched_nominate(sched_loop *l, const pod *p, const char *node) {
  store_obj *po = sched_get(l, KIND_POD, p->metadata.namespace_, p->metadata.name);
  if (!po) return;
  set_nominated(l, po, node);
  store_obj_unref(po);
}

/* "preemption: " and a message. */
static char *preemption_message(const char *what) {
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, "preemption: %s", what);
  return sb_detach(&sb);
}

char *sched_preempt(sched_cycle *cy, const bool *preemptable, char **nominated) {
  sched_loop *l = cy->l;
  const pod *p = cy->p;
  if (!preemptable) return NULL;
  const char *why_not = not_eligible(l, p, preemptable);
  if (why_not) return preemption_message(why_not);
  size_t n_nodes;
  const sched_node_entry *nodes = sched_nodes(l, &n_nodes);
  sched_pdbs pdbs;
  sched_pdbs_list(l, NULL, &pdbs);
  candidate best = {0};
  sched_histogram hist = {0};
  sched_reasons why = {0};
  char *error = NULL;
  for (size_t i = 0; i < n_nodes; i++) {
    if (!preemptable[i]) {
      sched_histogram_add(&hist, "Preemption is not helpful for scheduling");
      continue;
    }
    candidate c = {0};
    sched_reasons_clear(&why);
    /* no pod ever bound had a lower priority: no victims anywhere */
    victims_result r = p->spec.priority <= l->lowest_bound_priority ? VICTIMS_NONE
                                                                    : select_victims(cy, &nodes[i], &pdbs, &c, &why);
    if (r == VICTIMS_NONE) sched_histogram_add(&hist, "No preemption victims found for incoming pod");
    for (size_t k = 0; r == VICTIMS_NO_HELP && k < why.n; k++) sched_histogram_add(&hist, why.items[k]);
    if (r == VICTIMS_EMPTY && !error) {
      strbuf sb = STRBUF_INIT;
      sb_printf(&sb, "expected at least one victim pod on node \"%s\"", nodes[i].n->metadata.name);
      error = sb_detach(&sb);
    }
    if (r != VICTIMS_FOUND) continue;
    if (!best.node || cmp_candidates(&c, &best) < 0) {
      victims_free(best.victims, best.n);
      best = c;
    } else {
      victims_free(c.victims, c.n);
    }
  }
  sched_reasons_free(&why);
  sched_pdbs_free(&pdbs);
  if (!best.node) {
    /* upstream's FitError over the nodes' preemption statuses */
    char *fit = error ? error : sched_histogram_message(&hist, n_nodes, NULL);
    char *msg = preemption_message(fit);
    if (fit != error) free(fit);
    free(error);
    sched_histogram_free(&hist);
    return msg;
  }
  free(error);
  sched_histogram_free(&hist);
  char *node = xstrdup(best.node->n->metadata.name);
  for (size_t i = 0; i < best.n; i++) sched_evict_victim(l, best.victims[i].obj, "pod", p->metadata.uid, node);
  clear_lower_nominations(l, p, node);
  strbuf msg = STRBUF_INIT;
  sb_printf(&msg, "preemption: found a potential placement for pod on node %s, preempting %zu victims", node, best.n);
  victims_free(best.victims, best.n);
  *nominated = node;
  return sb_detach(&msg);
}
