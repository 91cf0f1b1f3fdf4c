/* test_doc_scalars.c: YAML scalar resolution as sigs.k8s.io/yaml (go-yaml v2)
 * does it, seen through the loaded json_t. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "codec/doc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct scalar_case {
  const char *yaml; /* the value after "v: " */
  const char *json; /* the loaded value, compact JSON */
} scalar_case;

static const scalar_case cases[] = {
    /* null */
    {"", "null"}, {"~", "null"}, {"null", "null"}, {"Null", "null"}, {"NULL", "null"}, {"nULL", "\"nULL\""},
    /* YAML 1.1 bools */
    {"true", "true"}, {"True", "true"}, {"TRUE", "true"}, {"tRUE", "\"tRUE\""}, {"y", "\"y\""}, {"Y", "\"Y\""},
    {"yes", "true"}, {"Yes", "true"}, {"YES", "true"}, {"on", "true"}, {"On", "true"}, {"ON", "true"},
    {"false", "false"}, {"n", "\"n\""}, {"N", "\"N\""}, {"no", "false"}, {"No", "false"}, {"NO", "false"},
    {"off", "false"}, {"Off", "false"}, {"OFF", "false"}, {"yEs", "\"yEs\""},
    /* ints */
    {"0", "0"}, {"-0", "0"}, {"+12", "12"}, {"1_000", "1000"}, {"0x1F", "31"}, {"0X1f", "31"}, {"-0x10", "-16"},
    {"0o17", "15"}, {"017", "15"}, {"0b101", "5"}, {"-0b101", "-5"}, {"0b-11", "-3"}, {"0x", "\"0x\""},
    {"9223372036854775807", "9223372036854775807"}, {"-9223372036854775808", "-9223372036854775808"},
    /* beyond int64: uint64 and larger become doubles (jansson has no uint64) */
    {"9223372036854775808", "9.2233720368547758e18"}, {"99999999999999999999", "1e20"},
    /* floats; integral ones become ints, as after kubectl's YAML -> JSON -> object trip */
    {"1.5", "1.5"}, {"-1.5e3", "-1500"}, {".5", "0.5"}, {"+.5", "0.5"}, {"1.", "1"}, {"1e3", "1000"},
    {"08", "8"}, {"1_0.5", "10.5"}, {"1e400", "\"1e400\""}, {".e5", "\".e5\""}, {"0x1p3", "\"0x1p3\""},
    /* strings */
    {"abc", "\"abc\""}, {"'true'", "\"true\""}, {"\"123\"", "\"123\""}, {"!!str 123", "\"123\""},
    {"!!str true", "\"true\""}, {"! 12", "\"12\""}, {"!custom 12", "\"12\""}, {"2001-12-14", "\"2001-12-14\""},
    {"2001-12-14T21:59:43.10-05:00", "\"2001-12-14T21:59:43.10-05:00\""}, {"1:20", "\"1:20\""},
    {"\"\"", "\"\""}, {"''", "\"\""}, {"\"a\\tb\\u00e9\"", "\"a\\tb\xc3\xa9\""}, {"a b  c", "\"a b  c\""},
    {"|\n  line1\n  line2\n", "\"line1\\nline2\\n\""}, {">-\n  folded\n  text\n", "\"folded text\""},
    /* tags that convert */
    {"!!int \"12\"", "12"}, {"!!float 3", "3"}, {"!!float 3.5", "3.5"}, {"!!bool yes", "true"}, {"!!null ~", "null"},
    {"!!timestamp 2001-12-14", "\"2001-12-14\""}, {"!!binary aGVsbG8=", "\"hello\""}, {"!!binary QUI=", "\"AB\""},
    {"!!binary |\n  aGVs\n  bG8h\n", "\"hello!\""}, {"!!binary ''", "\"\""}, {"!!binary /w==", "\"\xef\xbf\xbd\""},
    {"!!binary aGVsbG8", "s.yaml:1:4: !!binary value contains invalid base64 data"},
    {"!!binary Q===", "s.yaml:1:4: !!binary value contains invalid base64 data"},
    {"!!binary QQ==QQ==", "s.yaml:1:4: !!binary value contains invalid base64 data"},
};

/* Loads "v: <yaml>\n" (or "<yaml>: x\n" for a key) and gives the value as
 * compact JSON (or the key), or the load error; malloc'd. */
static char *loaded(const char *yaml, bool as_key) {
  char text[256];
  snprintf(text, sizeof text, as_key ? "%s: x\n" : "v: %s\n", yaml);
  docset ds = {0};
  strbuf err = STRBUF_INIT;
  char *got;
  if (docs_load_buffer("s.yaml", text, strlen(text), &ds, &err)) got = sb_detach(&err);
  else if (as_key) got = strdup(json_object_iter_key(json_object_iter(ds.items[0].root)));
  else got = json_dumps(json_object_get(ds.items[0].root, "v"), JSON_ENCODE_ANY | JSON_REAL_PRECISION(17));
  docset_free(&ds);
  sb_free(&err);
  return got;
}

static int check(const char *yaml, bool as_key, const char *want) {
  char *got = loaded(yaml, as_key);
  int bad = strcmp(got, want) != 0;
  if (bad) print_error("%s %s -> %s, want %s\n", as_key ? "key" : "value", yaml, got, want);
  free(got);
  return bad;
}

static void test_scalar_table(void **state) {
  (void)state;
  int fails = 0;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) fails += check(cases[i].yaml, false, cases[i].json);
  assert_int_equal(fails, 0);
}

typedef struct key_case {
  const char *yaml, *key;
} key_case;

/* sigs.k8s.io/yaml turns non-string keys into strings. */
static void test_key_conversion(void **state) {
  (void)state;
  static const key_case keys[] = {{"1", "1"},           {"0x10", "16"},  {"yes", "true"}, {"off", "false"},
                                  {"1.5", "1.5"},       {"1e3", "1000"}, {"0.1", "0.1"},  {"3.14159265358979", "3.1415927"},
                                  {"\"yes\"", "yes"},   {"'1'", "1"},    {"2001-12-14", "2001-12-14"},
                                  {"18446744073709551615", "s.yaml:1:1: unsupported map key of type: uint64"}, {".inf", ".inf"}, {"-.inf", "-.inf"}, {"1e300", ".inf"}};
  int fails = 0;
  for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) fails += check(keys[i].yaml, true, keys[i].key);
  assert_int_equal(fails, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_scalar_table),
      cmocka_unit_test(test_key_conversion),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
