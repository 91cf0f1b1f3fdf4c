/* alloc_pools.c: which slices a node sees and the pools they form, pool
 * order and device positions, and each pool's shared counters with what
 * allocated devices already consume (docs/allocator.md, 'Slices and pools' and
 * 'Ordering'). */
#include "alloc/alloc_internal.h"
#include <stdlib.h>
#include <string.h>

typedef struct gpool {
  const atom *driver, *name;
  int64_t gen;
  alloc_idlist kept;
} gpool;

static const char *slice_name(const alloc_slice *sl) {
  return sl->s->metadata.name ? sl->s->metadata.name : "";
}

/* 1 relevant, 0 not, -1 error (reported). */
static int slice_relevant(alloc_call *k, const alloc_slice *sl) {
  const resource_slice_spec *sp = &sl->s->spec;
  if (!k->f.part && (sp->per_device_node_selection_set || sp->shared_counters.n > 0)) return 0;
  strbuf e = STRBUF_INIT;
  int r = 0;
  if (sl->has_node_name || (sp->all_nodes_set && sp->all_nodes) || sp->node_selector) {
    r = alloc_node_matches(k->nd, sp->node_name, sp->all_nodes_set && sp->all_nodes, sp->node_selector, &e);
    if (r < 0)
      alloc_errf(k, "gather pool information: failed to perform node selection for slice %s: %s", slice_name(sl),
                 sb_str(&e));
  } else if (sp->per_device_node_selection_set && sp->per_device_node_selection) {
    for (uint32_t i = 0; i < sl->n_devs && r == 0; i++) {
      const device *d = sl->devs[i].d;
      r = alloc_node_matches(k->nd, d->node_name, d->all_nodes_set && d->all_nodes, d->node_selector, &e);
      if (r < 0)
        alloc_errf(k, "gather pool information: failed to perform node selection for device %s in slice %s: %s",
                   sl->devs[i].name->str, slice_name(sl), sb_str(&e));
    }
  }
  sb_free(&e);
  return r;
}

static int by_name(const void *x, const void *y) {
  const alloc_slice *a = *(alloc_slice *const *)x, *b = *(alloc_slice *const *)y;
  int c = strcmp(slice_name(a), slice_name(b));
  if (c) return c;
  return (a->input_index > b->input_index) - (a->input_index < b->input_index); /* ties keep input order */
}

static int pool_order(const void *x, const void *y) {
  const alloc_pool *a = x, *b = y;
  if (a->binding != b->binding) return a->binding ? 1 : -1;
  int c = strcmp(a->driver->str, b->driver->str);
  return c ? c : strcmp(a->name->str, b->name->str);
}

static bool is_counter_set_slice(const alloc_call *k, const alloc_slice *sl) {
  return k->f.part && sl->s->spec.shared_counters.n > 0;
}

static int find_counter(const alloc_pool *p, const atom *set, const atom *name) {
  for (uint32_t i = 0; i < p->n_ctrs; i++)
    if (p->ctrs[i].set == set && p->ctrs[i].name == name) return (int)i;
  return -1;
}

static bool has_set(const alloc_pool *p, const atom *set) {
  for (uint32_t i = 0; i < p->n_ctrs; i++)
    if (p->ctrs[i].set == set) return true;
  return false;
}

/* Pool validity, last check: every consumption names a known set and counter. */
static bool consumption_valid(const alloc_pool *p, const alloc_slice *sl) {
  for (uint32_t i = 0; i < sl->n_devs; i++) {
    const device_counter_consumption_list *cc = &sl->devs[i].d->consumes_counters;
    for (uint32_t j = 0; j < cc->n; j++) {
      if (!has_set(p, cc->items[j].counter_set)) return false;
      for (uint32_t m = 0; m < cc->items[j].counters.n; m++)
        if (find_counter(p, cc->items[j].counter_set, cc->items[j].counters.items[m].key) < 0) return false;
    }
  }
  return true;
}

#define LINEAR_LIMIT 16 /* below this many entries a linear scan beats a hash map */

static bool device_names_unique(alloc_call *k, const alloc_pool *p) {
  if (p->n_dslices == 1 && p->dslices[0]->n_devs <= LINEAR_LIMIT) {
    const alloc_slice *sl = p->dslices[0];
    for (uint32_t i = 1; i < sl->n_devs; i++)
      for (uint32_t j = 0; j < i; j++)
        if (sl->devs[i].name == sl->devs[j].name) return false;
    return true;
  }
  alloc_map seen;
  alloc_map_init(&seen, k->a);
  for (uint32_t i = 0; i < p->n_dslices; i++)
    for (uint32_t j = 0; j < p->dslices[i]->n_devs; j++) {
      const atom *n = p->dslices[i]->devs[j].name;
      if (alloc_map_get(&seen, n, NULL, NULL)) return false;
      alloc_map_put(&seen, n, NULL, NULL, (void *)n);
    }
  return true;
}

/* Counter sets of the counter-set slices; false when a set name repeats. */
static bool collect_counters(alloc_call *k, alloc_pool *p) {
  for (uint32_t i = 0; i < p->n_others; i++) {
    const alloc_slice *sl = p->others[i];
    if (!is_counter_set_slice(k, sl)) continue;
    const counter_set_list *cs = &sl->s->spec.shared_counters;
    for (uint32_t j = 0; j < cs->n; j++) {
      if (has_set(p, cs->items[j].name)) return false;
      uint32_t add = cs->items[j].counters.n;
      p->ctrs = arena_grow(k->a, p->ctrs, p->n_ctrs * sizeof *p->ctrs, (p->n_ctrs + add) * sizeof *p->ctrs);
      for (uint32_t m = 0; m < add; m++)
        p->ctrs[p->n_ctrs++] = (alloc_counter){cs->items[j].name, cs->items[j].counters.items[m].key,
                                               cs->items[j].counters.items[m].value.value.nanos, 0};
      if (!add) { /* an empty set still exists */
        p->ctrs = arena_grow(k->a, p->ctrs, p->n_ctrs * sizeof *p->ctrs, (p->n_ctrs + 1) * sizeof *p->ctrs);
        p->ctrs[p->n_ctrs++] = (alloc_counter){cs->items[j].name, NULL, 0, 0};
      }
    }
  }
  return true;
}

/* ignore_held (explain): a device only held exclusively counts as free,
 * its counters too. */
static bool dev_counts_as_allocated(const alloc_dev *dv, bool ignore_held) {
  return dv->held && ((dv->held->exclusive && !ignore_held) || dv->held->shared || dv->held->has_agg);
}

/* Available counters: set values minus what allocated devices consume. */
static void subtract_allocated(const alloc_call *k, alloc_pool *p, const alloc_slice *sl) {
  for (uint32_t i = 0; i < sl->n_devs; i++) {
    if (!dev_counts_as_allocated(&sl->devs[i], k->ignore_held)) continue;
    const device_counter_consumption_list *cc = &sl->devs[i].d->consumes_counters;
    for (uint32_t j = 0; j < cc->n; j++)
      for (uint32_t m = 0; m < cc->items[j].counters.n; m++) {
        int c = find_counter(p, cc->items[j].counter_set, cc->items[j].counters.items[m].key);
        if (c >= 0) p->ctrs[c].avail -= cc->items[j].counters.items[m].value.value.nanos;
      }
  }
}

static bool pool_valid(alloc_call *k, alloc_pool *p) {
  if (!device_names_unique(k, p)) return false;
  if (!k->f.part) return true;
  if (!collect_counters(k, p)) return false;
  for (uint32_t i = 0; i < p->n_dslices; i++)
    if (!consumption_valid(p, p->dslices[i])) return false;
  for (uint32_t i = 0; i < p->n_others; i++)
    if (!is_counter_set_slice(k, p->others[i]) && !consumption_valid(p, p->others[i])) return false;
  return true;
}

static bool name_in(alloc_slice **v, uint32_t n, const char *name) {
  for (uint32_t i = 0; i < n; i++)
    if (!strcmp(slice_name(v[i]), name)) return true;
  return false;
}

/* Builds a pool from the kept slices K (relevant), full same-generation set F (or NULL). */
static void build_pool(alloc_call *k, alloc_pool *p, const alloc_idlist *kept, const alloc_idlist *full) {
  alloc_index *ix = k->ix;
  alloc_slice **ks = arena_calloc(k->a, kept->n + 1, sizeof *ks);
  for (uint32_t i = 0; i < kept->n; i++) ks[i] = &ix->slices[kept->v[i]];
  if (kept->n > 1) qsort(ks, kept->n, sizeof *ks, by_name);
  uint32_t n_full = full ? full->n : 0;
  p->dslices = arena_calloc(k->a, kept->n + 1, sizeof *p->dslices);
  p->others = arena_calloc(k->a, kept->n + n_full + 1, sizeof *p->others);
  for (uint32_t i = 0; i < kept->n; i++) {
    if (is_counter_set_slice(k, ks[i])) p->others[p->n_others++] = ks[i];
    else p->dslices[p->n_dslices++] = ks[i];
  }
  for (uint32_t i = 0; i < n_full; i++) {
    alloc_slice *sl = &ix->slices[full->v[i]];
    if (!name_in(ks, kept->n, slice_name(sl))) p->others[p->n_others++] = sl;
  }
  if (!pool_valid(k, p)) {
    p->state = POOL_INVALID;
    p->n_dslices = 0;
    return;
  }
  for (uint32_t i = 0; i < p->n_dslices; i++) {
    subtract_allocated(k, p, p->dslices[i]);
    for (uint32_t j = 0; j < p->dslices[i]->n_devs; j++)
      if (p->dslices[i]->devs[j].has_binding_conditions) p->binding = true;
  }
  for (uint32_t i = 0; i < p->n_others; i++)
    if (!is_counter_set_slice(k, p->others[i])) subtract_allocated(k, p, p->others[i]);
}

/* A pool is complete, obsolete (returns false: drop), incomplete or built. */
static bool settle_pool(alloc_call *k, gpool *g, alloc_pool *p) {
  alloc_index *ix = k->ix;
  int64_t want = ix->slices[g->kept.v[0]].s->spec.pool.resource_slice_count;
  p->driver = g->driver, p->name = g->name;
  if ((int64_t)g->kept.n == want) {
    build_pool(k, p, &g->kept, NULL);
    return true;
  }
  const alloc_idlist *all = alloc_map_get(&ix->by_pool, g->driver, g->name, NULL);
  alloc_idlist same = {0};
  for (uint32_t i = 0; all && i < all->n; i++) {
    int64_t gen = ix->slices[all->v[i]].s->spec.pool.generation;
    if (gen > g->gen) return false;
    if (gen == g->gen) alloc_idlist_add(k->a, &same, all->v[i]);
  }
  if ((int64_t)same.n != want) {
    p->state = POOL_INCOMPLETE;
    return true;
  }
  build_pool(k, p, &g->kept, &same);
  return true;
}

static void resolve_consumption(alloc_call *k, alloc_cand *c) {
  if (!k->f.part || !c->dev->d->consumes_counters.n) return;
  const device_counter_consumption_list *cc = &c->dev->d->consumes_counters;
  uint32_t n = 0;
  for (uint32_t j = 0; j < cc->n; j++) n += cc->items[j].counters.n;
  c->use_ctr = arena_calloc(k->a, n + 1, sizeof *c->use_ctr);
  c->use_nanos = arena_calloc(k->a, n + 1, sizeof *c->use_nanos);
  for (uint32_t j = 0; j < cc->n; j++)
    for (uint32_t m = 0; m < cc->items[j].counters.n; m++) {
      c->use_ctr[c->n_use] = (uint32_t)find_counter(c->pool, cc->items[j].counter_set, cc->items[j].counters.items[m].key);
      c->use_nanos[c->n_use++] = cc->items[j].counters.items[m].value.value.nanos;
    }
}

/* Index + 1 of the group of (driver, pool), 0 if none; a map once there are many. */
static uintptr_t find_group(alloc_map *m, const gpool *gs, uint32_t n, const atom *driver, const atom *pool) {
  if (n > LINEAR_LIMIT) return (uintptr_t)alloc_map_get(m, driver, pool, NULL);
  for (uint32_t i = 0; i < n; i++)
    if (gs[i].driver == driver && gs[i].name == pool) return i + 1;
  return 0;
}

static void add_group(alloc_map *m, const gpool *gs, uint32_t n) {
  if (n == LINEAR_LIMIT + 1)
    for (uint32_t i = 0; i < n; i++) alloc_map_put(m, gs[i].driver, gs[i].name, NULL, (void *)(uintptr_t)(i + 1));
  else if (n > LINEAR_LIMIT + 1)
    alloc_map_put(m, gs[n - 1].driver, gs[n - 1].name, NULL, (void *)(uintptr_t)n);
}

static int gather_groups(alloc_call *k, gpool **out, uint32_t *n_out) {
  alloc_index *ix = k->ix;
  alloc_map groups;
  alloc_map_init(&groups, k->a);
  gpool *gs = NULL;
  uint32_t n = 0;
  const atom *node = k->node_name ? atom_find(k->node_name, strlen(k->node_name)) : NULL; /* none: no slice names it */
  const alloc_idlist *local = node ? alloc_map_get(&ix->by_node, node, NULL, NULL) : NULL;
  for (int part = 0; part < 2; part++) {
    const alloc_idlist *l = part == 0 ? local : &ix->shared;
    for (uint32_t i = 0; l && i < l->n; i++) {
      const alloc_slice *sl = &ix->slices[l->v[i]];
      int r = slice_relevant(k, sl);
      if (r < 0) return -1;
      if (!r) continue;
      const alloc_dev probe = {.driver = sl->s->spec.driver ? sl->s->spec.driver : atom_cstr(""),
                               .pool = sl->s->spec.pool.name ? sl->s->spec.pool.name : atom_cstr("")};
      uintptr_t gi = find_group(&groups, gs, n, probe.driver, probe.pool);
      if (!gi) {
        gs = arena_grow(k->a, gs, n * sizeof *gs, (n + 1) * sizeof *gs);
        gs[n] = (gpool){probe.driver, probe.pool, sl->s->spec.pool.generation, {0}};
        gi = ++n;
        add_group(&groups, gs, n);
      }
      gpool *g = &gs[gi - 1];
      int64_t gen = sl->s->spec.pool.generation;
      if (gen < g->gen) continue;
      if (gen > g->gen) g->gen = gen, g->kept.n = 0;
      alloc_idlist_add(k->a, &g->kept, l->v[i]);
    }
  }
  *out = gs, *n_out = n;
  return 0;
}

int alloc_gather_pools(alloc_call *k) {
  gpool *gs;
  uint32_t n;
  if (gather_groups(k, &gs, &n) < 0) return -1;
  k->pools = arena_calloc(k->a, n + 1, sizeof *k->pools);
  for (uint32_t i = 0; i < n; i++)
    if (settle_pool(k, &gs[i], &k->pools[k->n_pools])) k->n_pools++;
  if (k->n_pools > 1) qsort(k->pools, k->n_pools, sizeof *k->pools, pool_order);
  uint32_t total = 0;
  for (uint32_t i = 0; i < k->n_pools; i++)
    for (uint32_t j = 0; j < k->pools[i].n_dslices; j++) total += k->pools[i].dslices[j]->n_devs;
  k->cands = arena_calloc(k->a, total + 1, sizeof *k->cands);
  for (uint32_t i = 0; i < k->n_pools; i++) {
    alloc_pool *p = &k->pools[i];
    p->first_cand = k->n_cands;
    for (uint32_t j = 0; j < p->n_dslices; j++)
      for (uint32_t d = 0; d < p->dslices[j]->n_devs; d++) {
        alloc_cand *c = &k->cands[k->n_cands++];
        c->dev = &p->dslices[j]->devs[d];
        c->pool = p;
        resolve_consumption(k, c);
      }
    p->n_cands = k->n_cands - p->first_cand;
  }
  return 0;
}
