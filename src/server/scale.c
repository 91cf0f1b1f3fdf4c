/* scale.c: see scale.h. */
#include "server/scale.h"
#include "api/workload.h"
#include "server/patch.h"
#include "server/status.h"
#include <stdlib.h>
#include <string.h>

/* The Scale of stored workload o (k8s.io/kubernetes pkg/registry/apps
 * scaleFromDeployment and its siblings). */
static json_t *scale_of(const api_object *o) {
  const object_meta *m = api_object_meta(o);
  bool *set;
  const int64_t *replicas = workload_replicas(o, &set);
  json_t *sc = json_object(), *meta = json_object(), *spec = json_object(), *status = json_object();
  json_object_set_new(sc, "kind", json_string("Scale"));
  json_object_set_new(sc, "apiVersion", json_string("autoscaling/v1"));
  json_object_set_new(meta, "name", json_string(m->name ? m->name : ""));
  json_object_set_new(meta, "namespace", json_string(m->namespace_ ? m->namespace_ : ""));
  if (m->uid) json_object_set_new(meta, "uid", json_string(m->uid));
  if (m->resource_version) json_object_set_new(meta, "resourceVersion", json_string(m->resource_version));
  if (m->creation_timestamp) json_object_set_new(meta, "creationTimestamp", json_string(m->creation_timestamp));
  json_object_set_new(sc, "metadata", meta);
  if (*replicas) json_object_set_new(spec, "replicas", json_integer(*replicas));
  json_object_set_new(sc, "spec", spec);
  json_object_set_new(status, "replicas", json_integer(workload_status_replicas(o)));
  char *selector = workload_selector_string(o);
  if (strcmp(selector, "<none>")) json_object_set_new(status, "selector", json_string(selector));
  free(selector);
  json_object_set_new(sc, "status", status);
  return sc;
}

/* The Scale the client wants: the PUT body, or the stored Scale patched. */
static json_t *wanted_scale(const http_request *req, const json_t *current, http_response *resp) {
  if (!strcmp(req->method, "PUT")) {
    json_error_t jerr;
    json_t *sc = json_loadb(req->body ? req->body : "", req->body_len, 0, &jerr);
    if (!json_is_object(sc)) {
      json_decref(sc);
      srv_status_bad_request(resp, "the body of the request is not a Scale");
      return NULL;
    }
    return sc;
  }
  patch_type type;
  if (!patch_type_from_content_type(req->content_type, &type)) {
    srv_status_unsupported_patch(resp);
    return NULL;
  }
  strbuf err = STRBUF_INIT;
  patch_failure why;
  json_t *sc = patch_apply(type, current, req->body ? req->body : "", req->body_len, &err, &why);
  if (!sc) patch_answer_failure(resp, why, sb_str(&err));
  sb_free(&err);
  return sc;
}

static void write_scale(dra_server *s, const route *r, const http_request *req, http_response *resp,
                        const store_obj *old) {
  json_t *current = scale_of(old->object);
  json_t *sc = wanted_scale(req, current, resp);
  json_decref(current);
  if (!sc) return;
  json_t *replicas = json_object_get(json_object_get(sc, "spec"), "replicas");
  const char *rv = json_string_value(json_object_get(json_object_get(sc, "metadata"), "resourceVersion"));
  if (replicas && !json_is_integer(replicas)) {
    json_decref(sc);
    srv_status(resp, 422, "Invalid", "Scale.autoscaling \"\" is invalid: spec.replicas: must be an integer", NULL);
    return;
  }
  api_object *obj = api_object_clone(old->object);
  bool *set;
  int64_t *want = workload_replicas(obj, &set);
  *want = replicas ? json_integer_value(replicas) : 0;
  *set = true;
  object_meta *m = api_object_meta(obj);
  m->resource_version = rv && *rv ? arena_strdup(obj->arena, rv) : NULL;
  json_decref(sc);
  route main = *r;
  main.subresource[0] = 0;
  store_obj *stored = NULL;
  srv_update_object(s, &main, req, resp, obj, &stored);
  if (!stored) return; /* refused: answered */
  srv_json_response(resp, 200, scale_of(stored->object));
  store_obj_unref(stored);
}

void srv_scale_request(dra_server *s, const route *r, const http_request *req, http_response *resp) {
  const char *m = req->method;
  if (strcmp(m, "GET") && strcmp(m, "PUT") && strcmp(m, "PATCH")) return srv_status_method_not_allowed(resp, m);
  store_obj *old = NULL;
  /* a GET shows what is on disk; a write starts from the latest state (a dry run's from what is on disk) */
  store *from = strcmp(m, "GET") ? srv_reads_of(s, req) : s->committed;
  store_status st = store_get(from, (api_kind)r->resource->api_kind, r->namespace_, r->name, &old);
  if (st != STORE_OK) {
    srv_status_not_found(resp, r->resource, r->name);
    return;
  }
  if (!strcmp(m, "GET")) srv_json_response(resp, 200, scale_of(old->object));
  else write_scale(s, r, req, resp, old);
  store_obj_unref(old);
}
