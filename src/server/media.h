/* media.h: content negotiation as kube-apiserver does it
 * (k8s.io/apiserver pkg/endpoints/handlers/negotiation): the media type
 * of a request body (Content-Type; 415 for one it does not read) and of
 * the response (Accept, clauses by q then specificity; 406 when none is
 * served; a watch has no YAML form), the protobuf forms of bodies and
 * responses, and YAML responses
 * (codec/pb_codec.h, docs/server.md "Protobuf"). */
#ifndef DRA_SRV_MEDIA_H
#define DRA_SRV_MEDIA_H
#include "server/http.h"
#include <stdbool.h>

#define SRV_PROTOBUF "application/vnd.kubernetes.protobuf"
#define SRV_PROTOBUF_WATCH "application/vnd.kubernetes.protobuf;stream=watch"

typedef enum { SRV_MEDIA_JSON, SRV_MEDIA_YAML, SRV_MEDIA_PROTOBUF, SRV_MEDIA_NONE } srv_media;

/* The body's media type; SRV_MEDIA_NONE for one the server does not read.
 * No Content-Type is JSON, the first served type. */
srv_media srv_body_media(const char *content_type);
/* The response's media type for an Accept header (none or empty: JSON). */
srv_media srv_accept_media(const char *accept);

/* Makes *json a request whose body is JSON: a protobuf body is decoded
 * into its JSON text (the caller frees json->body with srv_body_free);
 * false with resp answered (400, 415) when the body cannot be read. A
 * request without a body, or a patch, is left as it is. */
bool srv_body_as_json(const http_request *req, http_request *json, http_response *resp);
void srv_body_free(const http_request *req, http_request *json);
/* Turns a finished JSON response into protobuf (the object, list or Status
 * in its envelope); a Table, which has no protobuf form upstream, becomes
 * the 406 kube-apiserver answers, and an object that does not fit its
 * schema a 500 (logged). */
void srv_response_to_protobuf(http_response *resp);
/* The same into YAML, as sigs.k8s.io/yaml writes the JSON. */
void srv_response_to_yaml(http_response *resp);

#endif
