/* alloc_prune.c: search pruning (see alloc_prune.h). Counts are upper bounds,
 * and nothing is pruned where the search could meet an error (a selector that
 * fails, a derived attribute not evaluated yet): upstream would report it. */
#include "alloc/alloc_prune.h"
#include <string.h>

/* Could candidate p still be admitted for r, as things stand? Only ever
 * harder deeper in the search: in-flight use, counters and capacity grow.
 * 0 no, 1 yes, ALLOC_SELECT_UNSURE when looking at it could raise an error. */
static int admissible_now(alloc_call *k, const pclaim *pc, preq *r, uint32_t p) {
  const alloc_cand *c = &k->cands[p];
  const device *d = c->dev->d;
  bool multi = k->f.cap && d->allow_multiple_allocations;
  if (r->admin ? !multi && alloc_claim_holds(pc, p) : alloc_in_use(k, p)) return 0;
  int sel = alloc_selectable(k, r, p, true);
  if (sel != 1) return sel;
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
  for (uint32_t p = start; p < k->n_cands && found < need; p++) {
    int a = admissible_now(k, pc, r, p);
    if (a == ALLOC_SELECT_UNSURE) return true;
    found += a;
  }
  return found >= need;
}

/* Could the search meet an error while trying r's devices from position
 * start on? All-mode lists were evaluated while preparing, but a device of
 * one that a constraint refuses is an error (upstream: "cannot add device
 * ... because a claim constraint would not be satisfied"), so an All-mode
 * request under a constraint may error. */
static bool request_may_error(alloc_call *k, const pclaim *pc, preq *r, uint32_t start) {
  if (r->all) {
    for (uint32_t ti = 0; ti < pc->n_trk; ti++)
      if (r->applies[ti]) return true;
    return false;
  }
  /* A derived attribute is evaluated when a constraint looks it up, in the
   * search, and may fail there. */
  if (r->derived->n)
    for (uint32_t ti = 0; ti < pc->n_trk; ti++)
      if (r->applies[ti]) return true;
  for (uint32_t p = start; p < k->n_cands; p++) {
    if (r->admin ? alloc_claim_holds(pc, p) : alloc_in_use(k, p)) continue;
    if (alloc_selectable(k, r, p, true) == ALLOC_SELECT_UNSURE) return true;
  }
  return false;
}

/* The branch to be pruned tries cur from cur_start (when cur is set) and
 * requests [from, until) of the claim: could it meet an error on the way?
 * Then it must not be pruned, so the error is reported as upstream would. */
static bool branch_may_error(alloc_call *k, pclaim *pc, preq *cur, uint32_t cur_start, uint32_t from, uint32_t until) {
  if (cur && request_may_error(k, pc, cur, cur_start)) return true;
  for (uint32_t q = from; q < until; q++)
    for (uint32_t s = 0; s < pc->reqs[q].n_subs; s++)
      if (request_may_error(k, pc, &pc->reqs[q].subs[s], 0)) return true;
  return false;
}

/* Can requests first.. of the claim still each find their devices, after cur
 * (if set) took its remaining devices from cur_start on? */
static bool later_requests_possible(alloc_call *k, pclaim *pc, uint32_t first, preq *cur, uint32_t cur_start) {
  for (uint32_t q = first; q < pc->n_reqs; q++) {
    preq_group *g = &pc->reqs[q];
    bool any = false;
    for (uint32_t s = 0; s < g->n_subs && !any; s++) any = enough_devices(k, pc, &g->subs[s], 0, g->subs[s].needed);
    /* The search would still try q's devices (and meet a derived
     * attribute's error there), so q is part of the branch. */
    if (!any) return branch_may_error(k, pc, cur, cur_start, first, q + 1);
  }
  return true;
}

static bool constraints_possible(alloc_call *k, pclaim *pc, preq *cur, int64_t cur_rest, uint32_t cur_start, uint32_t from);

bool alloc_prune_claim_possible(alloc_call *k, uint32_t c) {
  return later_requests_possible(k, &k->claims[c], 0, NULL, 0) && constraints_possible(k, &k->claims[c], NULL, 0, 0, 0);
}

/* Devices tracker ti still needs: cur_rest more for cur (when set), then
 * requests from.. each with the least any choice of subrequests needs. Sets
 * *opaque when the count cannot be trusted. */
static int64_t tied_need(const pclaim *pc, uint32_t ti, const preq *cur, int64_t cur_rest, uint32_t from, bool *opaque) {
  int64_t need = 0;
  if (cur && cur->applies[ti]) {
    need += cur_rest;
    /* Admin access may take devices in use, which the counts below skip. */
    if (cur_rest > 0 && (cur->derived->n || cur->admin)) *opaque = true;
  }
  for (uint32_t j = from; j < pc->n_reqs; j++) {
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

/* Is candidate p, with a value fitting t, usable by some tied request left?
 * 0 no, 1 yes, ALLOC_SELECT_UNSURE when looking at it could raise an error. */
static int usable_for_tied(alloc_call *k, pclaim *pc, uint32_t ti, uint32_t q, uint32_t p) {
  for (uint32_t j = q; j < pc->n_reqs; j++)
    for (uint32_t x = 0; x < pc->reqs[j].n_subs; x++) {
      preq *r = &pc->reqs[j].subs[x];
      if (!r->applies[ti]) continue;
      int sel = alloc_selectable(k, r, p, true);
      if (sel == ALLOC_SELECT_UNSURE) return sel;
      if (!sel) continue;
      aval v;
      int found = alloc_lookup_attr(k, r, p, &pc->trk[ti].attr, &v, true);
      if (found < 0) return ALLOC_SELECT_UNSURE;
      if (found && value_fits(k, &pc->trk[ti], &v)) return 1;
    }
  return 0;
}

/* distinctAttribute with scalar values: do tied requests from q on find
 * need more devices whose values differ from each other and from the values
 * taken? 1 yes, 0 no, ALLOC_SELECT_UNSURE when that cannot be told. */
static int distinct_values_enough(alloc_call *k, pclaim *pc, uint32_t ti, uint32_t q, int64_t need) {
  const tracker *t = &pc->trk[ti];
  /* A device is counted once, with the value of the first tied request that
   * can take it; a derived attribute gives one device different values for
   * different requests, so then the count is no bound. */
  for (uint32_t j = q; j < pc->n_reqs; j++)
    for (uint32_t s = 0; s < pc->reqs[j].n_subs; s++)
      if (pc->reqs[j].subs[s].applies[ti] && pc->reqs[j].subs[s].derived->n) return ALLOC_SELECT_UNSURE;
  aval *seen = arena_alloc(k->a, (size_t)need * sizeof *seen);
  int64_t n_seen = 0;
  for (uint32_t x = 0; x < k->n_cands && n_seen < need; x++) {
    if (alloc_in_use(k, x) || alloc_claim_holds(pc, x)) continue;
    for (uint32_t j = q; j < pc->n_reqs; j++)
      for (uint32_t s = 0; s < pc->reqs[j].n_subs; s++) {
        preq *r = &pc->reqs[j].subs[s];
        if (!r->applies[ti]) continue;
        int sel = alloc_selectable(k, r, x, true);
        if (sel == ALLOC_SELECT_UNSURE) return sel;
        aval v;
        if (!sel) continue;
        int found = alloc_lookup_attr(k, r, x, &t->attr, &v, true);
        if (found < 0) return ALLOC_SELECT_UNSURE;
        if (!found) continue;
        if (v.kind < AV_INT || v.kind > AV_VERSION) return ALLOC_SELECT_UNSURE; /* lists: not counted here */
        bool taken = false;
        for (uint32_t e = 0; e < t->n && !taken; e++) taken = aval_equal_scalar(&t->e[e].v, &v);
        for (int64_t e = 0; e < n_seen && !taken; e++) taken = aval_equal_scalar(&seen[e], &v);
        if (!taken) seen[n_seen++] = v;
        goto next_device;
      }
  next_device:;
  }
  return n_seen >= need;
}

/* Constraint checks for the branch that continues with cur (cur_rest more
 * devices from cur_start on, when cur is set) and then requests from..:
 * false when a constraint cannot be met there. */
static bool constraints_possible(alloc_call *k, pclaim *pc, preq *cur, int64_t cur_rest, uint32_t cur_start, uint32_t from) {
  uint32_t q_scope = cur ? from - 1 : from;
  preq *cur_left = cur && cur_rest > 0 ? cur : NULL;
  for (uint32_t ti = 0; ti < pc->n_trk; ti++) {
    const tracker *t = &pc->trk[ti];
    bool opaque = false;
    int64_t need = tied_need(pc, ti, cur, cur_rest, from, &opaque);
    if (opaque || need <= 0) continue;
    int enough = 1;
    if (!t->match) {
      enough = distinct_values_enough(k, pc, ti, q_scope, need);
    } else if (t->n) {
      int64_t have = 0;
      for (uint32_t x = 0; x < k->n_cands && have < need && enough == 1; x++) {
        if (alloc_in_use(k, x) || alloc_claim_holds(pc, x)) continue;
        int u = usable_for_tied(k, pc, ti, q_scope, x);
        if (u == ALLOC_SELECT_UNSURE || (u && k->f.cap && k->cands[x].dev->d->allow_multiple_allocations)) enough = 2;
        have += u == 1;
      }
      if (enough == 1) enough = have >= need;
    }
    if (!enough) return branch_may_error(k, pc, cur_left, cur_start, from, pc->n_reqs);
  }
  return true;
}

bool alloc_prune_after_admit(alloc_call *k, uint32_t c, uint32_t q, uint32_t s, int64_t d, uint32_t p) {
  pclaim *pc = &k->claims[c];
  preq *cur = &pc->reqs[q].subs[s];
  int64_t rest = cur->needed - (d + 1);
  preq *cur_left = rest > 0 ? cur : NULL;
  return enough_devices(k, pc, cur, p + 1, rest) && later_requests_possible(k, pc, q + 1, cur_left, p + 1) &&
         constraints_possible(k, pc, cur, rest, p + 1, q + 1);
}
