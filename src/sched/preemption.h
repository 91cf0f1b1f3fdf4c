/* preemption.h: kube-scheduler's DefaultPreemption for a pod that fits no
 * node, with victims' devices counted (preemption.c). */
#ifndef DRA_SCHED_PREEMPTION_H
#define DRA_SCHED_PREEMPTION_H
#include "sched/cycle.h"

/* After a failed attempt of cy's pod: picks a node and its victims and
 * evicts them, with the node in *nominated (malloc'd) for sched_nominate.
 * preemptable (sched_attempt's, per node) says which nodes refused the
 * pod as Unschedulable; NULL (PreFilter refused it) gives NULL. Else
 * returns the PostFilter's message to append to the pod's condition
 * (malloc'd): why the pod may not preempt, or when no node helps
 * "preemption: 0/N nodes are available: ..." with each node's reason. */
char *sched_preempt(sched_cycle *cy, const bool *preemptable, char **nominated);
/* Sets the pod's status.nominatedNodeName; after the pod is parked, so
 * the write does not send it back to the queue. */
void sched_nominate(sched_loop *l, const pod *p, const char *node);

/* Evicts a victim as upstream's executor does: condition DisruptionTarget
 * (PreemptionByScheduler, "... a higher priority <type>"), a graceful
 * delete, the Event "Preempted by <type> <uid> on node <node>". A pod
 * already being deleted is left alone. */
void sched_evict_victim(sched_loop *l, const store_obj *victim, const char *preemptor_type, const char *preemptor_uid,
                        const char *node);
/* status.startTime, "" when not started. */
const char *sched_pod_start_time(const pod *p);
/* util.GetPodStartTime's order of two such times: none is now, the latest. */
int sched_cmp_start(const char *a, const char *b);
/* spec.preemptionPolicy, or NULL. */
const char *sched_pod_preemption_policy(const pod *p);
/* Being deleted with DisruptionTarget True for PreemptionByScheduler. */
bool sched_pod_terminating_by_preemption(const pod *p);

#endif
