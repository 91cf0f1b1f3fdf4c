/* api.c: discovery, paginated lists and snapshots (see api.h). */
#include "api.h"
#include <curl/curl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* GET path as JSON; NULL with err on a transport error or status >= 400
 * (*status says which, 0 for transport). */
static json_t *get_json(api *a, const char *path, long *status, char *err, size_t errlen) {
  response r;
  *status = 0;
  if (client_request(a->c, "GET", path, NULL, NULL, &r, err, errlen)) return NULL;
  *status = r.status;
  json_t *doc = NULL;
  if (r.status >= 400) {
    response_error(&r, err, errlen);
  } else if (!(doc = json_loadb(r.body, r.len, 0, NULL))) {
    snprintf(err, errlen, "the server's answer to GET %s is not JSON", path);
  }
  response_free(&r);
  return doc;
}

/* Whether group version gv lists resource. */
static int serves(api *a, const char *gv, const char *resource) {
  char path[160], err[256];
  long status;
  snprintf(path, sizeof path, "/apis/%s", gv);
  json_t *doc = get_json(a, path, &status, err, sizeof err);
  int found = 0;
  size_t i;
  json_t *r;
  json_array_foreach(json_object_get(doc, "resources"), i, r) {
    const char *name = json_string_value(json_object_get(r, "name"));
    if (name && !strcmp(name, resource)) found = 1;
  }
  json_decref(doc);
  return found;
}

/* The first of versions (NULL-terminated) the group serves with resource. */
static void pick(api *a, const json_t *group, const char *const *versions, const char *resource, char *out,
                 size_t outlen) {
  *out = 0;
  for (; *versions && !*out; versions++) {
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(group, "versions"), i, v) {
      const char *gv = json_string_value(json_object_get(v, "groupVersion"));
      if (gv && !strcmp(json_string_value(json_object_get(v, "version")), *versions) && serves(a, gv, resource)) {
        snprintf(out, outlen, "%s", gv);
        break;
      }
    }
  }
}

int api_discover(api *a, char *err, size_t errlen) {
  long status;
  json_t *group = get_json(a, "/apis/resource.k8s.io", &status, err, errlen);
  if (!group) {
    if (status == 404)
      snprintf(err, errlen, "the server does not serve resource.k8s.io: DRA needs Kubernetes 1.34 or later");
    return -1;
  }
  static const char *const resource_versions[] = {"v1", "v1beta2", "v1beta1", NULL};
  static const char *const taint_versions[] = {"v1", "v1beta2", "v1alpha3", NULL};
  pick(a, group, resource_versions, "resourceslices", a->resource_gv, sizeof a->resource_gv);
  pick(a, group, taint_versions, "devicetaintrules", a->taint_gv, sizeof a->taint_gv);
  json_decref(group);
  if (!*a->resource_gv) {
    snprintf(err, errlen, "the server serves none of resource.k8s.io v1, v1beta2 and v1beta1");
    return -1;
  }
  json_t *sched = get_json(a, "/apis/scheduling.k8s.io", &status, err, errlen);
  static const char *const scheduling_versions[] = {"v1beta1", "v1alpha3", NULL};
  if (sched) pick(a, sched, scheduling_versions, "podgroups", a->scheduling_gv, sizeof a->scheduling_gv);
  json_decref(sched);
  return 0;
}

json_t *api_list(api *a, const char *group_version, const char *resource, const char *kind, const char *namespace_,
                 char *err, size_t errlen) {
  json_t *items = json_array();
  char *cont = NULL;
  const char *prefix = strchr(group_version, '/') ? "/apis/" : "/api/";
  do {
    char path[2048];
    int n = snprintf(path, sizeof path, "%s%s%s%s/%s?limit=%ld", prefix, group_version,
                     namespace_ ? "/namespaces/" : "", namespace_ ? namespace_ : "", resource, a->chunk_size);
    if (cont) {
      char *esc = curl_easy_escape(NULL, cont, 0);
      snprintf(path + n, sizeof path - (size_t)n, "&continue=%s", esc);
      curl_free(esc);
      free(cont);
      cont = NULL;
    }
    long status;
    json_t *page = get_json(a, path, &status, err, errlen);
    if (!page) {
      json_decref(items);
      return NULL;
    }
    size_t i;
    json_t *item;
    json_array_foreach(json_object_get(page, "items"), i, item) {
      json_object_set_new(item, "apiVersion", json_string(group_version));
      json_object_set_new(item, "kind", json_string(kind));
      json_array_append(items, item);
    }
    const char *next = json_string_value(json_object_get(json_object_get(page, "metadata"), "continue"));
    if (next && *next) cont = strdup(next);
    json_decref(page);
  } while (cont);
  return items;
}

typedef struct snap_kind {
  unsigned bit;
  int namespaced;
  const char *resource, *kind;
  int group; /* 0 core, 1 resource.k8s.io, 2 DeviceTaintRule's, 3 scheduling.k8s.io */
} snap_kind;

static const snap_kind snap_kinds[] = {
    {SNAP_NAMESPACES, 0, "namespaces", "Namespace", 0},
    {SNAP_NODES, 0, "nodes", "Node", 0},
    {SNAP_CLASSES, 0, "deviceclasses", "DeviceClass", 1},
    {SNAP_SLICES, 0, "resourceslices", "ResourceSlice", 1},
    {SNAP_RULES, 0, "devicetaintrules", "DeviceTaintRule", 2},
    {SNAP_TEMPLATES, 1, "resourceclaimtemplates", "ResourceClaimTemplate", 1},
    {SNAP_CLAIMS, 1, "resourceclaims", "ResourceClaim", 1},
    {SNAP_PODGROUPS, 1, "podgroups", "PodGroup", 3},
    {SNAP_PODS, 1, "pods", "Pod", 0},
};

/* Loads the items into ctx as stored. */
static int load(dra_ctx *ctx, const char *resource, json_t *items, char *err, size_t errlen) {
  json_t *list = json_pack("{s:s, s:s, s:O}", "apiVersion", "v1", "kind", "List", "items", items);
  char *text = json_dumps(list, JSON_COMPACT);
  json_decref(list);
  dra_status st = dra_load_buffer(ctx, resource, text, strlen(text), DRA_LOAD_AS_STORED);
  free(text);
  if (st == DRA_OK) return 0;
  snprintf(err, errlen, "reading %s: %s", resource, dra_errmsg(ctx));
  return -1;
}

int api_snapshot(api *a, unsigned what, const char *namespace_, dra_ctx *ctx, char *err, size_t errlen) {
  if (!a->read) a->read = json_object();
  for (size_t k = 0; k < sizeof snap_kinds / sizeof *snap_kinds; k++) {
    const snap_kind *s = &snap_kinds[k];
    if (!(what & s->bit)) continue;
    const char *gv = s->group == 0 ? "v1" : s->group == 1 ? a->resource_gv : s->group == 2 ? a->taint_gv : a->scheduling_gv;
    if (!*gv) { /* not served here: nothing of that kind */
      json_object_set_new(a->read, s->kind, json_array());
      continue;
    }
    json_t *items = api_list(a, gv, s->resource, s->kind, s->namespaced ? namespace_ : NULL, err, errlen);
    if (!items) return -1;
    const char *slash = strrchr(gv, '/');
    bool v1 = !strcmp(slash ? slash + 1 : gv, "v1");
    if ((!v1 || (what & SNAP_LOAD_ALL)) && load(ctx, s->resource, items, err, errlen)) {
      json_decref(items);
      return -1;
    }
    if (!v1) { /* what libdra converted */
      json_decref(items);
      items = api_items(ctx, s->kind);
    }
    json_object_set_new(a->read, s->kind, items);
  }
  return 0;
}

const json_t *api_read(const api *a, const char *kind) { return json_object_get(a->read, kind); }

void api_free(api *a) {
  json_decref(a->read);
  a->read = NULL;
}

json_t *api_items(dra_ctx *ctx, const char *kind) {
  char *text = NULL;
  json_t *items = NULL;
  if (dra_list_json(ctx, kind, NULL, &text) == DRA_OK) {
    json_t *list = json_loads(text, 0, NULL);
    items = json_incref(json_object_get(list, "items"));
    json_decref(list);
  }
  dra_free(text);
  return items ? items : json_array();
}
