/* body.h: turning a request body (JSON or YAML) into a typed object of the
 * route's kind, with kube-apiserver's fieldValidation modes: Strict refuses
 * unknown and duplicate fields (400), Warn (the default) drops them with a
 * Warning header each, Ignore drops them silently. Wrong types are always
 * 400. A protobuf body was turned into JSON before (media.h). */
#ifndef DRA_SRV_BODY_H
#define DRA_SRV_BODY_H
#include "server/http.h"
#include "server/route.h"

/* NULL when the body is refused; resp then holds the Status. */
api_object *srv_decode_body(const route *r, const http_request *req, http_response *resp);
/* The same for a JSON tree already in memory (patch results). */
api_object *srv_decode_tree(const route *r, const http_request *req, json_t *root, http_response *resp);

#endif
