/* access_reviews.c: see access_reviews.h. Validation is
 * pkg/apis/authorization/validation's (exactly one of resourceAttributes
 * and nonResourceAttributes; a SubjectAccessReview names a user or
 * groups; a LocalSubjectAccessReview's namespace matches its path). The
 * review comes back with its status: allowed, and the authorizer's reason
 * (RBAC's "allowed by ..."). A rules review lists the RBAC rules of every
 * binding that applies (RBACAuthorizer.RulesFor), or everything under
 * AlwaysAllow, with resolution errors in evaluationError. */
#include "server/access_reviews.h"
#include "server/rbac.h"
#include "server/status.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

#define GROUP "authorization.k8s.io"

static const char *str_of(const json_t *o, const char *key) {
  const char *v = json_string_value(json_object_get(o, key));
  return v ? v : "";
}

static json_t *review_head(const char *kind) {
  json_t *o = json_object();
  json_object_set_new(o, "kind", json_string(kind));
  json_object_set_new(o, "apiVersion", json_string(GROUP "/v1"));
  json_object_set_new(o, "metadata", json_pack("{s:n}", "creationTimestamp"));
  return o;
}

/* ---- SelfSubjectRulesReview ---- */

static json_t *string_array(const dstr_list *l) {
  json_t *a = json_array();
  for (uint32_t i = 0; i < l->n; i++) json_array_append_new(a, json_string(l->items[i] ? l->items[i] : ""));
  return a;
}

typedef struct rules_out {
  json_t *resource_rules, *non_resource_rules;
} rules_out;

static bool collect_rule(void *ctx, const rbac_source *src, const policy_rule *r) {
  (void)src;
  rules_out *out = ctx;
  if (r->resources.n) {
    json_t *o = json_object();
    json_object_set_new(o, "verbs", string_array(&r->verbs));
    if (r->api_groups.n) json_object_set_new(o, "apiGroups", string_array(&r->api_groups));
    json_object_set_new(o, "resources", string_array(&r->resources));
    if (r->resource_names.n) json_object_set_new(o, "resourceNames", string_array(&r->resource_names));
    json_array_append_new(out->resource_rules, o);
  }
  if (r->non_resource_urls.n) {
    json_t *o = json_object();
    json_object_set_new(o, "verbs", string_array(&r->verbs));
    json_object_set_new(o, "nonResourceURLs", string_array(&r->non_resource_urls));
    json_array_append_new(out->non_resource_rules, o);
  }
  return true;
}

static void rules_review(const authz *z, const srv_user *u, const json_t *body, http_response *resp) {
  const char *ns = str_of(json_object_get(body, "spec"), "namespace");
  if (!*ns) {
    srv_status_bad_request(resp, "no namespace on request");
    return;
  }
  rules_out out = {json_array(), json_array()};
  json_t *review = review_head("SelfSubjectRulesReview"), *status = json_object();
  json_object_set_new(review, "spec", json_object());
  if (z->mode == AUTHZ_ALWAYS_ALLOW) {
    json_array_append_new(out.resource_rules, json_pack("{s:[s],s:[s],s:[s]}", "verbs", "*", "apiGroups", "*", "resources", "*"));
    json_array_append_new(out.non_resource_rules, json_pack("{s:[s],s:[s]}", "verbs", "*", "nonResourceURLs", "*"));
  } else {
    rbac_errors errs = {0};
    rbac_visit_rules(z->st, u, ns, collect_rule, &out, &errs);
    if (errs.n) {
      strbuf e = STRBUF_INIT;
      rbac_errors_print(&errs, &e);
      json_object_set_new(status, "evaluationError", json_string(sb_str(&e)));
      sb_free(&e);
    }
    rbac_errors_free(&errs);
  }
  json_object_set_new(status, "resourceRules", out.resource_rules);
  json_object_set_new(status, "nonResourceRules", out.non_resource_rules);
  json_object_set_new(status, "incomplete", json_false());
  json_object_set_new(review, "status", status);
  srv_json_response(resp, 201, review);
}

/* ---- the access reviews ---- */

/* encoding/json of an internal attributes struct (no JSON tags): the bad
 * value of spec. */
static char *attributes_value(const json_t *attrs) {
  if (!attrs) return xstrdup("null");
  json_t *o = json_object();
  json_object_set_new(o, "Path", json_string(str_of(attrs, "path")));
  json_object_set_new(o, "Verb", json_string(str_of(attrs, "verb")));
  char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
  json_decref(o);
  return s;
}

static void validate_spec(const char *plural, const route *r, const json_t *spec, errlist *errs) {
  const json_t *res = json_object_get(spec, "resourceAttributes"), *non = json_object_get(spec, "nonResourceAttributes");
  fpath p = {0};
  fp_field(&p, "spec");
  if (!json_is_object(res) == !json_is_object(non)) {
    char *v = attributes_value(json_is_object(non) ? non : NULL);
    fe_invalid(errs, &p, v, "exactly one of nonResourceAttributes or resourceAttributes must be specified");
    free(v);
  }
  bool subject = strcmp(plural, "selfsubjectaccessreviews");
  if (subject && !*str_of(spec, "user") && !json_array_size(json_object_get(spec, "groups"))) {
    size_t m = fp_field(&p, "user");
    fe_invalid_str(errs, &p, "", "at least one of user or group must be specified");
    fp_pop(&p, m);
  }
  if (!strcmp(plural, "localsubjectaccessreviews")) {
    if (json_is_object(res) && strcmp(str_of(res, "namespace"), r->namespace_)) {
      size_t m = fp_field(&p, "resourceAttributes");
      fp_field(&p, "namespace");
      fe_invalid_str(errs, &p, str_of(res, "namespace"), "must match metadata.namespace");
      fp_pop(&p, m);
    }
    if (json_is_object(non)) {
      size_t m = fp_field(&p, "nonResourceAttributes");
      char *v = attributes_value(non);
      fe_invalid(errs, &p, v, "disallowed on this kind of request");
      free(v);
      fp_pop(&p, m);
    }
  }
  fp_free(&p);
}

/* The spec's subject (a SubjectAccessReview's user, uid and groups as
 * given, nothing added). */
static srv_user *spec_user(const json_t *spec) {
  srv_user *u = srv_user_new(str_of(spec, "user"), str_of(spec, "uid"));
  size_t i;
  json_t *g;
  json_array_foreach(json_object_get(spec, "groups"), i, g) if (json_is_string(g)) srv_user_add_group(u, json_string_value(g));
  return u;
}

static const char *review_kind(const char *plural) {
  if (!strcmp(plural, "selfsubjectaccessreviews")) return "SelfSubjectAccessReview";
  if (!strcmp(plural, "localsubjectaccessreviews")) return "LocalSubjectAccessReview";
  return "SubjectAccessReview";
}

static void access_review(const authz *z, const route *r, const srv_user *caller, json_t *body, http_response *resp) {
  const char *plural = r->name;
  json_t *spec = json_object_get(body, "spec");
  errlist errs = {0};
  validate_spec(plural, r, spec, &errs);
  if (errs.n) {
    srv_status_invalid_as(resp, GROUP, review_kind(plural), "", &errs);
    errlist_free(&errs);
    return;
  }
  srv_user *subject = strcmp(plural, "selfsubjectaccessreviews") ? spec_user(spec) : NULL;
  const json_t *res = json_object_get(spec, "resourceAttributes"), *non = json_object_get(spec, "nonResourceAttributes");
  authz_attrs a = {.user = subject ? subject : caller, .group = "", .resource = "", .subresource = "", .name = "",
                   .namespace_ = "", .path = ""};
  if (res) {
    a.resource_request = true;
    a.verb = str_of(res, "verb");
    a.group = str_of(res, "group");
    a.resource = str_of(res, "resource");
    a.subresource = str_of(res, "subresource");
    a.name = str_of(res, "name");
    a.namespace_ = str_of(res, "namespace");
  } else {
    a.verb = str_of(non, "verb");
    a.path = str_of(non, "path");
  }
  strbuf reason = STRBUF_INIT;
  bool allowed = authz_allowed(z, &a, &reason);
  json_t *review = review_head(review_kind(plural));
  if (r->namespace_[0]) json_object_set_new(json_object_get(review, "metadata"), "namespace", json_string(r->namespace_));
  json_object_set(review, "spec", spec ? spec : json_object());
  json_t *status = json_object();
  json_object_set_new(status, "allowed", json_boolean(allowed));
  if (reason.len) json_object_set_new(status, "reason", json_string(sb_str(&reason)));
  json_object_set_new(review, "status", status);
  srv_json_response(resp, 201, review);
  sb_free(&reason);
  srv_user_free(subject);
}

void srv_access_review(const authz *z, const route *r, const http_request *req, http_response *resp) {
  if (strcmp(req->method, "POST")) {
    srv_status(resp, 405, "MethodNotAllowed", "the server does not allow this method on the requested resource", NULL);
    return;
  }
  json_error_t jerr;
  json_t *body = json_loadb(req->body ? req->body : "", req->body_len, 0, &jerr);
  if (!json_is_object(body)) {
    srv_status_bad_request(resp, "the body of the request is not a JSON object");
    json_decref(body);
    return;
  }
  const srv_user *caller = req->user_info ? req->user_info : srv_anonymous();
  if (!strcmp(r->name, "selfsubjectrulesreviews")) rules_review(z, caller, body, resp);
  else access_review(z, r, caller, body, resp);
  json_decref(body);
}
