/* pb_decode.c: protobuf -> JSON tree, the tree Go's encoding/json writes
 * for the value k8s.io/api's generated Unmarshal reads (pb_codec.h):
 * unknown field numbers are skipped as Unmarshal skips them; a field the
 * bytes lack is its Go zero value, which JSON shows unless omitempty
 * leaves it out (structs are never left out; nil slices, maps and
 * pointers without omitempty are null). */
#include "codec/pb_codec.h"
#include "codec/pb_time.h"
#include "codec/pb_wire.h"
#include "util/utf8.h"
#include <stdlib.h>
#include <string.h>

/* RawExtensions may hold enveloped objects, which hold RawExtensions... */
#define MAX_DEPTH 100

typedef struct decoder {
  strbuf *err;
  int depth;
} decoder;

static json_t *message(decoder *d, const pb_message *m, pb_reader r);

static json_t *fail(decoder *d, const char *fmt, const char *what) {
  if (!d->err->len) sb_printf(d->err, fmt, what);
  return NULL;
}

/* Go's JSON writes invalid UTF-8 as U+FFFD. */
static json_t *string_of(pb_reader s) {
  strbuf text = STRBUF_INIT;
  for (const unsigned char *p = s.p; p < s.end;) {
    unsigned cp;
    size_t n = utf8_decode(p, (size_t)(s.end - p), &cp);
    if (n) sb_add(&text, (const char *)p, n);
    else sb_puts(&text, "\xef\xbf\xbd");
    p += n ? n : 1;
  }
  json_t *v = json_stringn(text.buf ? text.buf : "", text.len);
  sb_free(&text);
  return v;
}

static json_t *base64_of(pb_reader s) {
  static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  strbuf text = STRBUF_INIT;
  size_t n = pb_len(s);
  for (size_t i = 0; i < n; i += 3) {
    uint32_t v = (uint32_t)s.p[i] << 16 | (i + 1 < n ? (uint32_t)s.p[i + 1] << 8 : 0) | (i + 2 < n ? s.p[i + 2] : 0);
    char q[4] = {alphabet[v >> 18], alphabet[v >> 12 & 63], i + 1 < n ? alphabet[v >> 6 & 63] : '=',
                 i + 2 < n ? alphabet[v & 63] : '='};
    sb_add(&text, q, 4);
  }
  json_t *v = json_stringn(text.buf ? text.buf : "", text.len);
  sb_free(&text);
  return v;
}

/* The field of a small fixed message (Timestamp, Quantity, IntOrString):
 * the last occurrence of number, as Unmarshal keeps it. */
static bool inner(pb_reader r, unsigned number, pb_reader *value) {
  unsigned f, wire;
  pb_reader v;
  bool bad = false, found = false;
  while (pb_next_field(&r, &f, &wire, &v, &bad))
    if (f == number) *value = v, found = true;
  return found;
}

static json_t *timestamp(pb_reader r, bool micro) {
  if (!pb_len(r)) return json_null(); /* metav1.Time's zero value */
  pb_reader v;
  int64_t seconds = inner(r, 1, &v) ? (int64_t)pb_varint_of(v) : 0;
  int32_t nanos = inner(r, 2, &v) ? (int32_t)pb_varint_of(v) : 0;
  strbuf text = STRBUF_INIT;
  pb_format_rfc3339(&text, seconds, nanos, micro);
  json_t *j = json_string(sb_str(&text));
  sb_free(&text);
  return j;
}

static json_t *raw_json(decoder *d, pb_reader r) {
  pb_reader raw;
  if (!inner(r, 1, &raw) || !pb_len(raw)) return json_null();
  if (pb_len(raw) >= 4 && !memcmp(raw.p, "k8s", 4)) { /* an object in its envelope (List items) */
    if (++d->depth > MAX_DEPTH) return fail(d, "%s", "protobuf nested too deeply");
    json_t *o = pb_decode_object(raw.p, pb_len(raw), d->err);
    d->depth--;
    return o;
  }
  json_error_t jerr;
  json_t *j = json_loadb((const char *)raw.p, pb_len(raw), JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);
  return j ? j : fail(d, "%s", "a RawExtension holds no JSON");
}

static json_t *number(double v) {
  if (v == (double)(int64_t)v && v >= -9.2e18 && v <= 9.2e18) return json_integer((json_int_t)v);
  return json_real(v);
}

static unsigned wire_of(const pb_field *f) {
  switch ((pb_kind)f->kind) {
  case PBK_BOOL:
  case PBK_INT32:
  case PBK_INT64:
  case PBK_UINT32:
  case PBK_UINT64: return PB_WIRE_VARINT;
  case PBK_DOUBLE: return PB_WIRE_FIXED64;
  default: return PB_WIRE_LEN;
  }
}

/* One value of f from its bytes (a varint's, a fixed64's or a payload). */
static json_t *value(decoder *d, const pb_field *f, pb_reader v) {
  uint64_t u = f->kind == PBK_DOUBLE ? pb_fixed64_of(v) : pb_varint_of(v);
  pb_reader in;
  switch ((pb_kind)f->kind) {
  case PBK_STRING: return string_of(v);
  case PBK_BYTES: return base64_of(v);
  case PBK_BOOL: return json_boolean(u != 0);
  case PBK_INT32: return json_integer((int32_t)u);
  case PBK_INT64: return json_integer((json_int_t)u);
  case PBK_UINT32: return json_integer((uint32_t)u);
  case PBK_UINT64: return json_integer((json_int_t)u);
  case PBK_DOUBLE: {
    double x;
    memcpy(&x, &u, sizeof x);
    return number(x);
  }
  case PBK_MESSAGE: return message(d, pb_field_message(f), v);
  case PBK_QUANTITY: return inner(v, 1, &in) ? string_of(in) : json_string("0");
  case PBK_TIME: return timestamp(v, false);
  case PBK_MICRO_TIME: return timestamp(v, true);
  case PBK_DURATION: {
    strbuf text = STRBUF_INIT;
    pb_format_duration(&text, inner(v, 1, &in) ? (int64_t)pb_varint_of(in) : 0);
    json_t *j = json_string(sb_str(&text));
    sb_free(&text);
    return j;
  }
  case PBK_INT_OR_STRING:
    if (inner(v, 1, &in) && pb_varint_of(in) == 1) return inner(v, 3, &in) ? string_of(in) : json_string("");
    return json_integer(inner(v, 2, &in) ? (int32_t)pb_varint_of(in) : 0);
  case PBK_RAW_JSON: return raw_json(d, v);
  }
  return fail(d, "%s", "unknown field kind");
}

/* The JSON a field absent from the bytes shows: its Go zero value, or
 * nothing (NULL) where omitempty leaves it out. */
static json_t *absent(decoder *d, const pb_field *f) {
  bool omit = f->flags & PB_OMITEMPTY;
  if (f->flags & (PB_REPEATED | PB_NILABLE)) return omit ? NULL : json_null();
  switch ((pb_kind)f->kind) {
  case PBK_STRING: return omit ? NULL : json_string("");
  case PBK_BOOL: return omit ? NULL : json_false();
  case PBK_INT32:
  case PBK_INT64:
  case PBK_UINT32:
  case PBK_UINT64:
  case PBK_DOUBLE: return omit ? NULL : json_integer(0);
  case PBK_BYTES: return omit ? NULL : json_null();
  default: { /* structs are never omitted */
    pb_reader none = {(const unsigned char *)"", (const unsigned char *)""};
    return value(d, f, none);
  }
  }
}

static bool is_zero_scalar(const json_t *v) {
  return (json_is_string(v) && !json_string_length(v)) || json_is_false(v) ||
         (json_is_integer(v) && !json_integer_value(v)) || (json_is_real(v) && json_real_value(v) == 0);
}

static bool map_entry(decoder *d, const pb_field *f, pb_reader r, json_t *map) {
  const pb_field *vf = &pb_fields[pb_field_message(f)->first + 1];
  unsigned n, wire;
  pb_reader v;
  bool bad = false;
  json_t *key = NULL, *val = NULL;
  while (pb_next_field(&r, &n, &wire, &v, &bad)) {
    json_t **slot = n == 1 ? &key : n == 2 ? &val : NULL;
    if (!slot) continue;
    if (wire != (n == 1 ? PB_WIRE_LEN : wire_of(vf))) bad = true;
    json_decref(*slot);
    *slot = n == 1 ? string_of(v) : value(d, vf, v);
    if (!*slot) break;
    if (n == 2 && (vf->flags & PB_WRAPPED)) {
      json_t *items = json_object_get(*slot, "items");
      items = json_is_array(items) ? json_incref(items) : json_array();
      json_decref(*slot);
      *slot = items;
    }
  }
  bool ok = !bad && (key || !d->err->len);
  if (ok && !val && !d->err->len) val = (vf->flags & PB_WRAPPED) ? json_array() : absent(d, vf);
  if (ok && val) json_object_set_new(map, key ? json_string_value(key) : "", val);
  else json_decref(val);
  json_decref(key);
  if (bad) fail(d, "%s", "unable to decode a protobuf map entry");
  return ok && !d->err->len;
}

static void append(json_t *obj, const char *key, json_t *v) {
  json_t *a = json_object_get(obj, key);
  if (!json_is_array(a)) json_object_set_new(obj, key, a = json_array());
  json_array_append_new(a, v);
}

/* A repeated varint field may come packed (one payload of varints). */
static bool packed(decoder *d, const pb_field *f, pb_reader r, json_t *obj) {
  while (r.p < r.end) {
    pb_reader v = r;
    uint64_t ignored;
    if (!pb_read_varint(&r, &ignored)) return fail(d, "%s", "unable to decode a packed field"), false;
    v.end = r.p;
    append(obj, f->json, value(d, f, v));
  }
  return true;
}

static bool field(decoder *d, const pb_field *f, unsigned wire, pb_reader v, json_t *obj) {
  if ((f->flags & PB_REPEATED) && !(f->flags & PB_MAP) && wire == PB_WIRE_LEN && wire_of(f) == PB_WIRE_VARINT)
    return packed(d, f, v, obj);
  if (wire != wire_of(f)) return fail(d, "proto: wrong wireType for field %s", f->json ? f->json : "(inline)"), false;
  if (f->flags & PB_INLINE) {
    json_t *sub = message(d, pb_field_message(f), v);
    if (sub) json_object_update(obj, sub);
    json_decref(sub);
    return sub != NULL;
  }
  if (f->flags & PB_MAP) {
    json_t *map = json_object_get(obj, f->json);
    if (!json_is_object(map)) json_object_set_new(obj, f->json, map = json_object());
    return map_entry(d, f, v, map);
  }
  json_t *j = value(d, f, v);
  if (!j) return false;
  if (f->flags & PB_WRAPPED) {
    json_t *items = json_object_get(j, "items");
    json_object_set(obj, f->json, json_is_array(items) ? items : json_array());
    json_decref(j);
  } else if (f->flags & PB_REPEATED) append(obj, f->json, j);
  else json_object_set_new(obj, f->json, j);
  return true;
}

static json_t *message(decoder *d, const pb_message *m, pb_reader r) {
  if (++d->depth > MAX_DEPTH) return fail(d, "%s", "protobuf nested too deeply");
  json_t *obj = json_object();
  bool *seen = calloc(m->count ? m->count : 1, sizeof *seen), bad = false, ok = true;
  unsigned number, wire;
  pb_reader v;
  while (ok && pb_next_field(&r, &number, &wire, &v, &bad)) {
    const pb_field *f = pb_message_field(m, number);
    if (!f) continue;
    seen[f - &pb_fields[m->first]] = true;
    ok = field(d, f, wire, v, obj);
  }
  if (bad) ok = fail(d, "%s", "unable to decode the protobuf message") != NULL;
  for (unsigned i = 0; ok && i < m->count; i++) {
    const pb_field *f = &pb_fields[m->first + i];
    json_t *have = f->json ? json_object_get(obj, f->json) : NULL;
    if (f->flags & PB_INLINE) {
      if (seen[i]) continue;
      json_t *zero = absent(d, f);
      if (json_is_object(zero)) json_object_update_missing(obj, zero);
      else if (d->err->len) ok = false;
      json_decref(zero);
    } else if (!seen[i]) {
      json_t *zero = absent(d, f);
      if (zero) json_object_set_new(obj, f->json, zero);
      else if (d->err->len) ok = false;
    } else if ((f->flags & PB_OMITEMPTY) && !(f->flags & (PB_NILABLE | PB_REPEATED)) && f->kind < PBK_MESSAGE &&
               is_zero_scalar(have))
      json_object_del(obj, f->json); /* Go cannot tell a zero value that was sent */
    if ((f->flags & PB_OMITZERO) && !(f->flags & PB_REPEATED) && f->json && json_is_null(json_object_get(obj, f->json)))
      json_object_del(obj, f->json); /* a zero Time (null) that omitzero leaves out */
  }
  free(seen);
  d->depth--;
  if (!ok) {
    json_decref(obj);
    return NULL;
  }
  return obj;
}

json_t *pb_decode_message(const pb_message *m, const void *data, size_t n, strbuf *err) {
  decoder d = {err, 0};
  pb_reader r = {data, (const unsigned char *)data + n};
  return message(&d, m, r);
}
