/* pod_grace.h: the grace period of a pod's delete, as the pod strategy's
 * CheckGracefulDelete (k8s.io/kubernetes pkg/registry/core/pod) decides
 * it: DeleteOptions.gracePeriodSeconds, else the pod's
 * spec.terminationGracePeriodSeconds (30 by default); 0, a delete at once,
 * for a pod not bound to a node or already Succeeded or Failed. The node
 * simulator (sched/nodesim.c) deletes a gracefully deleted pod for good
 * once its containers have stopped. docs/server.md, "Nodes". */
#ifndef DRA_SRV_POD_GRACE_H
#define DRA_SRV_POD_GRACE_H
#include "server/delete_options.h"
#include "store/store.h"

/* Seconds of grace for deleting cur with options o; 0 for every kind but
 * Pod. */
int64_t srv_pod_grace_period(const store_obj *cur, const delete_options *o);

#endif
