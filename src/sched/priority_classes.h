/* priority_classes.h: the PriorityClass lookups of the Priority admission
 * plugin (api/admission.h) over a store, shared by the front ends and by
 * the workload controllers, whose pods get their priority from the
 * template's class as the API server's admission would give it. */
#ifndef DRA_SCHED_PRIORITY_CLASSES_H
#define DRA_SCHED_PRIORITY_CLASSES_H
#include "store/store.h"

/* The class named, or with name NULL the global default: a reference, or NULL. */
store_obj *sched_priority_class_get(store *st, const char *name);

typedef struct sched_loop sched_loop;
/* The Priority admission plugin on a pod a controller of the loop makes:
 * NULL when admitted (priority and preemptionPolicy set from its class),
 * else why the API server would refuse it (malloc'd). */
char *sched_admit_pod_priority(sched_loop *l, struct api_object *pod);

#endif
