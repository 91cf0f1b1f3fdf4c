/* gc.h: kube-controller-manager's garbage collector for dra serve: an
 * object's dependents (objects whose metadata.ownerReferences name its uid)
 * are deleted once every owner is gone (background propagation), or while
 * the owner waits with the foregroundDeletion finalizer (foreground: the
 * owner goes once no dependent with blockOwnerDeletion is left), or lose
 * their reference to an owner deleted with the orphan finalizer (orphan),
 * after which the owner loses the finalizer and goes (docs/server.md,
 * "Garbage collection"). Owners are noticed by a store watcher and
 * handled by the loop thread (gc_collect), never inside a store callback. */
#ifndef DRA_SRV_GC_H
#define DRA_SRV_GC_H
#include "store/store.h"

typedef struct garbage_collector garbage_collector;

garbage_collector *gc_new(store *s);
/* Handles the owners noticed since the last call; returns how many writes
 * it made. */
size_t gc_collect(garbage_collector *g);
void gc_free(garbage_collector *g);

#endif
