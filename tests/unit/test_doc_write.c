/* test_doc_write.c: the YAML and JSON writers: golden text as kubectl prints
 * it, and the round trip YAML -> json_t -> YAML -> json_t keeps the value. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "codec/doc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *load_one(const char *text) {
  docset ds = {0};
  strbuf err = STRBUF_INIT;
  int rc = docs_load_buffer("t.yaml", text, strlen(text), &ds, &err);
  if (rc != 0 || ds.n != 1) fail_msg("load failed: %s\n%s", sb_str(&err), text);
  json_t *root = json_incref(ds.items[0].root);
  docset_free(&ds);
  sb_free(&err);
  return root;
}

static void assert_yaml(const char *input, const char *want) {
  json_t *v = load_one(input);
  strbuf out = STRBUF_INIT;
  doc_write_yaml(&out, v);
  assert_string_equal(sb_str(&out), want);
  sb_free(&out);
  json_decref(v);
}

static void test_yaml_layout(void **state) {
  (void)state;
  assert_yaml("{\"spec\": {\"devices\": {\"requests\": [{\"name\": \"gpu\", \"exactly\": {\"deviceClassName\": \"x\", \"count\": 2}}]}},"
              " \"metadata\": {\"name\": \"c\", \"labels\": {}, \"finalizers\": []}, \"kind\": \"ResourceClaim\","
              " \"apiVersion\": \"resource.k8s.io/v1\", \"list\": [[1, 2], [], {}]}",
              "apiVersion: resource.k8s.io/v1\n"
              "kind: ResourceClaim\n"
              "list:\n"
              "- - 1\n"
              "  - 2\n"
              "- []\n"
              "- {}\n"
              "metadata:\n"
              "  finalizers: []\n"
              "  labels: {}\n"
              "  name: c\n"
              "spec:\n"
              "  devices:\n"
              "    requests:\n"
              "    - exactly:\n"
              "        count: 2\n"
              "        deviceClassName: x\n"
              "      name: gpu\n");
}

static void test_yaml_key_order(void **state) {
  (void)state;
  /* go-yaml: digit runs by value, letters after other characters */
  assert_yaml("{\"b\": 1, \"a10\": 1, \"a9\": 1, \"aB\": 1, \"a_\": 1, \"A\": 1, \"10\": 1, \"9\": 1, \"-x\": 1}",
              "-x: 1\n\"9\": 1\n\"10\": 1\nA: 1\na_: 1\na9: 1\na10: 1\naB: 1\nb: 1\n");
}

static void test_yaml_scalars(void **state) {
  (void)state;
  assert_yaml("{\"a\": [\"true\", \"yes\", \"y\", \"123\", \"1.5\", \"\", \"null\", \"~\", \"a: b\", \" lead\", \"trail \","
              " \"#c\", \"x #c\", \"- x\", \"@x\", \"`x\", \"2001-12-14\", \"1:20\", \"0x1F\", \"1e400\", \"it's\", \"a\\tb\","
              " \"caf\\u00e9\", \"\\u0007\", \"[x]\", \"{x}\", \"*x\", \"&x\", \"!x\", \"%x\", \"x:\", \"-\", \"?\", \"'q'\"]}",
              "a:\n"
              "- \"true\"\n"
              "- \"yes\"\n"
              "- \"y\"\n"
              "- \"123\"\n"
              "- \"1.5\"\n"
              "- \"\"\n"
              "- \"null\"\n"
              "- \"~\"\n"
              "- 'a: b'\n"
              "- ' lead'\n"
              "- 'trail '\n"
              "- '#c'\n"
              "- 'x #c'\n"
              "- '- x'\n"
              "- '@x'\n"
              "- '`x'\n"
              "- \"2001-12-14\"\n"
              "- \"1:20\"\n"
              "- \"0x1F\"\n"
              "- 1e400\n"
              "- it's\n"
              "- \"a\\tb\"\n"
              "- café\n"
              "- \"\\a\"\n"
              "- '[x]'\n"
              "- '{x}'\n"
              "- '*x'\n"
              "- '&x'\n"
              "- '!x'\n"
              "- '%x'\n"
              "- 'x:'\n"
              "- '-'\n"
              "- '?'\n"
              "- '''q'''\n");
}

static void test_yaml_numbers(void **state) {
  (void)state;
  assert_yaml("{\"a\": [0, -7, 9223372036854775807, 1.5, 1.0, -0.0, 1e20, 1e21, 1234567.5, 123456.5, 0.0001, 0.00001,"
              " 1e-7, 3.141592653589793, 18446744073709551615, 5e-324], \"b\": true, \"c\": false, \"d\": null}",
              "a:\n- 0\n- -7\n- 9223372036854775807\n- 1.5\n- 1\n- 0\n- 1e+20\n- 1e+21\n"
              "- 1.2345675e+06\n- 123456.5\n- 0.0001\n- 1e-05\n- 1e-07\n- 3.141592653589793\n- 1.8446744073709552e+19\n"
              "- 5e-324\nb: true\nc: false\nd: null\n");
}

static void test_yaml_multiline(void **state) {
  (void)state;
  assert_yaml("{\"clip\": \"a\\nb\\n\", \"strip\": \"a\\nb\", \"keep\": \"a\\n\\n\", \"lead\": \"  x\\ny\","
              " \"trailsp\": \"a \\nb\", \"\\nkey\": 1}",
              "? |2-\n\n  key\n: 1\n" /* a multi-line key is a complex key, as go-yaml writes it */
              "clip: |\n  a\n  b\n"
              "keep: |+\n  a\n\n"
              "lead: |2-\n    x\n  y\n"
              "strip: |-\n  a\n  b\n"
              "trailsp: \"a \\nb\"\n");
  /* long plain strings fold at 80 columns like go-yaml v2 */
  assert_yaml("{\"description\": \"one two three four five six seven eight nine ten eleven twelve thirteen fourteen\"}",
              "description: one two three four five six seven eight nine ten eleven twelve thirteen\n  fourteen\n");
}

static void test_json_writer(void **state) {
  (void)state;
  json_t *v = json_pack("{s:s, s:i, s:f, s:[], s:{}, s:[b,n,{s:s}], s:s, s:f, s:f, s:f}", "zeta", "a<b>&\"\\\n\x01\t\b\f",
                        "alpha", 3, "mid", 1.5, "empty", "obj", "list", 1, "k", "v", "u", "\xe2\x80\xa8\xc3\xa9", "big",
                        1e21, "small", 1e-7, "one", 1.0);
  strbuf out = STRBUF_INIT;
  doc_write_json(&out, v);
  assert_string_equal(sb_str(&out), "{\n"
                                    "    \"zeta\": \"a\\u003cb\\u003e\\u0026\\\"\\\\\\n\\u0001\\t\\b\\f\",\n"
                                    "    \"alpha\": 3,\n"
                                    "    \"mid\": 1.5,\n"
                                    "    \"empty\": [],\n"
                                    "    \"obj\": {},\n"
                                    "    \"list\": [\n"
                                    "        true,\n"
                                    "        null,\n"
                                    "        {\n"
                                    "            \"k\": \"v\"\n"
                                    "        }\n"
                                    "    ],\n"
                                    "    \"u\": \"\\u2028\xc3\xa9\",\n"
                                    "    \"big\": 1e+21,\n"
                                    "    \"small\": 1e-7,\n"
                                    "    \"one\": 1\n"
                                    "}\n");
  sb_free(&out);
  json_decref(v);
}

/* v written as YAML reads back equal and writes the same text again; written
 * as JSON it reads back equal too. */
static void assert_survives(const json_t *v, const char *where) {
  strbuf y1 = STRBUF_INIT, y2 = STRBUF_INIT, j = STRBUF_INIT;
  doc_write_yaml(&y1, v);
  json_t *v2 = load_one(sb_str(&y1));
  if (!json_equal(v, v2)) fail_msg("%s changed through YAML:\n%s", where, sb_str(&y1));
  doc_write_yaml(&y2, v2);
  assert_string_equal(sb_str(&y1), sb_str(&y2));
  doc_write_json(&j, v);
  json_t *v3 = load_one(sb_str(&j));
  if (!json_equal(v, v3)) fail_msg("%s changed through JSON:\n%s", where, sb_str(&j));
  json_decref(v2);
  json_decref(v3);
  sb_free(&y1);
  sb_free(&y2);
  sb_free(&j);
}

/* Go's escape of one byte c in a string, as encoding/json writes it: a
 * short escape where it has one, else \u00XX. */
static void go_escape(strbuf *sb, unsigned char c) {
  static const char *const short_escape[128] = {['"'] = "\\\"", ['\\'] = "\\\\", ['\n'] = "\\n", ['\t'] = "\\t",
                                                ['\r'] = "\\r", ['\b'] = "\\b", ['\f'] = "\\f"};
  if (c < 128 && short_escape[c]) sb_puts(sb, short_escape[c]);
  else sb_printf(sb, "\\u%04x", c);
}

/* One byte to escape at every place of strings up to 24 bytes, next to
 * plain bytes of every value. */
static void test_json_string_escapes_everywhere(void **state) {
  (void)state;
  const unsigned char specials[] = {'"', '\\', '<', '>', '&', '\n', '\t', '\r', '\b', '\f', 0x01, 0x1f, 0x00};
  for (size_t k = 0; k < sizeof specials; k++)
    for (size_t len = 1; len <= 24; len++)
      for (size_t at = 0; at < len; at++) {
        char text[24];
        for (size_t i = 0; i < len; i++) text[i] = (char)(0x20 + (i * 7 + k) % 0x60); /* plain bytes, 0x7f among them */
        for (size_t i = 0; i < len; i++)
          if (text[i] == '"' || text[i] == '\\' || text[i] == '<' || text[i] == '>' || text[i] == '&') text[i] = 'x';
        text[at] = (char)specials[k];
        strbuf got = STRBUF_INIT, want = STRBUF_INIT;
        doc_write_json_string(&got, text, len);
        sb_putc(&want, '"');
        for (size_t i = 0; i < len; i++) {
          if (i == at) go_escape(&want, specials[k]);
          else sb_putc(&want, text[i]);
        }
        sb_putc(&want, '"');
        assert_int_equal(got.len, want.len);
        assert_memory_equal(got.buf, want.buf, want.len);
        sb_free(&got);
        sb_free(&want);
      }
  strbuf sb = STRBUF_INIT; /* a byte above 0x7f past the first word: UTF-8 kept, invalid bytes replaced */
  doc_write_json_string(&sb, "abcdefghij\xc3\xa9kl\xffmnopqrstu", 24);
  assert_string_equal(sb_str(&sb), "\"abcdefghij\xc3\xa9kl\\ufffdmnopqrstu\"");
  sb_free(&sb);
}

/* YAML -> json_t -> YAML -> json_t gives an equal value, and writing is stable. */
static void test_round_trip(void **state) {
  (void)state;
  static const char *const samples[] = {
      "a: 1\nb: [x, 'y', \"z\"]\n",
      "s: [\"true\", \"false\", \"null\", \"~\", \"\", \" \", \"1e3\", \"0o17\", \"017\", \"0b1\", \"+1\", \".5\", \"1_000\"]\n",
      "s: [\"yes\", \"No\", \"ON\", \"off\", \"y\", \"n\", \"2001-12-14\", \"2001-12-14 21:59:43\", \"1:20:30\", \"12:60\"]\n",
      "s: [\"a: b\", \"a #b\", \"#a\", \"- a\", \"-a\", \"? a\", \"?a\", \": a\", \"a:\", \"{a}\", \"[a]\", \"a, b\", \"*a\", \"&a\"]\n",
      "s: [\"!a\", \"|a\", \">a\", \"'a\", \"\\\"a\", \"%a\", \"@a\", \"`a\", \"a'b\", \"a\\\"b\", \"---\", \"...\", \"--- a\"]\n",
      "s: [\"\\ttab\", \"tab\\t\", \"a\\tb\", \"\\u0000\", \"\\u001b[0m\", \"\\u00a0\", \"\\u2028\", \"\\ufeffbom\", \"caf\\u00e9\"]\n",
      "s: [\"\\n\", \"\\n\\n\", \"a\\n\", \"a\\n\\n\\n\", \"\\na\", \" a\\nb\", \"a \\nb\", \"a\\n b\", \"a\\r\\nb\", \"a\\n\\tb\"]\n",
      "s: \"aaaaaaaaaa bbbbbbbbbb cccccccccc dddddddddd eeeeeeeeee ffffffffff gggggggggg hhhhhhhhhh iiiiiiiiii\"\n",
      "s: \"aaaaaaaaaa  bbbbbbbbbb  cccccccccc  dddddddddd  eeeeeeeeee  ffffffffff  gggggggggg  hhhhhhhhhh  \"\n",
      "n: [0, -1, 1.5, 1e300, -2.5e-300, 9223372036854775807, 123456789012345678, 0.1, 1e21, 1e-7]\n",
      "m: {\"<<\": 0, \"\": 1, \" \": 2, \"true\": 3, \"1\": 4, \"a: b\": 5, \"a\\nb\": 6, \"k\": {\"deep\": [[[{}]]]}}\n",
      "long_key_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa: 1\n",
      "kind: ResourceClaim\nspec:\n  devices:\n    requests:\n    - name: gpu\n      exactly:\n        selectors:\n"
      "        - cel:\n            expression: |-\n              device.driver == \"gpu.example.com\" &&\n"
      "              device.attributes[\"gpu.example.com\"].model == 'a100'\n",
  };
  for (size_t i = 0; i < sizeof samples / sizeof *samples; i++) {
    json_t *v = load_one(samples[i]);
    assert_survives(v, samples[i]);
    json_decref(v);
  }
}

/* Every manifest in examples/ survives YAML and JSON writing unchanged. */
static void test_round_trip_examples(void **state) {
  (void)state;
  docset ds = {0};
  strbuf err = STRBUF_INIT;
  const char *dir[] = {DRA_SOURCE_DIR "/examples"};
  assert_int_equal(docs_load_paths(dir, 1, false, &ds, &err), 0);
  assert_true(ds.n >= 10);
  for (size_t i = 0; i < ds.n; i++) assert_survives(ds.items[i].root, ds.items[i].file);
  docset_free(&ds);
  sb_free(&err);
}

static char *read_text(const char *path) {
  char *text = sb_read_file(path, NULL);
  if (!text) fail_msg("cannot open %s", path);
  return text;
}

/* Golden output captured from kubectl (tests/data/doc/README.md). */
static void assert_prints_like_kubectl(const char *stem) {
  char path[256];
  snprintf(path, sizeof path, "%s/tests/data/doc/%s.json", DRA_SOURCE_DIR, stem);
  char *json = read_text(path);
  snprintf(path, sizeof path, "%s/tests/data/doc/%s.yaml", DRA_SOURCE_DIR, stem);
  char *yaml = read_text(path);
  json_t *v = load_one(json);
  strbuf out = STRBUF_INIT;
  doc_write_yaml(&out, v);
  assert_string_equal(sb_str(&out), yaml);
  sb_truncate(&out, 0);
  doc_write_json(&out, v);
  assert_string_equal(sb_str(&out), json);
  sb_free(&out);
  json_decref(v);
  free(json);
  free(yaml);
}

static void test_kubectl_golden(void **state) {
  (void)state;
  assert_prints_like_kubectl("kubectl-configmap");
  assert_prints_like_kubectl("kubectl-keys");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_yaml_layout),  cmocka_unit_test(test_yaml_key_order), cmocka_unit_test(test_yaml_scalars),
      cmocka_unit_test(test_yaml_numbers), cmocka_unit_test(test_yaml_multiline), cmocka_unit_test(test_json_writer),
      cmocka_unit_test(test_round_trip),   cmocka_unit_test(test_round_trip_examples),
      cmocka_unit_test(test_kubectl_golden),  cmocka_unit_test(test_json_string_escapes_everywhere),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
