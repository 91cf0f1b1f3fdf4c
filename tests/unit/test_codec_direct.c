/* test_codec_direct.c: the direct decoder (text -> typed structs, no tree)
 * against the tree path on every YAML and JSON file under tests/data and
 * examples, each also rewritten as an indented and a compact JSON stream:
 * the objects and errors must be the same byte for byte. Also: the cases the
 * direct path must leave to the tree path (so that their errors keep the
 * tree path's words), and that the common files do take the direct path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "objects_differential.h"
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct tally {
  size_t files, direct, differ, clean_by_tree; /* the last: no error anywhere, yet not direct */
} tally;

static bool loads_cleanly(const char *name, const char *data, size_t len) {
  object_set tree = {0};
  strbuf err = STRBUF_INIT;
  bool clean = objects_load_tree(name, data, len, &tree, &err) == 0 && tree.n;
  for (size_t i = 0; i < tree.n; i++) clean = clean && loaded_object_ok(&tree.items[i]);
  object_set_free(&tree);
  sb_free(&err);
  return clean;
}

static void check_text(tally *t, const char *name, const char *data, size_t len) {
  int rc = differential_check(name, data, len);
  t->files++;
  t->direct += rc == 0;
  t->differ += rc == 1;
  if (rc == -1 && loads_cleanly(name, data, len)) {
    t->clean_by_tree++;
    fprintf(stderr, "tree path for a clean file: %s\n", name);
  }
}

/* The file's documents as one JSON stream, written by write. */
static void check_as_json(tally *t, const char *name, const char *data, size_t len,
                          void (*write)(strbuf *, const json_t *)) {
  docset ds = {0};
  strbuf err = STRBUF_INIT, text = STRBUF_INIT;
  docs_load_buffer(name, data, len, &ds, &err);
  for (size_t i = 0; i < ds.n; i++) write(&text, ds.items[i].root);
  if (text.len) check_text(t, name, text.buf, text.len);
  docset_free(&ds);
  sb_free(&err);
  sb_free(&text);
}

static bool is_manifest(const char *name) {
  const char *dot = strrchr(name, '.');
  return dot && (!strcmp(dot, ".yaml") || !strcmp(dot, ".yml") || !strcmp(dot, ".json"));
}

static void walk(tally *t, const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat st;
    if (lstat(path, &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      walk(t, path);
      continue;
    }
    if (!S_ISREG(st.st_mode) || !is_manifest(e->d_name)) continue;
    FILE *f = fopen(path, "rb");
    strbuf text = STRBUF_INIT;
    char chunk[65536];
    size_t got;
    while (f && (got = fread(chunk, 1, sizeof chunk, f)) > 0) sb_add(&text, chunk, got);
    if (f) fclose(f);
    const char *data = text.buf ? text.buf : "";
    check_text(t, path, data, text.len);
    check_as_json(t, path, data, text.len, doc_write_json);
    check_as_json(t, path, data, text.len, doc_write_json_compact);
    sb_free(&text);
  }
  closedir(d);
}

static void test_every_file_agrees(void **state) {
  (void)state;
  tally t = {0};
  walk(&t, "tests/data");
  walk(&t, "examples");
  fprintf(stderr, "%zu texts, %zu decoded directly, %zu differ, %zu clean ones by the tree\n", t.files, t.direct,
          t.differ, t.clean_by_tree);
  assert_int_equal(t.differ, 0);
  assert_true(t.files > 500);
  assert_true(t.clean_by_tree * 10 < t.direct); /* clean files take the direct path, but for exotic ones */
}

static bool direct(const char *text) {
  object_set out = {0};
  bool ok = objects_load_direct("t", text, strlen(text), &out);
  object_set_free(&out);
  return ok;
}

#define CLAIM_JSON(rest) "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\"" rest "}"

static void test_clean_documents_go_direct(void **state) {
  (void)state;
  assert_true(direct(CLAIM_JSON(",\"metadata\":{\"name\":\"a\",\"labels\":{\"x\":\"y\"}}")));
  assert_true(direct("{\"kind\":\"DeviceClass\",\"apiVersion\":\"resource.k8s.io/v1\",\"metadata\":{\"name\":\"\\u00e9\"}}"));
  assert_true(direct(CLAIM_JSON(",\"metadata\":null") "\n" CLAIM_JSON("")));
  assert_true(direct(""));
  const char *claim = CLAIM_JSON(",\"metadata\":{\"name\":\"a\"},\"spec\":{\"devices\":{\"requests\":[]}}");
  assert_int_equal(differential_check("t", claim, strlen(claim)), 0);
}

static void test_errors_go_to_the_tree(void **state) {
  (void)state;
  assert_false(direct(CLAIM_JSON(",\"metadata\":{\"name\":\"a\",\"name\":\"b\"}")));     /* duplicate field */
  assert_false(direct(CLAIM_JSON(",\"metadata\":{\"labels\":{\"x\":\"1\",\"x\":\"2\"}}"))); /* duplicate map key */
  assert_false(direct(CLAIM_JSON(",\"metadata\":{\"managedFields\":[{\"fieldsV1\":{\"a\":1,\"a\":2}}]}"))); /* in raw JSON */
  const char *raw = CLAIM_JSON(",\"metadata\":{\"managedFields\":[{\"fieldsV1\":{\"a\":1,\"b\":{}}}]}");
  assert_int_equal(differential_check("t", raw, strlen(raw)), 0);
  assert_false(direct(CLAIM_JSON(",\"metadata\":{\"nam\":\"a\"}")));                     /* unknown field */
  assert_false(direct(CLAIM_JSON(",\"metadata\":{\"name\":1}")));                         /* wrong type */
  assert_false(direct(CLAIM_JSON(",\"metadata\":{\"name\":\"a\"")));                      /* syntax */
  assert_false(direct(CLAIM_JSON(",\"metadata\":{\"name\":\"a\"}") "x"));                 /* after the value */
  assert_false(direct("{\"metadata\":{},\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\"}"));
  assert_false(direct("{\"apiVersion\":\"resource.k8s.io/v1beta1\",\"kind\":\"ResourceClaim\"}")); /* converted */
  assert_false(direct("{\"apiVersion\":\"v1\",\"kind\":\"Nope\"}"));
  assert_false(direct("[]"));
}

/* A List on one line, as an API server sends a page, goes direct and
 * agrees with the tree: a typed List whose items leave out kind and
 * apiVersion or repeat the List's, and a kind: List of any kinds. */
#define CLAIM_ITEM "{\"metadata\":{\"name\":\"a\",\"namespace\":\"n\"},\"spec\":{\"devices\":{\"requests\":[]}}}"
#define CLAIM_LIST(items) \
  "{\"kind\":\"ResourceClaimList\",\"apiVersion\":\"resource.k8s.io/v1\",\"metadata\":{\"continue\":\"x\"},\"items\":[" items "]}"

static int agree(const char *text) { return differential_check("t", text, strlen(text)); }

static void test_lists_on_one_line_go_direct(void **state) {
  (void)state;
  const char *typed = CLAIM_LIST(CLAIM_ITEM "," CLAIM_JSON(",\"metadata\":{\"name\":\"b\"}")) "\n";
  assert_int_equal(agree(typed), 0);
  object_set out = {0};
  assert_true(objects_load_direct("t", typed, strlen(typed), &out));
  assert_int_equal(out.n, 2);
  assert_string_equal(out.items[0].kind, "ResourceClaim");
  assert_string_equal(api_object_meta(out.items[1].obj)->namespace_, "default");
  object_set_free(&out);
  assert_int_equal(agree(CLAIM_LIST("")), 0);
  assert_int_equal(agree("{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[" CLAIM_JSON("") ","
                         "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"n\"}}]}"),
                   0);
  assert_int_equal(agree("{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[]}"), 0);
}

/* Lists the direct path leaves to the tree: items on other lines (whose
 * line numbers the tree path keeps), an item of another kind, or with only
 * one of kind and apiVersion (null counts as there), a converted version,
 * members a List does not have, and items that are not objects. */
static void test_lists_the_tree_reads(void **state) {
  (void)state;
  assert_false(direct("{\"kind\":\"ResourceClaimList\",\"apiVersion\":\"resource.k8s.io/v1\",\"items\":[\n" CLAIM_ITEM "]}"));
  assert_false(direct(CLAIM_LIST("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\"}")));
  assert_false(direct(CLAIM_LIST("{\"kind\":\"ResourceClaim\"}")));
  assert_false(direct(CLAIM_LIST("{\"kind\":null}")));
  assert_int_equal(agree(CLAIM_LIST("{\"kind\":null}")), -1);
  assert_false(direct("{\"kind\":\"ResourceClaimList\",\"apiVersion\":\"resource.k8s.io/v1beta1\",\"items\":[{}]}"));
  assert_false(direct("{\"kind\":\"ResourceClaimList\",\"apiVersion\":\"resource.k8s.io/v1\",\"items\":[],\"x\":1}"));
  assert_false(direct("{\"kind\":\"ResourceClaimList\",\"apiVersion\":\"resource.k8s.io/v1\",\"items\":[],\"items\":[]}"));
  assert_false(direct("{\"kind\":\"ResourceClaimList\",\"apiVersion\":\"resource.k8s.io/v1\",\"items\":[1]}"));
  assert_false(direct("{\"kind\":\"ResourceClaimList\",\"apiVersion\":\"resource.k8s.io/v1\",\"items\":{}}"));
  assert_false(direct("{\"kind\":\"ResourceClaimList\",\"apiVersion\":\"resource.k8s.io/v1\"}"));
  assert_false(direct("{\"kind\":\"WidgetList\",\"apiVersion\":\"v1\",\"items\":[{}]}"));
}

/* With CODEC_SKIP_MANAGED_FIELDS, managedFields is left out on both paths
 * (read as tokens in YAML, passed over as text in JSON, escapes and all),
 * the rest of the object as without it; the direct path still gives up on
 * a syntax error inside. */
#define MANAGED "[{\"manager\":\"m\",\"fieldsV1\":{\"f:spec\":{\"k:{\\\"name\\\":\\\"x\\\"}\":{\".\":{}}}}}]"
static void test_managed_fields_left_out(void **state) {
  (void)state;
  const char *texts[] = {
      CLAIM_LIST("{\"metadata\":{\"name\":\"a\",\"managedFields\":" MANAGED ",\"uid\":\"u\"}}"),
      CLAIM_JSON(",\"metadata\":{\"managedFields\":" MANAGED ",\n\"name\":\"a\",\"uid\":\"u\"}"),
      ("apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n  name: a\n  managedFields:\n"
       "  - manager: m\n    fieldsV1: {f:spec: {}}\n  uid: u\n"),
  };
  for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
    const char *text = texts[i];
    assert_int_equal(differential_check_skipping("t", text, strlen(text), CODEC_SKIP_MANAGED_FIELDS), 0);
    object_set kept = {0}, left_out = {.skip = CODEC_SKIP_MANAGED_FIELDS};
    assert_true(objects_load_direct("t", text, strlen(text), &kept));
    assert_true(objects_load_direct("t", text, strlen(text), &left_out));
    assert_int_equal(left_out.n, 1);
    const object_meta *m = api_object_meta(left_out.items[0].obj);
    assert_true(api_object_meta(kept.items[0].obj)->managed_fields.n > 0);
    assert_false(m->managed_fields.set);
    assert_string_equal(m->name, "a");
    assert_string_equal(m->uid, "u");
    object_set_free(&kept);
    object_set_free(&left_out);
  }
  object_set broken = {.skip = CODEC_SKIP_MANAGED_FIELDS};
  const char *text = CLAIM_JSON(",\"metadata\":{\"managedFields\":[{\"a\" 1}],\"name\":\"a\"}");
  assert_false(objects_load_direct("t", text, strlen(text), &broken));
  object_set_free(&broken);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_file_agrees),
      cmocka_unit_test(test_clean_documents_go_direct),
      cmocka_unit_test(test_errors_go_to_the_tree),
      cmocka_unit_test(test_lists_on_one_line_go_direct),
      cmocka_unit_test(test_lists_the_tree_reads),
      cmocka_unit_test(test_managed_fields_left_out),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
