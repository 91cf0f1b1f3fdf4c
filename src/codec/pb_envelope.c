/* pb_envelope.c: the "k8s\0" + runtime.Unknown envelope around an object
 * and the watch stream's frames (pb_codec.h), as k8s.io/apimachinery's
 * pkg/runtime/serializer/protobuf writes and reads them. */
#include "codec/pb_codec.h"
#include "codec/pb_wire.h"
#include <string.h>

static const char magic[4] = {'k', '8', 's', 0};

bool pb_encode_object(const json_t *obj, strbuf *out, strbuf *err) {
  const char *api_version = json_string_value(json_object_get(obj, "apiVersion"));
  const char *kind = json_string_value(json_object_get(obj, "kind"));
  const pb_message *m = pb_message_for(api_version, kind);
  if (!m) {
    const char *slash = api_version ? strrchr(api_version, '/') : NULL;
    sb_printf(err,
              "object *%s.%s does not implement the protobuf marshalling interface and cannot be encoded to a "
              "protobuf message",
              slash ? slash + 1 : api_version ? api_version : "", kind ? kind : "");
    return false;
  }
  size_t start = out->len;
  sb_add(out, magic, 4);
  size_t type_meta = pb_open(out, 1);
  pb_string(out, 1, api_version);
  pb_string(out, 2, kind);
  pb_close(out, type_meta);
  size_t raw = pb_open(out, 2);
  if (!pb_encode_message(m, obj, out, err)) {
    sb_truncate(out, start);
    return false;
  }
  pb_close(out, raw);
  pb_string(out, 3, ""); /* contentEncoding */
  pb_string(out, 4, ""); /* contentType */
  return true;
}

json_t *pb_decode_object(const void *data, size_t n, strbuf *err) {
  if (n < 4 || memcmp(data, magic, 4)) {
    sb_puts(err, "provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]");
    return NULL;
  }
  pb_reader unknown = {(const unsigned char *)data + 4, (const unsigned char *)data + n}, v, raw = {0}, t;
  unsigned f, wire, tf, twire;
  bool bad = false;
  json_t *api_version = NULL, *kind = NULL;
  while (pb_next_field(&unknown, &f, &wire, &v, &bad)) {
    if (f == 1 && wire == PB_WIRE_LEN)
      while (pb_next_field(&v, &tf, &twire, &t, &bad)) {
        json_t **slot = tf == 1 ? &api_version : tf == 2 ? &kind : NULL;
        if (!slot || twire != PB_WIRE_LEN) continue;
        json_decref(*slot);
        *slot = json_stringn((const char *)t.p, pb_len(t));
      }
    else if (f == 2 && wire == PB_WIRE_LEN) raw = v;
  }
  const pb_message *m = bad ? NULL : pb_message_for(json_string_value(api_version), json_string_value(kind));
  json_t *root = NULL;
  if (bad) sb_puts(err, "unable to decode the protobuf envelope");
  else if (!m)
    sb_printf(err, "no kind \"%s\" is registered for version \"%s\"", kind ? json_string_value(kind) : "",
              api_version ? json_string_value(api_version) : "");
  else {
    json_t *obj = pb_decode_message(m, raw.p ? raw.p : (const unsigned char *)"", pb_len(raw), err);
    if (obj) {
      root = json_pack("{sOsO}", "kind", kind, "apiVersion", api_version);
      json_object_update(root, obj);
      json_decref(obj);
    }
  }
  json_decref(api_version);
  json_decref(kind);
  return root;
}

void pb_watch_frame(strbuf *out, const char *type, const char *object, size_t n) {
  size_t start = out->len;
  sb_add(out, "\0\0\0\0", 4);
  pb_string(out, 1, type);
  size_t raw = pb_open(out, 2);
  pb_bytes(out, 1, object, n);
  pb_close(out, raw);
  size_t len = out->len - start - 4;
  for (int i = 0; i < 4; i++) out->buf[start + (size_t)i] = (char)(len >> (24 - 8 * i));
}

bool pb_watch_frame_json(strbuf *out, const json_t *event, strbuf *err) {
  const char *type = json_string_value(json_object_get(event, "type"));
  strbuf object = STRBUF_INIT;
  bool ok = type && pb_encode_object(json_object_get(event, "object"), &object, err);
  if (ok) pb_watch_frame(out, type, object.buf, object.len);
  else if (!err->len) sb_puts(err, "a watch event without a type");
  sb_free(&object);
  return ok;
}
