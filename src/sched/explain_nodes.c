/* explain_nodes.c: the per-node explanations of one scan, on worker
 * threads (see explain_nodes.h). */
#include "sched/explain_nodes.h"
#include "sched/devices.h"
#include "util/die.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

enum { MAX_THREADS = 4 };

typedef struct sched_explain_at {
  const node *nd;
  size_t at;  /* offset in the scan's text */
  strbuf out; /* the explanation */
} sched_explain_at;

typedef struct work {
  sched_loop *l;
  sched_explain_nodes *x;
  const resource_claim *const *claims;
  size_t n_claims;
  atomic_size_t next; /* the next node to explain */
} work;

void sched_explain_nodes_add(sched_explain_nodes *x, const node *nd, size_t at) {
  if (x->n == x->cap) {
    x->cap = x->cap ? 2 * x->cap : 16;
    x->v = xrealloc(x->v, x->cap * sizeof *x->v);
  }
  x->v[x->n++] = (sched_explain_at){nd, at, STRBUF_INIT};
}

/* Takes nodes one at a time until none is left: an even share whatever
 * each node costs. */
static void *explain_some(void *arg) {
  work *w = arg;
  for (size_t i; (i = atomic_fetch_add(&w->next, 1)) < w->x->n;) {
    sched_explain_at *e = &w->x->v[i];
    sched_devices_explain(w->l, e->nd, w->claims, w->n_claims, &e->out);
  }
  return NULL;
}

static size_t threads_for(size_t n_nodes) {
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  size_t t = cpus > 1 ? (size_t)cpus : 1;
  if (t > MAX_THREADS) t = MAX_THREADS;
  return t < n_nodes ? t : n_nodes;
}

/* sb_add of n bytes of s from offset at; s is NULL when empty. */
static void put(strbuf *sb, const char *s, size_t at, size_t n) {
  if (n) sb_add(sb, s + at, n);
}

void sched_explain_nodes_run(sched_loop *l, sched_explain_nodes *x, const resource_claim *const *claims, size_t n,
                             strbuf *ex) {
  if (!x->n) return;
  work w = {l, x, claims, n, 0};
  pthread_t helpers[MAX_THREADS - 1];
  size_t started = 0, want = threads_for(x->n);
  /* a helper that cannot start leaves its share to the others */
  while (started + 1 < want && !pthread_create(&helpers[started], NULL, explain_some, &w)) started++;
  explain_some(&w);
  for (size_t i = 0; i < started; i++) pthread_join(helpers[i], NULL);
  strbuf all = STRBUF_INIT;
  size_t from = 0, total = ex->len;
  for (size_t i = 0; i < x->n; i++) total += x->v[i].out.len;
  if (total) sb_grow(&all, total);
  for (size_t i = 0; i < x->n; i++) {
    put(&all, ex->buf, from, x->v[i].at - from);
    put(&all, x->v[i].out.buf, 0, x->v[i].out.len);
    sb_free(&x->v[i].out);
    from = x->v[i].at;
  }
  put(&all, ex->buf, from, ex->len - from);
  sb_free(ex);
  *ex = all;
  x->n = 0;
}

void sched_explain_nodes_free(sched_explain_nodes *x) {
  for (size_t i = 0; i < x->n; i++) sb_free(&x->v[i].out);
  free(x->v);
  *x = (sched_explain_nodes){0};
}
