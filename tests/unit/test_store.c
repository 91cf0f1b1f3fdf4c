/* test_store.c: the in-memory store's contract (store.h): create, get,
 * update, delete and their Kubernetes errors, server-set metadata
 * (resourceVersion, uid, generation, timestamps, generateName), finalizers,
 * listing order, namespaces. Indexes and events: test_store_watch.c. */
#include "test_store.h"

static void create_get_and_server_set_fields(void **state) {
  (void)state;
  store *s = test_store_open(16);
  store_obj *o = NULL;
  assert_int_equal(store_create(s, test_obj(CLAIM("default", "c1")), &o), STORE_OK);
  const object_meta *m = store_obj_meta(o);
  assert_string_equal(m->resource_version, "1");
  assert_int_equal(o->rv, 1);
  assert_string_equal(m->uid, "d84d7bb3-12d8-57fb-b500-41cd297f1505");
  assert_string_equal(m->creation_timestamp, TEST_NOW_TEXT);
  assert_false(m->generation_set); /* ResourceClaim has no generation */

  store_obj *got = NULL;
  assert_int_equal(store_get(s, KIND_RESOURCE_CLAIM, "default", "c1", &got), STORE_OK);
  assert_ptr_equal(got, o);
  assert_int_equal(store_get(s, KIND_RESOURCE_CLAIM, "other", "c1", NULL), STORE_NOT_FOUND);
  assert_int_equal(store_get(s, KIND_POD, "default", "c1", NULL), STORE_NOT_FOUND);

  store_obj *cls = NULL;
  assert_int_equal(store_create(s, test_obj(CLASS("gpu", "true")), &cls), STORE_OK);
  assert_true(store_obj_meta(cls)->generation_set);
  assert_int_equal(store_obj_meta(cls)->generation, 1);
  assert_string_equal(store_obj_meta(cls)->uid, "5aa384db-0c12-5a5a-a981-5c77532524f5");
  assert_int_equal(cls->rv, 2);
  store_obj_unref(cls);
  store_obj_unref(got);
  store_obj_unref(o);
  store_close(s);
}

static void given_metadata_is_kept(void **state) {
  (void)state;
  store *s = test_store_open(16);
  store_obj *o = NULL;
  assert_int_equal(store_create(s, test_obj("{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"DeviceClass\","
                                            "\"metadata\":{\"name\":\"x\",\"uid\":\"u-1\",\"generation\":7,"
                                            "\"resourceVersion\":\"99\",\"creationTimestamp\":"
                                            "\"2020-01-01T00:00:00Z\"}}"),
                                &o),
                   STORE_OK);
  const object_meta *m = store_obj_meta(o);
  assert_string_equal(m->uid, "u-1");
  assert_int_equal(m->generation, 7);
  assert_string_equal(m->creation_timestamp, "2020-01-01T00:00:00Z");
  assert_string_equal(m->resource_version, "1"); /* always the store's */
  store_obj_unref(o);
  store_close(s);
}

static void create_errors_leave_the_object_to_the_caller(void **state) {
  (void)state;
  store *s = test_store_open(16);
  assert_int_equal(store_create(s, test_obj(CLAIM("default", "c1")), NULL), STORE_OK);
  api_object *dup = test_obj(CLAIM("default", "c1"));
  assert_int_equal(store_create(s, dup, NULL), STORE_ALREADY_EXISTS);
  api_object_free(dup);

  const char *invalid[] = {
      "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":{\"name\":\"c\"}}",
      ("{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"DeviceClass\",\"metadata\":{\"name\":\"c\","
       "\"namespace\":\"default\"}}"),
      "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{}}",
  };
  for (size_t i = 0; i < sizeof invalid / sizeof *invalid; i++) {
    api_object *bad = test_obj(invalid[i]);
    assert_int_equal(store_create(s, bad, NULL), STORE_INVALID);
    api_object_free(bad);
  }
  assert_int_equal(store_revision(s), 1);
  store_close(s);
}

static void update_conflicts_and_versions(void **state) {
  (void)state;
  store *s = test_store_open(16);
  store_obj *v1 = NULL, *v2 = NULL, *v3 = NULL;
  assert_int_equal(store_create(s, test_obj(CLASS("gpu", "true")), &v1), STORE_OK);

  /* Stale resourceVersion and foreign uid are conflicts; nothing changes. */
  api_object *stale = test_with_rv(CLASS("gpu", "false"), "0");
  assert_int_equal(store_update(s, stale, NULL), STORE_CONFLICT);
  api_object_free(stale);
  api_object *other_uid = test_obj(CLASS("gpu", "false"));
  api_object_meta(other_uid)->uid = arena_strdup(other_uid->arena, "not-the-uid");
  assert_int_equal(store_update(s, other_uid, NULL), STORE_CONFLICT);
  api_object_free(other_uid);
  api_object *missing = test_obj(CLASS("cpu", "false"));
  assert_int_equal(store_update(s, missing, NULL), STORE_NOT_FOUND);
  api_object_free(missing);
  assert_int_equal(store_revision(s), 1);

  /* A spec change with the current rv: new rv, generation 2, uid and
   * creationTimestamp carried over. */
  assert_int_equal(store_update(s, test_with_rv(CLASS("gpu", "false"), "1"), &v2), STORE_OK);
  assert_int_equal(v2->rv, 2);
  assert_int_equal(store_obj_meta(v2)->generation, 2);
  assert_string_equal(store_obj_meta(v2)->uid, store_obj_meta(v1)->uid);
  assert_string_equal(store_obj_meta(v2)->creation_timestamp, TEST_NOW_TEXT);
  assert_int_equal(v2->created_rv, 1);
  /* The old version stays readable while referenced. */
  assert_string_equal(store_obj_meta(v1)->resource_version, "1");
  assert_int_equal(store_obj_meta(v1)->generation, 1);

  /* A metadata-only change: new rv, same generation (no rv given: unconditional). */
  assert_int_equal(store_update(s, test_obj(CLASS_LABELLED("gpu", "false", "tier", "a")), &v3), STORE_OK);
  assert_int_equal(v3->rv, 3);
  assert_int_equal(store_obj_meta(v3)->generation, 2);

  /* An update that changes nothing stores nothing. */
  store_obj *same = NULL;
  assert_int_equal(store_update(s, test_with_rv(CLASS_LABELLED("gpu", "false", "tier", "a"), "3"), &same),
                   STORE_OK);
  assert_ptr_equal(same, v3);
  assert_int_equal(store_revision(s), 3);
  store_obj_unref(same);
  store_obj_unref(v1);
  store_obj_unref(v2);
  store_obj_unref(v3);
  store_close(s);
}

static void delete_and_recreate(void **state) {
  (void)state;
  store *s = test_store_open(16);
  assert_int_equal(store_delete(s, KIND_RESOURCE_CLAIM, "default", "c1", NULL, NULL), STORE_NOT_FOUND);
  assert_int_equal(store_create(s, test_obj(CLAIM("default", "c1")), NULL), STORE_OK);
  store_preconditions wrong_uid = {.uid = "nope"}, wrong_rv = {.resource_version = "7"};
  assert_int_equal(store_delete(s, KIND_RESOURCE_CLAIM, "default", "c1", &wrong_uid, NULL), STORE_CONFLICT);
  assert_int_equal(store_delete(s, KIND_RESOURCE_CLAIM, "default", "c1", &wrong_rv, NULL), STORE_CONFLICT);
  store_preconditions right = {.uid = "d84d7bb3-12d8-57fb-b500-41cd297f1505", .resource_version = "1"};
  store_obj *gone = NULL;
  assert_int_equal(store_delete(s, KIND_RESOURCE_CLAIM, "default", "c1", &right, &gone), STORE_OK);
  assert_string_equal(store_obj_meta(gone)->resource_version, "2");
  assert_int_equal(store_get(s, KIND_RESOURCE_CLAIM, "default", "c1", NULL), STORE_NOT_FOUND);

  /* Re-created: a new uid (the "#1" incarnation), a new rv. */
  store_obj *again = NULL;
  assert_int_equal(store_create(s, test_obj(CLAIM("default", "c1")), &again), STORE_OK);
  assert_string_equal(store_obj_meta(again)->uid, "4c8f7419-17f7-5c82-8cc1-ebf38d80f687");
  assert_int_equal(again->rv, 3);
  store_obj_unref(again);
  store_obj_unref(gone);
  store_close(s);
}

static void finalizers_defer_deletion(void **state) {
  (void)state;
  store *s = test_store_open(16);
  assert_int_equal(store_create(s, test_obj(CLAIM_FINALIZED("default", "c1", "[\"f\"]")), NULL), STORE_OK);
  store_obj *marked = NULL, *again = NULL;
  assert_int_equal(store_delete(s, KIND_RESOURCE_CLAIM, "default", "c1", NULL, &marked), STORE_OK);
  assert_string_equal(store_obj_meta(marked)->deletion_timestamp, TEST_NOW_TEXT);
  assert_int_equal(store_obj_meta(marked)->deletion_grace_period_seconds, 0);
  assert_int_equal(marked->rv, 2);
  /* A second delete changes nothing. */
  assert_int_equal(store_delete(s, KIND_RESOURCE_CLAIM, "default", "c1", NULL, &again), STORE_OK);
  assert_ptr_equal(again, marked);
  /* Updates keep the deletionTimestamp; removing the last finalizer deletes. */
  store_obj *kept = NULL;
  assert_int_equal(store_update(s, test_obj(CLAIM_FINALIZED("default", "c1", "[\"f\",\"g\"]")), &kept), STORE_OK);
  assert_string_equal(store_obj_meta(kept)->deletion_timestamp, TEST_NOW_TEXT);
  store_obj *gone = NULL;
  assert_int_equal(store_update(s, test_obj(CLAIM_FINALIZED("default", "c1", "[]")), &gone), STORE_OK);
  assert_int_equal(gone->rv, 4);
  assert_int_equal(store_get(s, KIND_RESOURCE_CLAIM, "default", "c1", NULL), STORE_NOT_FOUND);
  store_obj_unref(kept);
  store_obj_unref(gone);
  store_obj_unref(again);
  store_obj_unref(marked);
  store_close(s);
}

static void generate_name_is_deterministic(void **state) {
  (void)state;
  char first[2][64];
  for (int run = 0; run < 2; run++) {
    store *s = test_store_open(16);
    store_obj *a = NULL, *b = NULL;
    const char *gen = "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":{"
                      "\"generateName\":\"pod-gpu-\",\"namespace\":\"default\"}}";
    assert_int_equal(store_create(s, test_obj(gen), &a), STORE_OK);
    assert_int_equal(store_create(s, test_obj(gen), &b), STORE_OK);
    const char *na = store_obj_meta(a)->name, *nb = store_obj_meta(b)->name;
    assert_int_equal(strlen(na), strlen("pod-gpu-") + 5);
    assert_memory_equal(na, "pod-gpu-", 8);
    assert_int_equal(strspn(na + 8, "bcdfghjklmnpqrstvwxz2456789"), 5);
    assert_string_not_equal(na, nb);
    snprintf(first[run], sizeof first[run], "%s", na);
    store_obj_unref(a);
    store_obj_unref(b);
    store_close(s);
  }
  assert_string_equal(first[0], first[1]);
}

static const char *name_at(const store_list *l, size_t i) { return store_obj_meta(l->items[i])->name; }

static void list_orders_and_namespaces(void **state) {
  (void)state;
  store *s = test_store_open(16);
  assert_int_equal(store_create(s, test_obj(CLAIM("b", "z")), NULL), STORE_OK);
  assert_int_equal(store_create(s, test_obj(CLAIM("a", "y")), NULL), STORE_OK);
  assert_int_equal(store_create(s, test_obj(CLAIM("b", "a")), NULL), STORE_OK);
  assert_int_equal(store_create(s, test_obj(CLASS("gpu", "true")), NULL), STORE_OK);
  /* An update keeps the creation order. */
  assert_int_equal(store_update(s, test_obj(CLAIM_FINALIZED("b", "z", "[\"f\"]")), NULL), STORE_OK);

  store_list l;
  store_query q = {.kind = KIND_RESOURCE_CLAIM, .order = STORE_BY_NAME};
  assert_int_equal(store_list_query(s, &q, &l), STORE_OK);
  assert_int_equal(l.n, 3);
  assert_int_equal(l.rv, 5);
  assert_string_equal(name_at(&l, 0), "y"); /* namespace a */
  assert_string_equal(name_at(&l, 1), "a"); /* namespace b */
  assert_string_equal(name_at(&l, 2), "z");
  store_list_free(&l);

  q.order = STORE_BY_CREATION;
  assert_int_equal(store_list_query(s, &q, &l), STORE_OK);
  assert_string_equal(name_at(&l, 0), "z");
  assert_string_equal(name_at(&l, 1), "y");
  assert_string_equal(name_at(&l, 2), "a");
  store_list_free(&l);

  q.namespace_ = "b";
  q.order = STORE_BY_NAME;
  assert_int_equal(store_list_query(s, &q, &l), STORE_OK);
  assert_int_equal(l.n, 2);
  assert_string_equal(name_at(&l, 0), "a");
  store_list_free(&l);

  store_query classes = {.kind = KIND_DEVICE_CLASS, .namespace_ = "ignored"};
  assert_int_equal(store_list_query(s, &classes, &l), STORE_OK);
  assert_int_equal(l.n, 1);
  store_list_free(&l);

  store_query empty = {.kind = KIND_POD};
  assert_int_equal(store_list_query(s, &empty, &l), STORE_OK);
  assert_int_equal(l.n, 0);
  store_list_free(&l);
  store_close(s);
}

/* "<name>@<rv>" of each listed object, joined by ",". */
static void expect_listed(store *s, api_kind kind, store_order order, const char *want) {
  store_list l;
  store_query q = {.kind = kind, .order = order};
  assert_int_equal(store_list_query(s, &q, &l), STORE_OK);
  char got[256] = "";
  for (size_t i = 0; i < l.n; i++)
    snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s@%s", i ? "," : "", name_at(&l, i),
             store_obj_meta(l.items[i])->resource_version);
  assert_string_equal(got, want);
  store_list_free(&l);
}

/* Lists reuse their order between changes: it must follow every one. */
static void list_orders_follow_changes(void **state) {
  (void)state;
  store *s = test_store_open(16);
  assert_int_equal(store_create(s, test_obj(CLASS("b", "true")), NULL), STORE_OK);
  assert_int_equal(store_create(s, test_obj(CLASS("c", "true")), NULL), STORE_OK);
  assert_int_equal(store_create(s, test_obj(CLASS("a", "true")), NULL), STORE_OK);
  expect_listed(s, KIND_DEVICE_CLASS, STORE_BY_NAME, "a@3,b@1,c@2");
  expect_listed(s, KIND_DEVICE_CLASS, STORE_BY_CREATION, "b@1,c@2,a@3");
  assert_int_equal(store_update(s, test_obj(CLASS("b", "false")), NULL), STORE_OK);
  expect_listed(s, KIND_DEVICE_CLASS, STORE_BY_NAME, "a@3,b@4,c@2");
  expect_listed(s, KIND_DEVICE_CLASS, STORE_BY_CREATION, "b@4,c@2,a@3");
  assert_int_equal(store_delete(s, KIND_DEVICE_CLASS, NULL, "a", NULL, NULL), STORE_OK);
  expect_listed(s, KIND_DEVICE_CLASS, STORE_BY_NAME, "b@4,c@2");
  expect_listed(s, KIND_DEVICE_CLASS, STORE_BY_CREATION, "b@4,c@2");
  assert_int_equal(store_create(s, test_obj(CLASS("bb", "true")), NULL), STORE_OK);
  assert_int_equal(store_update(s, test_obj(CLASS("c", "false")), NULL), STORE_OK);
  expect_listed(s, KIND_DEVICE_CLASS, STORE_BY_NAME, "b@4,bb@6,c@7");
  expect_listed(s, KIND_DEVICE_CLASS, STORE_BY_CREATION, "b@4,c@7,bb@6");
  expect_listed(s, KIND_NODE, STORE_BY_NAME, "");
  store_list l;
  store_query bad_order = {.kind = KIND_NODE, .order = STORE_ORDER_COUNT};
  assert_int_equal(store_list_query(s, &bad_order, &l), STORE_INVALID);
  store_close(s);
}

static void status_texts(void **state) {
  (void)state;
  const api_kind_info *claims = api_kind_info_of(KIND_RESOURCE_CLAIM), *pods = api_kind_info_of(KIND_POD);
  struct {
    store_status st;
    const api_kind_info *info;
    const char *name, *reason, *message;
  } cases[] = {
      {STORE_NOT_FOUND, claims, "x", "NotFound", "resourceclaims.resource.k8s.io \"x\" not found"},
      {STORE_ALREADY_EXISTS, pods, "p", "AlreadyExists", "pods \"p\" already exists"},
      {STORE_CONFLICT, claims, "x", "Conflict",
       "Operation cannot be fulfilled on resourceclaims.resource.k8s.io \"x\": the object has been modified; "
       "please apply your changes to the latest version and try again"},
      {STORE_INVALID, pods, "p", "Invalid", "Pod \"p\" is invalid: metadata.namespace: Required value"},
      {STORE_INVALID, claims, "", "Invalid",
       "ResourceClaim.resource.k8s.io \"\" is invalid: metadata.name: Required value: name or generateName is "
       "required"},
      {STORE_GONE, pods, "", "Expired", "too old resource version"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    assert_string_equal(store_status_reason(cases[i].st), cases[i].reason);
    char *msg = store_status_message(cases[i].st, cases[i].info, cases[i].name);
    assert_string_equal(msg, cases[i].message);
    free(msg);
  }
}

static void uuid_v5_matches_rfc_4122(void **state) {
  (void)state;
  static const unsigned char dns_namespace[16] = {0x6b, 0xa7, 0xb8, 0x10, 0x9d, 0xad, 0x11, 0xd1,
                                                  0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8};
  char out[UUID_TEXT_LEN + 1];
  uuid_v5(dns_namespace, "python.org", 10, out);
  assert_string_equal(out, "886313e1-3b8a-5372-9b90-0c9aee199e5d");
  store_object_uid(api_kind_info_of(KIND_NODE), NULL, "n1", 0, out);
  assert_string_equal(out, "bf4306e8-c442-541d-9308-ac047dff50a8");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(create_get_and_server_set_fields),
      cmocka_unit_test(given_metadata_is_kept),
      cmocka_unit_test(create_errors_leave_the_object_to_the_caller),
      cmocka_unit_test(update_conflicts_and_versions),
      cmocka_unit_test(delete_and_recreate),
      cmocka_unit_test(finalizers_defer_deletion),
      cmocka_unit_test(generate_name_is_deterministic),
      cmocka_unit_test(list_orders_and_namespaces),
      cmocka_unit_test(list_orders_follow_changes),
      cmocka_unit_test(status_texts),
      cmocka_unit_test(uuid_v5_matches_rfc_4122),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
