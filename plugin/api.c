/* api.c: discovery, paginated lists and snapshots (see api.h). */
#include "api.h"
#include <curl/curl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* GET path: 0 with the response (freed by the caller), or -1 with err on a
 * transport error or status >= 400 (*status says which, 0 for transport). */
static int get(api *a, const char *path, response *r, long *status, char *err, size_t errlen) {
  *status = 0;
  if (client_request(a->c, "GET", path, NULL, NULL, r, err, errlen)) return -1;
  *status = r->status;
  if (r->status < 400) return 0;
  response_error(r, err, errlen);
  response_free(r);
  return -1;
}

/* GET path as JSON; NULL with err as get, or when the answer is not JSON. */
static json_t *get_json(api *a, const char *path, long *status, char *err, size_t errlen) {
  response r;
  if (get(a, path, &r, status, err, errlen)) return NULL;
  json_t *doc = json_loadb(r.body, r.len, 0, NULL);
  if (!doc) snprintf(err, errlen, "the server's answer to GET %s is not JSON", path);
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

/* At p, "key" then optional blanks and a colon: what follows it; else NULL. */
static const char *after_key(const char *p, const char *end, const char *key) {
  size_t n = strlen(key);
  if ((size_t)(end - p) < n + 2 || p[0] != '"' || memcmp(p + 1, key, n) || p[n + 1] != '"') return NULL;
  for (p += n + 2; p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'); p++) {}
  if (p == end || *p != ':') return NULL;
  for (p++; p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'); p++) {}
  return p;
}

/* A page's metadata.continue, found in the text before the items (where
 * kube-apiserver and dra serve write a List's metadata) without parsing the
 * page; NULL when there is none. *unsure when the page is not laid out so
 * (no items key, or a token with escapes): then parse it. */
static char *continue_of(const char *body, size_t len, bool *unsure) {
  const char *end = body + len, *at = NULL;
  *unsure = true;
  for (const char *p = body; p < end; p++) {
    if (*p != '"') continue;
    if (after_key(p, end, "items")) {
      *unsure = false;
      break;
    }
    const char *v = at ? NULL : after_key(p, end, "continue");
    if (v && v < end && *v == '"') at = v + 1;
  }
  if (*unsure || !at) return NULL;
  const char *q = at;
  while (q < end && *q != '"' && *q != '\\') q++;
  if (q == end || *q == '\\') {
    *unsure = true;
    return NULL;
  }
  return q > at ? strndup(at, (size_t)(q - at)) : NULL;
}

/* The page parsed, only what mask keeps of it (json_mask.h); NULL when it
 * is not JSON. */
static json_t *parse_page(const char *body, size_t len, const json_mask *mask) {
  if (mask == &json_mask_all) return json_loadb(body, len, 0, NULL);
  char *kept = malloc(len ? len : 1);
  if (!kept) abort();
  long n = json_mask_copy(body, len, mask, kept);
  json_t *doc = n < 0 ? NULL : json_loadb(kept, (size_t)n, 0, NULL);
  free(kept);
  return doc;
}

/* Calls page(user, body, len, doc) for every page of a resource (in a
 * namespace, or all with NULL); doc is the page parsed, of it only what
 * parse keeps, when parse is set (else NULL). -1 with err on a failed
 * request or page. */
typedef int (*page_fn)(void *user, const char *body, size_t len, json_t *doc, char *err, size_t errlen);
static int each_page(api *a, const char *group_version, const char *resource, const char *namespace_,
                     const json_mask *parse, page_fn page, void *user, char *err, size_t errlen) {
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
    response r;
    long status;
    if (get(a, path, &r, &status, err, errlen)) return -1;
    bool unsure = false;
    if (!parse) cont = continue_of(r.body, r.len, &unsure);
    json_t *doc = parse || unsure ? parse_page(r.body, r.len, parse ? parse : &json_mask_all) : NULL;
    if ((parse || unsure) && !doc) {
      snprintf(err, errlen, "the server's answer to GET %s is not JSON", path);
      response_free(&r);
      return -1;
    }
    if (doc) {
      const char *next = json_string_value(json_object_get(json_object_get(doc, "metadata"), "continue"));
      free(cont);
      cont = next && *next ? strdup(next) : NULL;
    }
    int rc = page(user, r.body, r.len, parse ? doc : NULL, err, errlen);
    json_decref(doc);
    response_free(&r);
    if (rc) {
      free(cont);
      return -1;
    }
  } while (cont);
  return 0;
}

typedef struct page_sink {
  json_t *items;      /* the items, each with apiVersion and kind, or NULL: not kept */
  const char *gv, *kind, *resource;
  dra_ctx *ctx;       /* load the pages into it, or NULL */
} page_sink;

static int take_page(void *user, const char *body, size_t len, json_t *doc, char *err, size_t errlen) {
  page_sink *ps = user;
  size_t i;
  json_t *item;
  if (ps->items) json_array_foreach(json_object_get(doc, "items"), i, item) {
      json_object_set_new(item, "apiVersion", json_string(ps->gv));
      json_object_set_new(item, "kind", json_string(ps->kind));
      json_array_append(ps->items, item);
    }
  /* the page as sent: a typed List, whose items take its kind and apiVersion;
   * nothing reads their managedFields back, and the context lives for one
   * command (docs/kubectl-dra.md "Speed") */
  unsigned flags = DRA_LOAD_AS_STORED | DRA_LOAD_NO_MANAGED_FIELDS | DRA_LOAD_UNSHARED;
  if (ps->ctx && dra_load_buffer(ps->ctx, ps->resource, body, len, flags) != DRA_OK) {
    snprintf(err, errlen, "reading %s: %s", ps->resource, dra_errmsg(ps->ctx));
    return -1;
  }
  return 0;
}

json_t *api_list(api *a, const char *group_version, const char *resource, const char *kind, const char *namespace_,
                 char *err, size_t errlen) {
  page_sink ps = {json_array(), group_version, kind, resource, NULL};
  if (each_page(a, group_version, resource, namespace_, &json_mask_all, take_page, &ps, err, errlen)) {
    json_decref(ps.items);
    return NULL;
  }
  return ps.items;
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

/* Of an object, all but its managedFields, which no command reads. */
static const json_mask no_managed_fields = {true, (const json_mask_member[]){{"managedFields", NULL}, {NULL, NULL}}};
static const json_mask all_but_managed_fields = {true, (const json_mask_member[]){{"metadata", &no_managed_fields},
                                                                                  {NULL, NULL}}};

/* What a->keep keeps of an object of the kind. */
static const json_mask *kept_of(const api *a, const char *kind) {
  for (const api_keep *k = a->keep; k && k->kind; k++)
    if (!strcmp(k->kind, kind)) return k->mask;
  return &all_but_managed_fields;
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
    const char *slash = strrchr(gv, '/');
    bool v1 = !strcmp(slash ? slash + 1 : gv, "v1");
    bool load = !v1 || (what & SNAP_LOAD_ALL);
    /* kept as read: what capacity and claims use without libdra, and the
     * inventory's kinds; with SNAP_LOAD_ALL the rest is in ctx alone */
    bool keep = v1 && (!(what & SNAP_LOAD_ALL) || (s->bit & SNAP_INVENTORY));
    page_sink ps = {keep ? json_array() : NULL, gv, s->kind, s->resource, load ? ctx : NULL};
    /* of a List page, its metadata (continue) and of each item what is kept */
    const json_mask list = {true, (const json_mask_member[]){{"items", kept_of(a, s->kind)}, {NULL, NULL}}};
    if (each_page(a, gv, s->resource, s->namespaced ? namespace_ : NULL, keep ? &list : NULL, take_page, &ps, err,
                  errlen)) {
      json_decref(ps.items);
      return -1;
    }
    if (!v1) ps.items = api_items(ctx, s->kind); /* what libdra converted */
    if (ps.items) json_object_set_new(a->read, s->kind, ps.items);
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
