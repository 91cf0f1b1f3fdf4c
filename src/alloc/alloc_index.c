/* alloc_index.c: the per-cluster device index (docs/allocator.md, 'The device
 * index'): slices split by node name, every slice by pool id, the allocated
 * state of each device id, classes by name, and each device's CEL view, built
 * once; claims allocated or freed later update the allocated state in place. */
#include "alloc/alloc_internal.h"
#include "value/semver.h"
#include <string.h>

void alloc_flags_from_gates(const feature_gates *g, alloc_flags *f) {
  f->admin = gate_on(g, GATE_ADMIN_ACCESS);
  f->prio = gate_on(g, GATE_PRIORITIZED_LIST);
  f->part = gate_on(g, GATE_PARTITIONABLE_DEVICES);
  f->taints = gate_on(g, GATE_DEVICE_TAINTS);
  f->binding = gate_on(g, GATE_DEVICE_BINDING_CONDITIONS) && gate_on(g, GATE_RESOURCE_CLAIM_DEVICE_STATUS);
  f->cap = gate_on(g, GATE_CONSUMABLE_CAPACITY);
  f->list = gate_on(g, GATE_LIST_TYPE_ATTRIBUTES);
  f->derived = gate_on(g, GATE_DERIVED_ATTRIBUTES);
}

void alloc_idlist_add(arena *a, alloc_idlist *l, uint32_t v) {
  if (l->n == l->cap) {
    uint32_t cap = l->cap ? l->cap * 2 : 4;
    l->v = arena_grow(a, l->v, l->cap * sizeof *l->v, cap * sizeof *l->v);
    l->cap = cap;
  }
  l->v[l->n++] = v;
}

static void idlist_add_keyed(arena *a, alloc_map *m, const void *k0, const void *k1, uint32_t v) {
  alloc_idlist *l = alloc_map_get(m, k0, k1, NULL);
  if (!l) {
    l = arena_calloc(a, 1, sizeof *l);
    alloc_map_put(m, k0, k1, NULL, l);
  }
  alloc_idlist_add(a, l, v);
}

/* Kubernetes' text for a version attribute that does not parse. */
static const char *version_error(arena *a, const char *name, const char *version) {
  char why[256];
  return arena_printf(a, "attribute %s: parse semantic version: %s", name,
                      cel_semver_error(version, strlen(version), why, sizeof why));
}

/* One attribute value as CEL sees it; NULL or an error text. */
static const char *fill_attr_value(arena *a, const char *name, const device_attribute *at, cel_attr_value *v) {
  if (at->int__set) {
    v->kind = CEL_ATTR_INT, v->i = at->int_;
  } else if (at->bool__set) {
    v->kind = CEL_ATTR_BOOL, v->b = at->bool_;
  } else if (at->string) {
    v->kind = CEL_ATTR_STRING, v->str = (cel_str){at->string, (uint32_t)strlen(at->string)};
  } else if (at->version) {
    semver *s = arena_calloc(a, 1, sizeof *s);
    v->kind = CEL_ATTR_VERSION, v->ver = s;
    if (!semver_parse(at->version, strlen(at->version), s))
      return version_error(a, name, at->version);
  } else if (at->ints.set) {
    v->kind = CEL_ATTR_INTS, v->n = at->ints.n, v->ints = at->ints.items;
  } else if (at->bools.set) {
    v->kind = CEL_ATTR_BOOLS, v->n = at->bools.n, v->bools = at->bools.items;
  } else if (at->strings.set) {
    cel_str *s = arena_calloc(a, at->strings.n + 1, sizeof *s);
    for (uint32_t i = 0; i < at->strings.n; i++) s[i] = (cel_str){at->strings.items[i], (uint32_t)strlen(at->strings.items[i])};
    v->kind = CEL_ATTR_STRINGS, v->n = at->strings.n, v->strs = s;
  } else if (at->versions.set) {
    semver *s = arena_calloc(a, at->versions.n + 1, sizeof *s);
    for (uint32_t i = 0; i < at->versions.n; i++)
      if (!semver_parse(at->versions.items[i], strlen(at->versions.items[i]), &s[i]))
        return version_error(a, name, at->versions.items[i]);
    v->kind = CEL_ATTR_VERSIONS, v->n = at->versions.n, v->vers = s;
  } else {
    return arena_printf(a, "attribute %s: unsupported attribute value", name);
  }
  return NULL;
}

void alloc_device_view(arena *a, const atom *driver, const device *d, cel_device *v) {
  v->driver = driver;
  v->allow_multiple = !d->allow_multiple_allocations_set ? CEL_TRI_UNSET
                      : d->allow_multiple_allocations    ? CEL_TRI_TRUE
                                                         : CEL_TRI_FALSE;
  cel_device_attr *attrs = arena_calloc(a, d->attributes.n + 1, sizeof *attrs);
  for (uint32_t i = 0; i < d->attributes.n; i++) {
    const atom *key = d->attributes.items[i].key;
    cel_split_qualified_name(a, key->str, key->len, driver, &attrs[i].domain, &attrs[i].name);
    const char *e = fill_attr_value(a, key->str, &d->attributes.items[i].value, &attrs[i].value);
    if (e && !v->error) v->error = e;
  }
  v->attrs = attrs, v->n_attrs = d->attributes.n;
  v->names_unique = cel_attr_names_unique(attrs, d->attributes.n);
  cel_device_capacity *caps = arena_calloc(a, d->capacity.n + 1, sizeof *caps);
  for (uint32_t i = 0; i < d->capacity.n; i++) {
    const atom *key = d->capacity.items[i].key;
    cel_split_qualified_name(a, key->str, key->len, driver, &caps[i].domain, &caps[i].name);
    caps[i].value = d->capacity.items[i].value.value;
  }
  v->caps = caps, v->n_caps = d->capacity.n;
}

static alloc_held *held_for(alloc_index *ix, const atom *drv, const atom *pool, const atom *dev) {
  alloc_held *h = alloc_map_get(&ix->held, drv, pool, dev);
  if (!h) {
    h = arena_calloc(ix->a, 1, sizeof *h);
    /* the index may outlive the objects its keys came from */
    atom_hold(ix->a, drv), atom_hold(ix->a, pool), atom_hold(ix->a, dev);
    alloc_map_put(&ix->held, drv, pool, dev, h);
  }
  return h;
}

/* sign +1 adds the consumed capacity m, -1 takes it away again. */
static void held_add_capacity(arena *a, alloc_held *h, const quantity_map *m, int sign) {
  h->has_agg = true;
  for (uint32_t i = 0; i < m->n; i++) {
    uint32_t j = 0;
    while (j < h->n_agg && h->agg_name[j] != m->items[i].key) j++;
    if (j == h->n_agg) {
      h->agg_name = arena_grow(a, h->agg_name, j * sizeof *h->agg_name, (j + 1) * sizeof *h->agg_name);
      h->agg_nanos = arena_grow(a, h->agg_nanos, j * sizeof *h->agg_nanos, (j + 1) * sizeof *h->agg_nanos);
      h->agg_name[j] = m->items[i].key;
      h->n_agg++;
    }
    h->agg_nanos[j] += sign * m->items[i].value.nanos;
  }
}

const char *alloc_claim_label(arena *a, const object_meta *m) {
  const char *ns = m->namespace_ ? m->namespace_ : "";
  const char *name = m->name ? m->name : "";
  size_t nl = strlen(ns), ml = strlen(name);
  char *s = arena_alloc(a, nl + ml + 2), *p = s;
  if (nl) {
    memcpy(p, ns, nl);
    p += nl;
    *p++ = '/';
  }
  memcpy(p, name, ml + 1);
  return s;
}

/* As kube-scheduler builds its allocated state: admin-access results are
 * skipped; shares (with the gate on) feed the
 * shared set and the aggregated capacity; everything else is exclusive. */
static void add_allocated(alloc_index *ix, const resource_claim *rc) {
  const allocation_result *ar = rc->status.allocation;
  if (!ar || !ar->devices) return;
  for (uint32_t i = 0; i < ar->devices->results.n; i++) {
    const device_request_allocation_result *r = &ar->devices->results.items[i];
    if (r->admin_access_set && r->admin_access) continue;
    alloc_held *h = held_for(ix, r->driver, r->pool, r->device);
    if (r->share_id && ix->f.cap) {
      h->shared = true;
      h->n_shared++;
      if (r->consumed_capacity.set) {
        held_add_capacity(ix->a, h, &r->consumed_capacity, 1);
        h->n_agg_holders++;
      }
    } else {
      h->exclusive = true;
      h->n_exclusive++;
      /* a copy: the index keeps no pointer into allocated claims, which may be replaced meanwhile */
      if (!h->holder) h->holder = alloc_claim_label(ix->a, &rc->metadata);
    }
  }
}

void alloc_index_hold(alloc_index *ix, const resource_claim *claim) { add_allocated(ix, claim); }

/* The results of rc that add_allocated counted, each with its entry. */
typedef void (*held_visit)(alloc_index *ix, const device_request_allocation_result *r, alloc_held *h, void *ctx);

static bool each_held(alloc_index *ix, const resource_claim *rc, held_visit visit, void *ctx) {
  const allocation_result *ar = rc->status.allocation;
  for (uint32_t i = 0; ar && ar->devices && i < ar->devices->results.n; i++) {
    const device_request_allocation_result *r = &ar->devices->results.items[i];
    if (r->admin_access_set && r->admin_access) continue;
    alloc_held *h = alloc_map_get(&ix->held, r->driver, r->pool, r->device);
    if (!h) return false;
    if (visit) visit(ix, r, h, ctx);
  }
  return true;
}

/* Whether holder is m's label (alloc_claim_label). */
static bool holder_is(const char *holder, const object_meta *m) {
  const char *ns = m->namespace_ ? m->namespace_ : "", *name = m->name ? m->name : "";
  size_t nl = strlen(ns);
  if (nl && (strncmp(holder, ns, nl) || holder[nl] != '/')) return false;
  return !strcmp(holder + (nl ? nl + 1 : 0), name);
}

typedef struct release_check {
  const object_meta *claim;
  bool exact;
} release_check;

/* Whether taking r away leaves what a fresh index would have: not when
 * another claim holds the device too but this one was the named holder. */
static void check_release(alloc_index *ix, const device_request_allocation_result *r, alloc_held *h, void *ctx) {
  release_check *c = ctx;
  if (r->share_id && ix->f.cap) {
    if (!h->n_shared || (r->consumed_capacity.set && !h->n_agg_holders)) c->exact = false; /* not held by it */
    return;
  }
  if (!h->n_exclusive || (h->n_exclusive > 1 && h->holder && holder_is(h->holder, c->claim))) c->exact = false;
}

static void release_one(alloc_index *ix, const device_request_allocation_result *r, alloc_held *h, void *ctx) {
  (void)ctx;
  if (r->share_id && ix->f.cap) {
    h->shared = --h->n_shared > 0;
    if (r->consumed_capacity.set) {
      held_add_capacity(ix->a, h, &r->consumed_capacity, -1);
      if (!--h->n_agg_holders) h->has_agg = false, h->n_agg = 0;
    }
  } else if (!--h->n_exclusive) {
    h->exclusive = false;
    h->holder = NULL;
  }
}

bool alloc_index_release(alloc_index *ix, const resource_claim *claim) {
  release_check c = {&claim->metadata, true};
  if (!each_held(ix, claim, check_release, &c) || !c.exact) return false;
  each_held(ix, claim, release_one, NULL);
  return true;
}

static bool has_node_name(const char *s) { return s && s[0]; }

alloc_index *alloc_index_new(const alloc_input *in) {
  arena *a = arena_new();
  alloc_index *ix = arena_calloc(a, 1, sizeof *ix);
  ix->a = a;
  ix->gates = in->gates;
  alloc_flags_from_gates(&in->gates, &ix->f);
  alloc_map_init(&ix->by_node, a);
  alloc_map_init(&ix->by_pool, a);
  alloc_map_init(&ix->held, a);
  alloc_map_init(&ix->classes, a);
  alloc_map_init(&ix->sel_memo, a);
  alloc_map_init(&ix->programs, a);
  pthread_mutex_init(&ix->lock, NULL);
  for (size_t i = 0; i < in->n_allocated; i++) add_allocated(ix, in->allocated[i]);
  for (size_t i = 0; i < in->n_classes; i++)
    if (in->classes[i]->metadata.name)
      alloc_map_put(&ix->classes, atom_cstr_in(a, in->classes[i]->metadata.name), NULL, NULL, (void *)in->classes[i]);
  ix->n_slices = (uint32_t)in->n_slices;
  ix->slices = arena_calloc(a, in->n_slices + 1, sizeof *ix->slices);
  for (uint32_t i = 0; i < ix->n_slices; i++) {
    alloc_slice *sl = &ix->slices[i];
    const resource_slice_spec *sp = &in->slices[i]->spec;
    sl->s = in->slices[i];
    sl->input_index = i;
    sl->has_node_name = has_node_name(sp->node_name);
    sl->n_devs = sp->devices.n;
    sl->devs = arena_calloc(a, sl->n_devs + 1, sizeof *sl->devs);
    const atom *drv = sp->driver ? sp->driver : atom_cstr("");
    const atom *pool = sp->pool.name ? sp->pool.name : atom_cstr("");
    for (uint32_t j = 0; j < sl->n_devs; j++) {
      alloc_dev *dv = &sl->devs[j];
      dv->d = alloc_with_rule_taints(a, in, drv, pool, &sp->devices.items[j]);
      dv->slice = sl;
      dv->driver = drv, dv->pool = pool;
      dv->name = dv->d->name ? dv->d->name : atom_cstr("");
      dv->held = held_for(ix, drv, pool, dv->name); /* alloc_index_hold may fill it in later */
      dv->has_binding_conditions = dv->d->binding_conditions.n > 0;
      alloc_device_view(a, dv->driver, dv->d, &dv->view);
    }
    if (sl->has_node_name) idlist_add_keyed(a, &ix->by_node, atom_cstr_in(a, sp->node_name), NULL, i);
    else alloc_idlist_add(a, &ix->shared, i);
    idlist_add_keyed(a, &ix->by_pool, drv, pool, i);
  }
  return ix;
}

void alloc_index_free(alloc_index *ix) {
  if (!ix) return;
  for (size_t i = 0; i < ix->n_held_programs; i++) cel_cache_release(ix->held_programs[i]);
  free(ix->held_programs);
  pthread_mutex_destroy(&ix->lock);
  arena_free(ix->a);
}

size_t alloc_index_free_devices(const alloc_index *ix, const char *node_name) {
  if (ix->shared.n) return SIZE_MAX;
  const alloc_idlist *local = alloc_map_get(&ix->by_node, atom_cstr(node_name), NULL, NULL);
  size_t n = 0;
  for (uint32_t i = 0; local && i < local->n; i++) {
    const alloc_slice *sl = &ix->slices[local->v[i]];
    for (uint32_t j = 0; j < sl->n_devs; j++) {
      const device *d = sl->devs[j].d;
      if (d->allow_multiple_allocations_set && d->allow_multiple_allocations) return SIZE_MAX;
      n += !sl->devs[j].held->exclusive;
    }
  }
  return n;
}
