/* test_yaml_flow_memo.c: the memo of repeated flow collections
 * (codec/yaml_flow_memo.h): tokens are kept on a text's second sight, found
 * on its third, never for another text, and a colliding text replaces the
 * one in its slot. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "codec/yaml_flow_memo.h"
#include <stdio.h>
#include <string.h>

static const tk toks[] = {
    {.kind = TK_OBJECT}, {.kind = TK_STRING, .s = "a", .len = 1}, {.kind = TK_ARRAY}, {.kind = TK_INTEGER, .i = 1},
    {.kind = TK_END},    {.kind = TK_END},
};

static void test_kept_on_second_sight(void **state) {
  (void)state;
  yaml_flow_memo *m = yaml_flow_memo_new();
  const char *first = "{a: [1]}        ", *second = "{a: [1]}        x";
  size_t len = strlen(first), n = 0;
  int nest = 0;
  bool keep = true;
  assert_null(yaml_flow_memo_find(m, first, len, &n, &nest, &keep));
  assert_false(keep);
  assert_null(yaml_flow_memo_find(m, second, len, &n, &nest, &keep));
  assert_true(keep);
  yaml_flow_memo_keep(m, toks, 6);
  const tk *found = yaml_flow_memo_find(m, first, len, &n, &nest, &keep);
  assert_non_null(found);
  assert_int_equal(n, 6);
  assert_int_equal(nest, 2);
  assert_memory_equal(found, toks, sizeof toks);
  assert_null(yaml_flow_memo_find(m, "{a: [2]}        ", len, &n, &nest, &keep)); /* another text */
  assert_false(keep);
  yaml_flow_memo_free(m);
}

/* Many texts: each found only as itself, whatever replaced what. */
static void test_collisions_replace(void **state) {
  (void)state;
  yaml_flow_memo *m = yaml_flow_memo_new();
  char texts[2048][32];
  tk one[2048][3];
  size_t n;
  int nest;
  bool keep;
  for (int i = 0; i < 2048; i++) {
    snprintf(texts[i], sizeof texts[i], "{key: value-%08d}", i);
    one[i][0] = (tk){.kind = TK_OBJECT};
    one[i][1] = (tk){.kind = TK_INTEGER, .i = i};
    one[i][2] = (tk){.kind = TK_END};
    size_t len = strlen(texts[i]);
    yaml_flow_memo_find(m, texts[i], len, &n, &nest, &keep);
    yaml_flow_memo_find(m, texts[i], len, &n, &nest, &keep);
    assert_true(keep);
    yaml_flow_memo_keep(m, one[i], 3);
  }
  int found = 0; /* the last text kept in a slot first: a find of another replaces it */
  for (int i = 2047; i >= 0; i--) {
    const tk *t = yaml_flow_memo_find(m, texts[i], strlen(texts[i]), &n, &nest, &keep);
    if (!t) continue;
    found++;
    assert_int_equal(t[1].i, i);
  }
  assert_true(found > 0 && found <= 256);
  yaml_flow_memo_free(m);
}

/* More tokens than a slot holds are not kept. */
static void test_too_many_tokens(void **state) {
  (void)state;
  yaml_flow_memo *m = yaml_flow_memo_new();
  tk many[YAML_FLOW_MEMO_MAX_TOKENS + 1] = {{.kind = TK_ARRAY}};
  const char *text = "[1, 2, 3, 4, 5, 6, 7, 8, 9]";
  size_t n, len = strlen(text);
  int nest;
  bool keep;
  yaml_flow_memo_find(m, text, len, &n, &nest, &keep);
  yaml_flow_memo_find(m, text, len, &n, &nest, &keep);
  yaml_flow_memo_keep(m, many, YAML_FLOW_MEMO_MAX_TOKENS + 1);
  assert_null(yaml_flow_memo_find(m, text, len, &n, &nest, &keep));
  yaml_flow_memo_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_kept_on_second_sight),
      cmocka_unit_test(test_collisions_replace),
      cmocka_unit_test(test_too_many_tokens),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
