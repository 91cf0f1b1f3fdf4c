/* scale.h: the scale subresource (autoscaling/v1 Scale) of Deployments,
 * ReplicaSets, StatefulSets and ReplicationControllers, as `kubectl scale`
 * uses it: GET reads spec.replicas, status.replicas and the selector; PUT
 * and PATCH (any patch type) write spec.replicas through the main
 * resource's update (admission included), with the resourceVersion of a
 * PUT's Scale as precondition. */
#ifndef DRA_SRV_SCALE_H
#define DRA_SRV_SCALE_H
#include "server/server_internal.h"

void srv_scale_request(dra_server *s, const route *r, const http_request *req, http_response *resp);

#endif
