/* discovery.h: the legacy discovery documents kubectl and client libraries
 * read to find resources (/api, /apis, /apis/<g>, resource lists), /version
 * and the health checks. */
#ifndef DRA_SRV_DISCOVERY_H
#define DRA_SRV_DISCOVERY_H
#include "server/http.h"
#include "server/route.h"

/* Serves ROUTE_API, ROUTE_APIS, ROUTE_GROUP, ROUTE_GROUP_VERSION,
 * ROUTE_VERSION and ROUTE_HEALTH. The APIGroupList, APIGroup and
 * APIResourceList are in protobuf when accept negotiates it, as
 * kube-apiserver's discovery handlers write them (client-go's discovery
 * client asks for protobuf first). */
void srv_discovery(const srv_served *served, const route *r, const char *accept, http_response *resp);

#endif
