/* body_pb.c: see body_pb.h. Field numbers are k8s.io/api's generated.proto
 * (core/v1 Namespace, NamespaceSpec) and apimachinery's
 * (runtime.Unknown, runtime.TypeMeta, meta/v1 ObjectMeta). */
#include "server/body_pb.h"
#include <stdint.h>
#include <string.h>

typedef struct pb_reader {
  const unsigned char *p, *end;
} pb_reader;

static bool read_varint(pb_reader *r, uint64_t *v) {
  *v = 0;
  for (unsigned shift = 0; shift < 64 && r->p < r->end; shift += 7) {
    unsigned char b = *r->p++;
    *v |= (uint64_t)(b & 0x7F) << shift;
    if (!(b & 0x80)) return true;
  }
  return false;
}

/* The next field: its number, and for length-delimited fields the bytes
 * in *sub; other wire types are skipped (*sub empty). false at the end or
 * on malformed input (*bad set). */
static bool next_field(pb_reader *r, unsigned *field, pb_reader *sub, bool *bad) {
  if (r->p >= r->end) return false;
  uint64_t key, len;
  if (!read_varint(r, &key)) return *bad = true, false;
  *field = (unsigned)(key >> 3);
  sub->p = sub->end = r->p;
  switch (key & 7) {
  case 0: return read_varint(r, &len) || (*bad = true, false);
  case 1: if (r->end - r->p < 8) return *bad = true, false; r->p += 8; return true;
  case 5: if (r->end - r->p < 4) return *bad = true, false; r->p += 4; return true;
  case 2:
    if (!read_varint(r, &len) || len > (uint64_t)(r->end - r->p)) return *bad = true, false;
    sub->p = r->p;
    sub->end = r->p + len;
    r->p += len;
    return true;
  default: return *bad = true, false;
  }
}

static json_t *string_of(const pb_reader *s) { return json_stringn((const char *)s->p, (size_t)(s->end - s->p)); }

/* A map<string,string> entry (key = 1, value = 2) into obj. */
static void map_entry(pb_reader e, json_t *obj, bool *bad) {
  unsigned f;
  pb_reader s;
  json_t *key = NULL, *value = NULL;
  while (next_field(&e, &f, &s, bad)) {
    json_t **slot = f == 1 ? &key : f == 2 ? &value : NULL;
    if (!slot) continue;
    json_decref(*slot);
    *slot = string_of(&s);
  }
  if (key) json_object_set_new(obj, json_string_value(key), value ? json_incref(value) : json_string(""));
  json_decref(key);
  json_decref(value);
}

static void append_string(json_t *parent, const char *key, const pb_reader *s) {
  json_t *a = json_object_get(parent, key);
  if (!a) json_object_set_new(parent, key, a = json_array());
  json_array_append_new(a, string_of(s));
}

static json_t *object_meta(pb_reader m, bool *bad) {
  json_t *meta = json_object();
  unsigned f;
  pb_reader s;
  while (next_field(&m, &f, &s, bad)) {
    const char *name = f == 1 ? "name" : f == 2 ? "generateName" : f == 3 ? "namespace" : NULL;
    if (name && s.end > s.p) json_object_set_new(meta, name, string_of(&s));
    else if (f == 11 || f == 12) {
      const char *key = f == 11 ? "labels" : "annotations";
      json_t *map = json_object_get(meta, key);
      if (!map) json_object_set_new(meta, key, map = json_object());
      map_entry(s, map, bad);
    } else if (f == 14) append_string(meta, "finalizers", &s);
  }
  return meta;
}

bool srv_is_protobuf(const char *content_type) {
  return content_type && !strncmp(content_type, "application/vnd.kubernetes.protobuf", 35);
}

json_t *srv_pb_namespace_json(const char *body, size_t n, strbuf *err) {
  static const char magic[4] = {'k', '8', 's', 0};
  if (n < 4 || memcmp(body, magic, 4)) {
    sb_puts(err, "provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]");
    return NULL;
  }
  pb_reader unknown = {(const unsigned char *)body + 4, (const unsigned char *)body + n}, s, raw = {0};
  unsigned f;
  bool bad = false, have_raw = false;
  json_t *root = json_object();
  while (next_field(&unknown, &f, &s, &bad)) {
    if (f == 1) { /* typeMeta: apiVersion = 1, kind = 2 */
      pb_reader t;
      unsigned tf;
      while (next_field(&s, &tf, &t, &bad))
        if (tf == 1 || tf == 2) json_object_set_new(root, tf == 1 ? "apiVersion" : "kind", string_of(&t));
    } else if (f == 2) {
      raw = s;
      have_raw = true;
    }
  }
  while (have_raw && next_field(&raw, &f, &s, &bad)) {
    if (f == 1) json_object_set_new(root, "metadata", object_meta(s, &bad));
    else if (f == 2) { /* NamespaceSpec: finalizers = 1 */
      json_t *spec = json_object();
      pb_reader t;
      unsigned tf;
      while (next_field(&s, &tf, &t, &bad))
        if (tf == 1) append_string(spec, "finalizers", &t);
      json_object_set_new(root, "spec", spec);
    }
  }
  if (bad || !have_raw) {
    sb_puts(err, "unable to decode the protobuf body");
    json_decref(root);
    return NULL;
  }
  return root;
}
