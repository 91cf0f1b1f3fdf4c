/* devices.c: devices in use and the allocator over them (see devices.h).
 * One alloc_index per node, built from the node's own pools (pools whose
 * slices all name that node), the shared pools (every other slice), the
 * classes and the allocated claims that can hold devices there. A claim
 * whose allocation is pinned to one node (nodeSelector = matchFields
 * metadata.name In [node]) only dirties that node's index; anything else
 * dirties all of them. A newly allocated pinned claim is added to its
 * node's index in place (alloc_index_hold), so scheduling a pod rebuilds no
 * index, and freeing a pinned claim's devices takes them out of it in place
 * (alloc_index_release; rebuilt only when that cannot be exact). */
#include "sched/devices.h"
#include "alloc/alloc.h"
#include "api/codec.h"
#include "sched/claims.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

typedef struct held_claim {
  store_obj *obj;
  char *node; /* the one node its allocation is pinned to, or NULL */
} held_claim;

typedef struct obj_vec {
  store_obj **v;
  size_t n, cap;
} obj_vec;

typedef struct node_devices {
  obj_vec slices;   /* this node's own pools (borrowed from topo) */
  obj_vec claims;   /* allocated claims pinned to this node (borrowed from held) */
  alloc_index *ix;  /* NULL: to build */
  uint64_t epoch;
  uint64_t misfit_sig, misfit_epoch; /* a claim set that did not fit, and when */
} node_devices;

struct sched_devices {
  strmap held;       /* claim key -> held_claim */
  obj_vec global_claims; /* held claims not pinned to one node (borrowed) */
  bool topo_dirty;
  bool no_execute; /* some device has a NoExecute taint */
  store_list slices, classes, rules; /* rules: DeviceTaintRules, by name */
  obj_vec shared_slices; /* borrowed from slices */
  strmap shared_pools;   /* "driver/pool" of shared_slices -> non-NULL */
  strmap nodes;      /* node name -> node_devices */
  uint64_t seq;      /* epoch source */
  uint64_t global_epoch;
  /* the known-misfit prefix of the node order (sched_devices_misfit_prefix),
   * valid while misfit_gen is prefix_gen */
  uint64_t prefix_sig, misfit_gen, prefix_gen;
  size_t prefix_n;
};

static void vec_push(obj_vec *v, store_obj *o) {
  if (v->n == v->cap) {
    v->cap = v->cap ? 2 * v->cap : 8;
    v->v = xrealloc(v->v, v->cap * sizeof *v->v);
  }
  v->v[v->n++] = o;
}

static void vec_remove(obj_vec *v, store_obj *o) {
  for (size_t i = 0; i < v->n; i++)
    if (v->v[i] == o) {
      memmove(&v->v[i], &v->v[i + 1], (v->n - i - 1) * sizeof *v->v);
      v->n--;
      return;
    }
}

sched_devices *sched_devices_new(void) {
  sched_devices *d = xcalloc(1, sizeof *d);
  d->topo_dirty = true;
  return d;
}

static void node_devices_reset(node_devices *nd) {
  if (nd->ix) alloc_index_free(nd->ix);
  nd->ix = NULL;
}

static void free_node_devices(void *v) {
  node_devices *nd = v;
  node_devices_reset(nd);
  free(nd->slices.v);
  free(nd->claims.v);
  free(nd);
}

static void free_held(void *v) {
  held_claim *h = v;
  store_obj_unref(h->obj);
  free(h->node);
  free(h);
}

void sched_devices_free(sched_devices *d) {
  if (!d) return;
  strmap_free(&d->nodes, free_node_devices);
  strmap_free(&d->held, free_held);
  free(d->global_claims.v);
  strmap_free(&d->shared_pools, NULL);
  free(d->shared_slices.v);
  store_list_free(&d->slices);
  store_list_free(&d->classes);
  store_list_free(&d->rules);
  free(d);
}

static node_devices *node_slot(sched_devices *d, const char *name) {
  node_devices *nd = strmap_get(&d->nodes, name);
  if (!nd) {
    nd = xcalloc(1, sizeof *nd);
    strmap_put(&d->nodes, name, nd);
  }
  return nd;
}

static uint64_t epoch_of(const sched_devices *d, const node_devices *nd) {
  return nd->epoch > d->global_epoch ? nd->epoch : d->global_epoch;
}

/* The claim's devices on the node were freed: what did not fit there may now. */
static void release_on_node(sched_devices *d, node_devices *nd, const resource_claim *c) {
  if (nd->ix && !alloc_index_release(nd->ix, c)) node_devices_reset(nd);
  nd->epoch = ++d->seq;
  d->misfit_gen++;
}

static void reset_each(void *ctx, void *v) {
  (void)ctx;
  node_devices_reset(v);
}

static void dirty_all(sched_devices *d) {
  strmap_each(&d->nodes, reset_each, NULL);
  d->global_epoch = ++d->seq;
  d->misfit_gen++;
}

void sched_devices_topology_changed(sched_loop *l) {
  l->devices->topo_dirty = true;
  dirty_all(l->devices);
}

static bool uses_shared_pool(const sched_devices *d, const allocation_result *a);

/* The node an allocation is pinned to: matchFields metadata.name In [x]. */
static const char *pinned_node(const allocation_result *a) {
  const node_selector *s = a->node_selector;
  if (!s || s->node_selector_terms.n != 1) return NULL;
  const node_selector_term *t = &s->node_selector_terms.items[0];
  if (t->match_expressions.n || t->match_fields.n != 1) return NULL;
  const node_selector_requirement *r = &t->match_fields.items[0];
  if (!r->key || strcmp(r->key, "metadata.name") || !r->operator_ || strcmp(r->operator_, "In") || r->values.n != 1)
    return NULL;
  return r->values.items[0];
}

/* A claim pinned to nd now holds devices. Its index, when built, takes the
 * claim as one more allocated input: it was last in the index's claim order
 * unless claims not pinned to one node follow it, then the index is rebuilt. */
static void hold_on_node(sched_devices *d, node_devices *nd, const resource_claim *c) {
  if (nd->ix && !d->global_claims.n) alloc_index_hold(nd->ix, c);
  else node_devices_reset(nd);
  /* fewer free devices: a claim set that did not fit still does not */
  bool misfit = nd->misfit_epoch == epoch_of(d, nd) + 1;
  nd->epoch = ++d->seq;
  if (misfit) nd->misfit_epoch = epoch_of(d, nd) + 1;
}

static void unhold(sched_devices *d, held_claim *h) {
  if (h->node) {
    node_devices *nd = node_slot(d, h->node);
    vec_remove(&nd->claims, h->obj);
    release_on_node(d, nd, h->obj->object->typed);
  } else {
    vec_remove(&d->global_claims, h->obj);
    dirty_all(d);
  }
}

bool sched_devices_claim_changed(sched_loop *l, store_obj *claim, bool deleted) {
  sched_devices *d = l->devices;
  const resource_claim *c = claim->object->typed;
  strbuf keybuf = STRBUF_INIT;
  const char *key = sched_key(&keybuf, "", c->metadata.namespace_, c->metadata.name);
  held_claim *h = strmap_get(&d->held, key);
  const allocation_result *now = deleted ? NULL : c->status.allocation;
  if (h && now && codec_equal(&allocation_result_desc, ((resource_claim *)h->obj->object->typed)->status.allocation,
                              now)) {
    /* same devices (reservedFor or metadata changed): swap the object */
    node_devices *nd = h->node ? node_slot(d, h->node) : NULL;
    obj_vec *v = nd ? &nd->claims : &d->global_claims;
    for (size_t i = 0; i < v->n; i++)
      if (v->v[i] == h->obj) v->v[i] = claim;
    /* the indexes keep no pointer into the old object: they stay valid */
    store_obj_unref(h->obj);
    h->obj = store_obj_ref(claim);
    sb_free(&keybuf);
    return false;
  }
  bool freed = false;
  if (h) {
    unhold(d, h);
    strmap_remove(&d->held, key);
    free_held(h);
    freed = true;
  }
  if (now) {
    h = xcalloc(1, sizeof *h);
    h->obj = store_obj_ref(claim);
    /* a claim holding devices of a pool shared between nodes is in every
     * node's index, wherever its node selector pins it */
    const char *pin = uses_shared_pool(d, now) ? NULL : pinned_node(now);
    h->node = pin ? xstrdup(pin) : NULL;
    strmap_put(&d->held, key, h);
    if (pin) {
      node_devices *nd = node_slot(d, pin);
      vec_push(&nd->claims, claim);
      hold_on_node(d, nd, c);
    } else {
      vec_push(&d->global_claims, claim);
      dirty_all(d);
    }
  }
  sb_free(&keybuf);
  return freed;
}

typedef struct group_ctx {
  sched_loop *l;
  const char *ns, *group;
} group_ctx;

static void push_if_reserved_for_group(void *ctx, void *v) {
  group_ctx *g = ctx;
  const resource_claim *c = ((held_claim *)v)->obj->object->typed;
  if (strcmp(c->metadata.namespace_ ? c->metadata.namespace_ : "", g->ns)) return;
  for (uint32_t i = 0; i < c->status.reserved_for.n; i++) {
    const resource_claim_consumer_reference *r = &c->status.reserved_for.items[i];
    if (r->api_group && !strcmp(r->api_group, SCHED_SCHEDULING_GROUP) && r->name && !strcmp(r->name, g->group))
      sched_push_claim_key(g->l, c->metadata.namespace_, c->metadata.name);
  }
}

void sched_devices_push_group_claims(sched_loop *l, const char *ns, const char *group) {
  group_ctx g = {l, ns, group};
  strmap_each(&l->devices->held, push_if_reserved_for_group, &g);
}

/* ---- topology: which slices each node's index gets ---- */

static void clear_slices(void *ctx, void *v) {
  (void)ctx;
  node_devices *nd = v;
  nd->slices.n = 0;
}

/* "driver/pool", the pool a slice belongs to. */
static const char *pool_key(strbuf *sb, const resource_slice *s) {
  return sched_key(sb, "", s->spec.driver ? s->spec.driver->str : "", s->spec.pool.name ? s->spec.pool.name->str : "");
}

static bool uses_shared_pool(const sched_devices *d, const allocation_result *a) {
  strbuf key = STRBUF_INIT;
  bool shared = false;
  for (uint32_t i = 0; a->devices && i < a->devices->results.n && !shared; i++) {
    const device_request_allocation_result *r = &a->devices->results.items[i];
    shared = strmap_get(&d->shared_pools, sched_key(&key, "", r->driver ? r->driver->str : "", r->pool ? r->pool->str : ""));
  }
  sb_free(&key);
  return shared;
}

typedef struct unpinned {
  const char *key; /* "ns/name", the held map's */
  held_claim *h;
} unpinned;

typedef struct unpin_scan {
  sched_devices *d;
  unpinned *v;
  size_t n, cap;
} unpin_scan;

static void find_unpinned(void *ctx, const char *key, void *v) {
  unpin_scan *u = ctx;
  held_claim *h = v;
  const resource_claim *c = h->obj->object->typed;
  if (!h->node || !uses_shared_pool(u->d, c->status.allocation)) return;
  if (u->n == u->cap) {
    u->cap = u->cap ? 2 * u->cap : 8;
    u->v = xrealloc(u->v, u->cap * sizeof *u->v);
  }
  u->v[u->n++] = (unpinned){key, h};
}

static int cmp_unpinned(const void *a, const void *b) {
  return strcmp(((const unpinned *)a)->key, ((const unpinned *)b)->key);
}

/* Pinned held claims whose pool became shared between nodes move to the
 * claims every node's index holds, in name order. */
static void unpin_shared(sched_devices *d) {
  unpin_scan u = {.d = d};
  strmap_each_entry(&d->held, find_unpinned, &u);
  if (u.n) qsort(u.v, u.n, sizeof *u.v, cmp_unpinned);
  for (size_t i = 0; i < u.n; i++) {
    held_claim *h = u.v[i].h;
    vec_remove(&node_slot(d, h->node)->claims, h->obj);
    vec_push(&d->global_claims, h->obj);
    free(h->node);
    h->node = NULL;
  }
  free(u.v);
}

static void refresh_topology(sched_loop *l) {
  sched_devices *d = l->devices;
  if (!d->topo_dirty) return;
  d->topo_dirty = false;
  store_list_free(&d->slices);
  store_list_free(&d->classes);
  store_list_free(&d->rules);
  memset(&d->slices, 0, sizeof d->slices);
  memset(&d->classes, 0, sizeof d->classes);
  memset(&d->rules, 0, sizeof d->rules);
  d->shared_slices.n = 0;
  strmap_free(&d->shared_pools, NULL);
  d->shared_pools = (strmap){0};
  strmap_each(&d->nodes, clear_slices, NULL);
  store_query qs = {.kind = KIND_RESOURCE_SLICE, .order = STORE_BY_NAME};
  store_query qc = {.kind = KIND_DEVICE_CLASS, .order = STORE_BY_NAME};
  store_list_query(l->st, &qs, &d->slices);
  store_list_query(l->st, &qc, &d->classes);
  if (gate_on(&l->opt.gates, GATE_DEVICE_TAINT_RULES)) {
    store_query qr = {.kind = KIND_DEVICE_TAINT_RULE, .order = STORE_BY_NAME};
    store_list_query(l->st, &qr, &d->rules);
  }
  /* a pool is node-local when every slice of it names the same node */
  strmap pool_node = {0}; /* "driver/pool" -> node name, or "" when mixed */
  strbuf keybuf = STRBUF_INIT;
  d->no_execute = false;
  for (size_t i = 0; i < d->rules.n; i++) {
    const char *e = ((const device_taint_rule *)d->rules.items[i]->object->typed)->spec.taint.effect;
    d->no_execute |= e && !strcmp(e, "NoExecute");
  }
  for (size_t i = 0; i < d->slices.n; i++) {
    const resource_slice *s = d->slices.items[i]->object->typed;
    const char *key = pool_key(&keybuf, s);
    for (uint32_t j = 0; j < s->spec.devices.n; j++)
      for (uint32_t t = 0; t < s->spec.devices.items[j].taints.n; t++) {
        const char *e = s->spec.devices.items[j].taints.items[t].effect;
        d->no_execute |= e && !strcmp(e, "NoExecute");
      }
    const char *node = s->spec.node_name && *s->spec.node_name ? s->spec.node_name : "";
    const char *seen = strmap_get(&pool_node, key);
    if (!seen) strmap_put(&pool_node, key, (void *)node);
    else if (strcmp(seen, node)) strmap_put(&pool_node, key, (void *)"");
  }
  for (size_t i = 0; i < d->slices.n; i++) {
    const resource_slice *s = d->slices.items[i]->object->typed;
    const char *key = pool_key(&keybuf, s);
    const char *node = strmap_get(&pool_node, key);
    if (*node) {
      vec_push(&node_slot(d, node)->slices, d->slices.items[i]);
    } else {
      vec_push(&d->shared_slices, d->slices.items[i]);
      strmap_put(&d->shared_pools, key, d);
    }
  }
  unpin_shared(d);
  strmap_free(&pool_node, NULL);
  sb_free(&keybuf);
}

bool sched_devices_any_shared_pool(sched_loop *l) {
  refresh_topology(l);
  return l->devices->shared_slices.n > 0;
}

bool sched_devices_pool_shared(sched_loop *l, const atom *driver, const atom *pool) {
  refresh_topology(l);
  strbuf key = STRBUF_INIT;
  bool shared = strmap_get(&l->devices->shared_pools, sched_key(&key, "", driver ? driver->str : "", pool ? pool->str : ""));
  sb_free(&key);
  return shared;
}

node_devices *sched_devices_node(sched_loop *l, const char *node_name) { return node_slot(l->devices, node_name); }

bool sched_devices_known_misfit(sched_loop *l, const node_devices *nd, uint64_t sig) {
  return nd->misfit_sig == sig && nd->misfit_epoch == epoch_of(l->devices, nd) + 1;
}

void sched_devices_remember_misfit(sched_loop *l, node_devices *nd, uint64_t sig) {
  if (sig != l->devices->prefix_sig) l->devices->misfit_gen++; /* may replace a prefix node's memo */
  nd->misfit_sig = sig;
  nd->misfit_epoch = epoch_of(l->devices, nd) + 1; /* +1: never equal to a fresh slot's 0 */
}

size_t sched_devices_misfit_prefix(sched_loop *l, uint64_t sig) {
  const sched_devices *d = l->devices;
  return d->prefix_sig == sig && d->prefix_gen == d->misfit_gen ? d->prefix_n : 0;
}

void sched_devices_set_misfit_prefix(sched_loop *l, uint64_t sig, size_t n) {
  sched_devices *d = l->devices;
  d->prefix_sig = sig, d->prefix_n = n, d->prefix_gen = d->misfit_gen;
}

typedef struct each_ctx {
  void (*fn)(void *, store_obj *);
  void *ctx;
} each_ctx;

static void each_held(void *ctx, void *v) {
  each_ctx *e = ctx;
  e->fn(e->ctx, ((held_claim *)v)->obj);
}

void sched_devices_each_held(sched_loop *l, void (*fn)(void *ctx, store_obj *claim), void *ctx) {
  each_ctx e = {fn, ctx};
  strmap_each(&l->devices->held, each_held, &e);
}

bool sched_devices_any_held(const sched_loop *l) { return l->devices->held.n > 0; }

bool sched_devices_any_no_execute(sched_loop *l) {
  refresh_topology(l);
  return l->devices->no_execute;
}

store_obj *const *sched_devices_classes(sched_loop *l, size_t *n) {
  refresh_topology(l);
  *n = l->devices->classes.n;
  return l->devices->classes.items;
}

store_obj *const *sched_devices_taint_rules(sched_loop *l, size_t *n) {
  refresh_topology(l);
  *n = l->devices->rules.n;
  return l->devices->rules.items;
}

size_t sched_devices_count_selected(sched_loop *l, const device_taint_rule *rule) {
  refresh_topology(l);
  const sched_devices *d = l->devices;
  strmap newest = {0}; /* "driver/pool" -> int64_t * newest generation */
  strbuf keybuf = STRBUF_INIT;
  for (size_t i = 0; i < d->slices.n; i++) {
    const resource_slice *s = d->slices.items[i]->object->typed;
    int64_t *gen = strmap_get(&newest, pool_key(&keybuf, s));
    if (!gen) {
      gen = xmalloc(sizeof *gen);
      *gen = s->spec.pool.generation;
      strmap_put(&newest, sb_str(&keybuf), gen);
    } else if (s->spec.pool.generation > *gen) {
      *gen = s->spec.pool.generation;
    }
  }
  size_t n = 0;
  for (size_t i = 0; i < d->slices.n; i++) {
    const resource_slice *s = d->slices.items[i]->object->typed;
    if (s->spec.pool.generation != *(int64_t *)strmap_get(&newest, pool_key(&keybuf, s))) continue;
    const atom *drv = s->spec.driver ? s->spec.driver : atom_cstr("");
    const atom *pool = s->spec.pool.name ? s->spec.pool.name : atom_cstr("");
    for (uint32_t j = 0; j < s->spec.devices.n; j++) {
      const atom *name = s->spec.devices.items[j].name ? s->spec.devices.items[j].name : atom_cstr("");
      n += alloc_rule_selects(rule, drv, pool, name);
    }
  }
  strmap_free(&newest, free);
  sb_free(&keybuf);
  return n;
}

const device *sched_devices_find(sched_loop *l, const atom *driver, const atom *pool, const atom *name) {
  refresh_topology(l);
  sched_devices *d = l->devices;
  const device *best = NULL;
  int64_t best_gen = 0;
  for (size_t i = 0; i < d->slices.n; i++) {
    const resource_slice *s = d->slices.items[i]->object->typed;
    if (s->spec.driver != driver || s->spec.pool.name != pool) continue;
    if (best && s->spec.pool.generation < best_gen) continue;
    for (uint32_t j = 0; j < s->spec.devices.n; j++)
      if (s->spec.devices.items[j].name == name) {
        best = &s->spec.devices.items[j];
        best_gen = s->spec.pool.generation;
      }
  }
  return best;
}

static bool skipped(const store_obj *o, store_obj *const *skip, size_t n_skip) {
  for (size_t i = 0; i < n_skip; i++)
    if (skip[i] == o) return true;
  return false;
}

/* A node's index over its slices, the classes, the rules and the held
 * claims but those in skip. */
static alloc_index *build_index(sched_loop *l, const char *node_name, store_obj *const *skip, size_t n_skip) {
  refresh_topology(l);
  sched_devices *d = l->devices;
  node_devices *nd = node_slot(d, node_name);
  size_t ns = nd->slices.n + d->shared_slices.n, nc = nd->claims.n + d->global_claims.n;
  const resource_slice **slices = xcalloc(ns + 1, sizeof *slices);
  const device_class **classes = xcalloc(d->classes.n + 1, sizeof *classes);
  const resource_claim **claims = xcalloc(nc + 1, sizeof *claims);
  const device_taint_rule **rules = xcalloc(d->rules.n + 1, sizeof *rules);
  for (size_t i = 0; i < d->rules.n; i++) rules[i] = d->rules.items[i]->object->typed;
  size_t k = 0;
  for (size_t i = 0; i < nd->slices.n; i++) slices[k++] = nd->slices.v[i]->object->typed;
  for (size_t i = 0; i < d->shared_slices.n; i++) slices[k++] = d->shared_slices.v[i]->object->typed;
  for (size_t i = 0; i < d->classes.n; i++) classes[i] = d->classes.items[i]->object->typed;
  k = 0;
  for (size_t i = 0; i < nd->claims.n; i++)
    if (!skipped(nd->claims.v[i], skip, n_skip)) claims[k++] = nd->claims.v[i]->object->typed;
  for (size_t i = 0; i < d->global_claims.n; i++)
    if (!skipped(d->global_claims.v[i], skip, n_skip)) claims[k++] = d->global_claims.v[i]->object->typed;
  alloc_input in = {.gates = l->opt.gates,
                    .slices = slices,
                    .n_slices = ns,
                    .classes = classes,
                    .n_classes = d->classes.n,
                    .allocated = claims,
                    .n_allocated = k,
                    .taint_rules = rules,
                    .n_taint_rules = d->rules.n};
  alloc_index *ix = alloc_index_new(&in);
  free(rules);
  free(slices);
  free(classes);
  free(claims);
  return ix;
}

static alloc_index *index_for(sched_loop *l, const char *node_name) {
  node_devices *nd = node_slot(l->devices, node_name);
  if (!nd->ix) nd->ix = build_index(l, node_name, NULL, 0);
  return nd->ix;
}

static sched_fit run_on(sched_loop *l, alloc_index *ix, const node *nd, const alloc_device_limit *limits,
                        size_t n_limits, const resource_claim *const *claims, size_t n, arena *a,
                        allocation_result ***out, char **err) {
  alloc_outcome res = {0};
  alloc_limits lim = {.max_steps = l->opt.alloc_max_steps,
                      .timeout_seconds = l->opt.alloc_timeout_seconds,
                      .devices = limits,
                      .n_devices = n_limits};
  alloc_status st = alloc_run(ix, nd, claims, n, &lim, a, &res);
  sched_metrics_allocation(&l->metrics, st, res.steps, res.seconds);
  l->alloc_steps += res.steps;
  switch (st) {
  case ALLOC_OK:
    *out = res.allocations;
    return SCHED_FIT;
  case ALLOC_UNSATISFIABLE:
    return SCHED_NO_FIT;
  default:
    *err = xstrdup(res.error ? res.error : "allocation failed");
    return res.node_local ? SCHED_NODE_ERROR : SCHED_ALLOC_ERROR;
  }
}

sched_fit sched_devices_allocate(sched_loop *l, const node *nd, const resource_claim *const *claims, size_t n,
                                 arena *a, allocation_result ***out, char **err) {
  return sched_devices_allocate_limited(l, nd, NULL, 0, claims, n, a, out, err);
}

sched_fit sched_devices_allocate_limited(sched_loop *l, const node *nd, const alloc_device_limit *limits,
                                         size_t n_limits, const resource_claim *const *claims, size_t n, arena *a,
                                         allocation_result ***out, char **err) {
  return run_on(l, index_for(l, nd->metadata.name), nd, limits, n_limits, claims, n, a, out, err);
}

sched_fit sched_devices_allocate_without(sched_loop *l, const node *nd, store_obj *const *freed, size_t n_freed,
                                         const resource_claim *const *claims, size_t n, arena *a,
                                         allocation_result ***out, char **err) {
  if (!n_freed) return sched_devices_allocate(l, nd, claims, n, a, out, err);
  alloc_index *ix = build_index(l, nd->metadata.name, freed, n_freed);
  sched_fit fit = run_on(l, ix, nd, NULL, 0, claims, n, a, out, err);
  alloc_index_free(ix);
  return fit;
}

/* Who holds a claim's devices: a claim the pod-group cycle only assumed
 * (assumed.c) holds them for the cycle's trial and is not written. */
static void loop_claim_consumers(void *user, const char *claim, strbuf *out) {
  sched_loop *l = user;
  if (strmap_get(&l->assumed_claims, claim)) sb_puts(out, "the pod group's trial placement (assumed, not written)");
  else sched_claim_consumers(l->st, claim, out);
}

void sched_devices_explain(sched_loop *l, const node *nd, const resource_claim *const *claims, size_t n,
                           strbuf *out) {
  alloc_explain_opts opts = {.claim_consumers = loop_claim_consumers, .user = l};
  alloc_explain(index_for(l, nd->metadata.name), nd, claims, n, &opts, out);
}

size_t sched_devices_free_count(sched_loop *l, const node *nd) {
  return alloc_index_free_devices(index_for(l, nd->metadata.name), nd->metadata.name);
}
