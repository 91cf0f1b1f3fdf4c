/* namespace_controller.h: kube-controller-manager's namespace controller
 * (k8s.io/kubernetes pkg/controller/namespace/deletion,
 * namespaced_resources_deleter.go and status_condition_utils.go) for
 * dra serve: a Namespace with a deletionTimestamp is emptied kind by kind
 * (pods first, the rest once no pod remains), its status conditions say
 * what remains and why, and once nothing remains the `kubernetes`
 * finalizer is taken out of spec.finalizers as /finalize does, so the
 * namespace goes. Namespaces are noticed by a store watcher and synced by
 * the loop thread (nsc_sync), never inside a store callback
 * (docs/server.md, "Namespaces"). */
#ifndef DRA_SRV_NAMESPACE_CONTROLLER_H
#define DRA_SRV_NAMESPACE_CONTROLLER_H
#include "store/store.h"

typedef struct namespace_controller namespace_controller;

/* Watches st; namespaces already terminating are queued at once. */
namespace_controller *nsc_new(store *st);
/* Syncs every namespace queued since the last call: deletes content,
 * updates conditions, finalizes. Returns how many it synced. */
size_t nsc_sync(namespace_controller *c);
void nsc_free(namespace_controller *c);

#endif
