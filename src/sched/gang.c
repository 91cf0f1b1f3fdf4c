/* gang.c: the pod-group cycle of kube-scheduler 1.37 (k8s.io/kubernetes
 * pkg/scheduler schedule_one_podgroup.go and the GangScheduling plugin) for
 * pods whose spec.schedulingGroup names a PodGroup (GenericWorkload on):
 *
 * - PreEnqueue: a pod waits (no attempt, no condition: --explain says why)
 *   until its PodGroup exists and, for a gang, until at least minCount of
 *   the group's pods exist;
 * - the whole group's pending pods are then tried in one cycle, in queue
 *   order, each pod's placement assumed (its node's requests and its
 *   claims' allocations held in memory) so the next one sees it; the
 *   cycle succeeds once minCount pods (1 for a basic group) are placed,
 *   counting those already bound, and fails as soon as the pods left
 *   cannot reach it (GangScheduling's PlacementFeasible texts);
 * - nothing is written during the trial: on success the placed pods are
 *   bound on the nodes found (pods beyond minCount that fit bind too, the
 *   others wait with their own message); on failure every pod waits, the
 *   placed ones with the group's message, and none binds;
 * - the pods must share a schedulerName and a preemption policy (the
 *   group's with PodGroupPreemptionPolicy on) and have the group's
 *   priority, otherwise every pod and the group get a SchedulerError; the group's
 *   pending pods for another scheduler are left alone entirely, as
 *   kube-scheduler never queues them (its bound ones are checked);
 * - the PodGroupInitiallyScheduled condition says how the cycle ended
 *   (True/Scheduled, False/Unschedulable, False/SchedulerError) and never
 *   leaves True once there.
 * docs/overview.md, "Claim controller and scheduler", says it in prose. */
#include "api/codec.h"
#include "sched/claims.h"
#include "sched/cycle.h"
#include "sched/devices.h"
#include "sched/preemption.h"
#include "store/meta.h"
#include "util/die.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COND_TYPE "PodGroupInitiallyScheduled"

static const char *s_or(const char *s) { return s ? s : ""; }

static bool pod_bound(const pod *p) { return p->spec.node_name && *p->spec.node_name; }
/* Live and known to the scheduler: bound (kube-scheduler's cache holds every
 * assigned pod), or pending for this scheduler (only those enter its queue
 * and the group's state; a pending pod for another scheduler is no part
 * of the cycle, counts for neither minCount nor the schedulerName check,
 * and gets no condition or event). */
static bool pod_live(const pod *p) {
  return !p->metadata.deletion_timestamp && !sched_pod_is_done(p) && (pod_bound(p) || sched_pod_ours(p));
}

/* ---- assumed placements ---- */

typedef sched_assumed assumed;

/* Holds the attempt's node and devices as kube-scheduler's assume does. */
void sched_group_assume(sched_loop *l, assumed *as, const sched_attempt *at) {
  const sched_candidate *cand = &at->cands.v[at->best];
  const sched_cycle *cy = &at->cy;
  size_t k = 0;
  for (size_t i = 0; i < cy->n_claims; i++) {
    if (!cy->claims[i].to_allocate) continue;
    as->claims = xrealloc(as->claims, (as->n_claims + 1) * sizeof *as->claims);
    as->claims[as->n_claims++] = sched_assume_claim(l, cy->claims[i].obj, cand->results[k++]);
  }
  /* its extended-resource claim's devices too: the next pod must not take them */
  if (cand->extended) {
    as->claims = xrealloc(as->claims, (as->n_claims + 1) * sizeof *as->claims);
    as->claims[as->n_claims++] = sched_assume_extended_claim(l, cand->extended, cand->results[k]);
  }
  sched_nominated_assume(l, cy->p);
  sched_node_usage *u = sched_usage_of(l, cand->node);
  if (!u) return;
  as->usage = xrealloc(as->usage, (as->n_pods + 1) * sizeof *as->usage);
  as->requests = xrealloc(as->requests, (as->n_pods + 1) * sizeof *as->requests);
  as->usage[as->n_pods] = u;
  as->requests[as->n_pods] = (sched_amounts){0};
  sched_amounts_add_all(&as->requests[as->n_pods], &cy->requests);
  sched_usage_add(u, &cy->requests);
  as->n_pods++;
}

/* Undoes every assumption: the cluster is as the store says again. */
void sched_group_forget(sched_loop *l, assumed *as) {
  sched_nominated_forget_all(l);
  for (size_t i = as->n_claims; i-- > 0;) sched_forget_claim(l, as->claims[i]);
  for (size_t i = 0; i < as->n_pods; i++) {
    sched_usage_sub(as->usage[i], &as->requests[i]);
    sched_amounts_free(&as->requests[i]);
  }
  free(as->claims);
  free(as->usage);
  free(as->requests);
  memset(as, 0, sizeof *as);
}

/* ---- the group ---- */

typedef struct group_pods {
  store_obj **queued; /* pending, in queue order */
  size_t n_queued;
  size_t n_all;       /* live pods of the group (AllPodsCount) */
  size_t n_scheduled; /* live bound pods */
  strbuf invalid; /* validatePodGroup's error, empty when the pods conform */
} group_pods;

static int cmp_queue(const void *a, const void *b) {
  const store_obj *x = *(store_obj *const *)a, *y = *(store_obj *const *)b;
  const pod *px = x->object->typed, *py = y->object->typed;
  if (px->spec.priority != py->spec.priority) return px->spec.priority > py->spec.priority ? -1 : 1;
  return x->created_rv < y->created_rv ? -1 : x->created_rv > y->created_rv;
}

/* What the group's pods must share (validatePodGroup): the first pod's
 * schedulerName, the group's priority, and the preemption policy (the
 * group's with PodGroupPreemptionPolicy on, else the first pod's). */
typedef struct group_rules {
  const char *scheduler;
  int64_t priority;
  const char *policy;
  bool policy_from_group;
} group_rules;

static const char *policy_or_default(const char *p) { return p && *p ? p : "PreemptLowerPriority"; }

/* validatePodGroup's validatePod: false with upstream's error in err. */
static bool validate_pod(const pod *p, group_rules *r, strbuf *err) {
  const char *scheduler = sched_pod_scheduler_name(p);
  if (!r->scheduler) r->scheduler = scheduler;
  if (strcmp(scheduler, r->scheduler)) {
    sb_printf(err, "all pods in a single pod group should have the same .spec.schedulerName set, got: \"%s\" and \"%s\"",
              scheduler, r->scheduler);
    return false;
  }
  if (p->spec.priority != r->priority) {
    sb_printf(err,
              "all pods in a single pod group should have the same priority as the pod group's priority, got %lld and "
              "%lld",
              (long long)p->spec.priority, (long long)r->priority);
    return false;
  }
  const char *policy = policy_or_default(sched_pod_preemption_policy(p));
  if (!r->policy) r->policy = policy;
  if (strcmp(policy, r->policy)) {
    sb_printf(err, "all pods in a single pod group should have the same preemption policy%s, got %s and %s",
              r->policy_from_group ? " as the pod group's preemption policy" : "", policy, r->policy);
    return false;
  }
  return true;
}

static void collect(sched_loop *l, const char *ns, const char *group, group_rules *rules, group_pods *gp,
                    store_list *lst) {
  store_query q = {.kind = KIND_POD, .namespace_ = ns, .index = STORE_INDEX_POD_GROUP, .key = group,
                   .order = STORE_BY_CREATION};
  store_list_query(l->st, &q, lst);
  gp->queued = xcalloc(lst->n + 1, sizeof *gp->queued);
  for (size_t i = 0; i < lst->n; i++) {
    const pod *p = lst->items[i]->object->typed;
    if (!pod_live(p)) continue;
    gp->n_all++;
    if (pod_bound(p)) gp->n_scheduled++;
    else gp->queued[gp->n_queued++] = lst->items[i];
  }
  qsort(gp->queued, gp->n_queued, sizeof *gp->queued, cmp_queue);
  /* validatePodGroup: the queued pods, then the scheduled ones */
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < (pass ? lst->n : gp->n_queued); i++) {
      const pod *p = (pass ? lst->items[i] : gp->queued[i])->object->typed;
      if (!pod_live(p) || (pass && !pod_bound(p)) || gp->invalid.len) continue;
      validate_pod(p, rules, &gp->invalid);
    }
}

/* apimeta.SetStatusCondition on the group, unless it is True already. */
static void set_condition(sched_loop *l, const char *ns, const char *name, bool scheduled, const char *reason,
                          const char *message) {
  store_obj *go = sched_get(l, KIND_POD_GROUP, ns, name);
  if (!go) return;
  const pod_group *g = go->object->typed;
  const char *status = scheduled ? "True" : "False";
  const condition *have = NULL;
  for (uint32_t i = 0; i < g->status.conditions.n; i++)
    if (!strcmp(s_or(g->status.conditions.items[i].type), COND_TYPE)) have = &g->status.conditions.items[i];
  bool unchanged = have && !strcmp(s_or(have->status), status) && !strcmp(s_or(have->reason), reason) &&
                   !strcmp(s_or(have->message), message) && have->observed_generation == g->metadata.generation;
  if ((have && !strcmp(s_or(have->status), "True") && !scheduled) || unchanged) {
    store_obj_unref(go);
    return;
  }
  api_object *o = api_object_clone(go->object);
  store_obj_unref(go);
  pod_group *ng = o->typed;
  condition_list *cl = &ng->status.conditions;
  condition *slot = NULL;
  for (uint32_t i = 0; i < cl->n; i++)
    if (!strcmp(s_or(cl->items[i].type), COND_TYPE)) slot = &cl->items[i];
  if (!slot) {
    condition *items = arena_grow(o->arena, cl->items, cl->n * sizeof *items, (cl->n + 1) * sizeof *items);
    slot = &items[cl->n];
    memset(slot, 0, sizeof *slot);
    *cl = (condition_list){items, cl->n + 1, true};
    slot->type = arena_strdup(o->arena, COND_TYPE);
  }
  if (!slot->status || strcmp(slot->status, status)) slot->last_transition_time = arena_strdup(o->arena, l->now_text);
  slot->status = arena_strdup(o->arena, status);
  slot->reason = arena_strdup(o->arena, reason);
  slot->message = arena_strdup(o->arena, message);
  slot->observed_generation = ng->metadata.generation;
  slot->observed_generation_set = ng->metadata.generation_set;
  sched_update(l, o, WRITER_SCHEDULER_STATUS);
}

/* What --explain says about a pod of the group: why it waits. */
static char *group_explain(const char *group, const char *why) {
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, "  pod group %s: %s\n", group, why);
  return sb_detach(&sb);
}

/* Why the joint search placed no pod either: the group's reason and on
 * how many nodes this pod fits alone; NULL when it did not run. */
typedef struct joint_why {
  const char *group_reason;
  size_t fit_nodes, n_nodes;
} joint_why;

/* Parks a pod the cycle tried, with the group's message when it has none. */
static void park_tried(sched_attempt *a, const char *group, const char *reason, const char *msg,
                       const joint_why *joint) {
  if (!a->explain) a->explain = group_explain(group, msg);
  if (joint) {
    strbuf sb = STRBUF_INIT;
    sb_printf(&sb, "%s  pod group %s: %s; this pod fits alone on %zu of %zu nodes\n", a->explain, group,
              joint->group_reason, joint->fit_nodes, joint->n_nodes);
    free(a->explain);
    a->explain = sb_detach(&sb);
  }
  sched_attempt_park(a, reason, msg);
}

/* Parks a pod the cycle did not attempt, with the group's message. */
static void park_unattempted(sched_loop *l, store_obj *po, const char *group, const char *reason, const char *msg,
                             const joint_why *joint) {
  sched_attempt at = {.cy = {.l = l, .pod_obj = store_obj_ref(po), .p = po->object->typed, .a = arena_new()}};
  park_tried(&at, group, reason, msg, joint);
  sched_attempt_free(&at);
}

/* PreEnqueue: false with the pod parked when it must wait. */
static bool pre_enqueue(sched_loop *l, store_obj *po, const pod_group *g, const char *group, size_t n_all) {
  if (g && !(g->spec.scheduling_policy.gang && (int64_t)n_all < g->spec.scheduling_policy.gang->min_count))
    return true;
  strbuf why = STRBUF_INIT;
  if (g) sb_puts(&why, "waiting for minCount pods from a gang to appear in scheduling queue");
  else sb_printf(&why, "waiting for pods's pod group \"%s\" to appear in scheduling queue", group);
  sched_park(l, po, group_explain(group, sb_str(&why)));
  sb_free(&why);
  return false;
}

typedef enum { GROUP_SUCCESS, GROUP_WAIT, GROUP_UNSCHEDULABLE, GROUP_ERROR } group_status;

/* GangScheduling's PlacementFeasible. */
static group_status feasible(int64_t min_count, size_t scheduled, size_t remaining, strbuf *msg) {
  sb_truncate(msg, 0);
  if ((int64_t)(remaining + scheduled) < min_count) {
    sb_printf(msg, "minCount (%lld) cannot be satisfied: %zu scheduled, %zu remaining", (long long)min_count,
              scheduled, remaining);
    return GROUP_UNSCHEDULABLE;
  }
  if ((int64_t)scheduled < min_count) {
    sb_printf(msg, "minCount (%lld) is not yet satisfied: %zu scheduled, %zu remaining", (long long)min_count,
              scheduled, remaining);
    return GROUP_WAIT;
  }
  return GROUP_SUCCESS;
}

/* A pod-group cycle that fails sends the group back with backoff, as
 * upstream's scheduling queue backs off an unschedulable pod: 1 s after the
 * first failure, doubling up to 10 s (podInitialBackoffDuration and
 * podMaxBackoffDuration, k8s.io/kubernetes pkg/scheduler/backend/queue
 * scheduling_queue.go); cluster events wake it earlier. One that places
 * starts over. */
#define GANG_INITIAL_BACKOFF_SECONDS 1
#define GANG_MAX_BACKOFF_SECONDS 10

static void group_backoff(sched_loop *l, const char *ns, const char *group, bool failed) {
  strbuf key = STRBUF_INIT;
  sched_key(&key, "gangbackoff:", ns, group);
  const char *group_key = sb_str(&key) + strlen("gangbackoff:");
  if (!failed) {
    sched_deadline_forget(&l->backoff, sb_str(&key));
    free(strmap_remove(&l->gang_attempts, group_key));
    sb_free(&key);
    return;
  }
  int64_t *attempts = strmap_get(&l->gang_attempts, group_key);
  if (!attempts) {
    attempts = xcalloc(1, sizeof *attempts);
    strmap_put(&l->gang_attempts, group_key, attempts);
  }
  int64_t failures = ++*attempts, wait = GANG_INITIAL_BACKOFF_SECONDS;
  for (int64_t i = 1; i < failures && wait < GANG_MAX_BACKOFF_SECONDS; i++) wait *= 2;
  if (wait > GANG_MAX_BACKOFF_SECONDS) wait = GANG_MAX_BACKOFF_SECONDS;
  sched_deadline_set(&l->backoff, sb_str(&key), l->opt.now + wait);
  sb_free(&key);
}

void sched_gang_backoff_sync(sched_loop *l, const char *ns, const char *name) {
  store_list lst = {0};
  store_query q = {.kind = KIND_POD, .namespace_ = ns, .index = STORE_INDEX_POD_GROUP, .key = name,
                   .order = STORE_BY_CREATION};
  store_list_query(l->st, &q, &lst);
  size_t pending = 0;
  for (size_t i = 0; i < lst.n; i++) {
    const pod *p = lst.items[i]->object->typed;
    if (!pod_live(p) || pod_bound(p)) continue;
    sched_enqueue_pod(l, lst.items[i]);
    pending++;
  }
  store_list_free(&lst);
  if (!pending) group_backoff(l, ns, name, false); /* nothing left to place */
}

static void run_cycle(sched_loop *l, const char *ns, const char *group, const pod_group *g, group_pods *gp) {
  int64_t min_count = g->spec.scheduling_policy.gang ? g->spec.scheduling_policy.gang->min_count : 1;
  strbuf msg = STRBUF_INIT;
  sched_attempt *at = xcalloc(gp->n_queued + 1, sizeof *at);
  size_t tried = 0, scheduled = gp->n_scheduled, remaining = gp->n_queued;
  group_status st = feasible(min_count, scheduled, remaining, &msg);
  assumed as = {0};
  while (st != GROUP_UNSCHEDULABLE && tried < gp->n_queued) {
    sched_attempt *a = &at[tried++];
    sched_attempt_run(l, store_obj_ref(gp->queued[tried - 1]), NULL, true, a);
    if (a->msg && a->attempted && !strcmp(a->reason, "SchedulerError")) {
      sb_truncate(&msg, 0);
      sb_printf(&msg, "failed to schedule other pod from a pod group: %s", a->msg);
      st = GROUP_ERROR;
      break;
    }
    remaining--;
    if (!a->msg) {
      sched_group_assume(l, &as, a);
      scheduled++;
    }
    st = feasible(min_count, scheduled, remaining, &msg);
  }
  sched_group_forget(l, &as);
  if (st == GROUP_WAIT) st = GROUP_UNSCHEDULABLE;
  /* beyond upstream: what greedy placement missed, a joint search may find;
   * the group's own nominations do not count against its pods there */
  strbuf joint = STRBUF_INIT;
  size_t *fit_nodes = xcalloc(gp->n_queued + 1, sizeof *fit_nodes);
  bool placed = false;
  if (st == GROUP_UNSCHEDULABLE && g->spec.scheduling_policy.gang && !l->opt.gang_upstream &&
      (int64_t)(gp->n_queued + gp->n_scheduled) >= min_count) {
    for (size_t i = 0; i < gp->n_queued; i++) sched_nominated_assume(l, gp->queued[i]->object->typed);
    placed = sched_joint_place(l, gp->queued, gp->n_queued, min_count - (int64_t)gp->n_scheduled, &joint, fit_nodes);
    sched_nominated_forget_all(l);
  }
  if (placed) {
    for (size_t i = 0; i < tried; i++) sched_attempt_free(&at[i]);
    free(at);
    free(fit_nodes);
    set_condition(l, ns, group, true, "Scheduled", "");
    group_backoff(l, ns, group, false);
    sb_free(&msg);
    sb_free(&joint);
    return;
  }
  size_t n_nodes;
  sched_nodes(l, &n_nodes);
  /* workload-aware preemption (group_preemption.c): waiting, every pod
   * takes the group's message, the placed ones are nominated after */
  sched_group_preemption wap = {0};
  if (st == GROUP_UNSCHEDULABLE) sched_preempt_group(l, g, gp->queued, gp->n_queued, gp->n_scheduled, &msg, &wap);
  for (size_t i = 0; i < gp->n_queued; i++) {
    joint_why jw = {sb_str(&joint), fit_nodes[i], n_nodes};
    const joint_why *joint_why = joint.len ? &jw : NULL;
    if (i >= tried) {
      park_unattempted(l, gp->queued[i], group, st == GROUP_ERROR ? "SchedulerError" : "Unschedulable",
                       sb_str(&msg), joint_why);
      continue;
    }
    sched_attempt *a = &at[i];
    if (st == GROUP_SUCCESS && !a->msg) {
      /* bound on the node the trial found: the store is as it was then */
      const char *node = store_obj_meta(a->cands.v[a->best].node)->name;
      sched_attempt real;
      sched_attempt_run(l, store_obj_ref(gp->queued[i]), node, false, &real);
      sched_attempt_finish(&real);
      sched_attempt_free(&real);
    } else if (a->msg && !wap.waiting) {
      park_tried(a, group, a->reason, a->msg, joint_why);
    } else {
      park_tried(a, group, st == GROUP_ERROR ? "SchedulerError" : "Unschedulable", sb_str(&msg), joint_why);
    }
  }
  for (size_t i = 0; i < tried; i++) sched_attempt_free(&at[i]);
  free(at);
  sched_group_preemption_finish(l, &wap);
  if (st == GROUP_SUCCESS) set_condition(l, ns, group, true, "Scheduled", "");
  else set_condition(l, ns, group, false, st == GROUP_ERROR ? "SchedulerError" : "Unschedulable", sb_str(&msg));
  group_backoff(l, ns, group, st != GROUP_SUCCESS);
  sb_free(&msg);
  sb_free(&joint);
  free(fit_nodes);
}

bool sched_pod_group_cycle(sched_loop *l, store_obj *po) {
  const pod *p = po->object->typed;
  const char *group = sched_pod_group_name(p);
  if (!group || !gate_on(&l->opt.gates, GATE_GENERIC_WORKLOAD)) return false;
  const char *ns = s_or(p->metadata.namespace_);
  store_obj *go = sched_get(l, KIND_POD_GROUP, ns, group);
  const pod_group *g = go ? go->object->typed : NULL;
  group_rules rules = {.priority = g && g->spec.priority_set ? g->spec.priority : 0};
  if (gate_on(&l->opt.gates, GATE_POD_GROUP_PREEMPTION_POLICY)) {
    rules.policy = policy_or_default(g ? g->spec.preemption_policy : NULL);
    rules.policy_from_group = true;
  }
  group_pods gp = {0};
  store_list lst = {0};
  collect(l, ns, group, &rules, &gp, &lst);
  if (pre_enqueue(l, po, g, group, gp.n_all)) {
    strbuf *err = &gp.invalid;
    if (err->len) {
      for (size_t i = 0; i < gp.n_queued; i++)
        park_unattempted(l, gp.queued[i], group, "SchedulerError", sb_str(err), NULL);
      set_condition(l, ns, group, false, "SchedulerError", sb_str(err));
      group_backoff(l, ns, group, true);
    } else {
      run_cycle(l, ns, group, g, &gp);
    }
  }
  sb_free(&gp.invalid);
  free(gp.queued);
  store_list_free(&lst);
  store_obj_unref(go);
  return true;
}
