/* test_ssa.c: server-side apply's pieces against upstream's behaviour:
 * FieldsV1 read and written in structured-merge-diff's order and form, as
 * a tree and as text, path texts, an apply's conflict message with
 * several managers and its field removal, list-map key defaults, managers
 * of a missing version, typed entries written back, shared path element
 * values (api/ssa_*.h, api/managed_fields*.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "api/managed_fields.h"
#include "api/managed_fields_tree.h"
#include "api/object.h"
#include "api/ssa_apply.h"
#include "api/ssa_fields.h"
#include "api/ssa_go_zero.h"
#include "api/ssa_pe_values.h"
#include "api/ssa_schema.h"
#include "api/ssa_typed.h"
#include <stdlib.h>
#include <string.h>

static char *fields_text(const char *in, strbuf *err) {
  json_t *j = json_loads(in, 0, NULL);
  assert_non_null(j);
  ssa_set *s = ssa_set_from_fields(j, err);
  json_decref(j);
  if (!s) return NULL;
  json_t *out = ssa_set_to_fields(s);
  char *text = json_dumps(out, JSON_COMPACT);
  json_decref(out);
  ssa_set_free(s);
  return text;
}

static void test_fields_order(void **state) {
  (void)state;
  strbuf err = STRBUF_INIT;
  /* fields before keys before values before indexes; "." first; "{}" is a member */
  char *t = fields_text("{\"i:1\":{},\"v:\\\"b\\\"\":{},\"k:{\\\"name\\\":\\\"x\\\"}\":{\"f:image\":{},\".\":{}},"
                        "\"v:\\\"a\\\"\":{},\"f:z\":{\"f:y\":{}},\"f:a\":{\".\":{}},\"q:skipped\":{}}",
                        &err);
  assert_string_equal(t, "{\"f:a\":{},\"f:z\":{\"f:y\":{}},\"k:{\\\"name\\\":\\\"x\\\"}\":{\".\":{},\"f:image\":{}},"
                         "\"v:\\\"a\\\"\":{},\"v:\\\"b\\\"\":{},\"i:1\":{}}");
  free(t);
  assert_null(fields_text("{\"f\":{}}", &err));
  assert_string_equal(sb_str(&err), "key must be 2 characters long:");
  sb_free(&err);
  assert_null(fields_text("{\"k:[1]\":{}}", &err));
  sb_free(&err);
  assert_null(fields_text("{\"f:a\":1}", &err));
  sb_free(&err);
}

static ssa_set *set_of(const char *fields) {
  strbuf err = STRBUF_INIT;
  json_t *j = json_loads(fields, 0, NULL);
  ssa_set *s = ssa_set_from_fields(j, &err);
  json_decref(j);
  assert_non_null(s);
  sb_free(&err);
  return s;
}

static void test_managed_fields_errors(void **state) {
  (void)state;
  static const struct {
    const char *entry, *message;
  } table[] = {
      {"{\"operation\":\"Patch\",\"apiVersion\":\"v1\",\"fieldsType\":\"FieldsV1\"}", "operation must be `Apply` or `Update`"},
      {"{\"operation\":\"Update\",\"fieldsType\":\"FieldsV1\"}", "apiVersion must not be empty"},
      {"{\"operation\":\"Update\",\"apiVersion\":\"v1\"}", "missing fieldsType in managed fields entry 0"},
      {"{\"operation\":\"Update\",\"apiVersion\":\"v1\",\"fieldsType\":\"FieldsV2\"}",
       "invalid fieldsType \"FieldsV2\" in managed fields entry 0"},
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    json_t *list = json_pack("[o]", json_loads(table[i].entry, 0, NULL));
    mf_list l;
    strbuf err = STRBUF_INIT;
    assert_false(mf_decode(list, &l, &err));
    assert_string_equal(sb_str(&err), table[i].message);
    sb_free(&err);
    json_decref(list);
  }
}

static const char *live_pod =
    "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"uid\":\"u\",\"labels\":{\"x\":\"1\",\"y\":\"2\","
    "\"mine\":\"3\"},\"managedFields\":["
    "{\"manager\":\"a\",\"operation\":\"Update\",\"apiVersion\":\"v1\",\"time\":\"2026-01-01T00:00:00Z\","
    "\"fieldsType\":\"FieldsV1\",\"fieldsV1\":{\"f:metadata\":{\"f:labels\":{\"f:x\":{}}},\"f:spec\":{\"f:containers\":"
    "{\"k:{\\\"name\\\":\\\"app\\\"}\":{\"f:image\":{}}}}}},"
    "{\"manager\":\"b\",\"operation\":\"Update\",\"apiVersion\":\"v1\",\"time\":\"2026-01-01T00:00:01Z\","
    "\"fieldsType\":\"FieldsV1\",\"fieldsV1\":{\"f:metadata\":{\"f:labels\":{\"f:y\":{}}}}},"
    "{\"manager\":\"me\",\"operation\":\"Apply\",\"apiVersion\":\"v1\",\"time\":\"2026-01-01T00:00:02Z\","
    "\"fieldsType\":\"FieldsV1\",\"fieldsV1\":{\"f:metadata\":{\"f:labels\":{\"f:mine\":{}}}}}]},"
    "\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"nginx:1\"}]}}";

static ssa_apply_status run_apply(const char *config_text, bool force, ssa_apply_result *res) {
  json_t *live = json_loads(live_pod, 0, NULL), *config = json_loads(config_text, 0, NULL);
  json_t *zero = json_pack("{s:s,s:s}", "apiVersion", "v1", "kind", "Pod");
  ssa_fill_go_zero(zero);
  ssa_request rq = {ssa_type_of_kind("v1", "Pod"), "v1", "me", "", "2026-01-02T00:00:00Z", false, KIND_POD};
  ssa_apply_status st = ssa_apply(&rq, zero, live, config, force, res);
  json_decref(live);
  json_decref(config);
  json_decref(zero);
  return st;
}

static void test_conflicts(void **state) {
  (void)state;
  ssa_apply_result res;
  assert_int_equal(run_apply("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"labels\":{\"x\":\"9\","
                             "\"y\":\"9\"}},\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"nginx:2\"}]}}",
                             false, &res),
                   SSA_APPLY_CONFLICT);
  assert_string_equal(sb_str(&res.message), "Apply failed with 3 conflicts: conflicts with \"a\" using v1:\n"
                                            "- .metadata.labels.x\n- .spec.containers[name=\"app\"].image\n"
                                            "conflicts with \"b\" using v1:\n- .metadata.labels.y");
  assert_int_equal(json_array_size(res.causes), 3);
  assert_string_equal(json_string_value(json_object_get(json_array_get(res.causes, 2), "message")),
                      "conflict with \"b\" using v1");
  ssa_apply_result_free(&res);
  assert_int_equal(run_apply("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"labels\":{\"y\":\"9\"}}}",
                             false, &res),
                   SSA_APPLY_CONFLICT);
  assert_string_equal(sb_str(&res.message), "Apply failed with 1 conflict: conflict with \"b\" using v1: .metadata.labels.y");
  ssa_apply_result_free(&res);
}

static void test_forced_apply_removes_and_takes(void **state) {
  (void)state;
  ssa_apply_result res;
  /* "mine" is left out: it goes; x is forced: a loses it, keeps the image */
  assert_int_equal(run_apply("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"labels\":{\"x\":\"9\"}}}",
                             true, &res),
                   SSA_APPLY_OK);
  assert_true(res.changed);
  json_t *meta = json_object_get(res.object, "metadata");
  char *labels = json_dumps(json_object_get(meta, "labels"), JSON_COMPACT | JSON_SORT_KEYS);
  assert_string_equal(labels, "{\"x\":\"9\",\"y\":\"2\"}");
  free(labels);
  char *mf = json_dumps(json_object_get(meta, "managedFields"), JSON_COMPACT);
  assert_string_equal(mf, "[{\"manager\":\"me\",\"operation\":\"Apply\",\"apiVersion\":\"v1\",\"time\":"
                          "\"2026-01-02T00:00:00Z\",\"fieldsType\":\"FieldsV1\",\"fieldsV1\":{\"f:metadata\":"
                          "{\"f:labels\":{\"f:x\":{}}}}},{\"manager\":\"a\",\"operation\":\"Update\",\"apiVersion\":"
                          "\"v1\",\"time\":\"2026-01-01T00:00:00Z\",\"fieldsType\":\"FieldsV1\",\"fieldsV1\":"
                          "{\"f:spec\":{\"f:containers\":{\"k:{\\\"name\\\":\\\"app\\\"}\":{\"f:image\":{}}}}}},"
                          "{\"manager\":\"b\",\"operation\":\"Update\",\"apiVersion\":\"v1\",\"time\":"
                          "\"2026-01-01T00:00:01Z\",\"fieldsType\":\"FieldsV1\",\"fieldsV1\":{\"f:metadata\":"
                          "{\"f:labels\":{\"f:y\":{}}}}}]");
  free(mf);
  ssa_apply_result_free(&res);
}

/* A port without protocol is keyed with the item type's default, TCP. */
static void test_key_default(void **state) {
  (void)state;
  json_t *pod = json_loads("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"spec\":{\"containers\":[{\"name\":\"a\","
                           "\"ports\":[{\"containerPort\":80}]}]}}",
                           0, NULL);
  ssa_set *set = ssa_set_new();
  strbuf err = STRBUF_INIT;
  assert_true(ssa_to_set(pod, ssa_type_of_kind("v1", "Pod"), set, &err));
  json_t *fields = ssa_set_to_fields(set);
  char *text = json_dumps(fields, JSON_COMPACT);
  assert_non_null(strstr(text, "k:{\\\"containerPort\\\":80,\\\"protocol\\\":\\\"TCP\\\"}"));
  free(text);
  json_decref(fields);
  ssa_set_free(set);
  sb_free(&err);
  json_decref(pod);
}

/* A manager of a version the kind does not have is dropped by the next
 * write, as upstream's converter's missing-version error drops it. */
static void test_missing_version_manager_dropped(void **state) {
  (void)state;
  json_t *live = json_loads("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"uid\":\"u\","
                            "\"labels\":{\"a\":\"1\"},\"managedFields\":[{\"manager\":\"old\",\"operation\":\"Update\","
                            "\"apiVersion\":\"v0\",\"fieldsType\":\"FieldsV1\",\"fieldsV1\":{\"f:metadata\":{\"f:labels\":"
                            "{\"f:a\":{}}}}}]}}",
                            0, NULL);
  arena *a = arena_new();
  object_meta stored = {0};
  json_t *stored_mf = json_object_get(json_object_get(live, "metadata"), "managedFields");
  assert_true(mf_set_tree(a, &stored, json_incref(stored_mf)));
  json_object_del(json_object_get(live, "metadata"), "managedFields");
  json_t *next = json_deep_copy(live);
  json_object_set_new(json_object_get(json_object_get(next, "metadata"), "labels"), "b", json_string("2"));
  ssa_request rq = {ssa_type_of_kind("v1", "Pod"), "v1", "new", "", "2026-01-03T00:00:00Z", false, KIND_POD};
  mf_list managers;
  ssa_update_managed_fields(&rq, &stored.managed_fields, &stored.managed_fields, live, next, &managers);
  json_t *mf = mf_encode(&managers);
  assert_int_equal(json_array_size(mf), 1);
  assert_string_equal(json_string_value(json_object_get(json_array_get(mf, 0), "manager")), "new");
  json_decref(mf);
  mf_free(&managers);
  json_decref(next);
  json_decref(live);
  arena_free(a);
}

/* FieldsV1 read from its compact text and written as text: the set and
 * the bytes the tree gives, in place for the text dra writes and through
 * the tree for any other (a key twice, other escapes, spaces). */
static void test_fields_text(void **state) {
  (void)state;
  const char *canonical = "{\"f:metadata\":{\"f:labels\":{\".\":{},\"f:a\":{}}},\"f:spec\":{\"f:containers\":"
                          "{\"k:{\\\"name\\\":\\\"a\\\"}\":{\".\":{},\"f:image\":{}}}},\"i:10\":{}}";
  ssa_set *tree = set_of(canonical);
  strbuf err = STRBUF_INIT, written = STRBUF_INIT;
  ssa_set *text = ssa_set_from_fields_text(canonical, strlen(canonical), &err);
  assert_non_null(text);
  assert_true(ssa_set_equal(tree, text));
  ssa_set_write_fields_text(&written, text);
  assert_string_equal(sb_str(&written), canonical);
  sb_free(&written);
  ssa_set_free(text);
  ssa_set_free(tree);
  const char *others[] = {
      "{\"f:a\":{\"f:x\":{}},\"f:a\":{\"f:y\":{}}}", /* the tree keeps the last */
      "{ \"f:a\" : {} }", "{\"f:\\u0061\":{}}", "{\"f:a\":{},\".\":1}", "{\"q:skipped\":5,\"f:b\":{}}",
  };
  for (size_t i = 0; i < sizeof others / sizeof *others; i++) {
    json_t *j = json_loads(others[i], 0, NULL);
    ssa_set *want = ssa_set_from_fields(j, &err);
    json_decref(j);
    ssa_set *got = ssa_set_from_fields_text(others[i], strlen(others[i]), &err);
    assert_non_null(want);
    assert_non_null(got);
    assert_true(ssa_set_equal(want, got));
    ssa_set_free(want);
    ssa_set_free(got);
  }
  /* errors are the tree's */
  assert_null(ssa_set_from_fields_text("{\"f\":{}}", 8, &err));
  assert_string_equal(sb_str(&err), "key must be 2 characters long:");
  sb_free(&err);
  assert_null(ssa_set_from_fields_text("null", 4, &err));
  assert_string_equal(sb_str(&err), "ReadMapCB: expect { or n, but found another value");
  sb_free(&err);
}

/* Managers written as typed entries: an own entry whose set is unchanged
 * keeps its very text; a changed one gets its set's text, as the tree
 * would have it. */
static void test_typed_entries(void **state) {
  (void)state;
  json_t *mf = json_loads("[{\"manager\":\"kubelet\",\"operation\":\"Update\",\"apiVersion\":\"v1\","
                          "\"time\":\"2026-01-01T00:00:00Z\",\"fieldsType\":\"FieldsV1\",\"fieldsV1\":"
                          "{\"f:status\":{\"f:phase\":{}}},\"subresource\":\"status\"},{\"manager\":\"kubectl\","
                          "\"operation\":\"Update\",\"apiVersion\":\"v1\",\"time\":\"2026-01-01T00:00:00Z\","
                          "\"fieldsType\":\"FieldsV1\",\"fieldsV1\":{\"f:metadata\":{\"f:labels\":{\"f:a\":{}}}}}]",
                          0, NULL);
  arena *a = arena_new();
  object_meta stored = {0}, typed = {0}, tree = {0};
  assert_true(mf_set_tree(a, &stored, mf));
  mf_list l;
  strbuf err = STRBUF_INIT;
  assert_true(mf_decode_typed(&stored.managed_fields, true, &l, &err));
  assert_int_equal(l.n, 2);
  mf_entry *kubectl = &l.items[1];
  assert_string_equal(kubectl->manager, "kubectl");
  ssa_set *more = set_of("{\"f:metadata\":{\"f:labels\":{\"f:b\":{}}}}"), *u = ssa_set_union(kubectl->set, more);
  ssa_set_free(kubectl->set);
  kubectl->set = u;
  ssa_set_free(more);
  mf_set_typed(a, &typed, &l);
  assert_int_equal(typed.managed_fields.n, 2);
  /* sorted by time, then manager: kubectl first */
  assert_string_equal(typed.managed_fields.items[0].manager, "kubectl");
  assert_string_equal(json_string_value(typed.managed_fields.items[0].fields_v1),
                      "{\"f:metadata\":{\"f:labels\":{\"f:a\":{},\"f:b\":{}}}}");
  assert_ptr_equal(typed.managed_fields.items[1].fields_v1, stored.managed_fields.items[0].fields_v1);
  assert_true(mf_set_tree(a, &tree, mf_encode(&l)));
  json_t *from_typed = mf_tree(&typed), *from_tree = mf_tree(&tree);
  assert_true(json_equal(from_typed, from_tree));
  json_decref(from_typed);
  json_decref(from_tree);
  mf_free(&l);
  sb_free(&err);
  arena_free(a);
}

/* Path element values made once: the same name or key text gives the
 * same value; a text holding no JSON gives none; a long one is made new. */
static void test_pe_values_shared(void **state) {
  (void)state;
  json_t *a = ssa_pe_name_value("containers"), *b = ssa_pe_name_value("containers"), *c = ssa_pe_name_value("image");
  assert_ptr_equal(a, b);
  assert_ptr_not_equal(a, c);
  assert_string_equal(json_string_value(a), "containers");
  json_t *k = ssa_pe_text_value("{\"name\":\"a\"}", 12), *k2 = ssa_pe_text_value("{\"name\":\"a\"}", 12);
  assert_ptr_equal(k, k2);
  assert_true(json_is_object(k));
  json_t *named = ssa_pe_text_value("\"containers\"", 12);
  assert_ptr_not_equal(named, a); /* a parsed text is not a field name */
  assert_null(ssa_pe_text_value("{\"name\":", 8));
  char long_name[SSA_PE_VALUE_TEXT_MAX + 2];
  memset(long_name, 'x', sizeof long_name - 1);
  long_name[sizeof long_name - 1] = 0;
  json_t *l1 = ssa_pe_name_value(long_name), *l2 = ssa_pe_name_value(long_name);
  assert_ptr_not_equal(l1, l2);
  assert_true(json_equal(l1, l2));
  json_t *all[] = {a, b, c, k, k2, named, l1, l2};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) json_decref(all[i]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fields_order),
      cmocka_unit_test(test_managed_fields_errors),
      cmocka_unit_test(test_conflicts),
      cmocka_unit_test(test_forced_apply_removes_and_takes),
      cmocka_unit_test(test_key_default),
      cmocka_unit_test(test_missing_version_manager_dropped),
      cmocka_unit_test(test_fields_text),
      cmocka_unit_test(test_typed_entries),
      cmocka_unit_test(test_pe_values_shared),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
