/* deadlines.c: see deadlines.h. */
#include "sched/deadlines.h"
#include "sched/internal.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

void sched_deadline_set(sched_deadlines *d, const char *key, int64_t when) {
  int64_t *v = xmalloc(sizeof *v);
  *v = when;
  free(strmap_put(&d->due, key, v));
}

void sched_deadline_forget(sched_deadlines *d, const char *key) { free(strmap_remove(&d->due, key)); }

typedef struct due_scan {
  int64_t now, next;
  char **keys;
  size_t n, cap;
} due_scan;

static void scan_one(void *ctx, const char *key, void *value) {
  due_scan *s = ctx;
  int64_t when = *(int64_t *)value;
  if (when > s->now) {
    if (!s->next || when < s->next) s->next = when;
    return;
  }
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 8;
    s->keys = xrealloc(s->keys, s->cap * sizeof *s->keys);
  }
  s->keys[s->n++] = xstrdup(key);
}

static int cmp_keys(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

size_t sched_deadlines_pop_due(sched_deadlines *d, int64_t now, sched_keyq *q) {
  due_scan s = {.now = now};
  strmap_each_entry(&d->due, scan_one, &s);
  if (s.n) qsort(s.keys, s.n, sizeof *s.keys, cmp_keys); /* the same order every run */
  for (size_t i = 0; i < s.n; i++) {
    sched_deadline_forget(d, s.keys[i]);
    sched_keyq_push(q, s.keys[i]);
    free(s.keys[i]);
  }
  free(s.keys);
  return s.n;
}

int64_t sched_deadlines_next(const sched_deadlines *d, int64_t now) {
  due_scan s = {.now = now};
  strmap_each_entry(&d->due, scan_one, &s);
  for (size_t i = 0; i < s.n; i++) free(s.keys[i]);
  free(s.keys);
  return s.n ? now : s.next;
}

void sched_deadlines_free(sched_deadlines *d) { strmap_free(&d->due, free); }
