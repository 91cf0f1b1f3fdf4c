/* pb_encode.c: JSON tree -> protobuf, as k8s.io/api's generated Marshal
 * writes the Go value json.Unmarshal makes of the tree (pb_codec.h):
 * fields by number; a field that is not PB_NILABLE always, at its zero
 * value when the tree lacks it; a PB_NILABLE one only when the tree has
 * it; map entries by key in byte order. */
#include "codec/doc.h"
#include "codec/pb_codec.h"
#include "codec/pb_time.h"
#include "util/go_duration.h"
#include "codec/pb_wire.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct encoder {
  strbuf *out, *err;
} encoder;

static bool fail(encoder *e, const char *json, const char *want) {
  if (!e->err->len) sb_printf(e->err, "%s: %s", json ? json : "(inline)", want);
  return false;
}

static bool message(encoder *e, const pb_message *m, const json_t *obj);

static bool base64_decode(const char *s, strbuf *out) {
  static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  uint32_t acc = 0;
  int bits = 0;
  size_t n = strlen(s), pad = 0;
  if (n % 4) return false;
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '=') {
      if (++pad > 2 || i < n - 2) return false;
      continue;
    }
    const char *d = s[i] ? strchr(alphabet, s[i]) : NULL;
    if (!d || pad) return false;
    acc = acc << 6 | (uint32_t)(d - alphabet);
    if ((bits += 6) >= 8) {
      bits -= 8;
      sb_putc(out, (char)(acc >> bits & 0xFF));
    }
  }
  return true;
}

static bool integer(encoder *e, const pb_field *f, const json_t *v, int64_t *out) {
  if (!v) return *out = 0, true;
  if (json_is_integer(v)) return *out = json_integer_value(v), true;
  return fail(e, f->json, "expected an integer");
}

static bool string_of(encoder *e, const pb_field *f, const json_t *v, const char **out) {
  if (!v) return *out = "", true;
  if (json_is_string(v)) return *out = json_string_value(v), true;
  return fail(e, f->json, "expected a string");
}

/* The JSON text a RawExtension or FieldsV1 holds. */
static void raw_json(encoder *e, unsigned number, const json_t *v) {
  size_t mark = pb_open(e->out, number);
  if (v) {
    strbuf text = STRBUF_INIT;
    doc_write_json_compact(&text, v);
    pb_bytes(e->out, 1, text.buf, text.len);
    sb_free(&text);
  }
  pb_close(e->out, mark);
}

static bool timestamp(encoder *e, const pb_field *f, const json_t *v) {
  size_t mark = pb_open(e->out, f->number);
  if (v) { /* a zero Time writes nothing inside (metav1.Time.MarshalTo) */
    int64_t seconds;
    int32_t nanos;
    if (!json_is_string(v) || !pb_parse_rfc3339(json_string_value(v), &seconds, &nanos))
      return fail(e, f->json, "expected an RFC 3339 time");
    pb_uint(e->out, 1, (uint64_t)seconds);
    /* Time drops the nanoseconds (its JSON has none); MicroTime keeps them */
    pb_uint(e->out, 2, f->kind == PBK_MICRO_TIME ? (uint64_t)(int64_t)(nanos / 1000 * 1000) : 0);
  }
  pb_close(e->out, mark);
  return true;
}

static bool int_or_string(encoder *e, const pb_field *f, const json_t *v) {
  size_t mark = pb_open(e->out, f->number);
  bool is_string = json_is_string(v);
  if (v && !is_string && !json_is_integer(v)) return fail(e, f->json, "expected an integer or a string");
  pb_uint(e->out, 1, is_string);
  pb_uint(e->out, 2, is_string || !v ? 0 : (uint64_t)(int64_t)(int32_t)json_integer_value(v));
  pb_string(e->out, 3, is_string ? json_string_value(v) : "");
  pb_close(e->out, mark);
  return true;
}

/* One value of field f (an element, for a repeated field); v NULL is the
 * Go zero value. */
static bool value(encoder *e, const pb_field *f, const json_t *v) {
  if (json_is_null(v)) v = NULL;
  int64_t i;
  const char *s;
  switch ((pb_kind)f->kind) {
  case PBK_STRING:
    if (!string_of(e, f, v, &s)) return false;
    pb_bytes(e->out, f->number, s, v ? json_string_length(v) : 0);
    return true;
  case PBK_BYTES: {
    if (!string_of(e, f, v, &s)) return false;
    strbuf bytes = STRBUF_INIT;
    bool ok = base64_decode(s, &bytes);
    if (ok) pb_bytes(e->out, f->number, bytes.buf, bytes.len);
    sb_free(&bytes);
    return ok || fail(e, f->json, "expected base64");
  }
  case PBK_BOOL:
    if (v && !json_is_boolean(v)) return fail(e, f->json, "expected a boolean");
    pb_bool(e->out, f->number, json_is_true(v));
    return true;
  case PBK_INT32:
    if (!integer(e, f, v, &i)) return false;
    pb_uint(e->out, f->number, (uint64_t)(int64_t)(int32_t)i);
    return true;
  case PBK_INT64:
  case PBK_UINT32:
  case PBK_UINT64:
    if (!integer(e, f, v, &i)) return false;
    pb_uint(e->out, f->number, f->kind == PBK_UINT32 ? (uint32_t)i : (uint64_t)i);
    return true;
  case PBK_DOUBLE:
    if (v && !json_is_number(v)) return fail(e, f->json, "expected a number");
    pb_double(e->out, f->number, v ? json_number_value(v) : 0);
    return true;
  case PBK_MESSAGE: {
    if (v && !json_is_object(v)) return fail(e, f->json, "expected an object");
    size_t mark = pb_open(e->out, f->number);
    json_t *empty = v ? NULL : json_object();
    bool ok = message(e, pb_field_message(f), v ? v : empty);
    json_decref(empty);
    pb_close(e->out, mark);
    return ok;
  }
  case PBK_QUANTITY: {
    if (v && !json_is_string(v)) return fail(e, f->json, "expected a quantity string");
    size_t mark = pb_open(e->out, f->number);
    pb_string(e->out, 1, v ? json_string_value(v) : "0");
    pb_close(e->out, mark);
    return true;
  }
  case PBK_TIME:
  case PBK_MICRO_TIME: return timestamp(e, f, v);
  case PBK_DURATION: {
    int64_t ns = 0;
    if (v && (!json_is_string(v) || !go_parse_duration(json_string_value(v), json_string_length(v), &ns, NULL)))
      return fail(e, f->json, "expected a duration");
    size_t mark = pb_open(e->out, f->number);
    pb_uint(e->out, 1, (uint64_t)ns);
    pb_close(e->out, mark);
    return true;
  }
  case PBK_INT_OR_STRING: return int_or_string(e, f, v);
  case PBK_RAW_JSON: raw_json(e, f->number, v); return true;
  }
  return fail(e, f->json, "unknown kind");
}

/* A named slice kept as one message repeating its elements at field 1
 * (metav1.Verbs, ExtraValue); v NULL is an empty one. */
static bool wrapped(encoder *e, const pb_field *f, const json_t *v) {
  if (v && !json_is_array(v)) return fail(e, f->json, "expected an array");
  size_t mark = pb_open(e->out, f->number);
  json_t *wrapper = v ? json_pack("{sO}", "items", v) : json_object();
  bool ok = message(e, pb_field_message(f), wrapper);
  json_decref(wrapper);
  pb_close(e->out, mark);
  return ok;
}

static int compare_keys(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* map<string, V>: one entry message per key, keys sorted as Go's
 * sort.Strings sorts them. */
static bool map_entries(encoder *e, const pb_field *f, const json_t *obj) {
  if (!json_is_object(obj)) return fail(e, f->json, "expected an object");
  size_t n = json_object_size(obj), i = 0;
  const char **keys = malloc((n ? n : 1) * sizeof *keys);
  const char *k;
  json_t *v;
  json_object_foreach((json_t *)obj, k, v) keys[i++] = k;
  qsort(keys, n, sizeof *keys, compare_keys);
  const pb_message *entry = pb_field_message(f);
  bool ok = true;
  for (i = 0; i < n && ok; i++) {
    size_t mark = pb_open(e->out, f->number);
    pb_string(e->out, 1, keys[i]);
    const pb_field *vf = &pb_fields[entry->first + 1];
    json_t *val = json_object_get(obj, keys[i]);
    if (vf->flags & PB_WRAPPED) ok = wrapped(e, vf, json_is_null(val) ? NULL : val);
    else if (!(vf->flags & PB_NILABLE) || !json_is_null(val)) ok = value(e, vf, val);
    pb_close(e->out, mark);
  }
  free(keys);
  return ok;
}

static bool field(encoder *e, const pb_field *f, const json_t *obj) {
  if (f->flags & PB_INLINE) {
    size_t mark = pb_open(e->out, f->number);
    bool ok = message(e, pb_field_message(f), obj);
    pb_close(e->out, mark);
    return ok;
  }
  const json_t *v = json_object_get(obj, f->json);
  if (json_is_null(v)) v = NULL;
  if (f->flags & PB_MAP) return !v || map_entries(e, f, v);
  if (f->flags & PB_WRAPPED) return !v || wrapped(e, f, v);
  if (f->flags & PB_REPEATED) {
    if (!v) return true;
    if (!json_is_array(v)) return fail(e, f->json, "expected an array");
    size_t i;
    json_t *el;
    json_array_foreach(v, i, el) if (!value(e, f, el)) return false;
    return true;
  }
  if (!v && (f->flags & PB_NILABLE)) return true;
  return value(e, f, v);
}

static bool message(encoder *e, const pb_message *m, const json_t *obj) {
  for (unsigned i = 0; i < m->count; i++)
    if (!field(e, &pb_fields[m->first + i], obj)) return false;
  return true;
}

bool pb_encode_message(const pb_message *m, const json_t *obj, strbuf *out, strbuf *err) {
  encoder e = {out, err};
  return message(&e, m, obj);
}
