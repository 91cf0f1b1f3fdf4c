/* group_preemption.c: workload-aware preemption (KEP-5710; kube-scheduler
 * 1.37's PodGroupEvaluator, k8s.io/kubernetes pkg/scheduler/framework/
 * preemption/podgrouppreemption.go) for a gang whose pod-group cycle
 * failed (gang.c), with WorkloadAwarePreemption on. The preemptor is the
 * whole group, the domain the whole cluster:
 *
 * - Eligible unless its preemption policy is Never (the PodGroup's with
 *   PodGroupPreemptionPolicy on, else Never when any of its pods says so)
 *   or a lower-priority pod on a member's nominated node is still being
 *   deleted by preemption; a group with topology constraints is left out.
 * - Victims are units: a bound pod alone, or every bound pod of a PodGroup
 *   whose disruptionMode is All. A unit's priority is its PodGroup's
 *   (spec.priority), else the pod's; units below the group's priority may go.
 * - With them all removed (their requests and pod counts, and the devices
 *   of claims only they reserve), the group trial must reach minCount; the
 *   places it finds are the proposal. Then units are reprieved, those that
 *   would break a PodDisruptionBudget first, each part most important
 *   first (higher priority; a PodGroup before a pod; pods: earlier start;
 *   groups: more pods, then earlier start): one stays reprieved when every
 *   proposed pod still fits on its node in order.
 * - The rest are evicted ("... a higher priority podgroup", the Event
 *   "Preempted by podgroup <uid> on node cluster"), the proposed pods are
 *   nominated to their nodes and the group waits with "pod group is waiting
 *   for preemption to complete". When preemption cannot help, its reason
 *   is added to the group's message.
 * Nothing is written until the victims are chosen; the removals are undone
 * before. docs/overview.md, "Preemption". */
#include "sched/claims.h"
#include "sched/cycle.h"
#include "sched/devices.h"
#include "sched/preemption.h"
#include "sched/victims.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

/* ---- the cluster with units removed ---- */

typedef struct sim {
  sched_loop *l;
  sched_units *u;
  store_obj **freed; /* claims whose devices the removals released (references) */
  size_t n_freed, cap_freed;
  store_obj **found; /* scratch: held claims to release */
  size_t n_found, cap_found;
} sim;

/* Every consumer is a removed pod. */
static bool only_removed_use(const sim *s, const store_obj *co) {
  const resource_claim_consumer_reference_list *r = &((const resource_claim *)co->object->typed)->status.reserved_for;
  bool all = r->n > 0;
  for (uint32_t i = 0; i < r->n && all; i++)
    all = r->items[i].resource && !strcmp(r->items[i].resource, "pods") && sched_units_uid_removed(s->u, r->items[i].uid);
  return all;
}

static void find_releasable(void *ctx, store_obj *co) {
  sim *s = ctx;
  if (!only_removed_use(s, co)) return;
  s->found = xgrow(s->found, s->n_found, &s->cap_found, sizeof *s->found, 8);
  s->found[s->n_found++] = store_obj_ref(co);
}

/* The device index follows the removals: released claims hold again
 * once a user is back, claims only removed pods use release. */
static void sync_devices(sim *s) {
  size_t kept = 0;
  for (size_t i = 0; i < s->n_freed; i++) {
    if (only_removed_use(s, s->freed[i])) {
      s->freed[kept++] = s->freed[i];
      continue;
    }
    sched_devices_claim_changed(s->l, s->freed[i], false);
    store_obj_unref(s->freed[i]);
  }
  s->n_freed = kept;
  s->n_found = 0;
  sched_devices_each_held(s->l, find_releasable, s);
  for (size_t i = 0; i < s->n_found; i++) {
    sched_devices_claim_changed(s->l, s->found[i], true);
    s->freed = xgrow(s->freed, s->n_freed, &s->cap_freed, sizeof *s->freed, 8);
    s->freed[s->n_freed++] = s->found[i];
  }
}

static sched_node_usage *usage_on(sched_loop *l, const char *node) {
  size_t n;
  const sched_node_entry *nodes = sched_nodes(l, &n);
  for (size_t i = 0; i < n; i++)
    if (!strcmp(nodes[i].n->metadata.name, node)) return nodes[i].usage;
  return NULL;
}

/* Takes a unit off its nodes, or puts it back. */
static void set_removed(sim *s, sched_unit *v, bool removed) {
  if (v->removed == removed) return;
  v->removed = removed;
  for (size_t k = 0; k < v->n; k++) {
    const pod *p = v->pods[k]->object->typed;
    sched_node_usage *u = usage_on(s->l, p->spec.node_name);
    if (!u) continue;
    sched_amounts req = {0};
    sched_pod_requests(p, &req);
    if (removed) u->pods--, sched_amounts_sub(&u->requested, &req);
    else u->pods++, sched_amounts_add_all(&u->requested, &req);
    sched_amounts_free(&req);
  }
}

/* ---- the group trial ---- */

typedef struct proposal {
  char **nodes; /* per queued pod: where it goes, NULL when nowhere */
} proposal;

/* The pod-group trial (nothing written): each queued pod in order, placed
 * ones assumed. With want given, each pod proposed there must fit there
 * again (the reprieve check); else any node, filling out. */
static bool trial(sched_loop *l, store_obj *const *queued, size_t n, size_t n_scheduled, int64_t min_count,
                  const proposal *want, proposal *out) {
  sched_assumed as = {0};
  bool ok = true;
  size_t placed = 0;
  for (size_t i = 0; i < n && ok; i++) {
    if (want && !want->nodes[i]) continue;
    sched_attempt at;
    sched_attempt_run(l, store_obj_ref(queued[i]), want ? want->nodes[i] : NULL, true, &at);
    if (!at.msg) {
      sched_group_assume(l, &as, &at);
      placed++;
      if (out) out->nodes[i] = xstrdup(store_obj_meta(at.cands.v[at.best].node)->name);
    } else if (want) {
      ok = false;
    }
    sched_attempt_free(&at);
  }
  sched_group_forget(l, &as);
  return ok && (int64_t)(n_scheduled + placed) >= min_count;
}

static void proposal_free(proposal *p, size_t n) {
  for (size_t i = 0; p->nodes && i < n; i++) free(p->nodes[i]);
  free(p->nodes);
}

/* ---- eligibility ---- */

/* preemptorEligibleToPreemptOthers: NULL, or why not. */
static const char *not_eligible(sched_loop *l, const pod_group *g, int64_t priority, store_obj *const *queued,
                                size_t n) {
  bool never = false;
  if (gate_on(&l->opt.gates, GATE_POD_GROUP_PREEMPTION_POLICY)) never = g->spec.preemption_policy && !strcmp(g->spec.preemption_policy, "Never");
  else
    for (size_t i = 0; i < n; i++) {
      const char *policy = sched_pod_preemption_policy(queued[i]->object->typed);
      never |= policy && !strcmp(policy, "Never");
    }
  if (never) return "not eligible due to preemptionPolicy=Never.";
  for (size_t i = 0; i < n; i++) {
    const char *node = ((const pod *)queued[i]->object->typed)->status.nominated_node_name;
    if (!node || !*node) continue;
    store_list lst = {0};
    store_query q = {.kind = KIND_POD, .index = STORE_INDEX_POD_NODE, .key = node, .order = STORE_BY_NAME};
    store_list_query(l->st, &q, &lst);
    bool waiting = false;
    for (size_t k = 0; k < lst.n && !waiting; k++) {
      const pod *p = lst.items[k]->object->typed;
      waiting = sched_victim_priority(l, p, NULL) < priority && sched_pod_terminating_by_preemption(p);
    }
    store_list_free(&lst);
    if (waiting) return "not eligible due to a terminating pod on the nominated node.";
  }
  return NULL;
}

/* ---- the evaluator ---- */

static void append(strbuf *msg, const char *reason) {
  if (msg->len) sb_puts(msg, ", ");
  sb_puts(msg, reason);
}

void sched_preempt_group(sched_loop *l, const pod_group *g, store_obj *const *queued, size_t n_queued,
                         size_t n_scheduled, strbuf *msg, sched_group_preemption *out) {
  if (!g || !gate_on(&l->opt.gates, GATE_WORKLOAD_AWARE_PREEMPTION) || !n_queued) return;
  if (g->spec.scheduling_constraints && g->spec.scheduling_constraints->topology.n) {
    append(msg, "workload aware preemption is not supported for pod groups with scheduling constraints");
    return;
  }
  int64_t priority = g->spec.priority_set ? g->spec.priority : 0;
  int64_t min_count = g->spec.scheduling_policy.gang ? g->spec.scheduling_policy.gang->min_count : 1;
  const char *why = not_eligible(l, g, priority, queued, n_queued);
  if (why) {
    append(msg, why);
    return;
  }
  sched_units u;
  sched_units_collect(l, priority, NULL, true, &u);
  if (!u.n) {
    append(msg, "No preemption victims found for incoming preemptor");
    sched_units_free(&u);
    return;
  }
  sched_units_sort(&u);
  sched_pdbs pdbs;
  sched_pdbs_list(l, NULL, &pdbs);
  sched_units_mark_violations(&u, &pdbs);
  sched_pdbs_free(&pdbs);
  sim s = {.l = l, .u = &u};
  for (size_t i = 0; i < u.n; i++) set_removed(&s, &u.v[i], true);
  sync_devices(&s);
  proposal prop = {.nodes = xcalloc(n_queued, sizeof *prop.nodes)};
  bool feasible = trial(l, queued, n_queued, n_scheduled, min_count, NULL, &prop);
  for (int pass = 0; feasible && pass < 2; pass++)
    for (size_t i = 0; i < u.n; i++) {
      if (u.v[i].violating != !pass) continue;
      set_removed(&s, &u.v[i], false); /* reprieved, unless a proposed pod no longer fits */
      sync_devices(&s);
      if (!trial(l, queued, n_queued, n_scheduled, min_count, &prop, NULL)) {
        set_removed(&s, &u.v[i], true);
        sync_devices(&s);
      }
    }
  /* the cluster as the store has it again */
  bool *victim = xcalloc(u.n + 1, sizeof *victim);
  for (size_t i = 0; i < u.n; i++) victim[i] = u.v[i].removed, set_removed(&s, &u.v[i], false);
  sync_devices(&s);
  free(s.freed);
  free(s.found);
  if (!feasible) {
    append(msg, "pod group is unschedulable");
  } else {
    for (size_t i = 0; i < u.n; i++)
      for (size_t k = 0; victim[i] && k < u.v[i].n; k++)
        sched_evict_victim(l, u.v[i].pods[k], "podgroup", g->metadata.uid, "cluster");
    sb_truncate(msg, 0);
    sb_puts(msg, "pod group is waiting for preemption to complete");
    out->waiting = true;
    out->pods = xcalloc(n_queued, sizeof *out->pods);
    out->nodes = xcalloc(n_queued, sizeof *out->nodes);
    for (size_t i = 0; i < n_queued; i++)
      if (prop.nodes[i]) {
        out->pods[out->n] = store_obj_ref(queued[i]);
        out->nodes[out->n++] = prop.nodes[i];
        prop.nodes[i] = NULL;
      }
  }
  free(victim);
  proposal_free(&prop, n_queued);
  sched_units_free(&u);
}

void sched_group_preemption_finish(sched_loop *l, sched_group_preemption *r) {
  for (size_t i = 0; i < r->n; i++) {
    sched_nominate(l, r->pods[i]->object->typed, r->nodes[i]);
    store_obj_unref(r->pods[i]);
    free(r->nodes[i]);
  }
  free(r->pods);
  free(r->nodes);
  *r = (sched_group_preemption){0};
}
