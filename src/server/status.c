/* status.c: Status bodies for status.h, in Go's key order: kind, apiVersion,
 * metadata, status, message, reason, details, code. */
#include "server/status.h"
#include "store/etcd_layout.h"
#include "api/admission.h"
#include <stdio.h>
#include <stdlib.h>

void srv_json_response(http_response *resp, int code, json_t *v) {
  char *text = json_dumps(v, JSON_COMPACT);
  resp->status = code;
  resp->content_type = "application/json";
  sb_puts(&resp->body, text);
  sb_putc(&resp->body, '\n');
  free(text);
  json_decref(v);
}

void srv_status(http_response *resp, int code, const char *reason, const char *message, json_t *details) {
  json_t *s = json_object();
  json_object_set_new(s, "kind", json_string("Status"));
  json_object_set_new(s, "apiVersion", json_string("v1"));
  json_object_set_new(s, "metadata", json_object());
  json_object_set_new(s, "status", json_string(code < 300 ? "Success" : "Failure"));
  if (message) json_object_set_new(s, "message", json_string(message));
  if (reason) json_object_set_new(s, "reason", json_string(reason));
  if (details) json_object_set_new(s, "details", details);
  json_object_set_new(s, "code", json_integer(code));
  srv_json_response(resp, code, s);
}

static json_t *resource_details(const srv_resource *res, const char *name) {
  json_t *d = json_object();
  if (name && *name) json_object_set_new(d, "name", json_string(name)); /* StatusDetails.name is omitempty */
  if (res->group[0]) json_object_set_new(d, "group", json_string(res->group));
  json_object_set_new(d, "kind", json_string(res->plural));
  return d;
}

static void qualified_resource(const srv_resource *res, char *buf, size_t n) {
  if (res->group[0]) snprintf(buf, n, "%s.%s", res->plural, res->group);
  else snprintf(buf, n, "%s", res->plural);
}

void srv_status_success(http_response *resp, const srv_resource *res, const char *name, const char *uid) {
  json_t *d = resource_details(res, name);
  if (uid) json_object_set_new(d, "uid", json_string(uid));
  srv_status(resp, 200, NULL, NULL, d);
}

static void resource_error(http_response *resp, int code, const char *reason, const srv_resource *res,
                           const char *name, const char *fmt) {
  char qr[128];
  qualified_resource(res, qr, sizeof qr);
  strbuf msg = STRBUF_INIT;
  sb_printf(&msg, fmt, qr, name ? name : "");
  srv_status(resp, code, reason, sb_str(&msg), resource_details(res, name));
  sb_free(&msg);
}

void srv_status_not_found(http_response *resp, const srv_resource *res, const char *name) {
  resource_error(resp, 404, "NotFound", res, name, "%s \"%s\" not found");
}

void srv_status_forbidden(http_response *resp, const srv_resource *res, const char *name, const char *why,
                          json_t *causes) {
  char qr[128];
  qualified_resource(res, qr, sizeof qr);
  strbuf msg = STRBUF_INIT;
  if (name && *name) sb_printf(&msg, "%s \"%s\" is forbidden: %s", qr, name, why);
  else sb_printf(&msg, "%s is forbidden: %s", qr, why);
  json_t *details = resource_details(res, name);
  if (!name || !*name) json_object_del(details, "name"); /* omitempty */
  if (causes) json_object_set_new(details, "causes", causes);
  srv_status(resp, 403, "Forbidden", sb_str(&msg), details);
  sb_free(&msg);
}

void srv_status_already_exists(http_response *resp, const srv_resource *res, const char *name) {
  resource_error(resp, 409, "AlreadyExists", res, name, "%s \"%s\" already exists");
}

void srv_status_conflict(http_response *resp, const srv_resource *res, const char *name) {
  resource_error(resp, 409, "Conflict", res, name,
                 "Operation cannot be fulfilled on %s \"%s\": the object has been modified; please apply your "
                 "changes to the latest version and try again");
}

void srv_status_storage_precondition(http_response *resp, const srv_resource *res, const char *namespace_,
                                     const char *name, const char *what, const char *want, const char *stored) {
  char qr[128];
  qualified_resource(res, qr, sizeof qr);
  char *key = etcd_key((api_kind)res->api_kind, res->namespaced ? namespace_ : NULL, name);
  strbuf msg = STRBUF_INIT;
  sb_printf(&msg,
            "Operation cannot be fulfilled on %s \"%s\": StorageError: invalid object, Code: 4, Key: %s, "
            "ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: %s in precondition: %s, %s in object meta: %s",
            qr, name, key, what, want, what, stored ? stored : "");
  srv_status(resp, 409, "Conflict", sb_str(&msg), resource_details(res, name));
  sb_free(&msg);
  free(key);
}

void srv_status_bad_request(http_response *resp, const char *message) {
  srv_status(resp, 400, "BadRequest", message, NULL);
}

void srv_status_name_mismatch(http_response *resp, const char *name, const char *url_name) {
  strbuf msg = STRBUF_INIT;
  sb_printf(&msg, "the name of the object (%s) does not match the name on the URL (%s)", name ? name : "", url_name);
  srv_status_bad_request(resp, sb_str(&msg));
  sb_free(&msg);
}

void srv_status_unsupported_patch(http_response *resp) {
  srv_status(resp, 415, "UnsupportedMediaType", "415: Unsupported Media Type", json_object());
}

void srv_status_method_not_allowed(http_response *resp, const char *method) {
  strbuf msg = STRBUF_INIT;
  sb_printf(&msg, "the server does not allow this method on the requested resource (%s)", method);
  srv_status(resp, 405, "MethodNotAllowed", sb_str(&msg), NULL);
  sb_free(&msg);
}

void srv_status_invalid(http_response *resp, const api_object *obj, const errlist *errs) {
  const object_meta *m = &((const api_head *)obj->typed)->metadata;
  srv_status_invalid_as(resp, obj->info->group, obj->info->name, m->name, errs);
}

void srv_status_invalid_as(http_response *resp, const char *group, const char *kind, const char *name,
                           const errlist *errs) {
  json_t *d = json_object();
  if (name && *name) json_object_set_new(d, "name", json_string(name)); /* omitempty */
  if (group[0]) json_object_set_new(d, "group", json_string(group));
  json_object_set_new(d, "kind", json_string(kind));
  json_t *causes = json_array();
  for (size_t i = 0; i < errs->n; i++) {
    json_t *c = json_object();
    json_object_set_new(c, "reason", json_string(fe_reason(errs->items[i].type)));
    json_object_set_new(c, "message", json_string(errs->items[i].body));
    json_object_set_new(c, "field", json_string(errs->items[i].field));
    json_array_append_new(causes, c);
  }
  json_object_set_new(d, "causes", causes);
  strbuf qualified = STRBUF_INIT;
  if (group[0]) sb_printf(&qualified, "%s.%s", kind, group);
  else sb_puts(&qualified, kind);
  char *msg = admission_invalid_text(sb_str(&qualified), name, errs);
  sb_free(&qualified);
  srv_status(resp, 422, "Invalid", msg, d);
  free(msg);
}
