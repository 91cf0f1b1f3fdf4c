/* alloc_capacity.c: what admitting a device costs besides the device itself:
 * shared counters of partitionable devices (charge and release), consumable
 * capacity fit and amounts, and taint toleration (docs/allocator.md, 'Counters,
 * capacity and taints'). */
#include "alloc/alloc_internal.h"
#include <string.h>

#define NANOS_PER_UNIT ((__int128)1000000000)

/* ---- counters ---- */

bool alloc_counters_charge(alloc_call *k, uint32_t ci) {
  alloc_cand *c = &k->cands[ci];
  alloc_pool *p = c->pool;
  for (uint32_t i = 0; i < c->n_use; i++) p->ctrs[c->use_ctr[i]].inflight += c->use_nanos[i];
  for (uint32_t i = 0; i < p->n_ctrs; i++)
    if (p->ctrs[i].avail < p->ctrs[i].inflight) {
      alloc_counters_release(k, ci);
      return false;
    }
  return true;
}

void alloc_counters_release(alloc_call *k, uint32_t ci) {
  alloc_cand *c = &k->cands[ci];
  for (uint32_t i = 0; i < c->n_use; i++) c->pool->ctrs[c->use_ctr[i]].inflight -= c->use_nanos[i];
}

/* ---- consumable capacity ---- */

static __int128 ceil_units(__int128 nanos) {
  __int128 u = nanos / NANOS_PER_UNIT;
  return nanos % NANOS_PER_UNIT > 0 ? u + 1 : u;
}

static const quantity *requested(const preq *r, const atom *name) {
  if (!r->capreq) return NULL;
  for (uint32_t i = 0; i < r->capreq->requests.n; i++)
    if (r->capreq->requests.items[i].key == name) return &r->capreq->requests.items[i].value;
  return NULL;
}

/* A requested amount rounded into a validRange: up to min, then up to
 * min + a whole number of steps (not capped: above max is a violation). */
static __int128 round_in_range(__int128 q, const capacity_request_policy_range *vr) {
  if (q < vr->min.nanos) return vr->min.nanos;
  if (!vr->step_set) return q;
  __int128 qi = ceil_units(q), mi = ceil_units(vr->min.nanos), si = ceil_units(vr->step.nanos);
  if (si <= 0) return q;
  __int128 n = (qi - mi) / si + ((qi - mi) % si != 0);
  return (mi + si * n) * NANOS_PER_UNIT;
}

/* The amount of capacity N (value v, policy p) request r consumes. */
static __int128 amount(const preq *r, const atom *name, const device_capacity *dc) {
  const capacity_request_policy *p = dc->request_policy;
  const quantity *q = requested(r, name);
  if (!q) return p && p->default__set ? p->default_.nanos : dc->value.nanos;
  if (!p) return q->nanos;
  if (p->valid_range && p->valid_range->min_set) return round_in_range(q->nanos, p->valid_range);
  if (p->valid_values.n) {
    for (uint32_t i = 0; i < p->valid_values.n; i++)
      if (p->valid_values.items[i].nanos >= q->nanos) return p->valid_values.items[i].nanos;
  }
  return q->nanos;
}

/* Does amount a break the capacity's requestPolicy (the default always
 * passes; otherwise it must be one of validValues or inside validRange)? */
static bool violates(const capacity_request_policy *p, __int128 a) {
  if (!p || (p->default__set && p->default_.nanos == a)) return false;
  if (p->valid_range) {
    const capacity_request_policy_range *vr = p->valid_range;
    if (vr->max_set && a > vr->max.nanos) return true;
    if (vr->step_set) {
      __int128 s = ceil_units(vr->step.nanos);
      return s > 0 && (ceil_units(a) - ceil_units(vr->min.nanos)) % s != 0;
    }
    return false;
  }
  if (p->valid_values.n) {
    for (uint32_t i = 0; i < p->valid_values.n; i++)
      if (p->valid_values.items[i].nanos == a) return false;
    return true;
  }
  return false;
}

static __int128 held_capacity(const alloc_dev *dv, const atom *name) {
  if (!dv->held) return 0;
  for (uint32_t i = 0; i < dv->held->n_agg; i++)
    if (dv->held->agg_name[i] == name) return dv->held->agg_nanos[i];
  return 0;
}

void alloc_consumed(alloc_call *k, uint32_t ci, const preq *r, __int128 *out) {
  const device_capacity_map *m = &k->cands[ci].dev->d->capacity;
  for (uint32_t i = 0; i < m->n; i++) out[i] = amount(r, m->items[i].key, &m->items[i].value);
}

static bool fits(alloc_call *k, uint32_t ci, const preq *r, bool in_use);

bool alloc_fits(alloc_call *k, uint32_t ci, const preq *r) { return fits(k, ci, r, true); }

/* The static fit: the device's capacity alone, nothing allocated or in
 * flight counted. Upstream (1.37) builds an All-mode device list with it,
 * so a device whose remaining capacity is too small stays on the list and
 * makes the request fail. */
bool alloc_fits_static(alloc_call *k, uint32_t ci, const preq *r) { return fits(k, ci, r, false); }

static bool fits(alloc_call *k, uint32_t ci, const preq *r, bool in_use) {
  const alloc_dev *dv = k->cands[ci].dev;
  const device_capacity_map *m = &dv->d->capacity;
  for (uint32_t i = 0; r->capreq && i < r->capreq->requests.n; i++) {
    uint32_t j = 0;
    while (j < m->n && m->items[j].key != r->capreq->requests.items[i].key) j++;
    if (j == m->n) return false;
  }
  const __int128 *inf = in_use ? k->cands[ci].infcap : NULL, *below = in_use ? k->cands[ci].below : NULL;
  for (uint32_t i = 0; i < m->n; i++) {
    const device_capacity *dc = &m->items[i].value;
    __int128 a = amount(r, m->items[i].key, dc);
    if (violates(dc->request_policy, a)) return false;
    if ((in_use ? held_capacity(dv, m->items[i].key) : 0) + a + (inf ? inf[i] : 0) > dc->value.nanos) return false;
    if (below && below[i] && a + (inf ? inf[i] : 0) >= below[i]) return false;
  }
  return true;
}

/* ---- taints ---- */

static bool tolerates(const device_toleration *t, const device_taint *x) {
  if (t->effect && t->effect[0] && (!x->effect || strcmp(t->effect, x->effect))) return false;
  if (t->key && t->key[0] && (!x->key || strcmp(t->key, x->key))) return false;
  const char *op = t->operator_ ? t->operator_ : "";
  if (!strcmp(op, "Exists")) return true;
  if (op[0] && strcmp(op, "Equal")) return false;
  return !strcmp(t->value ? t->value : "", x->value ? x->value : "");
}

bool alloc_tolerated(const device *d, const device_toleration_list *tols) {
  for (uint32_t i = 0; i < d->taints.n; i++) {
    const device_taint *x = &d->taints.items[i];
    if (!x->effect || (strcmp(x->effect, "NoSchedule") && strcmp(x->effect, "NoExecute"))) continue;
    bool ok = false;
    for (uint32_t j = 0; j < tols->n && !ok; j++) ok = tolerates(&tols->items[j], x);
    if (!ok) return false;
  }
  return true;
}

/* ---- the call's device limits ---- */

void alloc_apply_device_limits(alloc_call *k, const alloc_device_limit *v, size_t n) {
  for (size_t i = 0; i < n; i++)
    for (uint32_t ci = 0; ci < k->n_cands; ci++) {
      alloc_cand *c = &k->cands[ci];
      if (c->dev->driver != v[i].driver || c->dev->pool != v[i].pool || c->dev->name != v[i].device) continue;
      if (!v[i].capacity) {
        c->barred = true;
        for (uint32_t u = 0; v[i].spend_counters && u < c->n_use; u++)
          c->pool->ctrs[c->use_ctr[u]].avail -= c->use_nanos[u];
        continue;
      }
      const device_capacity_map *m = &c->dev->d->capacity;
      for (uint32_t j = 0; j < m->n; j++) {
        if (m->items[j].key != v[i].capacity) continue;
        if (!c->below) c->below = arena_calloc(k->a, m->n, sizeof *c->below);
        if (!c->below[j] || v[i].below < c->below[j]) c->below[j] = v[i].below;
      }
    }
}
