/* alloc_search.c: the depth-first search that places devices and the
 * admission of one candidate (docs/allocator.md, 'The search' and 'Admitting a
 * device'), with upstream's later fix applied: every
 * counter, capacity and constraint change is given back when a candidate is
 * refused or undone. A step is one entry into step(), counted as upstream
 * counts its allocateOne invocations; the budget is checked at every step. */
#include "alloc/alloc_internal.h"
#include "alloc/alloc_prune.h"
#include "util/timing.h"
#include <stdio.h>
#include <string.h>

bool alloc_claim_holds(const pclaim *pc, uint32_t ci) {
  for (uint32_t i = 0; i < pc->n_rec; i++)
    if (pc->recs[i].cand == ci && !pc->recs[i].multi) return true;
  return false;
}

bool alloc_in_use(const alloc_call *k, uint32_t ci) {
  const alloc_dev *dv = k->cands[ci].dev;
  return (!k->ignore_held && dv->held && dv->held->exclusive) || k->cands[ci].excl > 0 || k->cands[ci].barred;
}

bool alloc_is_multi(const alloc_call *k, const alloc_dev *dv) {
  return k->f.cap && dv->d->allow_multiple_allocations_set && dv->d->allow_multiple_allocations;
}

static char *new_share_id(alloc_call *k, const pclaim *pc, const alloc_dev *dv) {
  uint64_t h1 = atom_hash_bytes(pc->label, strlen(pc->label)) ^ ((uint64_t)dv->name->id << 32);
  uint64_t h2 = (dv->driver->hash * 31 + dv->pool->hash) ^ (++k->share_seq * 0x9E3779B97F4A7C15ull);
  return arena_printf(k->a, "%08x-%04x-4%03x-%04x-%012llx", (unsigned)(h1 >> 32), (unsigned)(h1 >> 16) & 0xffff,
           (unsigned)h1 & 0xfff, (unsigned)(0x8000 | ((h2 >> 48) & 0x3fff)), (unsigned long long)(h2 & 0xffffffffffffull));
}

static void take_share(alloc_call *k, pclaim *pc, alloc_rec *rec) {
  alloc_cand *c = &k->cands[rec->cand];
  uint32_t n = c->dev->d->capacity.n;
  if (!c->infcap) c->infcap = arena_calloc(k->a, n + 1, sizeof *c->infcap);
  rec->consumed = arena_calloc(k->a, n + 1, sizeof *rec->consumed);
  alloc_consumed(k, rec->cand, rec->r, rec->consumed);
  for (uint32_t i = 0; i < n; i++) c->infcap[i] += rec->consumed[i];
  c->shares++;
  rec->share_id = new_share_id(k, pc, c->dev);
}

/* Undo of an admitted device, and the rollback of a partly admitted candidate. */
static void undo_rec(alloc_call *k, pclaim *pc, alloc_rec *rec, uint32_t idx) {
  alloc_cand *c = &k->cands[rec->cand];
  alloc_constraint_remove(pc, idx);
  if (!rec->multi) c->excl--;
  if (rec->consumed) {
    for (uint32_t i = 0; i < c->dev->d->capacity.n; i++) c->infcap[i] -= rec->consumed[i];
    c->shares--;
  }
  if (rec->charged) alloc_counters_release(k, rec->cand);
}

static void undo_last(alloc_call *k, pclaim *pc) {
  pc->n_rec--;
  undo_rec(k, pc, &pc->recs[pc->n_rec], pc->n_rec);
}

/* Admits candidate ci for request r of claim c, in upstream's order of
 * checks; must: refusal by a constraint is an error (All mode). */
static step_result admit(alloc_call *k, uint32_t c, preq *r, uint32_t ci, bool must) {
  pclaim *pc = &k->claims[c];
  const alloc_dev *dv = k->cands[ci].dev;
  alloc_rec rec = {.cand = ci, .r = r, .multi = alloc_is_multi(k, dv)};
  if (!rec.multi && r->admin && alloc_claim_holds(pc, ci)) return ST_FAIL;        /* admin twice */
  if (!r->admin && alloc_in_use(k, ci)) return ST_FAIL;                            /* in use */
  if (!k->f.part && dv->d->consumes_counters.n) return ST_FAIL;                    /* gate */
  bool shared_before = rec.multi && ((dv->held && dv->held->has_agg) || k->cands[ci].shares > 0);
  if (k->f.part && dv->d->consumes_counters.n && !shared_before) {                 /* counters */
    if (!alloc_counters_charge(k, ci)) return ST_FAIL;
    rec.charged = true;
  }
  if (k->f.taints && !alloc_tolerated(dv->d, r->tols)) {                           /* taints */
    if (rec.charged) alloc_counters_release(k, ci);
    return ST_FAIL;
  }
  uint32_t idx = pc->n_rec;
  int added = alloc_constraint_add(k, pc, r, ci, idx);                              /* constraints */
  if (added <= 0) {
    if (rec.charged) alloc_counters_release(k, ci);
    if (added < 0) return ST_ERR;
    if (!must) return ST_FAIL;
    alloc_errf(k, "claim %s, request %s: cannot add device %s/%s/%s because a claim constraint would not be satisfied",
               pc->label, r->name ? r->name->str : "", dv->driver->str, dv->pool->str, dv->name->str);
    return ST_ERR;
  }
  if (!rec.multi) k->cands[ci].excl++;                                                   /* mark */
  if (k->f.cap && !alloc_fits(k, ci, r)) {                                         /* capacity */
    undo_rec(k, pc, &rec, idx);
    return ST_FAIL;
  }
  if (rec.multi) take_share(k, pc, &rec);
  pc->recs[pc->n_rec++] = rec;                                                     /* record */
  return ST_OK;
}

static bool budget_left(alloc_call *k) {
  if (k->steps > k->max_steps) {
    alloc_errf(k, "allocation aborted: steps budget exhausted after %llu steps", (unsigned long long)(k->steps - 1));
    return false;
  }
  if (k->has_deadline && (k->steps & 1023) == 0) {
    if (timing_passed(&k->deadline)) {
      alloc_errf(k, "allocation aborted: time budget exhausted after %llu steps", (unsigned long long)k->steps);
      return false;
    }
  }
  return true;
}

static step_result step(alloc_call *k, uint32_t c, uint32_t q, uint32_t s, int64_t d, bool in_sub, uint32_t start);

static step_result dispatch(alloc_call *k, uint32_t c, uint32_t q, int64_t d) {
  preq_group *g = &k->claims[c].reqs[q];
  bool all_too_many = true;
  for (uint32_t s = 0; s < g->n_subs; s++) {
    step_result r = step(k, c, q, s, d, true, 0);
    if (r == ST_TOO_MANY) continue;
    all_too_many = false;
    if (r == ST_ERR) return r;
    if (r == ST_OK) {
      g->chosen = s;
      return ST_OK;
    }
  }
  return all_too_many ? ST_TOO_MANY : ST_FAIL;
}

static step_result place_all(alloc_call *k, uint32_t c, uint32_t q, uint32_t s, preq *r, int64_t d, bool in_sub) {
  step_result res = admit(k, c, r, r->all_list[d], true);
  if (res != ST_OK) return res;
  res = step(k, c, q, s, d + 1, in_sub, 0);
  if (res != ST_OK) undo_last(k, &k->claims[c]);
  return res;
}

static step_result step(alloc_call *k, uint32_t c, uint32_t q, uint32_t s, int64_t d, bool in_sub, uint32_t start) {
  k->steps++;
  if (!budget_left(k)) return ST_ERR;
  if (c == k->n_claims) return ST_OK;
  pclaim *pc = &k->claims[c];
  if (q == 0 && d == 0 && !in_sub && start == 0 && k->prune && !alloc_prune_claim_possible(k, c)) return ST_FAIL;
  if (q == pc->n_reqs) {
    step_result r = step(k, c + 1, 0, 0, 0, false, 0);
    return r == ST_TOO_MANY ? ST_FAIL : r;
  }
  preq_group *g = &pc->reqs[q];
  if (g->has_subs && !in_sub) return dispatch(k, c, q, d);
  preq *r = &g->subs[s];
  if (r->all && r->n_all == 0) return ST_FAIL;
  if (d >= r->needed) return step(k, c, q + 1, 0, 0, false, 0);
  if (pc->n_rec + r->needed - d > ALLOC_MAX_RESULTS) return ST_TOO_MANY;
  if (r->all) return place_all(k, c, q, s, r, d, in_sub);
  for (uint32_t p = start; p < k->n_cands; p++) {
    if (r->admin ? alloc_claim_holds(pc, p) : alloc_in_use(k, p)) continue;
    int sel = alloc_selectable(k, r, p, false);
    if (sel < 0) return ST_ERR;
    if (!sel || (k->f.cap && !alloc_fits(k, p, r))) continue;
    step_result res = admit(k, c, r, p, false);
    if (res == ST_ERR) return res;
    if (res == ST_FAIL) continue;
    if (k->prune && !alloc_prune_after_admit(k, c, q, s, d, p)) {
      undo_last(k, pc);
      continue;
    }
    res = step(k, c, q, s, d + 1, in_sub, p + 1);
    if (res == ST_OK) return ST_OK;
    undo_last(k, pc);
    if (res == ST_ERR || res == ST_TOO_MANY) return res;
  }
  return ST_FAIL;
}

step_result alloc_search(alloc_call *k) { return step(k, 0, 0, 0, 0, false, 0); }
