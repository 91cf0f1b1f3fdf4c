/* cmd_allocate.c: `dra allocate`: loads manifests, allocates the named (or
 * every unallocated) ResourceClaim together for one Node with the
 * structured allocator, and prints the claims with status.allocation.
 * Exit 0 allocated, 1 does not fit (unsatisfiable), 2 error. */
#include "commands.h"
#include "cli_flags.h"
#include "alloc/alloc.h"
#include "codec/doc.h"
#include "load/objects.h"
#include "util/die.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct objvec {
  api_object **v;
  size_t n;
} objvec;

typedef struct opts {
  cli_common common;
  const char *node;
  cli_strings claims;
  bool json, explain, stats;
  alloc_limits lim;
} opts;

static const char *const help =
    "usage: dra allocate -f FILE... --node NAME [--claim [NS/]NAME ...] [--feature-gates A=true,...]\n"
    "                    [-o yaml|json] [--explain] [--stats] [--max-steps N] [--timeout DURATION]\n"
    "Allocates the named claims (default: every unallocated claim, in input order) together for\n"
    "one Node as kube-scheduler would. Claims with status.allocation hold their devices.\n"
    "Exit 0: allocated (claims printed); 1: they do not fit on the node; 2: error.\n";

static bool parse_seconds(const char *s, double *out) {
  char *end;
  *out = strtod(s, &end);
  if (end == s) return false;
  if (!strcmp(end, "ms")) *out /= 1000;
  else if (!strcmp(end, "m")) *out *= 60;
  else if (*end && strcmp(end, "s")) return false;
  return *out > 0;
}

/* 0 to go on, else the exit code. */
static int parse_args(int argc, char **argv, opts *o) {
  const char *max_steps = NULL, *timeout = NULL;
  const cli_flag extra[] = {
      {"node", 0, CLI_FLAG_STRING, &o->node},     {"claim", 0, CLI_FLAG_STRINGS, &o->claims},
      {"explain", 0, CLI_FLAG_BOOL, &o->explain}, {"stats", 0, CLI_FLAG_BOOL, &o->stats},
      {"max-steps", 0, CLI_FLAG_STRING, &max_steps}, {"timeout", 0, CLI_FLAG_STRING, &timeout},
      {0},
  };
  if (!cli_parse(argc, argv, "allocate", &o->common, extra)) return 2;
  if (o->common.help) {
    fputs(help, stdout);
    return -1;
  }
  if (o->common.output && strcmp(o->common.output, "json") && strcmp(o->common.output, "yaml")) {
    fprintf(stderr, "error: allocate prints yaml or json, not \"%s\"\n", o->common.output);
    return 2;
  }
  o->json = o->common.output && !strcmp(o->common.output, "json");
  if (max_steps) {
    char *end;
    o->lim.max_steps = strtoull(max_steps, &end, 10);
    if (*end || !o->lim.max_steps) {
      fprintf(stderr, "error: --max-steps: want a positive integer, got \"%s\"\n", max_steps);
      return 2;
    }
  }
  if (timeout && !parse_seconds(timeout, &o->lim.timeout_seconds)) {
    fprintf(stderr, "error: --timeout: want a duration such as 10s, got \"%s\"\n", timeout);
    return 2;
  }
  if (!cli_require_files(&o->common)) return 2;
  if (!o->node) {
    fputs("error: allocate needs --node NAME\n", stderr);
    return 2;
  }
  return 0;
}

static int load_objects(const opts *o, object_set *set, objvec *out) {
  int rc = cli_load_objects(&o->common, set) ? 0 : 2;
  out->v = xcalloc(set->n + 1, sizeof *out->v);
  for (size_t i = 0; rc == 0 && i < set->n; i++) {
    if (!loaded_object_ok(&set->items[i])) {
      char *report = loaded_object_decode_report(&set->items[i]);
      fprintf(stderr, "%s\n", report);
      free(report);
      rc = 2;
    }
    out->v[out->n++] = set->items[i].obj;
  }
  return rc;
}

static const char *ns_of(const api_object *o) {
  const char *ns = api_object_meta(o)->namespace_;
  return ns && ns[0] ? ns : "default";
}

static api_object *find_claim(const objvec *all, const char *ref) {
  const char *slash = strchr(ref, '/');
  for (size_t i = 0; i < all->n; i++) {
    const api_object *o = all->v[i];
    if (o->info->kind != KIND_RESOURCE_CLAIM) continue;
    const char *name = api_object_meta(o)->name ? api_object_meta(o)->name : "";
    if (slash ? (strlen(ns_of(o)) == (size_t)(slash - ref) && !strncmp(ns_of(o), ref, (size_t)(slash - ref)) &&
                 !strcmp(name, slash + 1))
              : (!strcmp(ns_of(o), "default") && !strcmp(name, ref)))
      return all->v[i];
  }
  return NULL;
}

static bool is_allocated(const api_object *o) { return ((resource_claim *)o->typed)->status.allocation != NULL; }

/* Claims to allocate, in order; NULL return with a message on error. */
static api_object **pick_claims(const opts *o, const objvec *all, size_t *n) {
  api_object **v = xcalloc(all->n + o->claims.n + 1, sizeof *v);
  *n = 0;
  if (!o->claims.n) {
    for (size_t i = 0; i < all->n; i++)
      if (all->v[i]->info->kind == KIND_RESOURCE_CLAIM && !is_allocated(all->v[i])) v[(*n)++] = all->v[i];
    return v;
  }
  for (size_t i = 0; i < o->claims.n; i++) {
    api_object *c = find_claim(all, o->claims.v[i]);
    if (!c || is_allocated(c)) {
      fprintf(stderr, "error: resourceclaim \"%s\" %s\n", o->claims.v[i], c ? "is already allocated" : "not found");
      free(v);
      return NULL;
    }
    v[(*n)++] = c;
  }
  return v;
}

static const node *find_node(const objvec *all, const char *name) {
  for (size_t i = 0; i < all->n; i++)
    if (all->v[i]->info->kind == KIND_NODE && api_object_meta(all->v[i])->name &&
        !strcmp(api_object_meta(all->v[i])->name, name))
      return all->v[i]->typed;
  return NULL;
}

static void collect(const objvec *all, api_kind kind, bool allocated_only, const void ***out, size_t *n) {
  *out = xcalloc(all->n + 1, sizeof **out);
  *n = 0;
  for (size_t i = 0; i < all->n; i++)
    if (all->v[i]->info->kind == kind && (!allocated_only || is_allocated(all->v[i]))) (*out)[(*n)++] = all->v[i]->typed;
}

static void print_claims(const opts *o, api_object **claims, size_t n, const alloc_outcome *res) {
  json_t *items = json_array();
  for (size_t i = 0; i < n; i++) {
    api_object *c = api_object_clone(claims[i]);
    resource_claim *rc = c->typed;
    rc->status.allocation = res->allocations[i];
    json_array_append_new(items, api_object_encode(c));
    api_object_free(c);
  }
  json_t *list = json_pack("{s:s, s:s, s:o}", "apiVersion", "v1", "kind", "List", "items", items);
  strbuf sb = STRBUF_INIT;
  if (o->json) doc_write_json(&sb, list);
  else doc_write_yaml(&sb, list);
  fputs(sb_str(&sb), stdout);
  sb_free(&sb);
  json_decref(list);
}

static int allocate(const opts *o, const objvec *all) {
  const node *nd = find_node(all, o->node);
  if (!nd) {
    fprintf(stderr, "error: node \"%s\" not found in the input\n", o->node);
    return 2;
  }
  size_t n_claims;
  api_object **claims = pick_claims(o, all, &n_claims);
  if (!claims) return 2;
  alloc_input in = {.gates = o->common.gates};
  collect(all, KIND_RESOURCE_SLICE, false, (const void ***)&in.slices, &in.n_slices);
  collect(all, KIND_DEVICE_CLASS, false, (const void ***)&in.classes, &in.n_classes);
  collect(all, KIND_RESOURCE_CLAIM, true, (const void ***)&in.allocated, &in.n_allocated);
  const resource_claim **typed = xcalloc(n_claims + 1, sizeof *typed);
  for (size_t i = 0; i < n_claims; i++) typed[i] = claims[i]->typed;
  alloc_index *ix = alloc_index_new(&in);
  arena *out = arena_new();
  alloc_outcome res;
  alloc_run(ix, nd, typed, n_claims, &o->lim, out, &res);
  if (o->stats) fprintf(stderr, "steps: %llu\ntime: %.3f ms\n", (unsigned long long)res.steps, res.seconds * 1e3);
  if (res.status == ALLOC_OK) print_claims(o, claims, n_claims, &res);
  else if (res.status == ALLOC_ERROR) fprintf(stderr, "error: %s\n", res.error);
  else fprintf(stderr, "the claims cannot be allocated on node %s%s\n", o->node, o->explain ? "" : " (--explain tells why)");
  if (o->explain && res.status != ALLOC_OK) {
    strbuf sb = STRBUF_INIT;
    alloc_explain(ix, nd, typed, n_claims, o->json, &sb);
    fputs(sb_str(&sb), stdout);
    sb_free(&sb);
  }
  arena_free(out);
  alloc_index_free(ix);
  free(typed);
  free((void *)in.slices);
  free((void *)in.classes);
  free((void *)in.allocated);
  free(claims);
  return (int)res.status;
}

int cmd_allocate(int argc, char **argv) {
  opts o = {0};
  object_set set = {0};
  objvec all = {0};
  int rc = parse_args(argc, argv, &o);
  if (!rc) rc = load_objects(&o, &set, &all);
  if (!rc) rc = allocate(&o, &all);
  free(all.v);
  object_set_free(&set);
  cli_strings_free(&o.claims);
  cli_common_free(&o.common);
  return rc < 0 ? 0 : rc;
}
