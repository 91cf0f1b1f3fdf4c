/* test_sched_queue.c: the scheduler's pod queue (src/sched/queue.c): pods
 * come out by priority, then creation order, each once; a pod taken out
 * (parked by its pod group's cycle) does not come out, whatever its place
 * in the heap, and the rest keep their order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sched/internal.h"

#define N 200

static uint64_t rng = 7;
static unsigned roll(unsigned n) {
  rng = rng * 6364136223846793005ull + 1442695040888963407ull;
  return (unsigned)((rng >> 33) % n);
}

static void pops_in_order_without_removed(void **state) {
  (void)state;
  sched_podq q = {0};
  int64_t prio[N];
  bool removed[N] = {false};
  char key[16];
  for (int i = 0; i < N; i++) {
    prio[i] = roll(5);
    snprintf(key, sizeof key, "ns/p%d", i);
    sched_podq_push(&q, key, prio[i], (uint64_t)i);
    sched_podq_push(&q, key, prio[i], (uint64_t)i); /* queued once */
  }
  for (int k = 0; k < N / 3; k++) {
    int i = (int)roll(N);
    snprintf(key, sizeof key, "ns/p%d", i);
    sched_podq_remove(&q, key);
    removed[i] = true;
  }
  sched_podq_remove(&q, "ns/absent");
  int out = 0, want = 0;
  for (int i = 0; i < N; i++) want += !removed[i];
  int64_t last_prio = INT64_MAX;
  uint64_t last_order = 0;
  sched_pod_entry e;
  while (sched_podq_pop(&q, &e)) {
    int i = atoi(e.key + 4);
    assert_false(removed[i]);
    assert_int_equal(e.priority, prio[i]);
    assert_true(e.priority < last_prio || (e.priority == last_prio && e.order > last_order));
    last_prio = e.priority, last_order = e.order;
    free(e.key);
    out++;
  }
  assert_int_equal(out, want);
  /* a removed pod queued again comes out */
  sched_podq_push(&q, "ns/p0", 1, 0);
  sched_podq_remove(&q, "ns/p0");
  sched_podq_push(&q, "ns/p0", 1, 0);
  assert_true(sched_podq_pop(&q, &e));
  assert_string_equal(e.key, "ns/p0");
  free(e.key);
  assert_false(sched_podq_pop(&q, &e));
  sched_podq_free(&q);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(pops_in_order_without_removed)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
