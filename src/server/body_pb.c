/* body_pb.c: see body_pb.h and body_pb_internal.h. Field numbers are k8s.io/api's generated.proto
 * (core/v1 Namespace, NamespaceSpec) and apimachinery's
 * (runtime.Unknown, runtime.TypeMeta, meta/v1 ObjectMeta). */
#include "server/body_pb_internal.h"
#include <stdint.h>
#include <string.h>

bool pb_read_varint(pb_reader *r, uint64_t *v) {
  *v = 0;
  for (unsigned shift = 0; shift < 64 && r->p < r->end; shift += 7) {
    unsigned char b = *r->p++;
    *v |= (uint64_t)(b & 0x7F) << shift;
    if (!(b & 0x80)) return true;
  }
  return false;
}

bool pb_next_field(pb_reader *r, unsigned *field, pb_reader *sub, bool *bad) {
  unsigned wire;
  return pb_next_field_typed(r, field, sub, &wire, bad);
}

bool pb_next_field_typed(pb_reader *r, unsigned *field, pb_reader *sub, unsigned *wire, bool *bad) {
  if (r->p >= r->end) return false;
  uint64_t key, len;
  if (!pb_read_varint(r, &key)) return *bad = true, false;
  *field = (unsigned)(key >> 3);
  *wire = (unsigned)(key & 7);
  sub->p = sub->end = r->p;
  switch (key & 7) {
  case 0:
    if (!pb_read_varint(r, &len)) return *bad = true, false;
    sub->end = r->p; /* the varint's bytes: pb_varint_of reads them */
    return true;
  case 1: if (r->end - r->p < 8) return *bad = true, false; r->p += 8; return true;
  case 5: if (r->end - r->p < 4) return *bad = true, false; r->p += 4; return true;
  case 2:
    if (!pb_read_varint(r, &len) || len > (uint64_t)(r->end - r->p)) return *bad = true, false;
    sub->p = r->p;
    sub->end = r->p + len;
    r->p += len;
    return true;
  default: return *bad = true, false;
  }
}

uint64_t pb_varint_of(pb_reader s) {
  uint64_t v = 0;
  pb_read_varint(&s, &v);
  return v;
}

json_t *pb_string_of(const pb_reader *s) { return json_stringn((const char *)s->p, (size_t)(s->end - s->p)); }

/* A map<string,string> entry (key = 1, value = 2) into obj. */
void pb_map_entry(pb_reader e, json_t *obj, bool *bad) {
  unsigned f;
  pb_reader s;
  json_t *key = NULL, *value = NULL;
  while (pb_next_field(&e, &f, &s, bad)) {
    json_t **slot = f == 1 ? &key : f == 2 ? &value : NULL;
    if (!slot) continue;
    json_decref(*slot);
    *slot = pb_string_of(&s);
  }
  if (key) json_object_set_new(obj, json_string_value(key), value ? json_incref(value) : json_string(""));
  json_decref(key);
  json_decref(value);
}

static void append_string(json_t *parent, const char *key, const pb_reader *s) {
  json_t *a = json_object_get(parent, key);
  if (!a) json_object_set_new(parent, key, a = json_array());
  json_array_append_new(a, pb_string_of(s));
}

json_t *pb_object_meta(pb_reader m, bool *bad) {
  json_t *meta = json_object();
  unsigned f;
  pb_reader s;
  while (pb_next_field(&m, &f, &s, bad)) {
    const char *name = f == 1 ? "name" : f == 2 ? "generateName" : f == 3 ? "namespace" : NULL;
    if (name && s.end > s.p) json_object_set_new(meta, name, pb_string_of(&s));
    else if (f == 11 || f == 12) {
      const char *key = f == 11 ? "labels" : "annotations";
      json_t *map = json_object_get(meta, key);
      if (!map) json_object_set_new(meta, key, map = json_object());
      pb_map_entry(s, map, bad);
    } else if (f == 14) append_string(meta, "finalizers", &s);
  }
  return meta;
}

bool srv_is_protobuf(const char *content_type) {
  return content_type && !strncmp(content_type, "application/vnd.kubernetes.protobuf", 35);
}

bool pb_unwrap(const char *body, size_t n, json_t *root, pb_reader *raw, strbuf *err) {
  static const char magic[4] = {'k', '8', 's', 0};
  if (n < 4 || memcmp(body, magic, 4)) {
    sb_puts(err, "provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]");
    return false;
  }
  pb_reader unknown = {(const unsigned char *)body + 4, (const unsigned char *)body + n}, s;
  unsigned f;
  bool bad = false, have_raw = false;
  while (pb_next_field(&unknown, &f, &s, &bad)) {
    if (f == 1) { /* typeMeta: apiVersion = 1, kind = 2 */
      pb_reader t;
      unsigned tf;
      while (pb_next_field(&s, &tf, &t, &bad))
        if (tf == 1 || tf == 2) json_object_set_new(root, tf == 1 ? "apiVersion" : "kind", pb_string_of(&t));
    } else if (f == 2) {
      *raw = s;
      have_raw = true;
    }
  }
  if (bad || !have_raw) sb_puts(err, "unable to decode the protobuf body");
  return !bad && have_raw;
}

json_t *srv_pb_namespace_json(const char *body, size_t n, strbuf *err) {
  json_t *root = json_object();
  pb_reader raw, s;
  unsigned f;
  bool bad = false;
  if (!pb_unwrap(body, n, root, &raw, err)) {
    json_decref(root);
    return NULL;
  }
  while (pb_next_field(&raw, &f, &s, &bad)) {
    if (f == 1) json_object_set_new(root, "metadata", pb_object_meta(s, &bad));
    else if (f == 2) { /* NamespaceSpec: finalizers = 1 */
      json_t *spec = json_object();
      pb_reader t;
      unsigned tf;
      while (pb_next_field(&s, &tf, &t, &bad))
        if (tf == 1) append_string(spec, "finalizers", &t);
      json_object_set_new(root, "spec", spec);
    }
  }
  if (bad) {
    sb_puts(err, "unable to decode the protobuf body");
    json_decref(root);
    return NULL;
  }
  return root;
}
