/* pb_codec.h: Kubernetes objects between their JSON trees and protobuf,
 * driven by the schema tables (pb_schema.h): one encoder and one decoder
 * for every kind. Encoding writes exactly the bytes k8s.io/api's generated
 * Marshal writes for the object Go's JSON decoding of the tree gives;
 * decoding gives the tree Go's JSON encoding of the unmarshalled object
 * gives. The envelopes are k8s.io/apimachinery's protobuf serializer's:
 * the "k8s\0" magic, then a runtime.Unknown (typeMeta = 1 with apiVersion
 * and kind, raw = 2 the object, contentEncoding = 3, contentType = 4); a
 * watch stream's frames are a big-endian 32-bit length, then a
 * metav1.WatchEvent (type = 1, object = 2 whose raw is the object in the
 * envelope). See docs/server.md, "Protobuf". */
#ifndef DRA_CODEC_PB_CODEC_H
#define DRA_CODEC_PB_CODEC_H
#include "codec/pb_schema.h"
#include "util/strbuf.h"
#include <jansson.h>
#include <stdbool.h>

bool pb_encode_message(const pb_message *m, const json_t *obj, strbuf *out, strbuf *err);
json_t *pb_decode_message(const pb_message *m, const void *data, size_t n, strbuf *err);

/* The object (its apiVersion and kind pick the message) in the envelope.
 * false with a message in err when it has no protobuf message (err is then
 * k8s.io/apimachinery's "does not implement the protobuf marshalling
 * interface" text, go_type naming the Go type as "*v1.Table") or does not
 * fit its schema. */
bool pb_encode_object(const json_t *obj, strbuf *out, strbuf *err);
/* The envelope's object as a JSON tree with apiVersion and kind; NULL with
 * a message in err. */
json_t *pb_decode_object(const void *data, size_t n, strbuf *err);
/* One watch frame: type ("ADDED", ...) and the object's envelope bytes. */
void pb_watch_frame(strbuf *out, const char *type, const char *object, size_t n);
/* The JSON event {"type":..., "object":...} as a watch frame. */
bool pb_watch_frame_json(strbuf *out, const json_t *event, strbuf *err);

#endif
