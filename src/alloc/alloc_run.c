/* alloc_run.c: one Allocate(node, claims) call (docs/allocator.md, 'Entry
 * points'): gather pools, prepare requests, search, then results,
 * UNSATISFIABLE or an error. */
#include "alloc/alloc_internal.h"
#include "util/timing.h"
#include <stdarg.h>
#include <string.h>

void alloc_errf(alloc_call *k, const char *fmt, ...) {
  if (k->has_err) return; /* the first error wins */
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(&k->err, fmt, ap); /* messages quote expressions and names of any length */
  va_end(ap);
  k->has_err = true;
}

void alloc_call_init(alloc_call *k, alloc_index *ix, const node *nd, arena *a) {
  memset(k, 0, sizeof *k);
  k->ix = ix;
  k->f = ix->f;
  k->nd = nd;
  k->node_name = nd->metadata.name;
  k->a = a;
  k->max_steps = ALLOC_DEFAULT_MAX_STEPS;
  k->prune = true;
}

static void set_deadline(alloc_call *k, double seconds) {
  if (seconds < 0) return;
  k->deadline = timing_deadline(seconds);
  k->has_deadline = true;
}

static double since(const struct timespec *t0) {
  struct timespec t1;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

static alloc_status run(alloc_call *k, const resource_claim *const *claims, size_t n, const alloc_limits *lim,
                        arena *out, alloc_outcome *res) {
  if (alloc_gather_pools(k) < 0) return ALLOC_ERROR;
  if (lim) alloc_apply_device_limits(k, lim->devices, lim->n_devices);
  if (alloc_prepare_claims(k, claims, n) < 0) return ALLOC_ERROR;
  step_result r = alloc_search(k);
  if (r == ST_ERR) return ALLOC_ERROR;
  if (r == ST_OK) {
    if (alloc_build_results(k, out, &res->allocations) < 0) return ALLOC_ERROR;
    res->n_allocations = n;
    return ALLOC_OK;
  }
  for (uint32_t i = 0; i < k->n_pools; i++)
    if (k->pools[i].state == POOL_INVALID) {
      alloc_errf(k, "invalid resource pools were encountered");
      res->node_local = true;
      return ALLOC_ERROR;
    }
  return ALLOC_UNSATISFIABLE;
}

alloc_status alloc_run(alloc_index *ix, const node *nd, const resource_claim *const *claims, size_t n,
                       const alloc_limits *lim, arena *out, alloc_outcome *res) {
  memset(res, 0, sizeof *res);
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  arena *a = arena_new();
  alloc_call k;
  alloc_call_init(&k, ix, nd, a);
  if (lim && lim->max_steps) k.max_steps = lim->max_steps;
  if (lim && lim->no_pruning) k.prune = false;
  set_deadline(&k, lim && lim->timeout_seconds ? lim->timeout_seconds : ALLOC_DEFAULT_TIMEOUT_SECONDS);
  res->status = run(&k, claims, n, lim, out, res);
  if (res->status == ALLOC_ERROR) res->error = arena_strdup(out, sb_str(&k.err));
  res->steps = k.steps;
  res->seconds = since(&t0);
  sb_free(&k.err);
  arena_free(a);
  return res->status;
}
