/* alloc_prune.c: search pruning (see alloc_prune.h). Counts are upper bounds:
 * a selector error counts as selectable, devices that allow multiple
 * allocations or requests with derived attributes disable the value check. */
#include "alloc/alloc_prune.h"
#include <string.h>

/* Could candidate p still be admitted for r, as things stand? Only ever
 * harder deeper in the search: in-flight use, counters and capacity grow. */
static bool admissible_now(alloc_call *k, const pclaim *pc, preq *r, uint32_t p) {
  const alloc_cand *c = &k->cands[p];
  const device *d = c->dev->d;
  bool multi = k->f.cap && d->allow_multiple_allocations;
  if (r->admin ? !multi && alloc_claim_holds(pc, p) : alloc_in_use(k, p)) return false;
  if (!alloc_selectable(k, r, p, true)) return false;
  if (d->consumes_counters.n) {
    if (!k->f.part) return false;
    bool shared_before = multi && ((c->dev->held && c->dev->held->has_agg) || c->shares > 0);
    if (!shared_before) {
      if (!alloc_counters_charge(k, p)) return false;
      alloc_counters_release(k, p);
    }
  }
  if (k->f.taints && !alloc_tolerated(d, r->tols)) return false;
  return !k->f.cap || alloc_fits(k, p, r);
}

/* At least need admissible devices for r at positions >= start? */
static bool enough_devices(alloc_call *k, const pclaim *pc, preq *r, uint32_t start, int64_t need) {
  if (r->all || need <= 0) return true;
  int64_t found = 0;
  for (uint32_t p = start; p < k->n_cands && found < need; p++)
    if (admissible_now(k, pc, r, p)) found++;
  return found >= need;
}

/* Can requests first.. of the claim still each find their devices? */
static bool later_requests_possible(alloc_call *k, pclaim *pc, uint32_t first) {
  for (uint32_t q = first; q < pc->n_reqs; q++) {
    preq_group *g = &pc->reqs[q];
    bool any = false;
    for (uint32_t s = 0; s < g->n_subs && !any; s++) any = enough_devices(k, pc, &g->subs[s], 0, g->subs[s].needed);
    if (!any) return false;
  }
  return true;
}

bool alloc_prune_claim_possible(alloc_call *k, uint32_t c) { return later_requests_possible(k, &k->claims[c], 0); }

/* Devices tracker t still needs from requests after (q, s, d): the least any
 * choice of subrequests needs. Sets *opaque when the count cannot be trusted. */
static int64_t tied_need(const pclaim *pc, uint32_t ti, uint32_t q, uint32_t s, int64_t d, bool *opaque) {
  int64_t need = 0;
  const preq *cur = &pc->reqs[q].subs[s];
  if (cur->applies[ti]) need += cur->needed - (d + 1);
  for (uint32_t j = q + 1; j < pc->n_reqs; j++) {
    const preq_group *g = &pc->reqs[j];
    int64_t least = -1;
    for (uint32_t x = 0; x < g->n_subs; x++) {
      const preq *r = &g->subs[x];
      int64_t n = r->applies[ti] ? r->needed : 0;
      if (r->applies[ti] && (r->derived->n || r->admin)) *opaque = true;
      if (least < 0 || n < least) least = n;
    }
    need += least;
  }
  return need;
}

static bool value_fits(alloc_call *k, const tracker *t, const aval *v) {
  if (!k->f.list) return aval_equal_scalar(&t->e[0].v, v);
  const aval *cur = &t->e[t->n - 1].v;
  aval one = *v;
  switch (v->kind) {
  case AV_INT: one = (aval){.kind = AV_INTS, .n = 1, .ints = &v->i}; break;
  case AV_BOOL: one = (aval){.kind = AV_BOOLS, .n = 1, .bools = &v->b}; break;
  case AV_STRING: one = (aval){.kind = AV_STRINGS, .n = 1, .strs = (char *const *)&v->s}; break;
  case AV_VERSION: one = (aval){.kind = AV_VERSIONS, .n = 1, .strs = (char *const *)&v->s}; break;
  default: break;
  }
  if (one.kind != cur->kind) return false;
  for (uint32_t i = 0; i < cur->n; i++)
    for (uint32_t j = 0; j < one.n; j++) {
      bool eq = cur->kind == AV_INTS    ? cur->ints[i] == one.ints[j]
                : cur->kind == AV_BOOLS ? cur->bools[i] == one.bools[j]
                                        : !strcmp(cur->strs[i], one.strs[j]);
      if (eq) return true;
    }
  return false;
}

/* Is candidate p, with a value fitting t, usable by some tied request left? */
static bool usable_for_tied(alloc_call *k, pclaim *pc, uint32_t ti, uint32_t q, uint32_t p) {
  for (uint32_t j = q; j < pc->n_reqs; j++)
    for (uint32_t x = 0; x < pc->reqs[j].n_subs; x++) {
      preq *r = &pc->reqs[j].subs[x];
      if (!r->applies[ti]) continue;
      if (!alloc_selectable(k, r, p, true)) continue;
      aval v;
      if (alloc_lookup_attr(k, r, p, &pc->trk[ti].attr, &v) && value_fits(k, &pc->trk[ti], &v)) return true;
    }
  return false;
}

bool alloc_prune_after_admit(alloc_call *k, uint32_t c, uint32_t q, uint32_t s, int64_t d, uint32_t p) {
  pclaim *pc = &k->claims[c];
  preq *cur = &pc->reqs[q].subs[s];
  if (!enough_devices(k, pc, cur, p + 1, cur->needed - (d + 1)) || !later_requests_possible(k, pc, q + 1)) return false;
  for (uint32_t ti = 0; ti < pc->n_trk; ti++) {
    const tracker *t = &pc->trk[ti];
    if (!t->match || t->n == 0) continue;
    bool opaque = false;
    int64_t need = tied_need(pc, ti, q, s, d, &opaque);
    if (opaque || need <= 0) continue;
    int64_t have = 0;
    for (uint32_t p = 0; p < k->n_cands && have < need; p++) {
      if (alloc_in_use(k, p) || alloc_claim_holds(pc, p)) continue;
      if (!usable_for_tied(k, pc, ti, q, p)) continue;
      if (k->f.cap && k->cands[p].dev->d->allow_multiple_allocations) return true;
      have++;
    }
    if (have < need) return false;
  }
  return true;
}
