/* allocate.c: dra_allocate and dra_explain of include/dra.h (and so of
 * `dra allocate`): the structured allocator (alloc/alloc.h) run over the
 * objects of a context's store as they are stored (slices, classes,
 * allocated claims and DeviceTaintRules), with the optional
 * write-back of the allocations into the store. */
#include "context/context.h"
#include "context/result.h"
#include "alloc/alloc.h"
#include "sched/claims.h"
#include "api/codec.h"
#include "store/strmap.h"
#include "util/die.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What one call reads from the store: references that keep the objects,
 * and the allocator's view of them. */
typedef struct alloc_view {
  store_obj *node_obj;
  store_list slices, classes, claims, rules;
  const store_obj **picked; /* the claims to allocate, in order (references held by claims) */
  const resource_claim **typed;
  size_t n_picked;
  alloc_input in;
  alloc_index *ix;
} alloc_view;

static const resource_claim *claim_of(const store_obj *o) { return o->object->typed; }
static bool is_allocated(const store_obj *o) { return claim_of(o)->status.allocation != NULL; }

static void list_kind(dra_ctx *ctx, api_kind kind, store_list *out) {
  store_query q = {.kind = kind, .order = STORE_BY_CREATION};
  if (store_list_query(ctx->objects, &q, out) != STORE_OK) *out = (store_list){0};
}

static const char *node_of_slice(const resource_slice *s) {
  return s->spec.node_name && s->spec.node_name[0] ? s->spec.node_name : "";
}

/* The slices the allocator needs on node_name, in store order: those of
 * every pool that is not local to another node. A pool is local to a node
 * when each of its slices names that node in spec.nodeName (the split the
 * scheduler makes); another node's pools cannot give devices here, and
 * leaving them out keeps the index the size of one node's devices. */
static const void **slices_for(const store_list *l, const char *node_name, size_t *n) {
  strmap pool_node = {0}; /* "<driver atom id>/<pool atom id>" -> node name, "" for none or several */
  char(*keys)[24] = xcalloc(l->n + 1, sizeof *keys);
  for (size_t i = 0; i < l->n; i++) {
    const resource_slice *s = l->items[i]->object->typed;
    snprintf(keys[i], sizeof keys[i], "%u/%u", s->spec.driver ? s->spec.driver->id : 0,
             s->spec.pool.name ? s->spec.pool.name->id : 0);
    const char *seen = strmap_get(&pool_node, keys[i]);
    if (!seen) strmap_put(&pool_node, keys[i], (void *)node_of_slice(s));
    else if (strcmp(seen, node_of_slice(s))) strmap_put(&pool_node, keys[i], (void *)"");
  }
  const void **v = xcalloc(l->n + 1, sizeof *v);
  *n = 0;
  for (size_t i = 0; i < l->n; i++) {
    const char *pool_on = strmap_get(&pool_node, keys[i]);
    if (!pool_on[0] || !strcmp(pool_on, node_name)) v[(*n)++] = l->items[i]->object->typed;
  }
  strmap_free(&pool_node, NULL);
  free(keys);
  return v;
}

/* The typed objects of a list, for alloc_input; only_allocated keeps the claims with an allocation. */
static const void **typed_of(const store_list *l, bool only_allocated, size_t *n) {
  const void **v = xcalloc(l->n + 1, sizeof *v);
  *n = 0;
  for (size_t i = 0; i < l->n; i++)
    if (!only_allocated || is_allocated(l->items[i])) v[(*n)++] = l->items[i]->object->typed;
  return v;
}

static const store_obj *find_claim(const store_list *claims, const char *ref) {
  const char *slash = strchr(ref, '/');
  size_t ns_len = slash ? (size_t)(slash - ref) : strlen("default");
  const char *ns = slash ? ref : "default", *name = slash ? slash + 1 : ref;
  for (size_t i = 0; i < claims->n; i++) {
    const object_meta *m = store_obj_meta(claims->items[i]);
    if (strlen(m->namespace_) == ns_len && !strncmp(m->namespace_, ns, ns_len) && !strcmp(m->name, name))
      return claims->items[i];
  }
  return NULL;
}

/* The claims named by refs (NULL: every unallocated one, in load order). */
static dra_status pick_claims(dra_ctx *ctx, const char *const *refs, alloc_view *v) {
  size_t n_refs = 0;
  while (refs && refs[n_refs]) n_refs++;
  v->picked = xcalloc((refs ? n_refs : v->claims.n) + 1, sizeof *v->picked);
  if (!refs) {
    for (size_t i = 0; i < v->claims.n; i++)
      if (!is_allocated(v->claims.items[i])) v->picked[v->n_picked++] = v->claims.items[i];
    return DRA_OK;
  }
  for (size_t i = 0; i < n_refs; i++) {
    const store_obj *c = find_claim(&v->claims, refs[i]);
    if (!c) {
      const char *slash = strchr(refs[i], '/');
      return dra_fail_store(ctx, STORE_NOT_FOUND, api_kind_info_of(KIND_RESOURCE_CLAIM), slash ? slash + 1 : refs[i],
                            NULL, 0);
    }
    if (is_allocated(c)) return dra_failf(ctx, DRA_MISUSE, "resourceclaim \"%s\" is already allocated", refs[i]);
    v->picked[v->n_picked++] = c;
  }
  return DRA_OK;
}

static void view_free(alloc_view *v) {
  alloc_index_free(v->ix);
  free((void *)v->in.slices);
  free((void *)v->in.classes);
  free((void *)v->in.allocated);
  free((void *)v->in.taint_rules);
  free(v->typed);
  free(v->picked);
  store_list_free(&v->slices);
  store_list_free(&v->classes);
  store_list_free(&v->claims);
  store_list_free(&v->rules);
  store_obj_unref(v->node_obj);
}

/* Starts dra_allocate or dra_explain: checks their common arguments, reads
 * the store and builds the allocator's index; on failure the view is freed
 * already. */
static dra_status view_open(dra_ctx *ctx, const char *call, const char *node_name, const char *const *refs,
                            unsigned flags, unsigned known_flags, const void *out, alloc_view *v) {
  dra_begin(ctx);
  *v = (alloc_view){0};
  if (!node_name || !out) return dra_failf(ctx, DRA_MISUSE, "%s: node_name and the result pointer are required", call);
  if (!dra_flags_ok(ctx, call, flags, known_flags)) return ctx->err;
  store_status st = store_get(ctx->objects, KIND_NODE, NULL, node_name, &v->node_obj);
  if (st != STORE_OK) return dra_fail_store(ctx, st, api_kind_info_of(KIND_NODE), node_name, NULL, 0);
  list_kind(ctx, KIND_RESOURCE_SLICE, &v->slices);
  list_kind(ctx, KIND_DEVICE_CLASS, &v->classes);
  list_kind(ctx, KIND_RESOURCE_CLAIM, &v->claims);
  list_kind(ctx, KIND_DEVICE_TAINT_RULE, &v->rules);
  if (pick_claims(ctx, refs, v) != DRA_OK) {
    view_free(v);
    return ctx->err;
  }
  v->typed = xcalloc(v->n_picked + 1, sizeof *v->typed);
  for (size_t i = 0; i < v->n_picked; i++) v->typed[i] = claim_of(v->picked[i]);
  v->in.gates = ctx->gates;
  v->in.slices = (const resource_slice *const *)slices_for(&v->slices, node_name, &v->in.n_slices);
  v->in.classes = (const device_class *const *)typed_of(&v->classes, false, &v->in.n_classes);
  v->in.allocated = (const resource_claim *const *)typed_of(&v->claims, true, &v->in.n_allocated);
  v->in.taint_rules = (const device_taint_rule *const *)typed_of(&v->rules, false, &v->in.n_taint_rules);
  v->ix = alloc_index_new(&v->in);
  return DRA_OK;
}

static const node *node_of(const alloc_view *v) { return v->node_obj->object->typed; }

/* Fills r from the allocator's outcome: each claim with its allocation, written to the store with
 * DRA_ALLOC_STORE. Stops at the first claim the store refuses. */
static dra_status build_result(dra_ctx *ctx, const alloc_view *v, const alloc_outcome *res, unsigned flags,
                               dra_result *r) {
  for (size_t i = 0; i < v->n_picked && ctx->err == DRA_OK; i++) {
    api_object *c = api_object_clone(v->picked[i]->object);
    resource_claim *typed = c->typed;
    typed->status.allocation = arena_calloc(c->arena, 1, sizeof *typed->status.allocation);
    codec_copy(c->arena, &allocation_result_desc, res->allocations[i], typed->status.allocation);
    if (!(flags & DRA_ALLOC_STORE)) {
      dra_result_add(r, c);
      api_object_free(c);
      continue;
    }
    store_obj *stored = NULL;
    store_status st = store_update(ctx->objects, c, &stored);
    if (st == STORE_OK) {
      dra_result_add(r, stored->object);
      store_obj_unref(stored);
    } else {
      dra_fail_store(ctx, st, c->info, api_object_meta(c)->name, NULL, 0);
      api_object_free(c);
    }
  }
  dra_result_seal(r);
  return ctx->err;
}

dra_status dra_allocate(dra_ctx *ctx, const char *node_name, const char *const *claims, unsigned flags,
                        dra_result **result) {
  if (!ctx) return DRA_MISUSE;
  if (result) *result = NULL;
  alloc_view v;
  if (view_open(ctx, "dra_allocate", node_name, claims, flags, DRA_ALLOC_STORE, result, &v) != DRA_OK)
    return ctx->err;
  dra_result *r = dra_result_new(v.n_picked, node_name, true);
  arena *out = arena_new();
  alloc_outcome res;
  alloc_limits lim = {.max_steps = ctx->alloc_max_steps, .timeout_seconds = ctx->alloc_timeout_seconds};
  alloc_run(v.ix, node_of(&v), v.typed, v.n_picked, &lim, out, &res);
  ctx->alloc_steps = res.steps;
  ctx->alloc_seconds = res.seconds;
  if (res.status == ALLOC_ERROR) dra_fail(ctx, DRA_ALLOC_ERROR, res.error);
  else if (res.status == ALLOC_UNSATISFIABLE)
    dra_failf(ctx, DRA_UNSATISFIABLE, "the claims cannot be allocated on node %s", node_name);
  else build_result(ctx, &v, &res, flags, r);
  arena_free(out);
  view_free(&v);
  if (ctx->err == DRA_OK) *result = r;
  else dra_result_free(r);
  return ctx->err;
}

dra_status dra_explain(dra_ctx *ctx, const char *node_name, const char *const *claims, unsigned flags, char **text) {
  if (!ctx) return DRA_MISUSE;
  if (text) *text = NULL;
  alloc_view v;
  if (view_open(ctx, "dra_explain", node_name, claims, flags, DRA_EXPLAIN_JSON, text, &v) != DRA_OK)
    return ctx->err;
  strbuf sb = STRBUF_INIT;
  alloc_explain_opts opts = {.json = flags & DRA_EXPLAIN_JSON, .claim_consumers = sched_claim_consumers, .user = ctx->objects};
  alloc_explain(v.ix, node_of(&v), v.typed, v.n_picked, &opts, &sb);
  *text = sb_detach(&sb);
  view_free(&v);
  return DRA_OK;
}
