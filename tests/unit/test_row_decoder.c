/* test_row_decoder.c: the restore's row decoder (store/row_decoder.h)
 * hands every row back in the order pushed, with its key and tags, on the
 * caller's thread alone and with decoder threads (more rows than its ring
 * holds); a row that does not decode comes back with why; once a take
 * refuses, no row is taken after it and the objects decoded are freed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "api/object.h"
#include "store/row_decoder.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROWS 3000

/* A node named by the row's text; "bad" does not decode. */
static api_object *decode(const char *key, const char *text, size_t len, tree_memo *memo, char *why, size_t why_len) {
  (void)key;
  assert_non_null(memo);
  if (!strcmp(text, "bad")) {
    snprintf(why, why_len, "bad row");
    return NULL;
  }
  api_object *o = api_object_new(KIND_NODE);
  api_object_meta(o)->name = arena_strndup(o->arena, text, len);
  return o;
}

typedef struct taken {
  size_t n;
  size_t refuse_at; /* the take that refuses; 0: none */
  size_t bad;       /* rows without an object */
} taken;

static bool take(void *user, decoded_row *row) {
  taken *t = user;
  char want[32];
  snprintf(want, sizeof want, "%zu", t->n);
  assert_int_equal(row->tags[0], t->n);
  assert_int_equal(row->tags[3], t->n * 3);
  if (t->n % 2) assert_string_equal(row->key, want);
  else assert_null(row->key);
  if (t->n % 1000 == 7) {
    assert_null(row->obj);
    assert_string_equal(row->why, "bad row");
    t->bad++;
  } else {
    assert_non_null(row->obj);
    assert_string_equal(api_object_meta(row->obj)->name, want);
    assert_true(row->obj->shared && row->obj->as_decoded);
    api_object_free(row->obj);
  }
  return ++t->n != t->refuse_at;
}

/* Pushes ROWS rows through a decoder of threads threads; whether finish said all were taken. */
static bool run(unsigned threads, taken *t) {
  row_decoder *rd = row_decoder_new(threads, decode, take, t);
  bool pushed = true;
  for (uint64_t i = 0; i < ROWS && pushed; i++) {
    char text[32];
    snprintf(text, sizeof text, "%llu", (unsigned long long)i);
    const uint64_t tags[4] = {i, 0, 0, i * 3};
    const char *row = i % 1000 == 7 ? "bad" : text;
    pushed = row_decoder_push(rd, i % 2 ? text : NULL, row, strlen(row), tags);
  }
  bool ok = row_decoder_finish(rd);
  return ok;
}

static void test_rows_come_back_in_order(void **state) {
  (void)state;
  unsigned counts[] = {0, 1, 3, ROW_DECODER_MAX_THREADS};
  for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
    taken t = {0};
    assert_true(run(counts[i], &t));
    assert_int_equal(t.n, ROWS);
    assert_int_equal(t.bad, 3);
  }
}

static void test_a_refused_take_stops_the_rows(void **state) {
  (void)state;
  unsigned counts[] = {0, 2};
  for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
    taken t = {.refuse_at = 1500};
    assert_false(run(counts[i], &t));
    assert_int_equal(t.n, 1500);
  }
}

static void test_threads_for_this_machine(void **state) {
  (void)state;
  assert_true(row_decoder_threads() <= ROW_DECODER_MAX_THREADS);
  assert_int_not_equal(row_decoder_threads(), 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rows_come_back_in_order),
      cmocka_unit_test(test_a_refused_take_stops_the_rows),
      cmocka_unit_test(test_threads_for_this_machine),
  };
  return cmocka_run_group_tests(tests, 0, 0);
}
