/* etcd_json.c: parsing etcd's gRPC gateway replies (etcd_json.h). Every
 * member is optional, as proto3 JSON leaves out default values (false, 0,
 * empty lists); anything of the wrong type makes the reply invalid. */
#include "store/etcd_json.h"
#include "util/die.h"
#include <errno.h>
#include <inttypes.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

char *etcd_base64(const char *bytes, size_t n) {
  char *out = xmalloc(4 * ((n + 2) / 3) + 1);
  EVP_EncodeBlock((unsigned char *)out, (const unsigned char *)bytes, (int)n);
  return out;
}

json_t *etcd_bytes_json(const char *bytes, size_t n) {
  char *b64 = etcd_base64(bytes, n);
  json_t *j = json_string(b64);
  free(b64);
  return j;
}

json_t *etcd_int64(int64_t v) {
  char text[24];
  snprintf(text, sizeof text, "%" PRId64, v);
  return json_string(text);
}

/* Decodes base64 text into a NUL-terminated copy; false if it is not base64. */
static bool unbase64(const char *text, char **out, size_t *out_len) {
  size_t n = strlen(text);
  if (n % 4) return false;
  unsigned char *buf = xmalloc(n / 4 * 3 + 1);
  int got = n ? EVP_DecodeBlock(buf, (const unsigned char *)text, (int)n) : 0;
  if (got < 0) {
    free(buf);
    return false;
  }
  size_t len = (size_t)got;
  for (size_t i = n; i > 0 && text[i - 1] == '=' && len > 0; i--) len--; /* DecodeBlock counts the padding */
  buf[len] = 0;
  *out = (char *)buf;
  *out_len = len;
  return true;
}

/* An int64 member, as a decimal string or a number; absent is 0. */
static bool int64_member(const json_t *obj, const char *name, int64_t *out) {
  const json_t *v = json_object_get(obj, name);
  *out = 0;
  if (!v) return true;
  if (json_is_integer(v)) {
    *out = json_integer_value(v);
    return true;
  }
  if (!json_is_string(v)) return false;
  const char *text = json_string_value(v);
  char *end;
  errno = 0;
  long long n = strtoll(text, &end, 10);
  if (!*text || *end || errno) return false;
  *out = n;
  return true;
}

static bool bool_member(const json_t *obj, const char *name, bool *out) {
  const json_t *v = json_object_get(obj, name);
  *out = false;
  if (!v) return true;
  if (!json_is_boolean(v)) return false;
  *out = json_is_true(v);
  return true;
}

/* A bytes member (base64); absent is empty. */
static bool bytes_member(const json_t *obj, const char *name, char **out, size_t *len) {
  const json_t *v = json_object_get(obj, name);
  if (!v) {
    *out = xstrdup("");
    *len = 0;
    return true;
  }
  return json_is_string(v) && unbase64(json_string_value(v), out, len);
}

static void kv_free(etcd_kv *kv) {
  free(kv->key);
  free(kv->value);
}

static bool parse_kv(const json_t *j, etcd_kv *kv) {
  memset(kv, 0, sizeof *kv);
  size_t key_len;
  if (!json_is_object(j) || !bytes_member(j, "key", &kv->key, &key_len) ||
      !bytes_member(j, "value", &kv->value, &kv->value_len) ||
      !int64_member(j, "create_revision", &kv->create_revision) ||
      !int64_member(j, "mod_revision", &kv->mod_revision) || !int64_member(j, "version", &kv->version) ||
      !int64_member(j, "lease", &kv->lease)) {
    kv_free(kv);
    return false;
  }
  return true;
}

static bool parse_kvs(const json_t *list, etcd_reply *r) {
  if (!list) return true;
  if (!json_is_array(list)) return false;
  r->kvs = xcalloc(json_array_size(list) + 1, sizeof *r->kvs);
  for (size_t i = 0; i < json_array_size(list); i++) {
    if (!parse_kv(json_array_get(list, i), &r->kvs[i])) return false;
    r->n_kvs++;
  }
  return true;
}

static bool parse_events(const json_t *list, etcd_reply *r) {
  if (!list) return true;
  if (!json_is_array(list)) return false;
  r->events = xcalloc(json_array_size(list) + 1, sizeof *r->events);
  for (size_t i = 0; i < json_array_size(list); i++) {
    const json_t *ev = json_array_get(list, i);
    if (!json_is_object(ev)) return false;
    const json_t *type = json_object_get(ev, "type");
    if (type && !json_is_string(type)) return false;
    etcd_event *e = &r->events[i];
    e->deleted = type && !strcmp(json_string_value(type), "DELETE");
    if (!parse_kv(json_object_get(ev, "kv"), &e->kv)) return false;
    r->n_events++;
  }
  return true;
}

/* A transaction's responses: the kvs of the first response_range. */
static bool parse_responses(const json_t *list, etcd_reply *r) {
  if (!list) return true;
  if (!json_is_array(list)) return false;
  for (size_t i = 0; i < json_array_size(list); i++) {
    const json_t *resp = json_array_get(list, i);
    if (!json_is_object(resp)) return false;
    const json_t *range = json_object_get(resp, "response_range");
    if (range && !r->kvs) {
      if (!json_is_object(range) || !parse_kvs(json_object_get(range, "kvs"), r)) return false;
    }
  }
  return true;
}

static bool parse_body(const json_t *j, etcd_reply *r) {
  if (!json_is_object(j)) return false;
  const json_t *message = json_object_get(j, "message"), *error = json_object_get(j, "error");
  const json_t *cancel = json_object_get(j, "cancel_reason");
  if (json_is_object(error)) error = json_object_get(error, "message"); /* a stream's error, as the gateway sends it */
  const json_t *why = json_is_string(message) ? message : json_is_string(error) ? error : cancel;
  if (why) {
    if (!json_is_string(why)) return false;
    r->error = xstrdup(json_string_value(why));
  }
  const json_t *header = json_object_get(j, "header");
  if (header && (!json_is_object(header) || !int64_member(header, "revision", &r->revision))) return false;
  if (json_object_get(j, "blob") && !bytes_member(j, "blob", &r->blob, &r->blob_len)) return false;
  return bool_member(j, "succeeded", &r->succeeded) && bool_member(j, "more", &r->more) &&
         bool_member(j, "created", &r->created) && bool_member(j, "canceled", &r->canceled) &&
         int64_member(j, "compact_revision", &r->compact_revision) && int64_member(j, "ID", &r->lease_id) &&
         int64_member(j, "remaining_bytes", &r->remaining_bytes) &&
         parse_kvs(json_object_get(j, "kvs"), r) && parse_events(json_object_get(j, "events"), r) &&
         parse_responses(json_object_get(j, "responses"), r);
}

bool etcd_reply_parse(const char *text, size_t len, etcd_reply *out, strbuf *err) {
  memset(out, 0, sizeof *out);
  json_error_t jerr;
  json_t *j = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
  if (!j) {
    sb_printf(err, "etcd sent a reply that is not JSON: %s", jerr.text);
    return false;
  }
  const json_t *result = json_object_get(j, "result");
  bool ok = parse_body(result ? result : j, out);
  json_decref(j);
  if (!ok) {
    sb_puts(err, "etcd sent a reply of an unexpected shape");
    etcd_reply_free(out);
  }
  return ok;
}

void etcd_reply_free(etcd_reply *r) {
  for (size_t i = 0; i < r->n_kvs; i++) kv_free(&r->kvs[i]);
  for (size_t i = 0; i < r->n_events; i++) kv_free(&r->events[i].kv);
  free(r->kvs);
  free(r->events);
  free(r->error);
  free(r->blob);
  memset(r, 0, sizeof *r);
}
