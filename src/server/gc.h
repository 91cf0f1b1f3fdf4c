/* gc.h: the garbage collector dra serve needs: when an object is deleted,
 * the ResourceClaims whose ownerReferences name its uid are deleted too,
 * so claims generated for a pod (or a PodGroup) go with it; when a
 * workload (Deployment, ReplicaSet, StatefulSet, DaemonSet, Job,
 * ReplicationController) is deleted, the ReplicaSets and pods it owns go
 * too (background cascading deletion; dependents of those follow in the
 * next pass). Deleted uids
 * are noticed by a store watcher and collected by the loop thread
 * (gc_collect), never inside a store callback. */
#ifndef DRA_SRV_GC_H
#define DRA_SRV_GC_H
#include "store/store.h"

typedef struct garbage_collector garbage_collector;

garbage_collector *gc_new(store *s);
/* Deletes the dependents of the objects deleted since the last call;
 * returns how many deletions it asked for. */
size_t gc_collect(garbage_collector *g);
void gc_free(garbage_collector *g);

#endif
