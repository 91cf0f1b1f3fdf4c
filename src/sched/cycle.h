/* cycle.h: one scheduling attempt of one pod, as the scheduler's files
 * share it: the pod's resolved claims, what must be allocated, the nodes
 * that passed and their allocation results. */
#ifndef DRA_SCHED_CYCLE_H
#define DRA_SCHED_CYCLE_H
#include "sched/extended.h"
#include "sched/internal.h"
#include <time.h>

typedef struct sched_claim_ref {
  store_obj *obj;            /* the claim as stored (NULL for the extended claim) */
  const resource_claim *c;   /* obj's claim, or the node's extended claim */
  const pod_resource_claim *entry; /* NULL for the extended claim */
  bool to_allocate;
  bool for_group;            /* reserved for the pod's PodGroup */
} sched_claim_ref;

typedef struct sched_candidate {
  store_obj *node;
  allocation_result **results; /* per claim to allocate, in cycle order; arena-owned */
  api_object *extended;        /* this node's extended claim, or NULL */
  int64_t score;
} sched_candidate;

typedef struct sched_cycle {
  sched_loop *l;
  store_obj *pod_obj;
  const pod *p;
  store_obj *group; /* the pod's PodGroup (workload gate on), or NULL */
  sched_claim_ref *claims;
  size_t n_claims;
  size_t n_to_allocate;
  sched_ext ext;
  sched_amounts requests;
  arena *a; /* allocation results */
  const char *only_node; /* the one node to try, or NULL for all */
} sched_cycle;

typedef struct sched_cands {
  sched_candidate *v;
  size_t n;
} sched_cands;

/* scheduler.c: one pod's attempt, split so the pod-group cycle (gang.c) can
 * try its pods before any is bound. run finds the nodes that fit (dry:
 * writing nothing, not even PostFilter's deallocation); finish reserves and
 * binds the best node or parks the pod with its message; park parks it
 * with another message (the group's). run takes over po's reference. */
typedef struct sched_attempt {
  sched_cycle cy;
  sched_cands cands;
  size_t best;          /* the chosen candidate when cands.n */
  char *msg;            /* why the pod does not fit (malloc'd); NULL when it does */
  const char *reason;   /* the condition reason with msg: Unschedulable or SchedulerError */
  char *explain;        /* --explain text (malloc'd) or NULL */
  bool attempted;       /* got past PreEnqueue */
  bool *preemptable;    /* per node (sched_nodes order) when no node fit: refused as Unschedulable, so
                         * preemption may help; NULL when PreFilter refused the pod (malloc'd) */
  struct timespec start;
} sched_attempt;
void sched_attempt_run(sched_loop *l, store_obj *po, const char *only_node, bool dry, sched_attempt *at);
/* run's first part: the pod's claims resolved, its requests, extended
 * resources and PreFilter, no node scanned. false with at->msg set when the
 * pod cannot be tried; finish then parks it, or binds at->cands.v[at->best]
 * once the caller filled the candidates itself (joint.c). */
bool sched_attempt_prepare(sched_loop *l, store_obj *po, sched_attempt *at);
void sched_attempt_finish(sched_attempt *at);
void sched_attempt_park(sched_attempt *at, const char *reason, const char *msg);
void sched_attempt_free(sched_attempt *at);

/* gang.c: placements the pod-group cycle's trial assumed (nothing written). */
typedef struct sched_assumed {
  store_obj **claims; /* in-memory claims with the trial's allocations */
  size_t n_claims;
  sched_node_usage **usage;
  sched_amounts *requests;
  size_t n_pods;
} sched_assumed;
/* Holds the attempt's node and devices as kube-scheduler's assume does. */
void sched_group_assume(sched_loop *l, sched_assumed *as, const sched_attempt *at);
/* Undoes every assumption: the cluster is as the store says again. */
void sched_group_forget(sched_loop *l, sched_assumed *as);

/* group_preemption.c: workload-aware preemption (KEP-5710) for a gang
 * whose cycle failed. When it evicts, waiting is set, *msg says so and
 * the pods placed get their nomination from _finish (after they are
 * parked); when it cannot help, its reason is appended to *msg. */
typedef struct sched_group_preemption {
  bool waiting;
  store_obj **pods; /* references */
  char **nodes;
  size_t n;
} sched_group_preemption;
void sched_preempt_group(sched_loop *l, const pod_group *g, store_obj *const *queued, size_t n_queued,
                         size_t n_scheduled, strbuf *msg, sched_group_preemption *out);
void sched_group_preemption_finish(sched_loop *l, sched_group_preemption *r);

/* gang.c: the pod-group cycle. true when po belongs to a PodGroup and the
 * cycle (or its PreEnqueue) handled it. */
bool sched_pod_group_cycle(sched_loop *l, store_obj *po);
/* joint.c: places the pending pods of a gang (queue order) together when
 * the greedy cycle could not: nodes and devices chosen jointly so that at
 * least need of them fit, then bound. false when no placement exists or the
 * search ran out of budget; why then says so in one line, and fit_nodes[i]
 * (n of them) is how many nodes pod i fits on alone. */
bool sched_joint_place(sched_loop *l, store_obj *const *pods, size_t n, int64_t need, strbuf *why,
                       size_t *fit_nodes);

/* assumed.c: the trial's assume cache. A claim as the scheduler sees it:
 * with the allocation a pod-group trial assumed for it, if any (a fresh
 * reference, or NULL). assume_claim holds a copy of the stored claim with
 * allocation a (the returned object is the cache's; forget_claim drops it
 * and frees its devices again). usage_add/sub count a pod on a node. */
store_obj *sched_claim_get(sched_loop *l, const char *ns, const char *name);
store_obj *sched_assume_claim(sched_loop *l, const store_obj *stored, const allocation_result *a);
/* The same for a pod's extended-resource claim, made by the attempt and not
 * yet stored. */
store_obj *sched_assume_extended_claim(sched_loop *l, const api_object *claim, const allocation_result *a);
void sched_forget_claim(sched_loop *l, store_obj *assumed);
sched_node_usage *sched_usage_of(sched_loop *l, const store_obj *node_obj);
void sched_usage_add(sched_node_usage *u, const sched_amounts *requests);
void sched_usage_sub(sched_node_usage *u, const sched_amounts *requests);

/* DynamicResources' reasons for a node. */
#define SCHED_REASON_NOT_AVAILABLE "resourceclaim not available on the node"
#define SCHED_REASON_CANNOT_ALLOCATE "cannot allocate all claims"

/* The node filters for cy's pod on the node carrying usage, with the pods
 * nominated there counted (nominated.c); the refusing plugin's reasons in why. */
bool sched_filter_with_nominated(sched_cycle *cy, const sched_node_entry *ne, const sched_node_usage *usage,
                                 sched_reasons *why);

/* NodeResourcesFit's skip_fit (filter.h) for the cycle: the resource names
 * its extended-resource claim serves through DRA (scheduler.c). */
bool sched_cycle_served_by_dra(void *user, const atom *name);

/* score.c: prioritized-list score of a node (the dynamicresources
 * plugin's Score). */
int64_t sched_score(const sched_cycle *cy, const sched_candidate *cand);
bool sched_cycle_has_prioritized_list(const sched_cycle *cy);

/* reserve.c: writes allocations and reservations, creates the extended
 * claim, binds the pod. Returns NULL on success, else a malloc'd error
 * message (the pod then waits) and *reason the condition reason. */
char *sched_reserve_and_bind(sched_cycle *cy, const sched_candidate *cand, const char **reason);

/* unschedulable.c: the scheduler's "0/N nodes are available: ..." text. */
typedef struct sched_histogram {
  char **reason;
  size_t *count;
  size_t n, cap;
} sched_histogram;
void sched_histogram_add(sched_histogram *h, const char *reason);
char *sched_histogram_message(const sched_histogram *h, size_t n_nodes, const char *prefilter);
void sched_histogram_free(sched_histogram *h);

/* Sets a condition on a pod object about to be written (pod_status.c). */
void sched_pod_set_condition(sched_loop *l, api_object *pod_obj, const char *type, const char *status,
                             const char *reason, const char *message);
/* Sets PodScheduled on a pod object about to be written. */
void sched_pod_condition(sched_loop *l, api_object *pod_obj, bool scheduled, const char *reason, const char *message);
/* Sets the pod's PodScheduled condition (no write when unchanged). */
void sched_set_pod_scheduled(sched_loop *l, const char *ns, const char *name, bool scheduled, const char *reason,
                             const char *message);

#endif
