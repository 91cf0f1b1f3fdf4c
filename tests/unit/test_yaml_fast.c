/* test_yaml_fast.c: the YAML read without libyaml (codec/yaml_fast.c).
 * What it covers gives libyaml's very tokens (yaml_fast_differential.h);
 * what it does not, including every syntax error, gives up so libyaml
 * reads it; and the manifests in examples/ and the loader's use of it
 * (objects_load_direct falls back to libyaml, then to the tree). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "codec/doc.h"
#include "load/objects.h"
#include <dirent.h>
#include <sys/stat.h>
#include "yaml_fast_differential.h"
#include <stdlib.h>

static const char *const covered[] = {
    "a: 1\n",
    "a: 1",
    "apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n  labels:\n    app: web\nspec:\n  containers:\n  - name: c\n"
    "    image: nginx:1.25\n    args: [\"--port\", '8080', x]\n",
    "# head\n---\na: b # trailing\n\n   # indented comment\nc:\n  - 1\n  - -2\n  - 3.5\n  - 0x1F\n  - true\n  - ~\n"
    "  - null\n  - \"\"\n  - ''\n---\n---   # empty\nd: {}\ne: []\n",
    "k:\n- a\n- b: 1\n  c: 2\n-\n  d: 3\n- \nz: end\n",
    "a: 'it''s'\nb: \"q\\\"x\\\\y\\n\\t\\/\"\nc: 'back\\slash'\n",
    "\"quoted key\": 1\n'single key': 2\nlist:\n- 'q': 3\n  r: 4\n- \"s\"\n",
    "spec:\n  pool: {name: p, generation: 1, resourceSliceCount: 1}\n  m: { a: [1, 2, {b: c}], 'd': \"e\" }\n",
    "time: 2026-01-01T00:00:00Z\ndate: 2001-12-14\nurl: http://x:80/a#b\nweird: a#b c,d [e] {f}\n",
    "y: y\nn: N\nk1: on\nk2: off\noctal: 0o17\nleading: 017\nbig: 18446744073709551615\nneg: -.5\nsci: 1e3\n",
    "a:    spaced    out   \nb  : 1\n",
    "# 한국어 주석\na: 1 # コメント\n",
    "a:\nb:\n  c:\n",
    "pod: {image: registry.k8s.io/pause:3.10, port: [a:1]}\n",
    "expression: |\n  device.driver == \"a\" &&\n\n    # not a comment\n  x  \nnext: 1\n",
    "s:\n- |-\n  one\n  two\n\n\n- key: |\n    three\n  other: 4\n",
    "expression: device.driver == 'gpu.example.com' && device.attributes['gpu.example.com'].type\n"
    "    == 'gpu'\nnext: a\n  b\n\n  c\n   \n  - d 'e' |f\n  # comment\nlast: 1\n  2 # two\n",
    "k:\n- wrapped\n  text\n- 12\n  34\n",
    "a:\n- b\n  c\n",
    "error: 'claim default/claim-0, request req-1: adding 1 devices exceeds the claim  \n    limit of 32, it''s\n\n\n   \n  with 32'\n"
    "items:\n- 'a\n  b'\n- 'c': d\n",
    "\xec\x9d\xb4\xeb\xa6\x84: \xed\x95\x9c\xea\xb5\xad\xec\x96\xb4 \xe6\x97\xa5\xe6\x9c\xac\nq: '\xc3\xa9'\nd: \"\xf0\x9f\x98\x80\"\n"
    "f: {k: caf\xc3\xa9}\nl: |\n  \xc3\xa9t\xc3\xa9\n",
    "tolerations: [{key: a, operator: Exists},\n    # a comment\n\n    {key: b, effect: NoExecute}]\nm: {a: 1,\n  b:\n    [x, y], c: {}\n  }\n",
    "a: [x,\n  y\n  ]\nb: {c: d,\n  # note\n  e: f\n  }\n",
    "k:\n- - null\n  - -5\n  - - x: 1\n      y: 2\n    - []\n- - - deep\n- last\nm:\n  - - \n",
    "a: b\r\nc: d\r\n# c\r\n\r\nl: |\r\n  x\r\n\r\n  y\r\nf: one\r\n  two\r\nq: 'three\r\n  four'\r\n"
    "m: [x,\r\n  y\r\n  ]\r\n---\r\nz: 1",
    "list:\n  - a\n  -   b: 1\n      c: 2\n",
};

/* Inputs yaml_fast leaves to libyaml: outside its subset, or wrong. */
static const char *const not_covered[] = {
    "a: >-\n  folded\n",
    "a: |+\n  kept\n\n",
    "a: |2\n   two\n",
    "a: |\nb: 1\n",
    "a: |\n\n  late\n",
    "a: |\n  x\n   \n  y\n",
    "a: |\n  at end",

    "a: one\n  two: x\n",
    "a: \"one\n  two\"\n",
    "a: 'one\n---\n  two'\n",
    "a: &x 1\nb: *x\n",
    "a: !!str 1\n",
    "? a\n: b\n",
    "%YAML 1.1\n---\na: 1\n",
    "a:\tb\n",
    "a: b\rc: d\n",
    "a: b\r",
    "a: caf\xc3\xa0 \xc2\x85\n",
    "a: \xe2\x80\xa8\n",
    "a: \xef\xbb\xbf\n",
    "a: \xed\xa0\x80\n",
    "a: \xc0\xaf\n",
    "\357\273\277a: 1\n",
    "- a\n- b\n",
    "  a: 1\n",
    "plain\n",
    "a: 1\n b: 2\n",
    "a:\n    b: 1\n  c: 2\n",
    "a: b: c\n",
    "a: [1, 2\n",
    "a: [1,\n2]\n",
    "a: [x,\n  y\n  z]\n",
    "a: [x,#c\n  y]\n",
    "a: {b: 1,\n---\n  c: 2}\n",
    "a: {b: 1,}\n",
    "a: \"\\u00e9\"\n",
    "1: a\n",
    "<<: {a: 1}\n",
    "a: .inf\n",
    "a: 'x'y\n",
    "a: - b\n",
    "- - a\n",
    "key: -\n",
    "a: 1\n...\n",
    "--- a: 1\n",
    "a: 1\n--- x\n",
    "a: b\x01\n",
    "# bad \xff\na: 1\n",
    "a: {b: c:,d}\n",
    "a: [b: c]\n",
};

static void test_covered_matches_libyaml(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof covered / sizeof *covered; i++) {
    int r = yaml_fast_check(covered[i], strlen(covered[i]));
    if (r != 0) fprintf(stderr, "covered[%zu]: %d\n%s\n", i, r, covered[i]);
    assert_int_equal(r, 0);
  }
}

static void test_not_covered_gives_up(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof not_covered / sizeof *not_covered; i++) {
    int r = yaml_fast_check(not_covered[i], strlen(not_covered[i]));
    if (r != -1) fprintf(stderr, "not_covered[%zu]: %d\n%s\n", i, r, not_covered[i]);
    assert_int_equal(r, -1);
  }
}

/* The documents of a file as dra writes them back (kubectl -o yaml's
 * style: doc_write_yaml), checked as the file itself is; -2 when the file
 * does not load. */
static int check_written(const char *name, const char *text, size_t len) {
  docset ds = {0};
  strbuf err = STRBUF_INIT, yaml = STRBUF_INIT;
  int r = -2;
  if (docs_load_buffer(name, text, len, &ds, &err) == 0 && ds.n) {
    for (size_t i = 0; i < ds.n; i++) {
      if (i) sb_puts(&yaml, "---\n");
      doc_write_yaml(&yaml, ds.items[i].root);
    }
    r = yaml_fast_check(yaml.buf, yaml.len);
    if (r == 1) fprintf(stderr, "%s, as written:\n%s\n", name, yaml.buf);
  }
  docset_free(&ds);
  sb_free(&err);
  sb_free(&yaml);
  return r;
}

typedef struct tally {
  int files, read, written, written_read;
} tally;

/* Every YAML file under dir, walked in full, and its documents as dra
 * writes them: the same tokens as libyaml, or given up; counts how many
 * are read without libyaml. */
static void check_tree(const char *dir, tally *n) {
  DIR *d = opendir(dir);
  if (!d) return;
  for (struct dirent *e; (e = readdir(d));) {
    if (e->d_name[0] == '.') continue;
    strbuf path = STRBUF_INIT;
    sb_printf(&path, "%s/%s", dir, e->d_name);
    size_t len_of_name = strlen(e->d_name), len;
    struct stat st;
    if (!stat(path.buf, &st) && S_ISDIR(st.st_mode)) {
      check_tree(path.buf, n);
    } else if (len_of_name > 5 && !strcmp(e->d_name + len_of_name - 5, ".yaml")) {
      char *text = sb_read_file(path.buf, &len);
      assert_non_null(text);
      int r = yaml_fast_check(text, len), w = check_written(path.buf, text, len);
      if (r == 1) fprintf(stderr, "%s\n", path.buf);
      assert_int_not_equal(r, 1);
      assert_int_not_equal(w, 1);
      n->files++;
      n->read += r == 0;
      n->written += w != -2;
      n->written_read += w == 0;
      free(text);
    }
    sb_free(&path);
  }
  closedir(d);
}

/* The project's manifests and test data, and what dra writes of them:
 * never a different token, and most read without libyaml (they are the
 * YAML people and kubectl write). */
static void test_manifests(void **state) {
  (void)state;
  tally n = {0};
  check_tree("examples", &n);
  check_tree("tests/data", &n);
  fprintf(stderr, "yaml_fast read %d of %d files, and %d of %d as dra writes them\n", n.read, n.files, n.written_read,
          n.written);
  assert_true(n.files > 100);
  assert_true(n.read * 10 >= n.files * 8);
  assert_true(n.written_read * 10 >= n.written * 9);
}

/* What kubectl -o yaml prints (managedFields, a list, quoted timestamps,
 * a long string wrapped over lines) is read without libyaml, with "\n" or
 * "\r\n" line ends. */
static void test_kubectl_output(void **state) {
  (void)state;
  size_t len;
  char *text = sb_read_file("tests/data/doc/kubectl-get.yaml", &len);
  assert_non_null(text);
  assert_int_equal(yaml_fast_check(text, len), 0);
  strbuf crlf = STRBUF_INIT; /* as saved by an editor on Windows */
  for (size_t i = 0; i < len; i++) {
    if (text[i] == '\n') sb_putc(&crlf, '\r');
    sb_putc(&crlf, text[i]);
  }
  assert_int_equal(yaml_fast_check(crlf.buf, crlf.len), 0);
  sb_free(&crlf);
  free(text);
}

/* A one-line flow collection read again is copied from the memo
 * (codec/yaml_flow_memo.h): the same tokens in every place it can stand,
 * at any depth, in later documents, after one kept with a quoted string in
 * scratch (never kept), and next to lines that only start alike. */
static void test_repeated_flow_collections(void **state) {
  (void)state;
  static const char *const lines[] = {
      "{name: pause, image: registry.k8s.io/pause:3.10, resources: {claims: [{name: resource}]}}",
      "[1, -2.5, true, ~, 'it''s', \"q\", {k: [a, b]}, 2026-01-01T00:00:00Z]",
      "{a: \"x\\ny\", b: 'quoted text here', c: [0x10, 017, .5]}",
      "{cpu: \"4\", memory: 32Gi, pods: \"110\"}",
  };
  strbuf yaml = STRBUF_INIT;
  for (int doc = 0; doc < 3; doc++) {
    sb_puts(&yaml, "---\n");
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
      sb_printf(&yaml, "k%zu: %s\nlist%zu:\n- %s\n- x: %s\n  deeper:\n    - - %s\n", i, lines[i], i, lines[i], lines[i],
                lines[i]);
      sb_printf(&yaml, "c%zu: %s # comment\nm%zu: %s\n", i, lines[i], i, lines[i]);
    }
    sb_puts(&yaml, "multi: [{name: pause, image: registry.k8s.io/pause:3.10},\n  {b: c}]\n");
  }
  assert_int_equal(yaml_fast_check(yaml.buf, yaml.len), 0);
  sb_free(&yaml);
}

/* Given up part way, the loader reads the buffer again with libyaml: the
 * objects are all there, once. */
static void test_loader_falls_back(void **state) {
  (void)state;
  const char *text = "apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n---\n"
                     "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: b\n  annotations:\n    note: |\n      two\n      lines\n";
  object_set set = {0};
  assert_true(objects_load_direct("t.yaml", text, strlen(text), &set));
  assert_int_equal(set.n, 2);
  assert_int_equal(set.items[0].line, 1);
  assert_int_equal(set.items[1].line, 5);
  object_set_free(&set);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_covered_matches_libyaml),
      cmocka_unit_test(test_not_covered_gives_up),
      cmocka_unit_test(test_manifests),
      cmocka_unit_test(test_kubectl_output),
      cmocka_unit_test(test_repeated_flow_collections),
      cmocka_unit_test(test_loader_falls_back),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
