/* test_json_skip.c: strings as json_skip.c passes over them and as
 * json_tokens.c reads them, both now scanning eight bytes at a time
 * (json_plain_run): a quote, a backslash, a control byte or a non-ASCII
 * byte is found wherever it falls in a word, and at every length of the
 * plain run before and after it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "codec/doc_tokens.h"
#include "codec/json_skip.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RUN 20

/* {"k":"<before a's><mid><after a's>"} into buf; the offset of the value's
 * opening quote in *value_at. */
static size_t doc(char *buf, size_t before, const char *mid, size_t after, size_t *value_at) {
  size_t n = 0;
  n += (size_t)sprintf(buf + n, "{\"k\":");
  *value_at = n;
  buf[n++] = '"';
  memset(buf + n, 'a', before), n += before;
  n += (size_t)sprintf(buf + n, "%s", mid);
  memset(buf + n, 'b', after), n += after;
  n += (size_t)sprintf(buf + n, "\"}");
  return n;
}

/* The value of k as json_tokens reads it; false when it gives up. */
static bool token_value(const char *text, size_t len, char *out, size_t *out_len) {
  tk_source *src = json_tokens_open(text, len);
  tk t;
  int line;
  bool ok = src->next_doc(src, &t, &line) && t.kind == TK_OBJECT;
  if (ok) src->next(src, &t), ok = t.kind == TK_STRING;
  if (ok) src->next(src, &t), ok = t.kind == TK_STRING;
  if (ok) memcpy(out, t.s, t.len), *out_len = t.len;
  src->close(src);
  return ok;
}

/* mid (as written in JSON) reads as want, at every offset and run length. */
static void check_valid(const char *mid, const char *want) {
  char text[128], got[128], expect[128];
  for (size_t before = 0; before <= MAX_RUN; before++)
    for (size_t after = 0; after <= MAX_RUN; after++) {
      size_t at, len = doc(text, before, mid, after, &at);
      size_t string_end = len - 1; /* just after the closing quote */
      assert_int_equal(json_skip_value(text, len, at), string_end);
      assert_int_equal(json_skip_value(text, len, 0), len);
      size_t n = 0;
      memset(expect, 'a', before), n = before;
      memcpy(expect + n, want, strlen(want)), n += strlen(want);
      memset(expect + n, 'b', after), n += after;
      size_t got_len = 0;
      assert_true(token_value(text, len, got, &got_len));
      assert_int_equal(got_len, n);
      assert_memory_equal(got, expect, n);
    }
}

/* mid makes the string invalid wherever it falls. */
static void check_invalid(const char *mid) {
  char text[128], got[128];
  for (size_t before = 0; before <= MAX_RUN; before++)
    for (size_t after = 0; after <= MAX_RUN; after++) {
      size_t at, len = doc(text, before, mid, after, &at);
      assert_int_equal(json_skip_value(text, len, at), 0);
      size_t got_len;
      assert_false(token_value(text, len, got, &got_len));
    }
}

static void test_plain(void **state) {
  (void)state;
  check_valid("", "");
  check_valid(" !#[]~\x7f", " !#[]~\x7f");
}

static void test_escapes(void **state) {
  (void)state;
  check_valid("\\\"", "\"");
  check_valid("\\\\", "\\");
  check_valid("\\n\\/", "\n/");
  check_valid("\\u00e9", "\xc3\xa9");
}

static void test_non_ascii(void **state) {
  (void)state;
  check_valid("\xc3\xa9", "\xc3\xa9");
  check_valid("\xe2\x82\xac", "\xe2\x82\xac");
}

static void test_control_bytes(void **state) {
  (void)state;
  check_invalid("\x01");
  check_invalid("\x1f");
  check_invalid("\n");
  check_invalid("\\x");
}

/* A string the text ends in, at every length. */
static void test_unterminated(void **state) {
  (void)state;
  char text[64];
  for (size_t n = 0; n <= 2 * MAX_RUN; n++) {
    text[0] = '"';
    memset(text + 1, 'a', n);
    assert_int_equal(json_skip_value(text, n + 1, 0), 0);
  }
}

/* Members and items found in place: the last of a key given twice, none
 * in what is not an object or array, and a key with an escape flagged. */
static void test_members_and_items(void **state) {
  (void)state;
  const char *t = " {\"a\":1, \"b\" : [10, {\"c\":\"x\"}, 12] ,\"a\":{\"d\":null}}";
  size_t n = strlen(t);
  bool plain = true;
  size_t a = json_skip_to_member(t, n, 0, "a", &plain);
  assert_true(plain);
  assert_int_equal(strncmp(t + a, "{\"d\"", 4), 0); /* the second a */
  size_t b = json_skip_to_member(t, n, 0, "b", &plain);
  assert_int_equal(t[b], '[');
  size_t item = json_skip_to_item(t, n, b, 1);
  assert_int_equal(strncmp(t + item, "{\"c\"", 4), 0);
  assert_int_equal(t[json_skip_to_member(t, n, item, "c", &plain)], '"');
  assert_int_equal(json_skip_to_item(t, n, b, 3), 0);
  assert_int_equal(json_skip_to_member(t, n, 0, "missing", &plain), 0);
  assert_int_equal(json_skip_to_member(t, n, b, "a", &plain), 0); /* an array */
  assert_int_equal(json_skip_to_item(t, n, 0, 0), 0);             /* an object */
  assert_int_equal(json_skip_to_member("{}", 2, 0, "a", &plain), 0);
  assert_int_equal(json_skip_to_item("[ ]", 3, 0, 0), 0);
  assert_int_equal(json_skip_to_member("{\"a\":", 5, 0, "a", &plain), 0);
  assert_true(plain);
  const char *escaped = "{\"\\u0061\":1}";
  json_skip_to_member(escaped, strlen(escaped), 0, "a", &plain);
  assert_false(plain);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_members_and_items),
      cmocka_unit_test(test_plain),         cmocka_unit_test(test_escapes),     cmocka_unit_test(test_non_ascii),
      cmocka_unit_test(test_control_bytes), cmocka_unit_test(test_unterminated),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
