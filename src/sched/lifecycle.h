/* lifecycle.h: the NamespaceLifecycle admission rule for what the control
 * loop creates itself (pods of workloads, claims, events): nothing new goes
 * into a namespace that is being deleted, as kube-apiserver refuses the
 * controllers' creates there (docs/server.md, "Namespaces"). A namespace
 * that does not exist is no obstacle: `dra schedule` runs without
 * Namespace objects. */
#ifndef DRA_SCHED_LIFECYCLE_H
#define DRA_SCHED_LIFECYCLE_H
#include "store/store.h"

/* store_create, or STORE_INVALID (o still the caller's) when o's namespace
 * has a deletionTimestamp. */
store_status sched_store_create(store *st, api_object *o, store_obj **out);

#endif
