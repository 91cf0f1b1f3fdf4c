/* test_workqueue.c: the batch queue of src/util/workqueue.h: batches come
 * out whole and in queue order, a blocked consumer wakes for a push and for
 * close, and items left behind are freed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "util/die.h"
#include "util/workqueue.h"

static void test_take_in_order(void **state) {
  (void)state;
  workqueue q;
  wq_init(&q, sizeof(int));
  size_t n = 99;
  assert_null(wq_take(&q, &n));
  assert_int_equal(n, 0);
  for (int i = 0; i < 100; i++) wq_push(&q, &i);
  int *batch = wq_take(&q, &n);
  assert_int_equal(n, 100);
  for (int i = 0; i < 100; i++) assert_int_equal(batch[i], i);
  wq_free_batch(batch, n, sizeof *batch, NULL);
  assert_null(wq_take(&q, &n));
  wq_destroy(&q, NULL);
}

typedef struct consumer {
  workqueue *q;
  long sum;
  size_t batches;
} consumer;

static void *consume(void *arg) {
  consumer *c = arg;
  for (;;) {
    size_t n;
    long *batch = wq_wait_take(c->q, &n);
    if (!n) break;
    c->batches++;
    for (size_t i = 0; i < n; i++) c->sum += batch[i];
    wq_free_batch(batch, n, sizeof *batch, NULL);
  }
  return NULL;
}

static void test_consumer_thread(void **state) {
  (void)state;
  workqueue q;
  wq_init(&q, sizeof(long));
  consumer c = {.q = &q};
  pthread_t t;
  pthread_create(&t, NULL, consume, &c);
  long want = 0;
  for (long i = 1; i <= 1000; i++) {
    wq_push(&q, &i);
    want += i;
  }
  wq_close(&q);
  pthread_join(t, NULL);
  assert_int_equal(c.sum, want); /* everything pushed before close is taken */
  assert_true(c.batches >= 1 && c.batches <= 1000);
  wq_destroy(&q, NULL);
}

static void free_string(void *item) { free(*(char **)item); }

static void test_destroy_frees_left_items(void **state) {
  (void)state;
  workqueue q;
  wq_init(&q, sizeof(char *));
  for (int i = 0; i < 3; i++) {
    char *s = xstrdup("left");
    wq_push(&q, &s);
  }
  wq_destroy(&q, free_string); /* the leak checker of make asan sees any miss */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_take_in_order),
      cmocka_unit_test(test_consumer_thread),
      cmocka_unit_test(test_destroy_frees_left_items),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
