/* preemption.h: kube-scheduler's DefaultPreemption for a pod that fits no
 * node, with victims' devices counted (preemption.c). */
#ifndef DRA_SCHED_PREEMPTION_H
#define DRA_SCHED_PREEMPTION_H
#include "sched/cycle.h"

/* After a failed attempt of cy's pod: picks a node and its victims and
 * evicts them. NULL when preemption does not help (or the pod may not
 * preempt); else the PostFilter's message to append to the pod's condition
 * (malloc'd), with the node in *nominated (malloc'd) for sched_nominate. */
char *sched_preempt(sched_cycle *cy, char **nominated);
/* Sets the pod's status.nominatedNodeName; after the pod is parked, so
 * the write does not send it back to the queue. */
void sched_nominate(sched_loop *l, const pod *p, const char *node);

#endif
