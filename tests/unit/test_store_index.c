/* test_store_index.c: every store index (store.h) follows creates, updates
 * that move an object between keys, and deletes; index lookups list in the
 * requested order and refuse queries without their key. */
#include "test_store.h"

#define SLICE(name, driver, pool, node_json, devices)                                                          \
  "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceSlice\",\"metadata\":{\"name\":\"" name         \
  "\"},\"spec\":{\"driver\":\"" driver "\",\"pool\":{\"name\":\"" pool "\",\"generation\":1,"                   \
  "\"resourceSliceCount\":1}," node_json ",\"devices\":" devices "}}"
#define POD(ns, name, spec)                                                                                    \
  "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" name "\",\"namespace\":\"" ns "\"}," \
  "\"spec\":" spec "}"
#define OWNED_CLAIM(name, owners)                                                                               \
  "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":{\"name\":\"" name         \
  "\",\"namespace\":\"default\",\"ownerReferences\":" owners "}}"
#define OWNER(uid) "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"name\":\"p\",\"uid\":\"" uid "\",\"controller\":true}"

/* The names found by q, joined by ",". */
static void expect_names(store *s, store_query q, const char *want) {
  store_list l;
  assert_int_equal(store_list_query(s, &q, &l), STORE_OK);
  char got[512] = "";
  for (size_t i = 0; i < l.n; i++) {
    if (i) strcat(got, ",");
    strcat(got, store_obj_meta(l.items[i])->name);
  }
  assert_string_equal(got, want);
  store_list_free(&l);
}

static store_query slices_in_pool(const char *driver, const char *pool) {
  return (store_query){.kind = KIND_RESOURCE_SLICE, .index = STORE_INDEX_SLICE_POOL, .key = driver, .key2 = pool};
}

static store_query slices_on_node(const char *node) {
  return (store_query){.kind = KIND_RESOURCE_SLICE, .index = STORE_INDEX_SLICE_NODE, .key = node};
}

static void slices_by_pool_and_node(void **state) {
  (void)state;
  store *s = test_store_open(16);
  assert_int_equal(store_create(s, test_obj(SLICE("s2", "gpu.example.com", "p1", "\"nodeName\":\"n1\"", "[]")), NULL),
                   STORE_OK);
  assert_int_equal(store_create(s, test_obj(SLICE("s1", "gpu.example.com", "p1", "\"nodeName\":\"n1\"", "[]")), NULL),
                   STORE_OK);
  assert_int_equal(store_create(s, test_obj(SLICE("s3", "nic.example.com", "p1", "\"allNodes\":true", "[]")), NULL),
                   STORE_OK);
  /* Partitionable: per-device nodes, each indexed once. */
  assert_int_equal(store_create(s, test_obj(SLICE("s4", "gpu.example.com", "p2", "\"perDeviceNodeSelection\":true",
                                                  "[{\"name\":\"d1\",\"nodeName\":\"n2\"},"
                                                  "{\"name\":\"d2\",\"nodeName\":\"n3\"},"
                                                  "{\"name\":\"d3\",\"nodeName\":\"n2\"}]")),
                                NULL),
                   STORE_OK);
  expect_names(s, slices_in_pool("gpu.example.com", "p1"), "s1,s2");
  store_query by_creation = slices_in_pool("gpu.example.com", "p1");
  by_creation.order = STORE_BY_CREATION;
  expect_names(s, by_creation, "s2,s1");
  expect_names(s, slices_in_pool("nic.example.com", "p1"), "s3");
  expect_names(s, slices_in_pool("gpu.example.com", "p3"), "");
  expect_names(s, slices_on_node("n1"), "s1,s2");
  expect_names(s, slices_on_node("n2"), "s4");
  expect_names(s, slices_on_node("n3"), "s4");

  /* Moving s1 to pool p2 on node n2. */
  assert_int_equal(store_update(s, test_obj(SLICE("s1", "gpu.example.com", "p2", "\"nodeName\":\"n2\"", "[]")), NULL),
                   STORE_OK);
  expect_names(s, slices_in_pool("gpu.example.com", "p1"), "s2");
  expect_names(s, slices_in_pool("gpu.example.com", "p2"), "s1,s4");
  expect_names(s, slices_on_node("n1"), "s2");
  expect_names(s, slices_on_node("n2"), "s1,s4");

  assert_int_equal(store_delete(s, KIND_RESOURCE_SLICE, NULL, "s4", NULL, NULL), STORE_OK);
  expect_names(s, slices_on_node("n3"), "");
  expect_names(s, slices_in_pool("gpu.example.com", "p2"), "s1");
  store_close(s);
}

static void claims_by_owner(void **state) {
  (void)state;
  store *s = test_store_open(16);
  assert_int_equal(store_create(s, test_obj(OWNED_CLAIM("c1", "[" OWNER("u1") "]")), NULL), STORE_OK);
  assert_int_equal(store_create(s, test_obj(OWNED_CLAIM("c2", "[" OWNER("u1") "," OWNER("u2") "]")), NULL),
                   STORE_OK);
  assert_int_equal(store_create(s, test_obj(CLAIM("default", "c3")), NULL), STORE_OK);
  store_query q = {.kind = KIND_RESOURCE_CLAIM, .index = STORE_INDEX_CLAIM_OWNER, .key = "u1"};
  expect_names(s, q, "c1,c2");
  q.key = "u2";
  expect_names(s, q, "c2");
  assert_int_equal(store_update(s, test_obj(OWNED_CLAIM("c2", "[]")), NULL), STORE_OK);
  expect_names(s, q, "");
  q.key = "u1";
  expect_names(s, q, "c1");
  store_close(s);
}

static void pods_by_node_and_group(void **state) {
  (void)state;
  store *s = test_store_open(16);
  assert_int_equal(store_create(s, test_obj(POD("default", "p1", "{\"schedulingGroup\":{\"podGroupName\":\"g\"}}")),
                                NULL),
                   STORE_OK);
  assert_int_equal(store_create(s, test_obj(POD("other", "p2", "{\"schedulingGroup\":{\"podGroupName\":\"g\"}}")),
                                NULL),
                   STORE_OK);
  assert_int_equal(store_create(s, test_obj(POD("default", "p3", "{\"nodeName\":\"n1\"}")), NULL), STORE_OK);
  store_query on_node = {.kind = KIND_POD, .index = STORE_INDEX_POD_NODE, .key = "n1"};
  store_query in_group = {.kind = KIND_POD, .index = STORE_INDEX_POD_GROUP, .namespace_ = "default", .key = "g"};
  expect_names(s, on_node, "p3");
  expect_names(s, in_group, "p1");
  in_group.namespace_ = "other";
  expect_names(s, in_group, "p2");

  /* Binding p1 to n1 files it under the node. */
  assert_int_equal(store_update(s, test_obj(POD("default", "p1", "{\"nodeName\":\"n1\",\"schedulingGroup\":{"
                                                                 "\"podGroupName\":\"g\"}}")),
                                NULL),
                   STORE_OK);
  expect_names(s, on_node, "p1,p3");
  /* A namespace filter applies on top of an index. */
  on_node.namespace_ = "other";
  expect_names(s, on_node, "");
  store_close(s);
}

static void queries_that_cannot_be_answered(void **state) {
  (void)state;
  store *s = test_store_open(16);
  store_list l;
  store_query bad[] = {
      {.kind = KIND_POD, .index = STORE_INDEX_POD_GROUP, .key = "g"}, /* no namespace */
      {.kind = KIND_POD, .index = STORE_INDEX_SLICE_NODE, .key = "n"}, /* index of another kind */
      {.kind = KIND_RESOURCE_SLICE, .index = STORE_INDEX_SLICE_POOL, .key = "d"}, /* no pool */
      {.kind = KIND_COUNT},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    assert_int_equal(store_list_query(s, &bad[i], &l), STORE_INVALID);
    assert_int_equal(l.n, 0);
  }
  store_close(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(slices_by_pool_and_node),
      cmocka_unit_test(claims_by_owner),
      cmocka_unit_test(pods_by_node_and_group),
      cmocka_unit_test(queries_that_cannot_be_answered),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
