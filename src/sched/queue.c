/* queue.c: the loop's two queues. Controller keys run first in, first out,
 * each key at most once while queued. Pods come out by spec.priority,
 * highest first, then in creation order (kube-scheduler's PrioritySort,
 * with creation order standing in for the time a pod entered the queue);
 * a pod parked while queued (its pod group's cycle took it along) is taken
 * out, as upstream moves a group's pods to the unschedulable pool. */
#include "sched/internal.h"
#include "util/die.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void *const QUEUED = (void *)1;

void sched_keyq_push(sched_keyq *q, const char *key) {
  if (strmap_get(&q->queued, key)) return;
  strmap_put(&q->queued, key, QUEUED);
  if (q->n == q->cap) {
    size_t cap = q->cap ? q->cap * 2 : 64;
    char **items = xmalloc(cap * sizeof *items);
    for (size_t i = 0; i < q->n; i++) items[i] = q->items[(q->head + i) % q->cap];
    free(q->items);
    q->items = items;
    q->cap = cap;
    q->head = 0;
  }
  q->items[(q->head + q->n) % q->cap] = xstrdup(key);
  q->n++;
}

char *sched_keyq_pop(sched_keyq *q) {
  if (!q->n) return NULL;
  char *k = q->items[q->head];
  q->head = (q->head + 1) % q->cap;
  q->n--;
  strmap_remove(&q->queued, k);
  return k;
}

void sched_keyq_free(sched_keyq *q) {
  char *k;
  while ((k = sched_keyq_pop(q))) free(k);
  free(q->items);
  strmap_free(&q->queued, NULL);
  memset(q, 0, sizeof *q);
}

/* A queued pod and where it sits in the heap: a move updates the position
 * in place, where a map from key to position had to hash the key twice for
 * every swap. */
struct sched_queued_pod {
  sched_pod_entry e;
  size_t at;
};

static bool before(const struct sched_queued_pod *x, const struct sched_queued_pod *y) {
  if (x->e.priority != y->e.priority) return x->e.priority > y->e.priority;
  return x->e.order < y->e.order;
}

static void place(sched_podq *q, size_t i, struct sched_queued_pod *p) {
  q->heap[i] = p;
  p->at = i;
}

static void swap(sched_podq *q, size_t i, size_t j) {
  struct sched_queued_pod *t = q->heap[i];
  place(q, i, q->heap[j]);
  place(q, j, t);
}

static void sift_up(sched_podq *q, size_t i) {
  while (i && before(q->heap[i], q->heap[(i - 1) / 2])) {
    swap(q, i, (i - 1) / 2);
    i = (i - 1) / 2;
  }
}

static void sift_down(sched_podq *q, size_t i) {
  for (;;) {
    size_t l = 2 * i + 1, r = l + 1, m = i;
    if (l < q->n && before(q->heap[l], q->heap[m])) m = l;
    if (r < q->n && before(q->heap[r], q->heap[m])) m = r;
    if (m == i) break;
    swap(q, i, m);
    i = m;
  }
}

void sched_podq_push(sched_podq *q, const char *key, int64_t priority, uint64_t order) {
  if (strmap_get(&q->queued, key)) return;
  if (q->n == q->cap) {
    q->cap = q->cap ? q->cap * 2 : 64;
    q->heap = xrealloc(q->heap, q->cap * sizeof *q->heap);
  }
  struct sched_queued_pod *p = xmalloc(sizeof *p);
  p->e = (sched_pod_entry){xstrdup(key), priority, order};
  strmap_put(&q->queued, p->e.key, p);
  size_t i = q->n++;
  place(q, i, p);
  sift_up(q, i);
}

/* Takes p out (its key becomes the caller's). */
static sched_pod_entry take(sched_podq *q, struct sched_queued_pod *p) {
  sched_pod_entry e = p->e;
  size_t i = p->at;
  strmap_remove(&q->queued, e.key);
  free(p);
  if (i == --q->n) return e;
  place(q, i, q->heap[q->n]);
  sift_up(q, i);
  sift_down(q, i);
  return e;
}

bool sched_podq_pop(sched_podq *q, sched_pod_entry *out) {
  if (!q->n) return false;
  *out = take(q, q->heap[0]);
  return true;
}

void sched_podq_remove(sched_podq *q, const char *key) {
  struct sched_queued_pod *p = strmap_get(&q->queued, key);
  if (p) free(take(q, p).key);
}

void sched_podq_free(sched_podq *q) {
  for (size_t i = 0; i < q->n; i++) {
    free(q->heap[i]->e.key);
    free(q->heap[i]);
  }
  free(q->heap);
  strmap_free(&q->queued, NULL);
  memset(q, 0, sizeof *q);
}
