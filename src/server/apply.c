/* apply.c: see apply.h. Upstream: k8s.io/apiserver pkg/endpoints/handlers
 * patch.go (applyPatcher), create.go (managerOrUserAgent), and
 * k8s.io/apimachinery pkg/apis/meta/v1/validation (ValidatePatchOptions). */
#include "server/apply.h"
#include "server/params.h"
#include "api/managed_fields.h"
#include "api/managed_fields_tree.h"
#include "api/ssa_apply.h"
#include "api/ssa_go_zero.h"
#include "api/ssa_schema.h"
#include "api/ssa_track.h"
#include "codec/doc.h"
#include "server/body.h"
#include "server/status.h"
#include "store/meta.h"
#include "util/die.h"
#include "util/utf8.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

bool srv_is_apply(const http_request *req) {
  return req->content_type && !strncmp(req->content_type, "application/apply-patch+yaml", 28) &&
         !strcmp(req->method, "PATCH");
}

void srv_manager_name(const http_request *req, strbuf *out) {
  const char *m = http_query_get(req, "fieldManager");
  if (m && *m) sb_puts(out, m);
  else if (req->user_agent) { /* prefixFromUserAgent */
    const char *s = req->user_agent, *end = strchr(s, '/');
    size_t left = end ? (size_t)(end - s) : strlen(s);
    while (left) {
      unsigned cp = 0xfffd;
      size_t n = utf8_decode((const unsigned char *)s, left, &cp);
      if (!n) n = 1, cp = 0xfffd; /* Go reads a bad byte as U+FFFD */
      if (mf_rune_printable(cp)) {
        strbuf rune = STRBUF_INIT;
        utf8_encode(&rune, cp);
        if (out->len + rune.len > SRV_FIELD_MANAGER_MAX_LENGTH) {
          sb_free(&rune);
          break;
        }
        sb_add(out, rune.buf, rune.len);
        sb_free(&rune);
      }
      s += n;
      left -= n;
    }
  }
  if (!out->len) sb_puts(out, "unknown"); /* buildManagerInfo's name for none */
}

/* The request's group/version and its type for server-side apply. */
static int request_type(const route *r, char **gv) {
  *gv = srv_api_version(r->resource->group, r->version);
  return ssa_type_of_kind(*gv, r->resource->kind);
}

/* The object a create starts from: the kind's zero value as Go writes it
 * (upstream's creater.New), so that fields every object has, like spec,
 * are not counted as added by the writer. */
static json_t *zero_object(const route *r, const char *gv) {
  json_t *zero = json_pack("{s:s,s:s}", "apiVersion", gv, "kind", r->resource->kind);
  ssa_fill_go_zero(zero);
  return zero;
}

/* o in the request's version as Go writes it (ssa_go_zero.h). */
static json_t *as_go_writes(const api_object *o, const route *r) {
  json_t *v = srv_object_in_version(o, r->wire);
  ssa_fill_go_zero(v);
  return v;
}

/* obj's managedFields after req's manager wrote it over old (NULL: a create). */
static void record_update(const route *r, const http_request *req, api_object *obj, const api_object *old) {
  char now[21];
  meta_format_time((int64_t)time(NULL), now);
  strbuf manager = STRBUF_INIT;
  srv_manager_name(req, &manager);
  ssa_track_update(obj, old, r->wire, &(ssa_writer){sb_str(&manager), r->subresource, now, false});
  sb_free(&manager);
}

void srv_track_controller_write(api_object *next, const api_object *old, const char *subresource) {
  char now[21];
  meta_format_time((int64_t)time(NULL), now);
  ssa_track_update(next, old, NULL, &(ssa_writer){"kube-controller-manager", subresource, now, false});
}

void srv_track_managed_fields(const route *r, const http_request *req, api_object *obj, const api_object *old) {
  if (!srv_is_apply(req)) record_update(r, req, obj, old); /* an apply recorded its own */
}

bool srv_managed_fields_valid(api_object *obj, http_response *resp) {
  errlist errs = {0};
  json_t *mf = mf_tree(api_object_meta(obj));
  mf_validate(mf, &errs);
  json_decref(mf);
  if (errs.n) srv_status_invalid(resp, obj, &errs);
  bool ok = !errs.n;
  errlist_free(&errs);
  return ok;
}

/* The body as one object; NULL with the 400 answered. */
static json_t *applied_configuration(const http_request *req, http_response *resp) {
  docset ds = {0};
  strbuf err = STRBUF_INIT;
  json_t *config = NULL;
  if (docs_load_buffer("patch", req->body ? req->body : "", req->body_len, &ds, &err) || ds.n != 1) {
    strbuf msg = STRBUF_INIT;
    sb_printf(&msg, "error decoding patch: %s", err.len ? sb_str(&err) : "the patch must hold exactly one object");
    srv_status_bad_request(resp, sb_str(&msg));
    sb_free(&msg);
  } else config = json_incref(ds.items[0].root);
  sb_free(&err);
  docset_free(&ds);
  return config;
}

/* versionCheckManager: the configuration must be of the URL's kind. */
static bool same_kind(const route *r, const char *gv, const json_t *config, http_response *resp) {
  const char *version = json_string_value(json_object_get(config, "apiVersion")),
             *kind = json_string_value(json_object_get(config, "kind"));
  if (version && kind && !strcmp(version, gv) && !strcmp(kind, r->resource->kind)) return true;
  strbuf msg = STRBUF_INIT;
  version = version ? version : "";
  sb_printf(&msg, "invalid object type: %s%s, Kind=%s", strchr(version, '/') ? "" : "/", version, kind ? kind : "");
  srv_status_bad_request(resp, sb_str(&msg));
  sb_free(&msg);
  return false;
}

/* checkName on the object the apply made. */
static bool named_as_url(const route *r, const json_t *obj, http_response *resp) {
  const char *name = json_string_value(json_object_get(json_object_get(obj, "metadata"), "name"));
  if (name && !strcmp(name, r->name)) return true;
  srv_status_name_mismatch(resp, name, r->name);
  return false;
}

static void answer_failure(ssa_apply_status st, ssa_apply_result *res, http_response *resp) {
  if (st == SSA_APPLY_CONFLICT) {
    srv_status(resp, 409, "Conflict", sb_str(&res->message), json_pack("{s:O}", "causes", res->causes));
  } else if (st == SSA_APPLY_BAD_REQUEST) {
    srv_status_bad_request(resp, sb_str(&res->message));
  } else {
    strbuf msg = STRBUF_INIT;
    sb_printf(&msg, "Internal error occurred: %s", sb_str(&res->message));
    srv_status(resp, 500, "InternalError", sb_str(&msg),
               json_pack("{s:[{s:s}]}", "causes", "message", sb_str(&res->message)));
    sb_free(&msg);
  }
}

/* Writes the object the apply made: an update of old, or a create. */
static void write_applied(dra_server *s, const route *r, const http_request *req, http_response *resp, json_t *obj,
                          store_obj *old) {
  json_t *meta = json_object_get(obj, "metadata");
  if (old && json_is_object(meta)) /* the apply is of the version read: concurrent writes conflict */
    json_object_set_new(meta, "resourceVersion", json_string(store_obj_meta(old)->resource_version));
  api_object *typed = srv_decode_tree(r, req, obj, resp);
  if (!typed) return;
  if (old) srv_update_object(s, r, req, resp, typed, NULL);
  else srv_create_object(s, r, req, resp, typed);
}

#define PATCH_ATTEMPTS 100000

void srv_patch_retrying(http_response *resp, bool (*attempt)(void *ctx), void *ctx) {
  size_t warnings = resp->warnings.len;
  for (int n = 1; !attempt(ctx) && n < PATCH_ATTEMPTS; n++) {
    sb_truncate(&resp->body, 0);
    sb_truncate(&resp->warnings, warnings);
    resp->status = 0;
  }
}

typedef struct apply_attempt {
  srv_call call;
  int type;
  const char *gv;
  const json_t *config;
} apply_attempt;

/* One apply of config on the object as stored now; false when a
 * concurrent write got in between (the 409 is in resp). */
static bool apply_once(void *ctx) {
  apply_attempt *a = ctx;
  dra_server *s = a->call.s;
  const route *r = a->call.r;
  const http_request *req = a->call.req;
  http_response *resp = a->call.resp;
  int type = a->type;
  const char *gv = a->gv;
  const json_t *config = a->config;
  store_obj *old = NULL;
  bool done = true;
  store_status got = store_get(srv_reads_of(s, req), (api_kind)r->resource->api_kind, r->namespace_, r->name, &old);
  if (got == STORE_NOT_FOUND && r->subresource[0]) {
    srv_status_not_found(resp, r->resource, r->name); /* only the main resource is created by an apply */
  } else if (got != STORE_OK && got != STORE_NOT_FOUND) {
    srv_status(resp, 500, "InternalError", "Internal error occurred: the store cannot read the object", NULL);
  } else {
    json_t *zero = zero_object(r, gv);
    json_t *live = old ? as_go_writes(old->object, r) : json_incref(zero);
    char now[21];
    meta_format_time((int64_t)time(NULL), now);
    ssa_request rq = {type, gv, http_query_get(req, "fieldManager"), r->subresource, now, false, r->resource->api_kind};
    ssa_apply_result res;
    ssa_apply_status st = ssa_apply(&rq, zero, live, config, http_query_bool(req, "force"), &res);
    if (st != SSA_APPLY_OK) answer_failure(st, &res, resp);
    else if (named_as_url(r, res.object, resp)) {
      if (old && json_equal(res.object, live)) { /* nothing changed: nothing to write */
        srv_json_response(resp, 200, srv_object_in_version(old->object, r->wire));
      } else {
        write_applied(s, r, req, resp, res.object, old);
        done = resp->status != 409; /* a write's only 409: the object changed since it was read */
      }
    }
    ssa_apply_result_free(&res);
    json_decref(live);
    json_decref(zero);
  }
  store_obj_unref(old);
  return done;
}

void srv_apply_patch(dra_server *s, const route *r, const http_request *req, http_response *resp) {
  if (!srv_write_options_ok(req, "PatchOptions", resp)) return;
  char *gv;
  int type = request_type(r, &gv);
  json_t *config = type == SSA_NO_TYPE ? NULL : applied_configuration(req, resp);
  if (type == SSA_NO_TYPE)
    srv_status(resp, 415, "UnsupportedMediaType", "the body of the request was in an unknown format - accepted media "
               "types include: application/json-patch+json, application/merge-patch+json", NULL);
  if (config && same_kind(r, gv, config, resp))
    srv_patch_retrying(resp, apply_once, &(apply_attempt){{s, r, req, resp}, type, gv, config});
  json_decref(config);
  free(gv);
}
