/* test_doc_load.c: loading documents: streams, Lists, directories, JSON,
 * duplicates, syntax errors and limits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "codec/doc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int load(const char *name, const char *text, docset *ds, strbuf *err) {
  return docs_load_buffer(name, text, strlen(text), ds, err);
}

static const char *kind_of(const docset *ds, size_t i) {
  return json_string_value(json_object_get(ds->items[i].root, "kind"));
}

static void test_multi_document_stream(void **state) {
  (void)state;
  docset ds = {0};
  strbuf err = STRBUF_INIT;
  const char *text = "kind: A\n---\n# only a comment\n---\n\n---\nkind: B\n...\n---\nnull\n---\n  kind: C\n";
  assert_int_equal(load("s.yaml", text, &ds, &err), 0);
  assert_int_equal(ds.n, 3);
  assert_string_equal(kind_of(&ds, 0), "A");
  assert_string_equal(kind_of(&ds, 1), "B");
  assert_string_equal(kind_of(&ds, 2), "C");
  assert_int_equal(ds.items[0].line, 1);
  assert_int_equal(ds.items[1].line, 7);
  assert_int_equal(ds.items[2].line, 12);
  assert_string_equal(ds.items[2].file, "s.yaml");
  docset_free(&ds);
  sb_free(&err);
}

static void test_list_expansion(void **state) {
  (void)state;
  docset ds = {0};
  strbuf err = STRBUF_INIT;
  const char *text = "apiVersion: v1\n"
                     "kind: List\n"
                     "items:\n"
                     "- kind: A\n"
                     "  metadata: {name: a, name: b}\n"
                     "- kind: B\n"
                     "  spec:\n"
                     "    x: 1\n"
                     "    x: 2\n"
                     "---\n"
                     "kind: ResourceClaimList\n"
                     "items: [{kind: C}]\n"
                     "---\n"
                     "kind: Thing\n"
                     "items: [1]\n";
  assert_int_equal(load("l.yaml", text, &ds, &err), 0);
  assert_int_equal(ds.n, 4);
  assert_string_equal(kind_of(&ds, 0), "A");
  assert_int_equal(ds.items[0].line, 4);
  assert_int_equal(ds.items[0].n_dup_fields, 1);
  assert_string_equal(ds.items[0].dup_fields[0], "metadata.name");
  assert_string_equal(json_string_value(json_object_get(json_object_get(ds.items[0].root, "metadata"), "name")), "a");
  assert_string_equal(kind_of(&ds, 1), "B");
  assert_int_equal(ds.items[1].line, 6);
  assert_int_equal(ds.items[1].n_dup_fields, 1);
  assert_string_equal(ds.items[1].dup_fields[0], "spec.x");
  assert_string_equal(kind_of(&ds, 2), "C");
  assert_int_equal(ds.items[2].line, 12);
  assert_string_equal(kind_of(&ds, 3), "Thing");
  docset_free(&ds);

  assert_int_equal(load("l.json", "{\"kind\": \"List\",\n \"items\": [\n  {\"kind\": \"A\", \"a\": 1, \"a\": 2},\n  {\"kind\": \"B\"}]}", &ds, &err), 0);
  assert_int_equal(ds.n, 2);
  assert_int_equal(ds.items[0].line, 3);
  assert_int_equal(ds.items[1].line, 4);
  assert_int_equal(ds.items[0].n_dup_fields, 1);
  assert_string_equal(ds.items[0].dup_fields[0], "a");
  docset_free(&ds);

  assert_int_equal(load("bad.yaml", "kind: List\nitems:\n- kind: A\n- 3\n", &ds, &err), 2);
  assert_string_equal(sb_str(&err), "bad.yaml:4:1: List item items[1] must be an object, not a number");
  docset_free(&ds);
  sb_free(&err);
}

static void assert_kinds(const docset *ds, const char *want) {
  strbuf got = STRBUF_INIT;
  for (size_t i = 0; i < ds->n; i++) {
    const char *name = json_string_value(json_object_get(json_object_get(ds->items[i].root, "metadata"), "name"));
    sb_printf(&got, "%s%s", i ? " " : "", name ? name : kind_of(ds, i));
  }
  assert_string_equal(sb_str(&got), want);
  sb_free(&got);
}

/* A typed List as an API server sends a page: items without kind and
 * apiVersion take the List's; items with their own keep them. */
static void test_typed_list(void **state) {
  (void)state;
  docset ds = {0};
  strbuf err = STRBUF_INIT;
  const char *text = "{\"kind\": \"ResourceClaimList\", \"apiVersion\": \"resource.k8s.io/v1\", "
                     "\"metadata\": {\"continue\": \"x\"}, \"items\": [{\"metadata\": {\"name\": \"a\"}}, "
                     "{\"kind\": \"Pod\", \"apiVersion\": \"v1\", \"metadata\": {\"name\": \"b\"}}]}";
  assert_int_equal(load("page.json", text, &ds, &err), 0);
  assert_int_equal(ds.n, 2);
  assert_string_equal(kind_of(&ds, 0), "ResourceClaim");
  assert_string_equal(json_string_value(json_object_get(ds.items[0].root, "apiVersion")), "resource.k8s.io/v1");
  assert_string_equal(kind_of(&ds, 1), "Pod");
  assert_string_equal(json_string_value(json_object_get(ds.items[1].root, "apiVersion")), "v1");
  docset_free(&ds);
  /* a plain List names no kind for its items */
  assert_int_equal(load("list.json", "{\"kind\": \"List\", \"apiVersion\": \"v1\", \"items\": [{\"x\": 1}]}", &ds, &err), 0);
  assert_null(kind_of(&ds, 0));
  docset_free(&ds);
  sb_free(&err);
}

static void test_directory_order_and_recursion(void **state) {
  (void)state;
  docset ds = {0};
  strbuf err = STRBUF_INIT;
  const char *dir[] = {"tests/data/doc/dir"};
  assert_int_equal(docs_load_paths(dir, 1, false, &ds, &err), 0);
  assert_kinds(&ds, "a1 a2 B C Z");
  assert_string_equal(ds.items[0].file, "tests/data/doc/dir/a.yaml");
  assert_int_equal(ds.items[1].line, 5);
  docset_free(&ds);
  assert_int_equal(docs_load_paths(dir, 1, true, &ds, &err), 0);
  assert_kinds(&ds, "a1 a2 B C D E Z");
  assert_string_equal(ds.items[4].file, "tests/data/doc/dir/sub/d.yaml");
  docset_free(&ds);
  const char *files[] = {"tests/data/doc/dir/z.yaml", "tests/data/doc/dir/notes.txt", "tests/data/doc/dir/sub/"};
  assert_int_equal(docs_load_paths(files, 3, false, &ds, &err), 0);
  assert_kinds(&ds, "Z Ignored D");
  assert_string_equal(ds.items[2].file, "tests/data/doc/dir/sub/d.yaml");
  docset_free(&ds);
  const char *missing[] = {"tests/data/doc/dir/b.yml", "tests/data/doc/nope.yaml"};
  assert_int_equal(docs_load_paths(missing, 2, false, &ds, &err), 2);
  assert_string_equal(sb_str(&err), "the path \"tests/data/doc/nope.yaml\" does not exist");
  assert_int_equal(ds.n, 1); /* what loaded before the error stays */
  docset_free(&ds);
  /* reading goes on past a bad file, and every bad file gets its line */
  const char *bad_first[] = {"tests/data/doc/nope.yaml", "tests/data/doc/dir/b.yml", "tests/data/doc/nope2.yaml"};
  sb_truncate(&err, 0);
  assert_int_equal(docs_load_paths(bad_first, 3, false, &ds, &err), 2);
  assert_int_equal(ds.n, 1);
  assert_string_equal(sb_str(&err), "the path \"tests/data/doc/nope.yaml\" does not exist\n"
                                    "the path \"tests/data/doc/nope2.yaml\" does not exist");
  docset_free(&ds);
  sb_free(&err);
}

/* An empty directory loads nothing (and sorts no names: qsort(NULL, 0) is UB). */
static void test_empty_directory(void **state) {
  (void)state;
  char dir[] = "/tmp/dra-test-empty-XXXXXX";
  assert_non_null(mkdtemp(dir));
  const char *paths[] = {dir};
  docset ds = {0};
  strbuf err = STRBUF_INIT;
  assert_int_equal(docs_load_paths(paths, 1, true, &ds, &err), 0);
  assert_int_equal(ds.n, 0);
  assert_int_equal(err.len, 0);
  docset_free(&ds);
  sb_free(&err);
  rmdir(dir);
}

/* Reader messages quote what they are about in full, however long. */
static void test_long_error_message(void **state) {
  (void)state;
  char anchor[701];
  memset(anchor, 'a', 700);
  anchor[700] = 0;
  strbuf text = STRBUF_INIT, want = STRBUF_INIT, err = STRBUF_INIT;
  sb_printf(&text, "kind: X\nref: *%s\n", anchor);
  sb_printf(&want, "unknown anchor '%s' referenced", anchor);
  docset ds = {0};
  assert_int_not_equal(load("long.yaml", sb_str(&text), &ds, &err), 0);
  assert_non_null(strstr(sb_str(&err), sb_str(&want)));
  docset_free(&ds);
  sb_free(&text);
  sb_free(&want);
  sb_free(&err);
}

static void test_stdin_name(void **state) {
  (void)state;
  docset ds = {0};
  strbuf err = STRBUF_INIT;
  assert_non_null(freopen("tests/data/doc/dir/a.yaml", "r", stdin));
  const char *dash[] = {"-"};
  assert_int_equal(docs_load_paths(dash, 1, false, &ds, &err), 0);
  assert_int_equal(ds.n, 2);
  assert_string_equal(ds.items[1].file, "-");
  assert_int_equal(ds.items[1].line, 5);
  docset_free(&ds);
  assert_int_equal(load("-", "kind: A\n", &ds, &err), 0);
  assert_string_equal(ds.items[0].file, "-");
  assert_int_equal(load("-", "kind: [\n", &ds, &err), 2);
  assert_true(!strncmp(sb_str(&err), "-:2:1: ", 7));
  docset_free(&ds);
  sb_free(&err);
}

static void test_json_documents(void **state) {
  (void)state;
  docset ds = {0};
  strbuf err = STRBUF_INIT;
  const char *text = "\xEF\xBB\xBF {\"kind\": \"A\", \"n\": 5, \"f\": 1.5, \"big\": 99999999999999999999,\n"
                     " \"s\": \"\\u00e9\\ud83d\\ude00\\ud800x\\n\", \"t\": true, \"z\": null, \"e\": {}, \"a\": []}\n"
                     "{\"kind\": \"B\"}";
  assert_int_equal(load("x.json", text, &ds, &err), 0);
  assert_int_equal(ds.n, 2);
  json_t *r = ds.items[0].root;
  assert_int_equal(ds.items[0].line, 1);
  assert_int_equal(ds.items[1].line, 3);
  assert_true(json_is_integer(json_object_get(r, "n")));
  assert_true(json_is_real(json_object_get(r, "f")));
  assert_true(json_is_real(json_object_get(r, "big")));
  assert_string_equal(json_string_value(json_object_get(r, "s")), "\xC3\xA9\xF0\x9F\x98\x80\xEF\xBF\xBDx\n");
  assert_true(json_is_null(json_object_get(r, "z")));
  /* insertion order is kept */
  void *it = json_object_iter(r);
  assert_string_equal(json_object_iter_key(it), "kind");
  assert_string_equal(json_object_iter_key(json_object_iter_next(r, it)), "n");
  docset_free(&ds);
  sb_free(&err);
}

static void test_duplicates(void **state) {
  (void)state;
  docset ds = {0};
  strbuf err = STRBUF_INIT;
  const char *text = "kind: A\n"
                     "spec:\n"
                     "  devices:\n"
                     "    requests:\n"
                     "    - name: a\n"
                     "      name: b\n"
                     "  devices: {}\n"
                     "kind: B\n";
  assert_int_equal(load("d.yaml", text, &ds, &err), 0);
  assert_int_equal(ds.items[0].n_dup_fields, 3);
  assert_string_equal(ds.items[0].dup_fields[0], "spec.devices.requests[0].name");
  assert_string_equal(ds.items[0].dup_fields[1], "spec.devices");
  assert_string_equal(ds.items[0].dup_fields[2], "kind");
  assert_string_equal(kind_of(&ds, 0), "A");
  docset_free(&ds);
  /* keys that resolve to the same string collide; duplicates inside a dropped value are not reported */
  assert_int_equal(load("d.json", "{\"k\": 1, \"k\": {\"x\": 1, \"x\": 2}, \"a\": [{\"b\": 1, \"b\": 2}]}", &ds, &err), 0);
  assert_int_equal(ds.items[0].n_dup_fields, 2);
  assert_string_equal(ds.items[0].dup_fields[0], "k");
  assert_string_equal(ds.items[0].dup_fields[1], "a[0].b");
  docset_free(&ds);
  assert_int_equal(load("d2.yaml", "kind: A\n1: x\n\"1\": y\n", &ds, &err), 0);
  assert_int_equal(ds.items[0].n_dup_fields, 1);
  assert_string_equal(ds.items[0].dup_fields[0], "1");
  docset_free(&ds);
  sb_free(&err);
}

typedef struct error_case {
  const char *name, *text, *want;
} error_case;

static void test_syntax_errors(void **state) {
  (void)state;
  static const error_case cases[] = {
      {"x.yaml", "a: b\n  c: d: e\n", "x.yaml:2:4: mapping values are not allowed in this context"},
      {"x.yaml", "a: [1, 2\nb: c\n", "x.yaml:2:2: did not find expected ',' or ']'"},
      {"x.yaml", "a: \"unterminated\n", "x.yaml:2:1: found unexpected end of stream"},
      {"x.yaml", "a: 1\n\tb: 2\n", "x.yaml:2:1: found a tab character that violates indentation"},
      {"x.yaml", "a: \xff\n", "x.yaml:1:4: invalid leading UTF-8 octet"},
      {"x.yaml", "- a\n- b\n", "x.yaml:1:1: document must be an object, not an array"},
      {"x.yaml", "kind: A\n---\nhello\n", "x.yaml:3:1: document must be an object, not a string"},
      {"x.yaml", "a: *nope\n", "x.yaml:1:4: unknown anchor 'nope' referenced"},
      {"x.yaml", "a: &x [1, *x]\n", "x.yaml:1:11: anchor 'x' value contains itself"},
      {"x.yaml", "a: !!int abc\n", "x.yaml:1:4: cannot decode !!str `abc` as a !!int"},
      {"x.yaml", "a: !!bool 1\n", "x.yaml:1:4: cannot decode !!int `1` as a !!bool"},
      {"x.yaml", "a: .inf\n", "x.yaml:1:4: json: unsupported value: +Inf"},
      {"x.yaml", "a: -.Inf\n", "x.yaml:1:4: json: unsupported value: -Inf"},
      {"x.yaml", "a: .NaN\n", "x.yaml:1:4: json: unsupported value: NaN"},
      {"x.yaml", "~: 1\n", "x.yaml:1:1: unsupported map key of type: null"},
      {"x.yaml", "18446744073709551615: 1\n", "x.yaml:1:1: unsupported map key of type: uint64"},
      {"x.yaml", "? [a]\n: 1\n", "x.yaml:1:3: invalid map key: a key must be a scalar"},
      {"x.yaml", "\"a\\0b\": 1\n", "x.yaml:1:1: invalid map key: a key must not contain a NUL byte"},
      {"x.json", "{\"a\\u0000b\": 1}", "x.json:1:12: invalid object key: a key must not contain a NUL character"},
      {"x.yaml", "a: {<<: [1]}\n", "x.yaml:1:9: map merge requires map or sequence of maps as the value"},
      {"x.json", "{\"a\": 1,\n \"b\": [1, 2,, 3]}", "x.json:2:13: invalid character ',' looking for beginning of value"},
      {"x.json", "{\"a\" 1}", "x.json:1:6: invalid character '1' after object key"},
      {"x.json", "{\"a\": 1 \"b\": 2}", "x.json:1:9: invalid character '\"' after object key:value pair"},
      {"x.json", "{\"a\": [1 2]}", "x.json:1:10: invalid character '2' after array element"},
      {"x.json", "{\"a\": tru}", "x.json:1:10: invalid character '}' in literal true (expecting 'e')"},
      {"x.json", "{\"a\": \"x\ny\"}", "x.json:1:9: invalid character '\\n' in string literal"},
      {"x.json", "{\"a\": \"\\q\"}", "x.json:1:9: invalid character 'q' in string escape code"},
      {"x.json", "{\"a\": \"\\u12x4\"}", "x.json:1:12: invalid character 'x' in \\u hexadecimal character escape"},
      {"x.json", "{\"a\": -}", "x.json:1:8: invalid character '}' in numeric literal"},
      {"x.json", "{\"a\": 1e999}", "x.json:1:12: json: cannot unmarshal number 1e999 into Go value of type float64"},
      {"x.json", "{\"a\": 1", "x.json:1:8: unexpected end of JSON input"},
      {"x.json", "{} x", "x.json:1:4: invalid character 'x' after top-level value"},
      {"x.json", "{1: 2}", "x.json:1:2: invalid character '1' looking for beginning of object key string"},
  };
  int fails = 0;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    docset ds = {0};
    strbuf err = STRBUF_INIT;
    int rc = load(cases[i].name, cases[i].text, &ds, &err);
    if (rc != 2 || strcmp(sb_str(&err), cases[i].want))
      print_error("case %zu %s: rc %d, got \"%s\", want \"%s\"\n", i, cases[i].text, rc, sb_str(&err), cases[i].want), fails++;
    docset_free(&ds);
    sb_free(&err);
  }
  assert_int_equal(fails, 0);
}

static void test_anchors_and_merge(void **state) {
  (void)state;
  docset ds = {0};
  strbuf err = STRBUF_INIT;
  const char *text = "base: &b {x: 1, q: 2}\n"
                     "other: &o {z: 3, q: 9}\n"
                     "copy: *b\n"
                     "m1:\n  <<: *b\n  q: 3\n"
                     "m2:\n  <<: [*o, *b]\n  w: 0\n"
                     "m3: {\"<<\": 1}\n"
                     "k: &k key\n"
                     "*k : v\n"
                     "&n 7: seven\n"
                     "num: *n\n";
  assert_int_equal(load("m.yaml", text, &ds, &err), 0);
  strbuf out = STRBUF_INIT;
  doc_write_json(&out, ds.items[0].root);
  const char *want = "{\n"
                     "    \"base\": {\n        \"x\": 1,\n        \"q\": 2\n    },\n"
                     "    \"other\": {\n        \"z\": 3,\n        \"q\": 9\n    },\n"
                     "    \"copy\": {\n        \"x\": 1,\n        \"q\": 2\n    },\n"
                     "    \"m1\": {\n        \"x\": 1,\n        \"q\": 3\n    },\n"
                     "    \"m2\": {\n        \"z\": 3,\n        \"q\": 9,\n        \"x\": 1,\n        \"w\": 0\n    },\n"
                     "    \"m3\": {\n        \"\\u003c\\u003c\": 1\n    },\n"
                     "    \"k\": \"key\",\n"
                     "    \"key\": \"v\",\n"
                     "    \"7\": \"seven\",\n"
                     "    \"num\": 7\n"
                     "}\n";
  assert_string_equal(sb_str(&out), want);
  assert_int_equal(ds.items[0].n_dup_fields, 0);
  sb_free(&out);
  docset_free(&ds);
  sb_free(&err);
}

static void test_limits(void **state) {
  (void)state;
  docset ds = {0};
  strbuf err = STRBUF_INIT, text = STRBUF_INIT;
  /* nesting */
  sb_puts(&text, "a: ");
  for (int i = 0; i < 5000; i++) sb_putc(&text, '[');
  assert_int_equal(load("deep.yaml", sb_str(&text), &ds, &err), 2);
  assert_string_equal(sb_str(&err), "deep.yaml:1:1003: document nesting exceeds 1000 levels");
  sb_truncate(&err, 0);
  sb_truncate(&text, 0);
  sb_puts(&text, "{\"a\": ");
  for (int i = 0; i < 5000; i++) sb_putc(&text, '[');
  assert_int_equal(load("deep.json", sb_str(&text), &ds, &err), 2);
  assert_string_equal(sb_str(&err), "deep.json:1:1006: document nesting exceeds 1000 levels");
  sb_truncate(&err, 0);
  /* 999 levels inside the root mapping are fine */
  sb_truncate(&text, 0);
  sb_puts(&text, "a: ");
  for (int i = 0; i < 999; i++) sb_putc(&text, '[');
  for (int i = 0; i < 999; i++) sb_putc(&text, ']');
  assert_int_equal(load("ok.yaml", sb_str(&text), &ds, &err), 0);
  docset_free(&ds);
  /* billion laughs */
  sb_truncate(&text, 0);
  sb_puts(&text, "a: &a [x, x, x, x, x, x, x, x, x, x]\n");
  for (char c = 'b'; c <= 'j'; c++)
    sb_printf(&text, "%c: &%c [*%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c]\n", c, c, c - 1, c - 1, c - 1, c - 1,
              c - 1, c - 1, c - 1, c - 1, c - 1, c - 1);
  assert_int_equal(load("lol.yaml", sb_str(&text), &ds, &err), 2);
  assert_non_null(strstr(sb_str(&err), "document contains excessive aliasing"));
  sb_truncate(&err, 0);
  /* ordinary aliasing is fine even when a long stream copies more than the fixed allowance */
  sb_truncate(&text, 0);
  for (int d = 0; d < 3000; d++) {
    sb_puts(&text, "---\na: &a [");
    for (int i = 0; i < 100; i++) sb_puts(&text, i ? ", x" : "x");
    sb_puts(&text, "]\nb: [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n");
  }
  assert_int_equal(load("many.yaml", sb_str(&text), &ds, &err), 0);
  assert_int_equal(ds.n, 3000);
  docset_free(&ds);
  /* size */
  size_t big = DOC_MAX_BYTES + 1;
  char *huge = malloc(big);
  memset(huge, ' ', big);
  assert_int_equal(docs_load_buffer("huge.yaml", huge, big, &ds, &err), 2);
  assert_string_equal(sb_str(&err), "huge.yaml: input is larger than 64 MiB");
  free(huge);
  docset_free(&ds);
  sb_free(&err);
  sb_free(&text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_multi_document_stream),
      cmocka_unit_test(test_list_expansion),
      cmocka_unit_test(test_typed_list),
      cmocka_unit_test(test_directory_order_and_recursion),
      cmocka_unit_test(test_empty_directory),
      cmocka_unit_test(test_long_error_message),
      cmocka_unit_test(test_stdin_name),
      cmocka_unit_test(test_json_documents),
      cmocka_unit_test(test_duplicates),
      cmocka_unit_test(test_syntax_errors),
      cmocka_unit_test(test_anchors_and_merge),
      cmocka_unit_test(test_limits),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
