/* victims.h: preemption's victims as kube-scheduler groups them into
 * preemption units (k8s.io/kubernetes pkg/scheduler/framework/preemption,
 * types.go): a bound pod alone, or, with WorkloadAwarePreemption, every
 * bound pod of a PodGroup whose disruptionMode is All, wherever they run,
 * so that evicting one member evicts the group. Used by the pod's
 * preemption (preemption.c, a node's units) and the gang's
 * (group_preemption.c, the cluster's). */
#ifndef DRA_SCHED_VICTIMS_H
#define DRA_SCHED_VICTIMS_H
#include "sched/pdb.h"

typedef struct sched_unit {
  store_obj **pods; /* references, in name order */
  size_t n;
  int64_t priority;     /* the PodGroup's with workload awareness, else the pod's */
  bool is_group;        /* a disruptionMode All group */
  const char *earliest; /* the earliest status.startTime of its pods, "" none */
  const char *key;      /* "pod:ns/name" or "podgroup:ns/name": a stable last order */
  bool violating;       /* a pod of it breaks a PodDisruptionBudget */
  bool removed;         /* the caller's: taken off in a simulation */
} sched_unit;

typedef struct sched_units {
  sched_unit *v;
  size_t n;
  arena *a;
} sched_units;

/* The units of the bound pods on node (NULL: every node) whose priority is
 * below `below`; workload: WorkloadAwarePreemption's grouping and
 * PodGroup priorities. */
void sched_units_collect(sched_loop *l, int64_t below, const char *node, bool workload, sched_units *out);
/* Most important first (moreImportantVictim): higher priority; a group
 * before a pod; pods: the earlier start; groups: more pods, then the
 * earlier start; then the key. */
void sched_units_sort(sched_units *u);
/* filterVictimsWithPDBViolation over the units in their order. */
void sched_units_mark_violations(sched_units *u, const sched_pdbs *pdbs);
/* Whether a pod of a removed unit has this uid. */
bool sched_units_uid_removed(const sched_units *u, const char *uid);
void sched_units_free(sched_units *u);

/* getPodPriority: the priority of the pod's PodGroup when it is in one,
 * else its own; *whole (may be NULL): the group has disruptionMode All. */
int64_t sched_victim_priority(sched_loop *l, const pod *p, bool *whole);

#endif
