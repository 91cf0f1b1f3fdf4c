/* route.c: path parsing for route.h. Paths are split on '/'; segments are
 * used as-is (kubectl does not escape DNS names). */
#include "server/route.h"
#include <stdio.h>
#include <string.h>

#define MAX_SEGMENTS 10

static int split(const char *path, char seg[MAX_SEGMENTS][254]) {
  int n = 0;
  const char *p = path;
  while (*p == '/') p++;
  while (*p) {
    const char *end = strchr(p, '/');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (n == MAX_SEGMENTS || len >= 254) return -1;
    memcpy(seg[n], p, len);
    seg[n][len] = 0;
    n++;
    if (!end) break;
    p = end;
    while (*p == '/') p++;
  }
  return n;
}

static void copy(char *dst, size_t cap, const char *src) { snprintf(dst, cap, "%s", src); }

/* seg[i..n) after the group/version prefix: the resource part. */
/* The resource named plural when served in r's version. */
static const srv_resource *served_resource(const srv_served *served, route *r, const char *plural) {
  const srv_resource *res = srv_resource_find(r->group, plural);
  if (!res) return NULL;
  r->wire = srv_served_version(served, res, r->version);
  return r->wire ? res : NULL;
}

static route_type parse_resource(route *r, const srv_served *served, char seg[MAX_SEGMENTS][254], int i, int n) {
  int left = n - i;
  if (left <= 0) return ROUTE_NOT_FOUND;
  /* namespaces/{ns}/{resource}... unless the resource is namespaces itself */
  if (!strcmp(seg[i], "namespaces") && left >= 3 && !(left == 3 && !strcmp(r->group, "") &&
                                                      (!strcmp(seg[i + 2], "status") || !strcmp(seg[i + 2], "finalize")))) {
    const srv_resource *res = served_resource(served, r, seg[i + 2]);
    if (!res || !res->namespaced || left > 5) return ROUTE_NOT_FOUND;
    copy(r->namespace_, sizeof r->namespace_, seg[i + 1]);
    r->resource = res;
    if (left >= 4) copy(r->name, sizeof r->name, seg[i + 3]);
    if (left == 5) {
      if (!srv_resource_has_subresource(res, seg[i + 4])) return ROUTE_NOT_FOUND;
      copy(r->subresource, sizeof r->subresource, seg[i + 4]);
    }
    return r->type = ROUTE_RESOURCE;
  }
  const srv_resource *res = served_resource(served, r, seg[i]);
  if (!res || left > 3) return ROUTE_NOT_FOUND;
  r->resource = res;
  if (left >= 2) {
    if (res->namespaced) return ROUTE_NOT_FOUND; /* a namespaced object needs its namespace */
    copy(r->name, sizeof r->name, seg[i + 1]);
  }
  if (left == 3) {
    if (!srv_resource_has_subresource(res, seg[i + 2])) return ROUTE_NOT_FOUND;
    copy(r->subresource, sizeof r->subresource, seg[i + 2]);
  }
  return r->type = ROUTE_RESOURCE;
}

route_type route_parse(const char *path, const srv_served *served, route *r) {
  memset(r, 0, sizeof *r);
  char seg[MAX_SEGMENTS][254];
  int n = split(path, seg);
  if (n < 0) return r->type = ROUTE_NOT_FOUND;
  if (n == 1 && !strcmp(seg[0], "version")) return r->type = ROUTE_VERSION;
  if (n == 1 && !strcmp(seg[0], "metrics")) return r->type = ROUTE_METRICS;
  if (n == 4 && !strcmp(seg[0], "apis") && !strcmp(seg[1], "authentication.k8s.io") && !strcmp(seg[2], "v1") &&
      !strcmp(seg[3], "selfsubjectreviews"))
    return r->type = ROUTE_SELF_SUBJECT_REVIEW;
  if ((n == 4 || n == 6) && !strcmp(seg[0], "apis") && !strcmp(seg[1], "authorization.k8s.io") &&
      !strcmp(seg[2], "v1")) {
    static const char *const cluster_reviews[] = {"selfsubjectaccessreviews", "subjectaccessreviews",
                                                  "selfsubjectrulesreviews"};
    bool found = false;
    if (n == 4)
      for (size_t i = 0; i < sizeof cluster_reviews / sizeof *cluster_reviews; i++) found |= !strcmp(seg[3], cluster_reviews[i]);
    else found = !strcmp(seg[3], "namespaces") && !strcmp(seg[5], "localsubjectaccessreviews");
    if (found && strlen(seg[n - 1]) < sizeof r->name && (n == 4 || strlen(seg[4]) < sizeof r->namespace_)) {
      snprintf(r->name, sizeof r->name, "%s", seg[n - 1]);
      if (n == 6) snprintf(r->namespace_, sizeof r->namespace_, "%s", seg[4]);
      return r->type = ROUTE_ACCESS_REVIEW;
    }
  }
  if (n >= 1 && (!strcmp(seg[0], "healthz") || !strcmp(seg[0], "readyz") || !strcmp(seg[0], "livez")))
    return r->type = ROUTE_HEALTH;
  if (n == 2 && !strcmp(seg[0], "openapi") && !strcmp(seg[1], "v2")) return r->type = ROUTE_OPENAPI_V2;
  if (n >= 2 && !strcmp(seg[0], "openapi") && !strcmp(seg[1], "v3")) {
    if (n == 2) return r->type = ROUTE_OPENAPI_ROOT;
    if (n == 4 && !strcmp(seg[2], "api")) {
      copy(r->version, sizeof r->version, seg[3]);
      return r->type = ROUTE_OPENAPI_GV;
    }
    if (n == 5 && !strcmp(seg[2], "apis")) {
      copy(r->group, sizeof r->group, seg[3]);
      copy(r->version, sizeof r->version, seg[4]);
      return r->type = ROUTE_OPENAPI_GV;
    }
    return r->type = ROUTE_NOT_FOUND;
  }
  if (n >= 1 && !strcmp(seg[0], "api")) {
    if (n == 1) return r->type = ROUTE_API;
    if (strcmp(seg[1], "v1")) return r->type = ROUTE_NOT_FOUND;
    copy(r->version, sizeof r->version, "v1");
    if (n == 2) return r->type = ROUTE_GROUP_VERSION;
    return parse_resource(r, served, seg, 2, n);
  }
  if (n >= 1 && !strcmp(seg[0], "apis")) {
    if (n == 1) return r->type = ROUTE_APIS;
    copy(r->group, sizeof r->group, seg[1]);
    if (n == 2) return r->type = ROUTE_GROUP;
    copy(r->version, sizeof r->version, seg[2]);
    if (n == 3) return r->type = ROUTE_GROUP_VERSION;
    return parse_resource(r, served, seg, 3, n);
  }
  return r->type = ROUTE_NOT_FOUND;
}
