/* discovery.c: discovery JSON for discovery.h, built from resources.c,
 * and from the review table below for the create-only reviews. */
#include "server/discovery.h"
#include "util/build_info.h"
#include "server/media.h"
#include "server/status.h"
#include <stdlib.h>
#include <string.h>

static json_t *string_list(const char *csv) {
  json_t *a = json_array();
  for (const char *p = csv; *p;) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    json_array_append_new(a, json_stringn(p, len));
    if (!comma) break;
    p = comma + 1;
  }
  return a;
}

static json_t *group_version_ref(const char *group, const char *version) {
  json_t *v = json_object();
  char *gv = srv_api_version(group, version);
  json_object_set_new(v, "groupVersion", json_string(gv));
  free(gv);
  json_object_set_new(v, "version", json_string(version));
  return v;
}

#define MAX_GROUP_VERSIONS 32

static json_t *api_group(const srv_group_version *gvs, size_t n, const char *group) {
  json_t *g = json_object();
  json_object_set_new(g, "name", json_string(group));
  json_t *versions = json_array();
  const char *preferred = NULL;
  for (size_t i = 0; i < n; i++)
    if (!strcmp(gvs[i].group, group)) {
      json_array_append_new(versions, group_version_ref(group, gvs[i].version));
      if (!preferred) preferred = gvs[i].version;
    }
  json_object_set_new(g, "versions", versions);
  json_object_set_new(g, "preferredVersion", group_version_ref(group, preferred));
  return g;
}

static json_t *resource_entry(const srv_resource *res, const char *sub) {
  json_t *e = json_object();
  char name[96];
  if (sub) snprintf(name, sizeof name, "%s/%s", res->plural, sub);
  else snprintf(name, sizeof name, "%s", res->plural);
  json_object_set_new(e, "name", json_string(name));
  json_object_set_new(e, "singularName", json_string(sub ? "" : res->singular));
  json_object_set_new(e, "namespaced", json_boolean(res->namespaced));
  bool scale = sub && !strcmp(sub, "scale");
  if (scale) { /* autoscaling/v1 Scale, as upstream's discovery says */
    json_object_set_new(e, "group", json_string("autoscaling"));
    json_object_set_new(e, "version", json_string("v1"));
  }
  json_object_set_new(e, "kind", json_string(sub && !strcmp(sub, "binding") ? "Binding" : scale ? "Scale" : res->kind));
  const char *verbs = !sub ? "create,delete,deletecollection,get,list,patch,update,watch"
                      : !strcmp(sub, "binding")  ? "create"
                      : !strcmp(sub, "finalize") ? "update"
                                                 : "get,patch,update";
  json_object_set_new(e, "verbs", string_list(verbs));
  if (!sub && res->short_names[0]) json_object_set_new(e, "shortNames", string_list(res->short_names));
  /* `kubectl get all` lists the resources in category "all" */
  if (!sub && res->categories) json_object_set_new(e, "categories", string_list(res->categories));
  return e;
}

static json_t *resource_list(const srv_served *served, const char *group, const char *version) {
  json_t *l = json_object();
  json_object_set_new(l, "kind", json_string("APIResourceList"));
  json_object_set_new(l, "apiVersion", json_string("v1"));
  char *gv = srv_api_version(group, version);
  json_object_set_new(l, "groupVersion", json_string(gv));
  free(gv);
  json_t *resources = json_array();
  for (size_t i = 0; i < srv_n_resources; i++) {
    const srv_resource *res = &srv_resources[i];
    if (strcmp(res->group, group) || !srv_served_in(served, res, version)) continue;
    json_array_append_new(resources, resource_entry(res, NULL));
    for (const char *p = res->subresources; *p;) {
      const char *comma = strchr(p, ',');
      char sub[32];
      snprintf(sub, sizeof sub, "%.*s", (int)(comma ? comma - p : (long)strlen(p)), p);
      json_array_append_new(resources, resource_entry(res, sub));
      if (!comma) break;
      p = comma + 1;
    }
  }
  json_object_set_new(l, "resources", resources);
  return l;
}

/* The reviews (reviews.c, access_reviews.c): never stored, so not in
 * resources.c, but listed as kube-apiserver lists them (each group's v1,
 * resources by name, verbs [create]), so that `kubectl api-resources`
 * shows them. */
typedef struct review_resource {
  const char *group, *plural, *singular, *kind;
  bool namespaced;
} review_resource;

static const review_resource reviews[] = {
    {"authentication.k8s.io", "selfsubjectreviews", "selfsubjectreview", "SelfSubjectReview", false},
    {"authorization.k8s.io", "localsubjectaccessreviews", "localsubjectaccessreview", "LocalSubjectAccessReview", true},
    {"authorization.k8s.io", "selfsubjectaccessreviews", "selfsubjectaccessreview", "SelfSubjectAccessReview", false},
    {"authorization.k8s.io", "selfsubjectrulesreviews", "selfsubjectrulesreview", "SelfSubjectRulesReview", false},
    {"authorization.k8s.io", "subjectaccessreviews", "subjectaccessreview", "SubjectAccessReview", false},
};
#define N_REVIEWS (sizeof reviews / sizeof *reviews)
#define REVIEW_VERSION "v1"

static bool is_review_group(const char *group) {
  for (size_t i = 0; i < N_REVIEWS; i++)
    if (!strcmp(reviews[i].group, group)) return true;
  return false;
}

static json_t *review_group(const char *group) {
  json_t *g = json_object();
  json_object_set_new(g, "name", json_string(group));
  json_object_set_new(g, "versions", json_pack("[o]", group_version_ref(group, REVIEW_VERSION)));
  json_object_set_new(g, "preferredVersion", group_version_ref(group, REVIEW_VERSION));
  return g;
}

static json_t *review_list(const char *group) {
  json_t *resources = json_array();
  for (size_t i = 0; i < N_REVIEWS; i++)
    if (!strcmp(reviews[i].group, group))
      json_array_append_new(resources, json_pack("{s:s,s:s,s:b,s:s,s:[s]}", "name", reviews[i].plural, "singularName",
                                                 reviews[i].singular, "namespaced", reviews[i].namespaced, "kind",
                                                 reviews[i].kind, "verbs", "create"));
  char *gv = srv_api_version(group, REVIEW_VERSION);
  json_t *l = json_pack("{s:s,s:s,s:s,s:o}", "kind", "APIResourceList", "apiVersion", "v1", "groupVersion", gv,
                        "resources", resources);
  free(gv);
  return l;
}

static void not_found(http_response *resp) { srv_status(resp, 404, "NotFound", "the server could not find the requested resource", NULL); }

void srv_discovery(const srv_served *served, const route *r, const char *accept, http_response *resp) {
  srv_group_version gvs[MAX_GROUP_VERSIONS];
  size_t n = srv_served_group_versions(served, gvs, MAX_GROUP_VERSIONS);
  json_t *v;
  switch (r->type) {
  case ROUTE_API:
    v = json_object();
    json_object_set_new(v, "kind", json_string("APIVersions"));
    json_object_set_new(v, "versions", string_list("v1"));
    break;
  case ROUTE_APIS: {
    v = json_object();
    json_object_set_new(v, "kind", json_string("APIGroupList"));
    json_object_set_new(v, "apiVersion", json_string("v1"));
    json_t *groups = json_array();
    for (size_t i = 0; i < n; i++) {
      const char *g = gvs[i].group;
      bool seen = false;
      for (size_t j = 0; j < i; j++) seen |= !strcmp(gvs[j].group, g);
      if (g[0] && !seen) json_array_append_new(groups, api_group(gvs, n, g));
    }
    for (size_t i = 0; i < N_REVIEWS; i++)
      if (!i || strcmp(reviews[i].group, reviews[i - 1].group)) json_array_append_new(groups, review_group(reviews[i].group));
    json_object_set_new(v, "groups", groups);
    break;
  }
  case ROUTE_GROUP:
    if (is_review_group(r->group)) {
      v = review_group(r->group);
      json_object_set_new(v, "kind", json_string("APIGroup"));
      json_object_set_new(v, "apiVersion", json_string("v1"));
      break;
    }
    if (!srv_group_version_served(served, r->group, NULL)) return not_found(resp);
    v = api_group(gvs, n, r->group);
    json_object_set_new(v, "kind", json_string("APIGroup"));
    json_object_set_new(v, "apiVersion", json_string("v1"));
    break;
  case ROUTE_GROUP_VERSION:
    if (is_review_group(r->group)) {
      if (strcmp(r->version, REVIEW_VERSION)) return not_found(resp);
      v = review_list(r->group);
      break;
    }
    if (!srv_group_version_served(served, r->group, r->version)) return not_found(resp);
    v = resource_list(served, r->group, r->version);
    break;
  case ROUTE_VERSION:
    /* version.Info, filled with what this build truly is (no Go). */
    v = json_object();
    json_object_set_new(v, "major", json_string(dra_build.kube_major));
    json_object_set_new(v, "minor", json_string(dra_build.kube_minor));
    json_object_set_new(v, "gitVersion", json_string(dra_build.git_version));
    json_object_set_new(v, "gitCommit", json_string(dra_build.git_commit));
    json_object_set_new(v, "gitTreeState", json_string(dra_build.tree_state));
    json_object_set_new(v, "buildDate", json_string(dra_build.build_date));
    json_object_set_new(v, "goVersion", json_string(""));
    json_object_set_new(v, "compiler", json_string(dra_build.compiler));
    json_object_set_new(v, "platform", json_string(dra_build.platform));
    break;
  case ROUTE_HEALTH:
    resp->status = 200;
    resp->content_type = "text/plain; charset=utf-8";
    sb_puts(&resp->body, "ok");
    return;
  default: return not_found(resp);
  }
  srv_json_response(resp, 200, v);
  /* k8s.io/apiserver endpoints/discovery writes these negotiated; /api's
   * APIVersions and /version stay JSON here */
  bool typed = r->type == ROUTE_APIS || r->type == ROUTE_GROUP || r->type == ROUTE_GROUP_VERSION;
  if (typed && srv_accept_media(accept) == SRV_MEDIA_PROTOBUF) srv_response_to_protobuf(resp);
}
