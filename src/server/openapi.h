/* openapi.h: OpenAPI v3 documents (/openapi/v3 and one per group/version),
 * generated from the same descriptor tables the codec uses, with the
 * extensions kubectl reads: x-kubernetes-group-version-kind, list types and
 * the fieldValidation parameter that makes kubectl validate on the server. */
#ifndef DRA_SRV_OPENAPI_H
#define DRA_SRV_OPENAPI_H
#include "server/http.h"
#include "server/route.h"

/* /openapi/v2 answers in protobuf when req->accept asks for it. */
void srv_openapi(const srv_served *served, const route *r, const http_request *req, http_response *resp);

#endif
