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
void sched_forget_claim(sched_loop *l, store_obj *assumed);
sched_node_usage *sched_usage_of(sched_loop *l, const store_obj *node_obj);
void sched_usage_add(sched_node_usage *u, const sched_amounts *requests);
void sched_usage_sub(sched_node_usage *u, const sched_amounts *requests);

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
