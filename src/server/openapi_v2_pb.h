/* openapi_v2_pb.h: the protobuf form of the Swagger 2.0 document, as gnostic's
 * openapi.v2.Document (openapiv2/OpenAPIv2.proto). client-go's discovery
 * fetches /openapi/v2 only in this form; kubectl needs it to validate the
 * items of a kind: List on the client. */
#ifndef DRA_SRV_OPENAPI_V2_PB_H
#define DRA_SRV_OPENAPI_V2_PB_H
#include "server/http.h"
#include <jansson.h>
#include <stdbool.h>

/* What kube-apiserver answers with (client-go asks for "...spec.v2@v1.0+protobuf"). */
#define OPENAPI_V2_PB_CONTENT_TYPE "application/com.github.proto-openapi.spec.v2.v1.0+protobuf"

/* Whether an Accept header asks for the protobuf document. */
bool openapi_v2_pb_accepted(const char *accept);
/* Appends doc (a Swagger 2.0 JSON document with definitions, as openapi.c
 * builds it) encoded as openapi.v2.Document. Object keys are written in
 * sorted order, so equal documents encode to equal bytes. */
void openapi_v2_pb_encode(const json_t *doc, strbuf *out);
/* A 200 response with doc encoded (consumes doc). */
void openapi_v2_pb_response(http_response *resp, json_t *doc);

#endif
