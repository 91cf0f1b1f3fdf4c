/* alloc_explain_fit.c: what would make claims that do not fit on a node fit
 * now (the "wouldFit" and "release" parts of alloc_explain's report;
 * docs/allocator.md, "--explain"). Each claim is looked at alone, as the
 * rest of the explanation does. Each answer is the allocator run again, on
 * the same index and node, with one thing changed:
 *  - a smaller request: an ExactCount request, or one firstAvailable entry
 *    made the request's only choice, with the highest count below the
 *    asked one with which the claim fits (fitting only gets easier
 *    with fewer devices, so a binary search finds it). An entry alone at
 *    its own count never fits when the claim does not: the allocator
 *    tries every entry itself;
 *  - released devices: the claim searched with the devices other claims
 *    hold exclusively counted free (their shared counters too); the held
 *    devices that search takes name the claims whose release would let it
 *    in as it is.
 * Every run is bounded (EXPLAIN_FIT_STEPS, EXPLAIN_FIT_SECONDS); a run
 * that reaches a bound counts as not fitting, and a claim whose own run
 * reaches one gets no answers (so a hard claim costs one bounded run per
 * node, not one per change). */
#include "alloc/alloc_internal.h"
#include <string.h>

#define EXPLAIN_FIT_STEPS 20000
#define EXPLAIN_FIT_SECONDS 0.2

static alloc_status run(alloc_index *ix, const node *nd, const resource_claim *const *claims, size_t n) {
  alloc_limits lim = {.max_steps = EXPLAIN_FIT_STEPS, .timeout_seconds = EXPLAIN_FIT_SECONDS};
  arena *out = arena_new();
  alloc_outcome res;
  alloc_status st = alloc_run(ix, nd, claims, n, &lim, out, &res);
  arena_free(out);
  return st;
}

static bool fits(alloc_index *ix, const node *nd, const resource_claim *const *claims, size_t n) {
  return run(ix, nd, claims, n) == ALLOC_OK;
}

static bool exact_count(const char *mode) { return !mode || !strcmp(mode, "ExactCount"); }

/* A copy of rc (in a) whose request q has only entry (or, with entry < 0,
 * its exactly) at count. */
static const resource_claim *changed(arena *a, const resource_claim *rc, uint32_t q, int32_t entry, int64_t count) {
  resource_claim *c = arena_alloc(a, sizeof *c);
  *c = *rc;
  const device_request_list *l = &rc->spec.devices.requests;
  device_request *reqs = arena_alloc(a, (l->n + 1) * sizeof *reqs);
  memcpy(reqs, l->items, l->n * sizeof *reqs);
  c->spec.devices.requests.items = reqs;
  if (entry >= 0) {
    device_sub_request *sub = arena_alloc(a, sizeof *sub);
    *sub = reqs[q].first_available.items[entry];
    sub->count = count, sub->count_set = true;
    reqs[q].first_available.items = sub;
    reqs[q].first_available.n = 1;
  } else {
    exact_device_request *ex = arena_alloc(a, sizeof *ex);
    *ex = *reqs[q].exactly;
    ex->count = count, ex->count_set = true;
    reqs[q].exactly = ex;
  }
  return c;
}

typedef struct fit_search {
  alloc_index *ix;
  const node *nd;
  const resource_claim *claim;
  const fit_bound *bounds; /* per request and subrequest, in order */
  arena *a;            /* the changed copies */
} fit_search;

/* Does the claim fit with request q's view v (entry, or its exactly) at
 * count? Surely not with more devices than the view could get, and where
 * the bound says so surely with fewer: those runs are spared, the search
 * takes the same steps. */
static bool fits_with(fit_search *fs, uint32_t q, uint32_t v, int32_t entry, int64_t count) {
  if (count > fs->bounds[v].most) return false;
  if (fs->bounds[v].up_to_most_fits) return true;
  const resource_claim *c = changed(fs->a, fs->claim, q, entry, count);
  return fits(fs->ix, fs->nd, &c, 1);
}

/* The highest count in [1, asked) with which the claim fits; 0 for none. */
static int64_t best_count(fit_search *fs, uint32_t q, uint32_t v, int32_t entry, int64_t asked) {
  int64_t lo = 0, hi = asked; /* fits at lo (0: none known), not at hi */
  while (hi - lo > 1) {
    int64_t mid = lo + (hi - lo) / 2;
    if (fits_with(fs, q, v, entry, mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

static const char *name_of(const atom *a) { return a ? a->str : ""; }

static json_t *smaller_requests(fit_search *fs) {
  json_t *out = json_array();
  const device_request_list *l = &fs->claim->spec.devices.requests;
  uint32_t v = 0; /* the view of request q (or its entry s) */
  for (uint32_t q = 0; q < l->n; q++) {
    const device_request *dr = &l->items[q];
    if (!dr->first_available.n) {
      v++;
      if (!dr->exactly || !exact_count(dr->exactly->allocation_mode)) continue;
      int64_t asked = dr->exactly->count_set ? dr->exactly->count : 1;
      int64_t best = best_count(fs, q, v - 1, -1, asked);
      if (best)
        json_array_append_new(out, json_pack("{s:s, s:I, s:I}", "request", name_of(dr->name), "count", (json_int_t)best,
                                             "asked", (json_int_t)asked));
      continue;
    }
    for (uint32_t s = 0; s < dr->first_available.n; s++, v++) {
      const device_sub_request *sub = &dr->first_available.items[s];
      if (!exact_count(sub->allocation_mode)) continue;
      int64_t asked = sub->count_set ? sub->count : 1;
      int64_t best = best_count(fs, q, v, (int32_t)s, asked);
      if (!best) continue;
      json_t *f = json_pack("{s:s, s:s++, s:I, s:I}", "request", name_of(dr->name), "entry", name_of(dr->name), "/",
                            name_of(sub->name), "count", (json_int_t)best, "asked", (json_int_t)asked);
      json_array_append_new(out, f);
    }
  }
  return out;
}

/* The claim searched with held devices counted free: the held devices it
 * would take, grouped by holder (its report's "release"). */
static void releases(alloc_index *ix, const node *nd, const resource_claim *const *claim, json_t *report,
                     const alloc_explain_opts *opts) {
  arena *a = arena_new();
  alloc_call k;
  alloc_call_init(&k, ix, nd, a);
  k.ignore_held = true;
  k.max_steps = EXPLAIN_FIT_STEPS;
  if (alloc_gather_pools(&k) == 0 && alloc_prepare_claims(&k, claim, 1) == 0 && alloc_search(&k) == ST_OK) {
    json_t *by_holder = json_object(), *list = json_array();
    for (uint32_t i = 0; i < k.claims[0].n_rec; i++) {
      const alloc_rec *rec = &k.claims[0].recs[i];
      const alloc_dev *dv = k.cands[rec->cand].dev;
      if (rec->r->admin || !dv->held || !dv->held->exclusive) continue;
      const char *holder = dv->held->holder ? dv->held->holder : "";
      json_t *entry = json_object_get(by_holder, holder);
      if (!entry) {
        strbuf users = STRBUF_INIT;
        if (opts->claim_consumers && *holder) opts->claim_consumers(opts->user, holder, &users);
        entry = json_pack("{s:s, s:[]}", "claim", *holder ? holder : "another claim", "devices");
        if (users.len) json_object_set_new(entry, "reservedFor", json_string(sb_str(&users)));
        sb_free(&users);
        json_object_set_new(by_holder, holder, entry);
        json_array_append(list, entry);
      }
      json_array_append_new(json_object_get(entry, "devices"),
                            json_sprintf("%s/%s/%s", dv->driver->str, dv->pool->str, dv->name->str));
    }
    json_object_set_new(report, "release", list);
    json_decref(by_holder);
  }
  sb_free(&k.err);
  arena_free(a);
}

void alloc_explain_fit(alloc_index *ix, const node *nd, const resource_claim *const *claims, size_t n,
                       const fit_bound *const *bounds, const alloc_explain_opts *opts, json_t *claim_reports) {
  for (size_t c = 0; c < n; c++) {
    /* only a claim that surely does not fit: one that reaches a bound (or
     * fails) would likely reach it in every changed run too */
    if (run(ix, nd, &claims[c], 1) != ALLOC_UNSATISFIABLE) continue;
    fit_search fs = {ix, nd, claims[c], bounds[c], arena_new()};
    json_t *report = json_array_get(claim_reports, c);
    json_object_set_new(report, "wouldFit", smaller_requests(&fs));
    releases(ix, nd, &claims[c], report, opts);
    arena_free(fs.a);
  }
}
