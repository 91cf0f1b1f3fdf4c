/* route.h: maps a request path to what it names: a discovery document, the
 * OpenAPI documents, a health check, or a resource (collection, object or
 * subresource, namespaced or not), the way kube-apiserver's paths work. */
#ifndef DRA_SRV_ROUTE_H
#define DRA_SRV_ROUTE_H
#include "server/served.h"

typedef enum {
  ROUTE_NOT_FOUND,
  ROUTE_API,           /* /api */
  ROUTE_APIS,          /* /apis */
  ROUTE_GROUP,         /* /apis/<group> */
  ROUTE_GROUP_VERSION, /* /api/v1, /apis/<group>/<version> */
  ROUTE_VERSION,       /* /version */
  ROUTE_METRICS,       /* /metrics (Prometheus text) */
  ROUTE_SELF_SUBJECT_REVIEW, /* /apis/authentication.k8s.io/v1/selfsubjectreviews */
  ROUTE_ACCESS_REVIEW, /* /apis/authorization.k8s.io/v1/[namespaces/<ns>/]<review plural> (name: the plural) */
  ROUTE_HEALTH,        /* /healthz, /readyz, /livez (and /<x>/ping-like subpaths) */
  ROUTE_OPENAPI_V2,    /* /openapi/v2 (Swagger 2.0) */
  ROUTE_OPENAPI_ROOT,  /* /openapi/v3 */
  ROUTE_OPENAPI_GV,    /* /openapi/v3/api/v1, /openapi/v3/apis/<group>/<version> */
  ROUTE_RESOURCE,      /* a resource path */
} route_type;

typedef struct route {
  route_type type;
  char group[254], version[254];
  const srv_resource *resource; /* ROUTE_RESOURCE */
  const api_version *wire;      /* ROUTE_RESOURCE: the version asked for */
  char namespace_[254];         /* "" = all namespaces / cluster scope */
  char name[254];               /* "" = collection */
  char subresource[254];        /* "" = main resource */
} route;

/* Fills r; returns r->type. A resource in a version not served is not found. */
route_type route_parse(const char *path, const srv_served *served, route *r);

#endif
