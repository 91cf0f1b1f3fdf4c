/* body.c: see body.h. */
#include "server/body.h"
#include "codec/doc.h"
#include "api/codec.h"
#include "api/versions.h"
#include "server/media.h"
#include "server/status.h"
#include "util/die.h"
#include "server/warning.h"
#include <stdlib.h>
#include <string.h>

typedef enum { FV_WARN, FV_STRICT, FV_IGNORE } field_validation;

static bool field_validation_mode(const http_request *req, field_validation *out, http_response *resp) {
  const char *v = http_query_get(req, "fieldValidation");
  if (!v || !*v || !strcmp(v, "Warn")) *out = FV_WARN;
  else if (!strcmp(v, "Strict")) *out = FV_STRICT;
  else if (!strcmp(v, "Ignore")) *out = FV_IGNORE;
  else {
    char msg[256];
    snprintf(msg, sizeof msg, "fieldValidation must be one of \"Ignore\", \"Warn\", or \"Strict\", got %.100s", v);
    srv_status_bad_request(resp, msg);
    return false;
  }
  return true;
}

static void cannot_handle(http_response *resp, const api_object *obj, const errlist *errs) {
  char *msg = api_decode_failure_message(obj, errs);
  srv_status_bad_request(resp, msg);
  free(msg);
}

/* The Go package of a group's internal types, as conversion errors name
 * it: the Event of events.k8s.io is the core group's. */
static void internal_package(strbuf *out, const char *group) {
  if (!*group || !strcmp(group, "events.k8s.io")) sb_puts(out, "core");
  else sb_add(out, group, strcspn(group, "."));
}

/* Whether kube-apiserver's scheme knows kind in group/version: those dra
 * serves in some version. */
static bool kind_registered(const char *group, const char *version, const char *kind) {
  for (size_t i = 0; i < srv_n_resources; i++) {
    const srv_resource *r = &srv_resources[i];
    if (!strcmp(r->group, group) && !strcmp(r->kind, kind) && api_version_find((api_kind)r->api_kind, group, version))
      return true;
  }
  return false;
}

/* Why a body of another kind or apiVersion than the endpoint's (gv) is
 * refused, as the handlers' decoder says it: a kind the scheme does not
 * have in that version, a kind it has but cannot convert to the
 * endpoint's, or the endpoint's kind in another of its versions. */
static void foreign_kind_message(strbuf *msg, const srv_resource *res, const char *kind, const char *api_version,
                                 const char *gv) {
  const char *slash = strchr(api_version, '/');
  const char *version = slash ? slash + 1 : api_version;
  char *group = slash ? strndup(api_version, (size_t)(slash - api_version)) : strdup("");
  if (!group) die_oom();
  if (!kind_registered(group, version, kind)) {
    sb_printf(msg, "%s in version \"%s\" cannot be handled as a %s: no kind \"%s\" is registered for version \"%s\" in scheme "
              "\"pkg/runtime/scheme.go:111\"", kind, version, res->kind, kind, api_version);
  } else if (strcmp(kind, res->kind)) {
    sb_printf(msg, "%s in version \"%s\" cannot be handled as a %s: converting (%s.%s) to (", kind, version, res->kind,
              version, kind);
    internal_package(msg, res->group);
    sb_printf(msg, ".%s): unknown conversion", res->kind);
  } else {
    sb_printf(msg, "the API version in the data (%s) does not match the expected API version (%s)", api_version, gv);
  }
  free(group);
}

static api_object *decode(const route *r, const http_request *req, json_t *root, const char *const *dups,
                          size_t n_dups, http_response *resp) {
  const srv_resource *res = r->resource;
  field_validation mode;
  if (!field_validation_mode(req, &mode, resp)) return NULL;
  char *gv = srv_api_version(res->group, r->version);
  if (!json_object_get(root, "apiVersion")) json_object_set_new(root, "apiVersion", json_string(gv));
  if (!json_object_get(root, "kind")) json_object_set_new(root, "kind", json_string(res->kind));
  const char *kind = json_string_value(json_object_get(root, "kind"));
  const char *version = json_string_value(json_object_get(root, "apiVersion"));
  if (!kind || !version || strcmp(kind, res->kind) || strcmp(version, gv)) {
    strbuf msg = STRBUF_INIT;
    foreign_kind_message(&msg, res, kind ? kind : "", version ? version : "", gv);
    srv_status_bad_request(resp, sb_str(&msg));
    sb_free(&msg);
    free(gv);
    return NULL;
  }
  free(gv);
  errlist errs = {0};
  api_object *obj = api_object_decode(root, dups, n_dups, &errs);
  size_t field_problems = 0;
  for (size_t i = 0; i < errs.n; i++) field_problems += errs.items[i].type == FE_UNKNOWN_FIELD;
  if (obj && (errs.n > field_problems || (field_problems && mode == FV_STRICT))) {
    cannot_handle(resp, obj, &errs);
  } else if (obj) {
    if (mode == FV_WARN)
      for (size_t i = 0; i < errs.n; i++) srv_warn(resp, errs.items[i].body);
    errlist_free(&errs);
    object_meta *m = api_object_meta(obj);
    if (res->namespaced) {
      if (!m->namespace_ || !*m->namespace_) m->namespace_ = arena_strdup(obj->arena, r->namespace_);
      else if (strcmp(m->namespace_, r->namespace_)) {
        srv_status_bad_request(resp, "the namespace of the provided object does not match the namespace sent on the request");
        api_object_free(obj);
        return NULL;
      }
    } else {
      m->namespace_ = NULL; /* rest.BeforeCreate and BeforeUpdate clear it on a cluster-scoped object */
    }
    return obj;
  } else {
    srv_status_bad_request(resp, errs.n ? errs.items[0].body : "cannot decode the object");
  }
  errlist_free(&errs);
  api_object_free(obj);
  return NULL;
}

api_object *srv_decode_tree(const route *r, const http_request *req, json_t *root, http_response *resp) {
  return decode(r, req, root, NULL, 0, resp);
}

/* The Go type the handlers' decoder first reads a JSON body into, to find
 * its apiVersion and kind (runtime's SimpleMetaFactory). */
#define VERSION_KIND_STRUCT \
  "struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string \"json:\\\"kind,omitempty\\\"\" }"

/* Why a JSON body has no apiVersion and kind to read, in
 * encoding/json's words into why (left empty when they can be read, or
 * are missing, which the endpoint then gives). */
static void version_kind_problem(const json_t *root, strbuf *why) {
  if (!json_is_object(root)) {
    if (!json_is_null(root))
      sb_printf(why, "json: cannot unmarshal %s into Go value of type " VERSION_KIND_STRUCT, codec_json_type_word(root));
    return;
  }
  const char *key;
  json_t *v;
  json_object_foreach((json_t *)root, key, v) {
    if ((!strcmp(key, "apiVersion") || !strcmp(key, "kind")) && !json_is_string(v) && !json_is_null(v)) {
      sb_printf(why, "json: cannot unmarshal %s into Go struct field .%s of type string", codec_json_type_word(v), key);
      return;
    }
  }
}

/* transformDecodeError for a body whose kind cannot be read: the Go error
 * and the body's first 30 bytes (as text when it starts as an object,
 * else in hex). */
static void unrecognized(http_response *resp, const route *r, const char *why, const char *body, size_t len) {
  strbuf msg = STRBUF_INIT;
  sb_printf(&msg, "the object provided is unrecognized (must be of type %s): couldn't get version/kind; json parse error: %s (",
            r->resource->kind, why);
  size_t shown = len > 30 ? 30 : len;
  if (!len) sb_puts(&msg, "<empty>");
  else if (body[0] == '{') sb_add(&msg, body, shown);
  else
    for (size_t i = 0; i < shown; i++) sb_printf(&msg, "%02x", (unsigned char)body[i]);
  sb_puts(&msg, len > 30 ? " ...)" : ")");
  srv_status_bad_request(resp, sb_str(&msg));
  sb_free(&msg);
}

/* The Go words of a JSON reader's error, without its "name:line:col: ". */
static const char *go_words(const char *err) {
  const char *p = strchr(err, ':');
  for (int colons = 0; p && colons < 2; colons++) p = strchr(p + 1, ':');
  return p && p[1] == ' ' ? p + 2 : err;
}

api_object *srv_decode_body(const route *r, const http_request *req, http_response *resp) {
  docset ds = {0};
  strbuf err = STRBUF_INIT;
  const char *body = req->body ? req->body : "";
  bool json = req->content_type && srv_body_media(req->content_type) == SRV_MEDIA_JSON; /* sent as JSON */
  int rc = json ? docs_load_json("request body", body, req->body_len, &ds, &err)
                : docs_load_buffer("request body", body, req->body_len, &ds, &err);
  strbuf why = STRBUF_INIT;
  if (json && !rc && ds.n == 1) version_kind_problem(ds.items[0].root, &why);
  if (json && rc) { /* the reader takes objects only: another JSON value is Go's type error */
    json_t *value = json_loadb(body, req->body_len, JSON_DECODE_ANY, NULL);
    if (value) version_kind_problem(value, &why);
    json_decref(value);
  }
  if (json && (rc || !ds.n || why.len)) {
    unrecognized(resp, r, why.len ? sb_str(&why) : rc ? go_words(sb_str(&err)) : "unexpected end of JSON input", body,
                 req->body_len);
    sb_free(&why);
    sb_free(&err);
    docset_free(&ds);
    return NULL;
  }
  sb_free(&why);
  if (rc || ds.n != 1) {
    strbuf msg = STRBUF_INIT;
    if (err.len) sb_printf(&msg, "error decoding the request body: %s", sb_str(&err));
    else sb_puts(&msg, "the request body must hold exactly one object");
    srv_status_bad_request(resp, sb_str(&msg));
    sb_free(&msg);
    sb_free(&err);
    docset_free(&ds);
    return NULL;
  }
  sb_free(&err);
  doc *d = &ds.items[0];
  api_object *obj = decode(r, req, d->root, (const char *const *)d->dup_fields, d->n_dup_fields, resp);
  docset_free(&ds);
  return obj;
}
