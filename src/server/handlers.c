/* handlers.c: the verbs on resources: get, create, update (main resource
 * and status), patch, delete (with finalizers), pods/binding, and dispatch
 * to list and watch. Writes go through the admission pipeline, then the
 * store; failures become kube-apiserver's Status responses. */
#include "server/apply.h"
#include "server/body.h"
#include "server/claim_status_authz.h"
#include "server/deletion.h"
#include "server/fresh.h"
#include "api/codec.h"
#include "api/validate.h"
#include "server/list.h"
#include "server/media.h"
#include "server/namespaces.h"
#include "server/params.h"
#include "server/patch.h"
#include "sched/priority_classes.h"
#include "server/rbac_escalation.h"
#include "server/scale.h"
#include "server/server_internal.h"
#include "server/status.h"
#include "server/table.h"
#include "server/warning.h"
#include "store/meta.h"
#include "store/etcd.h"
#include "store/sqlite.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Per-request admission context: namespaces read for the adminAccess check
 * stay referenced until the request ends. */
typedef struct request_ctx {
  dra_server *srv;
  store *reads; /* srv_reads_of */
  http_response *resp;
  store_obj *held[6];
  size_t n_held;
  char now[21];
} request_ctx;

static const namespace_obj *lookup_namespace(void *user, const char *name) {
  request_ctx *rc = user;
  store_obj *o = NULL;
  if (rc->n_held == sizeof rc->held / sizeof rc->held[0]) return NULL;
  if (store_get(rc->reads, KIND_NAMESPACE, NULL, name, &o) != STORE_OK) return NULL;
  rc->held[rc->n_held++] = o;
  return o->object->typed;
}

static const priority_class *lookup_priority_class(void *user, const char *name) {
  request_ctx *rc = user;
  if (rc->n_held == sizeof rc->held / sizeof rc->held[0]) return NULL;
  store_obj *o = sched_priority_class_get(rc->reads, name);
  if (!o) return NULL;
  rc->held[rc->n_held++] = o;
  return o->object->typed;
}

static void add_warning(void *user, const char *line) {
  request_ctx *rc = user;
  srv_warn(rc->resp, !strncmp(line, "Warning: ", 9) ? line + 9 : line);
}

static admission_ctx admission_for(request_ctx *rc) {
  time_t t = time(NULL);
  meta_format_time((int64_t)t, rc->now);
  admission_ctx ctx = {.gates = rc->srv->opts.gates, .now = rc->now, .get_namespace = lookup_namespace, .user = rc,
                       .warn = add_warning, .get_priority_class = lookup_priority_class};
  return ctx;
}

static void release(request_ctx *rc) {
  for (size_t i = 0; i < rc->n_held; i++) store_obj_unref(rc->held[i]);
  rc->n_held = 0;
}

store *srv_reads_of(dra_server *s, const http_request *req) {
  return http_query_get(req, "dryRun") ? s->committed : s->st;
}

/* o as the request's version shows it. */
static void respond_object(http_response *resp, const route *r, int code, store_obj *o) {
  resp->status = code;
  resp->content_type = "application/json";
  srv_put_object_text(&resp->body, o, r->wire);
  sb_putc(&resp->body, '\n');
}

/* apierrors.NewInternalError for a write the disk or etcd refused (docs/store.md,
 * "Disk full and I/O errors"). */
static void srv_status_store_unavailable(http_response *resp, dra_server *s) {
  char msg[400];
  store_last_error(s->st, msg, sizeof msg);
  json_t *cause = json_object();
  json_object_set_new(cause, "message", json_string(msg));
  json_t *details = json_object();
  json_object_set_new(details, "causes", json_pack("[o]", cause));
  strbuf text = STRBUF_INIT;
  sb_printf(&text, "Internal error occurred: %s", msg);
  srv_status(resp, 500, "InternalError", sb_str(&text), details);
  sb_free(&text);
}

static void store_failure(http_response *resp, const route *r, store_status st, const char *name) {
  switch (st) {
  case STORE_NOT_FOUND: srv_status_not_found(resp, r->resource, name); return;
  case STORE_ALREADY_EXISTS: srv_status_already_exists(resp, r->resource, name); return;
  case STORE_CONFLICT: srv_status_conflict(resp, r->resource, name); return;
  case STORE_GONE: srv_status(resp, 410, "Expired", "too old resource version", NULL); return;
  default: {
    char *msg = store_status_message(st, api_kind_info_of((api_kind)r->resource->api_kind), name);
    srv_status(resp, 422, "Invalid", msg, NULL);
    free(msg);
  }
  }
}

/* GET of one object; as a one-row Table when kubectl asks for one, so
 * `kubectl get pod x` shows the same columns as the list. */
static void handle_get(dra_server *s, const route *r, const http_request *req, http_response *resp) {
  if (!fresh_check(s->committed, req, resp)) return;
  srv_include_object include = SRV_INCLUDE_METADATA;
  bool table = srv_wants_table(req->accept);
  if (table) {
    strbuf err = STRBUF_INIT;
    bool ok = srv_include_object_parse(http_query_get(req, "includeObject"), &include, &err);
    if (!ok) srv_status_bad_request(resp, sb_str(&err));
    sb_free(&err);
    if (!ok) return;
  }
  store_obj *o = NULL;
  store_status st = store_get(s->committed, (api_kind)r->resource->api_kind, r->namespace_, r->name, &o);
  if (st != STORE_OK) return store_failure(resp, r, st, r->name);
  if (table)
    srv_json_response(resp, 200, srv_table(r, &o, 1, store_obj_meta(o)->resource_version, NULL, include, true));
  else respond_object(resp, r, 200, o);
  store_obj_unref(o);
}

/* A /finalize update: the spec.finalizers asked for (taken) replace those
 * the update keeps, checked as ValidateNamespaceFinalizeUpdate does. */
static void apply_finalizers(api_object *obj, json_t *finalizers, errlist *errs) {
  namespace_obj *ns = obj->typed;
  if (!json_is_object(ns->spec)) {
    json_decref(finalizers);
    return;
  }
  validate_namespace_finalizers(errs, finalizers, true);
  json_object_set_new(ns->spec, "finalizers", finalizers);
}

/* admission's extractResourceName: the name, else generateName, else "Unknown" */
static const char *admission_name(const object_meta *m) {
  return m->name && *m->name ? m->name : m->generate_name && *m->generate_name ? m->generate_name : "Unknown";
}

/* Admission then store write; op picks create/update/status semantics.
 * The stored object is the response, or, when out is given, handed to the
 * caller (which answers); failures are answered here either way. finalizers
 * (taken; NULL but for /finalize) replace the namespace's spec.finalizers. */
static void write_object(dra_server *s, const route *r, const http_request *req, http_response *resp,
                         api_object *obj, admit_op op, const api_object *old, json_t *finalizers, store_obj **out) {
  if (s->authn && !rbac_write_allowed(&s->authz, req->user_info, r, obj, old, resp)) {
    json_decref(finalizers);
    api_object_free(obj);
    return;
  }
  request_ctx rc = {.srv = s, .reads = srv_reads_of(s, req), .resp = resp};
  admission_ctx ctx = admission_for(&rc);
  ctx.request_version = r->wire;
  /* decoding's defaults, then managedFields (the handler's field
   * manager), then mutating admission (Priority, DefaultTolerationSeconds)
   * and the strategy with validation, Priority's validating half after */
  admit_defaults(&ctx, obj);
  srv_track_managed_fields(r, req, obj, old);
  char *forbidden = admit_priority(&ctx, op, obj, old);
  if (!forbidden) admit_default_toleration_seconds(op, obj);
  errlist errs = {0};
  bool ok = !forbidden && admit_defaulted(&ctx, op, obj, old, &errs);
  if (ok) forbidden = admit_priority_class_default(&ctx, op, obj);
  release(&rc);
  if (forbidden) {
    srv_status_forbidden(resp, r->resource, admission_name(api_object_meta(obj)), forbidden, NULL);
    free(forbidden);
    errlist_free(&errs);
    api_object_free(obj);
    return;
  }
  if (s->authn && req->user_info && op == ADMIT_STATUS_UPDATE && obj->info->kind == KIND_RESOURCE_CLAIM) {
    /* the strategy's authorization checks, on the prepared claim; their
     * errors come before validation's */
    errlist denied = {0};
    claim_status_authorize(&s->authz, &s->opts.gates, req->user_info, strcmp(req->method, "PATCH") ? "update" : "patch",
                           r->namespace_, obj->typed, old->typed, &denied);
    if (denied.n) {
      for (size_t i = 0; i < errs.n; i++) errlist_add(&denied, errs.items[i].type, errs.items[i].field, errs.items[i].body);
      errlist_free(&errs);
      errs = denied;
      ok = false;
    }
  }
  if (finalizers) {
    size_t before = errs.n;
    apply_finalizers(obj, finalizers, &errs);
    ok = ok && errs.n == before;
  }
  if (!ok) {
    srv_status_invalid(resp, obj, &errs);
    errlist_free(&errs);
    api_object_free(obj);
    return;
  }
  errlist_free(&errs);
  if (!srv_managed_fields_valid(obj, resp)) {
    api_object_free(obj);
    return;
  }
  if (http_query_get(req, "dryRun")) {
    const object_meta *m = api_object_meta(obj);
    store_obj *existing = NULL; /* the storage's create refuses it, dry run or not */
    if (op == ADMIT_CREATE && m->name && *m->name &&
        store_get(s->committed, obj->info->kind, m->namespace_, m->name, &existing) == STORE_OK) {
      store_obj_unref(existing);
      store_failure(resp, r, STORE_ALREADY_EXISTS, m->name);
      api_object_free(obj);
      return;
    }
    srv_json_response(resp, op == ADMIT_CREATE ? 201 : 200, srv_object_in_version(obj, r->wire));
    api_object_free(obj);
    return;
  }
  char *name = xstrdup(api_object_meta(obj)->name ? api_object_meta(obj)->name : ""); /* outlives obj */
  store_obj *stored = NULL;
  store_status st = op == ADMIT_CREATE ? store_create(s->st, obj, &stored) : store_update(s->st, obj, &stored);
  if (st == STORE_UNAVAILABLE) { /* the store has taken obj */
    srv_status_store_unavailable(resp, s);
    free(name);
    return;
  }
  if (st != STORE_OK) {
    api_object_free(obj);
    store_failure(resp, r, st, name);
    free(name);
    return;
  }
  free(name);
  if (out) {
    *out = stored;
    return;
  }
  respond_object(resp, r, op == ADMIT_CREATE ? 201 : 200, stored);
  store_obj_unref(stored);
}

/* The metadata a create sets whatever the client sent, so that re-applying
 * a `kubectl get -o yaml` dump makes a new object with its own uid and age:
 * kube-apiserver's registry Store.Create fills uid and creationTimestamp
 * (rest.FillObjectMetaSystemFields), rest.BeforeCreate clears
 * deletionTimestamp and deletionGracePeriodSeconds, and the strategies'
 * PrepareForCreate set generation to 1 (store/meta.c does, for the kinds
 * that have one, when it is unset). */
static void reset_system_fields(api_object *obj) {
  object_meta *m = api_object_meta(obj);
  m->uid = NULL;
  m->creation_timestamp = NULL;
  m->deletion_timestamp = NULL;
  m->deletion_grace_period_seconds = 0;
  m->deletion_grace_period_seconds_set = false;
  if (meta_kind_has_generation(obj->info->kind)) {
    m->generation = 0;
    m->generation_set = false;
  }
}

void srv_create_object(dra_server *s, const route *r, const http_request *req, http_response *resp,
                       api_object *obj) {
  const object_meta *m = api_object_meta(obj);
  if (!srv_namespace_allows_create(s, r, admission_name(m), resp)) {
    api_object_free(obj);
    return;
  }
  if (m->resource_version && *m->resource_version && !http_query_get(req, "dryRun")) {
    /* apiserver's storage refuses it (storage.ErrResourceVersionSetOnCreate),
     * a plain error, so a 500 without a reason; kubectl's create and apply
     * clear it before sending (resource.Helper.Create) */
    srv_status(resp, 500, NULL, "resourceVersion should not be set on objects to be created", NULL);
    api_object_free(obj);
    return;
  }
  reset_system_fields(obj);
  write_object(s, r, req, resp, obj, ADMIT_CREATE, NULL, NULL, NULL);
}

static void handle_create(dra_server *s, const route *r, const http_request *req, http_response *resp) {
  if (!srv_write_options_ok(req, "CreateOptions", resp)) return;
  api_object *obj = srv_decode_body(r, req, resp);
  if (obj) srv_create_object(s, r, req, resp, obj);
}

/* The strategies whose AllowCreateOnUpdate is true, of the kinds dra
 * serves: Lease, Service and Event (both groups). A PUT of a missing one
 * without a resourceVersion creates it (the generic registry's
 * Store.Update). */
static bool creates_on_update(const route *r) {
  int k = r->resource->api_kind;
  return !r->subresource[0] && (k == KIND_LEASE || k == KIND_SERVICE || k == KIND_EVENT);
}

/* The strategies whose AllowUnconditionalUpdate is false for the served
 * version: an update must carry metadata.resourceVersion. Of the kinds dra
 * serves, only DeviceTaintRule (pkg/registry/resource/devicetaintrule,
 * resource.k8s.io/v1). */
static bool needs_resource_version(const route *r) { return r->resource->api_kind == KIND_DEVICE_TAINT_RULE; }

/* The generic registry's refusal (Store.Update): the resource, not the
 * kind, names the object. */
static void refuse_unconditional_update(http_response *resp, const route *r) {
  errlist errs = {0};
  fpath p = {STRBUF_INIT};
  fp_field(&p, "metadata");
  fp_field(&p, "resourceVersion");
  fe_invalid_int(&errs, &p, 0, "must be specified for an update");
  fp_free(&p);
  srv_status_invalid_as(resp, r->resource->group, r->resource->plural, r->name, &errs);
  errlist_free(&errs);
}

void srv_update_object(dra_server *s, const route *r, const http_request *req, http_response *resp, api_object *obj,
                       store_obj **out) {
  object_meta *m = api_object_meta(obj);
  if (!m->name || strcmp(m->name, r->name)) {
    srv_status_name_mismatch(resp, m->name, r->name);
    api_object_free(obj);
    return;
  }
  store_obj *old = NULL;
  store_status st = store_get(srv_reads_of(s, req), (api_kind)r->resource->api_kind, r->namespace_, r->name, &old);
  if (st != STORE_OK) {
    api_object_free(obj);
    return store_failure(resp, r, st, r->name);
  }
  const char *stored_uid = store_obj_meta(old)->uid;
  if (m->uid && *m->uid && (!stored_uid || strcmp(m->uid, stored_uid))) {
    /* the body's uid is a precondition of the storage's update (DefaultUpdatedObjectInfo.Preconditions) */
    srv_status_storage_precondition(resp, r->resource, r->namespace_, r->name, "UID", m->uid, stored_uid);
    api_object_free(obj);
    store_obj_unref(old);
    return;
  }
  if (needs_resource_version(r) && (!m->resource_version || !*m->resource_version)) {
    refuse_unconditional_update(resp, r);
    api_object_free(obj);
    store_obj_unref(old);
    return;
  }
  admit_op op = !strcmp(r->subresource, "status") ? ADMIT_STATUS_UPDATE : ADMIT_UPDATE;
  json_t *finalizers = NULL; /* namespaces/finalize: only there may spec.finalizers change */
  if (!strcmp(r->subresource, "finalize")) {
    json_t *asked = json_object_get(((const namespace_obj *)obj->typed)->spec, "finalizers");
    finalizers = json_is_array(asked) ? json_deep_copy(asked) : json_array();
  }
  admit_keep_from_old(op, obj, old->object);
  write_object(s, r, req, resp, obj, op, old->object, finalizers, out);
  store_obj_unref(old);
}

static void handle_update(dra_server *s, const route *r, const http_request *req, http_response *resp) {
  if (!srv_write_options_ok(req, "UpdateOptions", resp)) return;
  api_object *obj = srv_decode_body(r, req, resp);
  if (!obj) return;
  const object_meta *m = api_object_meta(obj);
  store_obj *old = NULL;
  if (creates_on_update(r) && m->name && !strcmp(m->name, r->name) && (!m->resource_version || !*m->resource_version) &&
      store_get(srv_reads_of(s, req), (api_kind)r->resource->api_kind, r->namespace_, r->name, &old) == STORE_NOT_FOUND)
    return srv_create_object(s, r, req, resp, obj);
  store_obj_unref(old);
  srv_update_object(s, r, req, resp, obj, NULL);
}

typedef struct patch_attempt {
  srv_call call;
  patch_type type;
} patch_attempt;

/* One patch on the object as stored now; false when a concurrent write got
 * in between (the 409 is in resp) and the patch named no resourceVersion of
 * its own, so that doing it again on the fresh object is right. */
static bool patch_once(void *ctx) {
  patch_attempt *a = ctx;
  const route *r = a->call.r;
  http_response *resp = a->call.resp;
  store_obj *old = NULL;
  store_status st = store_get(srv_reads_of(a->call.s, a->call.req), (api_kind)r->resource->api_kind, r->namespace_, r->name, &old);
  if (st != STORE_OK) {
    store_failure(resp, r, st, r->name);
    return true;
  }
  json_t *current = srv_object_in_version(old->object, r->wire); /* the patch is written against that version */
  strbuf err = STRBUF_INIT;
  patch_failure why;
  json_t *patched =
      patch_apply(a->type, current, a->call.req->body ? a->call.req->body : "", a->call.req->body_len, &err, &why);
  json_decref(current);
  if (!patched) {
    patch_answer_failure(resp, why, sb_str(&err));
    sb_free(&err);
    store_obj_unref(old);
    return true;
  }
  sb_free(&err);
  /* the patch applies to the version read: a concurrent write conflicts;
   * a patch that names another version than the one read is a
   * precondition of its own, which no retry can meet */
  json_t *meta = json_object_get(patched, "metadata");
  const char *read_version = store_obj_meta(old)->resource_version;
  const char *patched_version = json_string_value(json_object_get(meta, "resourceVersion"));
  bool own_version = patched_version && (!read_version || strcmp(patched_version, read_version));
  if (json_is_object(meta) && !json_object_get(meta, "resourceVersion"))
    json_object_set_new(meta, "resourceVersion", json_string(read_version));
  store_obj_unref(old);
  api_object *obj = srv_decode_tree(r, a->call.req, patched, resp);
  json_decref(patched);
  if (!obj) return true;
  srv_update_object(a->call.s, r, a->call.req, resp, obj, NULL);
  return own_version || resp->status != 409;
}

static void handle_patch(dra_server *s, const route *r, const http_request *req, http_response *resp) {
  patch_type type;
  if (srv_is_apply(req)) return srv_apply_patch(s, r, req, resp);
  if (!patch_type_from_content_type(req->content_type, &type)) {
    srv_status_unsupported_patch(resp);
    return;
  }
  if (!srv_write_options_ok(req, "PatchOptions", resp)) return;
  srv_patch_retrying(resp, patch_once, &(patch_attempt){{s, r, req, resp}, type});
}

/* The registries that answer a delete with the object rather than a
 * Status (ReturnDeletedObject in k8s.io/kubernetes pkg/registry/.../storage). */
static bool returns_deleted_object(api_kind k) {
  return k == KIND_POD || k == KIND_NAMESPACE || k == KIND_POD_TEMPLATE || k == KIND_RESOURCE_CLAIM ||
         k == KIND_RESOURCE_CLAIM_TEMPLATE || k == KIND_RESOURCE_SLICE || k == KIND_DEVICE_CLASS;
}

/* The options of a DELETE (delete_options.h), or false with the 400 or
 * 422 answered. */
bool srv_delete_options(const http_request *req, http_response *resp, delete_options *o) {
  strbuf msg = STRBUF_INIT;
  errlist errs = {0};
  /* a protobuf DeleteOptions (client-go's typed clients) arrives here as
   * JSON (srv_in_negotiated_media) */
  switch (delete_options_parse(req->body, req->body_len, req->query, req->n_query, o, &msg, &errs)) {
  case DELETE_OPTIONS_OK: break;
  case DELETE_OPTIONS_BAD_REQUEST: srv_status_bad_request(resp, sb_str(&msg)); break;
  case DELETE_OPTIONS_INVALID: srv_status_invalid_as(resp, "meta.k8s.io", "DeleteOptions", "", &errs); break;
  }
  bool ok = !msg.len && !errs.n;
  sb_free(&msg);
  errlist_free(&errs);
  if (!ok) delete_options_free(o);
  return ok;
}

static void handle_delete(dra_server *s, const route *r, const http_request *req, http_response *resp) {
  if (!srv_namespace_allows_delete(r, resp)) return;
  delete_options o;
  if (!srv_delete_options(req, resp, &o)) return;
  api_kind kind = (api_kind)r->resource->api_kind;
  deletion_outcome out;
  srv_delete_object(o.dry_run ? s->committed : s->st, kind, r->namespace_, r->name, &o, &out);
  if (out.st == STORE_UNAVAILABLE) srv_status_store_unavailable(resp, s);
  else if (out.conflict) {
    json_t *d = json_pack("{s:s,s:s}", "name", r->name, "kind", out.conflict_kind);
    if (out.conflict_group[0]) json_object_set_new(d, "group", json_string(out.conflict_group));
    srv_status(resp, 409, "Conflict", out.conflict, d);
  } else if (out.st != STORE_OK) store_failure(resp, r, out.st, r->name);
  else {
    /* 202 when the dependents are yet to go in the foreground */
    int code = !out.deleted && o.has_orphan_dependents && !o.orphan_dependents ? 202 : 200;
    const api_object *obj = out.preview ? out.preview : out.obj->object;
    api_object *marked = out.deleted && kind == KIND_POD ? srv_pod_as_marked(obj) : NULL;
    if (marked) obj = marked;
    if (out.deleted && !returns_deleted_object(kind))
      srv_status_success(resp, r->resource, r->name, api_object_meta(obj)->uid);
    else srv_json_response(resp, code, srv_object_in_version(obj, r->wire));
    api_object_free(marked);
  }
  deletion_outcome_free(&out);
  delete_options_free(&o);
}

/* BindingREST.Create's checks before it reads the pod: the Binding's name
 * is the URL's (400), and ValidatePodBinding (its errors as a plain error:
 * a 500 without a reason, several in brackets). */
static bool binding_ok(const json_t *b, const route *r, http_response *resp) {
  const char *name = json_string_value(json_object_get(json_object_get(b, "metadata"), "name"));
  if (!name || strcmp(name, r->name)) {
    srv_status_bad_request(resp, "name in URL does not match name in Binding object");
    return false;
  }
  const json_t *target = json_object_get(b, "target");
  const char *kind = json_string_value(json_object_get(target, "kind"));
  const char *node = json_string_value(json_object_get(target, "name"));
  errlist errs = {0};
  fpath p = {STRBUF_INIT};
  fp_field(&p, "target");
  size_t mark = fp_field(&p, "kind");
  if (kind && *kind && strcmp(kind, "Node")) fe_not_supported(&errs, &p, kind, (const char *const[]){"Node", "<empty>", NULL});
  fp_pop(&p, mark);
  fp_field(&p, "name");
  if (!node || !*node) fe_required(&errs, &p, "");
  fp_free(&p);
  bool ok = !errs.n;
  if (!ok) {
    strbuf msg = STRBUF_INIT;
    if (errs.n > 1) sb_putc(&msg, '[');
    for (size_t i = 0; i < errs.n; i++)
      sb_printf(&msg, "%s%s: %s", i ? ", " : "", errs.items[i].field, errs.items[i].body);
    if (errs.n > 1) sb_putc(&msg, ']');
    srv_status(resp, 500, NULL, sb_str(&msg), NULL);
    sb_free(&msg);
  }
  errlist_free(&errs);
  return ok;
}

/* POST pods/<name>/binding: what kube-scheduler's bind does. A dry run
 * checks it on the committed pod and writes nothing, as upstream's
 * BindingREST.Create passes dryRun to the storage's update. */
static void handle_binding(dra_server *s, const route *r, const http_request *req, http_response *resp) {
  json_error_t jerr;
  json_t *b = json_loadb(req->body ? req->body : "", req->body_len, 0, &jerr);
  if (!binding_ok(b, r, resp)) {
    json_decref(b);
    return;
  }
  const char *node = json_string_value(json_object_get(json_object_get(b, "target"), "name"));
  store_obj *old = NULL;
  store_status st = store_get(srv_reads_of(s, req), KIND_POD, r->namespace_, r->name, &old);
  if (st != STORE_OK) {
    json_decref(b);
    return store_failure(resp, r, st, r->name);
  }
  const pod *op = old->object->typed;
  const json_t *bmeta = json_object_get(b, "metadata");
  const char *want_uid = json_string_value(json_object_get(bmeta, "uid"));
  const char *want_rv = json_string_value(json_object_get(bmeta, "resourceVersion"));
  strbuf refusal = STRBUF_INIT; /* setPodNodeNameAndMetadata's errors, which assignPod makes Conflicts */
  if (op->metadata.deletion_timestamp)
    sb_printf(&refusal, "pod %s is being deleted, cannot be assigned to a host", r->name);
  else if (op->spec.node_name && *op->spec.node_name)
    sb_printf(&refusal, "pod %s is already assigned to node \"%s\"", r->name, op->spec.node_name);
  if (want_uid && *want_uid && strcmp(want_uid, op->metadata.uid ? op->metadata.uid : "")) {
    srv_status_storage_precondition(resp, r->resource, r->namespace_, r->name, "UID", want_uid, op->metadata.uid);
  } else if (want_rv && *want_rv && strcmp(want_rv, op->metadata.resource_version ? op->metadata.resource_version : "")) {
    srv_status_storage_precondition(resp, r->resource, r->namespace_, r->name, "ResourceVersion", want_rv,
                                    op->metadata.resource_version);
  } else if (refusal.len) {
    strbuf msg = STRBUF_INIT;
    sb_printf(&msg, "Operation cannot be fulfilled on pods/binding \"%s\": %s", r->name, sb_str(&refusal));
    srv_status(resp, 409, "Conflict", sb_str(&msg), json_pack("{s:s,s:s}", "name", r->name, "kind", "pods/binding"));
    sb_free(&msg);
  } else if (http_query_get(req, "dryRun")) {
    srv_status(resp, 201, NULL, NULL, NULL);
  } else {
    api_object *obj = api_object_clone(old->object);
    pod *p = obj->typed;
    p->spec.node_name = arena_strdup(obj->arena, node);
    store_obj *stored = NULL;
    st = store_update(s->st, obj, &stored);
    if (st == STORE_UNAVAILABLE) {
      srv_status_store_unavailable(resp, s);
    } else if (st != STORE_OK) {
      api_object_free(obj);
      store_failure(resp, r, st, r->name);
    } else {
      srv_status(resp, 201, NULL, NULL, NULL);
      store_obj_unref(stored);
    }
  }
  sb_free(&refusal);
  store_obj_unref(old);
  json_decref(b);
}

static void dispatch(dra_server *s, const route *r, const http_request *req, http_response *resp) {
  char *deprecated = api_version_deprecation(r->wire); /* every verb of a deprecated version warns first */
  if (deprecated) srv_warn(resp, deprecated);
  free(deprecated);
  const char *m = req->method;
  bool item = r->name[0] != 0;
  if (!strcmp(r->subresource, "scale")) return srv_scale_request(s, r, req, resp);
  if (!strcmp(r->subresource, "finalize")) {
    if (!strcmp(m, "PUT")) return handle_update(s, r, req, resp);
    return srv_status_method_not_allowed(resp, m);
  }
  if (!strcmp(r->subresource, "binding")) {
    if (!strcmp(m, "POST")) return handle_binding(s, r, req, resp);
    return srv_status_method_not_allowed(resp, m);
  }
  if (!strcmp(m, "GET")) {
    if (item) return handle_get(s, r, req, resp);
    bool watch = http_query_bool(req, "watch");
    if (!srv_list_params_ok(req, r, watch, resp)) return;
    if (watch) return srv_watch(s, r, req, resp);
    return srv_list(s, r, req, resp);
  }
  if (!strcmp(m, "POST") && !item && !r->subresource[0]) return handle_create(s, r, req, resp);
  if (!strcmp(m, "PUT") && item) return handle_update(s, r, req, resp);
  if (!strcmp(m, "PATCH") && item) return handle_patch(s, r, req, resp);
  if (!strcmp(m, "DELETE") && item && !r->subresource[0]) return handle_delete(s, r, req, resp);
  if (!strcmp(m, "DELETE") && !item) {
    if (!srv_list_params_ok(req, r, false, resp)) return;
    return srv_delete_collection(s, r, req, resp);
  }
  srv_status_method_not_allowed(resp, m);
}

/* Bodies and answers in the media types negotiated (media.h): handler
 * reads and writes JSON. */
void srv_in_negotiated_media(dra_server *s, const route *r, const http_request *req, http_response *resp,
                             srv_json_handler handler) {
  srv_media out = srv_accept_media(req->accept);
  bool watch = !strcmp(req->method, "GET") && http_query_bool(req, "watch");
  if (out == SRV_MEDIA_NONE || (watch && out == SRV_MEDIA_YAML)) {
    srv_status(resp, 406, "NotAcceptable",
               watch ? "only the following media types are accepted: application/json;stream=watch, "
                       "application/vnd.kubernetes.protobuf;stream=watch"
                     : "only the following media types are accepted: application/json, application/yaml, "
                       "application/vnd.kubernetes.protobuf",
               NULL);
    return;
  }
  http_request json;
  if (srv_body_as_json(req, &json, resp)) {
    handler(s, r, &json, resp);
    srv_body_free(req, &json);
  }
  if (out == SRV_MEDIA_PROTOBUF) srv_response_to_protobuf(resp);
  if (out == SRV_MEDIA_YAML) srv_response_to_yaml(resp);
}

void srv_resource_request(dra_server *s, const route *r, const http_request *req, http_response *resp) {
  srv_in_negotiated_media(s, r, req, resp, dispatch);
}
