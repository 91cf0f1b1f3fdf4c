/* api.c: discovery, paginated lists and snapshots (see api.h). */
#include "api.h"
#include "pages.h"
#include <curl/curl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* GET path as JSON; NULL with err as get, or when the answer is not JSON. */
static json_t *get_json(api *a, const char *path, long *status, char *err, size_t errlen) {
  response r;
  if (client_get(a->c, path, &r, status, err, errlen)) return NULL;
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

/* What mask keeps of a page (json_mask.h), malloc'd, its length in *n;
 * NULL when it is not JSON. */
static char *cut_page(const char *body, size_t len, const json_mask *mask, size_t *n) {
  char *kept = malloc(len ? len : 1);
  if (!kept) abort();
  long k = json_mask_copy(body, len, mask, kept);
  if (k < 0) {
    free(kept);
    return NULL;
  }
  *n = (size_t)k;
  return kept;
}

/* The page parsed, only what mask keeps of it; NULL when it is not JSON. */
static json_t *parse_page(const char *body, size_t len, const json_mask *mask) {
  if (mask == &json_mask_all) return json_loadb(body, len, 0, NULL);
  size_t n = 0;
  char *kept = cut_page(body, len, mask, &n);
  json_t *doc = kept ? json_loadb(kept, n, 0, NULL) : NULL;
  free(kept);
  return doc;
}

/* A page's kept text, parsed by api_parse_later into items. */
typedef struct api_later {
  char *text;
  size_t len;
  json_t *items;
  const char *gv, *kind;
  char path[sizeof ((page *)0)->path];
} api_later;

typedef struct page_sink {
  json_t *items;      /* the items, each with apiVersion and kind, or NULL: not kept */
  const json_mask *parse; /* what of a page to parse when items are kept */
  bool later;         /* keep the cut text for api_parse_later instead */
  const char *gv, *kind, *resource;
  dra_ctx *ctx;       /* load the pages into it, or NULL */
} page_sink;

/* The items of a page parsed (doc) into items, each with apiVersion and kind. */
static void add_items(json_t *items, const char *gv, const char *kind, const json_t *doc) {
  size_t i;
  json_t *item;
  json_array_foreach(json_object_get(doc, "items"), i, item) {
    json_object_set_new(item, "apiVersion", json_string(gv));
    json_object_set_new(item, "kind", json_string(kind));
    json_array_append(items, item);
  }
}

/* Keeps what ps->parse keeps of a page for api_parse_later; -1 with err
 * when it is not JSON. */
static int keep_later(api *a, const page_sink *ps, const page *pg, char *err, size_t errlen) {
  size_t n = 0;
  char *text = cut_page(pg->r.body, pg->r.len, ps->parse, &n);
  if (!text) {
    snprintf(err, errlen, "the server's answer to GET %s is not JSON", pg->path);
    return -1;
  }
  if (a->n_later == a->cap_later) {
    a->cap_later = a->cap_later ? 2 * a->cap_later : 16;
    a->later = realloc(a->later, a->cap_later * sizeof *a->later);
    if (!a->later) abort();
  }
  api_later *l = &a->later[a->n_later++];
  *l = (api_later){text, n, ps->items, ps->gv, ps->kind, ""};
  snprintf(l->path, sizeof l->path, "%s", pg->path);
  return 0;
}

static void later_free(api *a) {
  for (size_t i = 0; i < a->n_later; i++) free(a->later[i].text);
  free(a->later);
  a->later = NULL;
  a->n_later = a->cap_later = 0;
}

int api_parse_later(api *a, char *err, size_t errlen) {
  int rc = 0;
  for (size_t i = 0; i < a->n_later && !rc; i++) {
    api_later *l = &a->later[i];
    json_t *doc = json_loadb(l->text, l->len, 0, NULL);
    if (!doc) {
      snprintf(err, errlen, "the server's answer to GET %s is not JSON", l->path);
      rc = -1;
    }
    add_items(l->items, l->gv, l->kind, doc);
    json_decref(doc);
  }
  later_free(a);
  return rc;
}

/* Takes a page: its items into ps->items (doc is the page parsed) and the
 * page into ps->ctx. */
static int take_page(page_sink *ps, const char *body, size_t len, json_t *doc, char *err, size_t errlen) {
  if (ps->items) add_items(ps->items, ps->gv, ps->kind, doc);
  /* the page as sent: a typed List, whose items take its kind and apiVersion;
   * nothing reads their managedFields or unmodelled fields back but the
   * scheduler, and the context lives for one command (docs/kubectl-dra.md
   * "Speed") */
  unsigned flags = DRA_LOAD_AS_STORED | DRA_LOAD_NO_MANAGED_FIELDS | DRA_LOAD_UNSHARED | DRA_LOAD_SCHEDULING_ONLY;
  if (ps->ctx && dra_load_buffer(ps->ctx, ps->resource, body, len, flags) != DRA_OK) {
    snprintf(err, errlen, "reading %s: %s", ps->resource, dra_errmsg(ps->ctx));
    return -1;
  }
  return 0;
}

/* Reads the lists (n of them) into their sinks, each page as the server
 * sent it; the pages come from a reader thread (pages.h) while this one
 * takes them. -1 with the first error. */
static int read_lists(api *a, const pages_list *lists, page_sink *sinks, size_t n, char *err, size_t errlen) {
  if (!n) return 0;
  pages *p = pages_start(a->c, a->chunk_size, lists, n);
  int rc = 0;
  for (size_t i = 0; i < n && !rc; i++) {
    page pg = {.last = false};
    while (!rc && !pg.last) {
      if ((rc = pages_next(p, &pg, err, errlen))) break;
      bool parse = sinks[i].items != NULL && !sinks[i].later;
      json_t *doc = pg.doc;
      if (sinks[i].items && sinks[i].parse != &json_mask_all) { /* the reader's tree is the whole page */
        json_decref(doc);
        doc = NULL;
      }
      if (sinks[i].later) {
        rc = keep_later(a, &sinks[i], &pg, err, errlen);
      } else if (parse && !doc && !(doc = parse_page(pg.r.body, pg.r.len, sinks[i].parse))) {
        snprintf(err, errlen, "the server's answer to GET %s is not JSON", pg.path);
        rc = -1;
      }
      if (!rc) rc = take_page(&sinks[i], pg.r.body, pg.r.len, parse ? doc : NULL, err, errlen);
      json_decref(doc);
      response_free(&pg.r);
    }
  }
  pages_stop(p);
  return rc;
}

json_t *api_list(api *a, const char *group_version, const char *resource, const char *kind, const char *namespace_,
                 char *err, size_t errlen) {
  page_sink ps = {json_array(), &json_mask_all, false, group_version, kind, resource, NULL};
  pages_list list = {group_version, resource, namespace_};
  if (read_lists(a, &list, &ps, 1, err, errlen)) {
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
  enum { KINDS = sizeof snap_kinds / sizeof *snap_kinds };
  pages_list lists[KINDS];
  page_sink sinks[KINDS];
  json_mask list_masks[KINDS];
  json_mask_member list_members[KINDS][2];
  const snap_kind *listed[KINDS];
  size_t n = 0;
  for (size_t k = 0; k < KINDS; k++) {
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
    lists[n] = (pages_list){gv, s->resource, s->namespaced ? namespace_ : NULL};
    /* of a List page, its metadata (continue) and of each item what is kept */
    list_members[n][0] = (json_mask_member){"items", kept_of(a, s->kind)};
    list_members[n][1] = (json_mask_member){NULL, NULL};
    list_masks[n] = (json_mask){true, list_members[n]};
    sinks[n] = (page_sink){keep ? json_array() : NULL, &list_masks[n], keep && (what & SNAP_PARSE_LATER), gv, s->kind,
                           s->resource, load ? ctx : NULL};
    listed[n++] = s;
  }
  int rc = read_lists(a, lists, sinks, n, err, errlen);
  if (rc) later_free(a); /* their arrays go below */
  for (size_t i = 0; i < n; i++) {
    if (rc) {
      json_decref(sinks[i].items);
      continue;
    }
    const char *slash = strrchr(sinks[i].gv, '/');
    if (strcmp(slash ? slash + 1 : sinks[i].gv, "v1")) sinks[i].items = api_items(ctx, listed[i]->kind); /* what libdra converted */
    if (sinks[i].items) json_object_set_new(a->read, listed[i]->kind, sinks[i].items);
  }
  return rc;
}

const json_t *api_read(const api *a, const char *kind) { return json_object_get(a->read, kind); }

void api_free(api *a) {
  later_free(a);
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
