/* test_store_etcd_layout.c: the etcd backend's pieces that need no etcd:
 * kube-apiserver's keys (prefixes, scope, the Events both groups share),
 * values in the storage version without resourceVersion, reading them
 * back, the gateway's replies, a memory store fed with etcd's
 * revisions (gaps included) as the cache is, and one restored out of
 * resourceVersion order as the SQLite backend restores. */
#include "store/etcd_json.h"
#include "store/etcd_layout.h"
#include "store/memory_feed.h"
#include "store/memory_restore.h"
#include "test_store.h"

static void keys_as_kube_apiserver(void **state) {
  (void)state;
  struct {
    api_kind kind;
    const char *ns, *name, *key;
  } cases[] = {
      {KIND_NODE, NULL, "n1", "/registry/minions/n1"},
      {KIND_SERVICE, "default", "s", "/registry/services/specs/default/s"},
      {KIND_REPLICATION_CONTROLLER, "ns", "rc", "/registry/controllers/ns/rc"},
      {KIND_RESOURCE_CLAIM, "ns", "c", "/registry/resourceclaims/ns/c"},
      {KIND_DEVICE_CLASS, NULL, "gpu", "/registry/deviceclasses/gpu"},
      {KIND_POD_GROUP, "ns", "g", "/registry/podgroups/ns/g"},
      {KIND_CLUSTER_ROLE_BINDING, NULL, "system:x", "/registry/clusterrolebindings/system:x"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *key = etcd_key(cases[i].kind, cases[i].ns, cases[i].name);
    assert_string_equal(key, cases[i].key);
    api_kind kind;
    char *ns = NULL, *name = NULL;
    assert_true(etcd_key_parse(key, &kind, &ns, &name));
    assert_int_equal(kind, cases[i].kind);
    assert_string_equal(name, cases[i].name);
    if (cases[i].ns) assert_string_equal(ns, cases[i].ns);
    else assert_null(ns);
    free(ns);
    free(name);
    free(key);
  }
}

static void keys_that_are_not_dras(void **state) {
  (void)state;
  const char *keys[] = {"/registry/configmaps/ns/x", "/registry/resourceclaims/ns", "/registry/minions/a/b",
                        "/registry/resourceclaims/ns/a/b", "compact_rev_key", "/registry/resourceclaims//x"};
  for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
    api_kind kind;
    char *ns = NULL, *name = NULL;
    assert_false(etcd_key_parse(keys[i], &kind, &ns, &name));
  }
}

static void values_without_resource_version(void **state) {
  (void)state;
  api_object *o = test_with_rv(CLAIM("ns", "c"), "42");
  char *value = etcd_value(o);
  assert_null(strstr(value, "resourceVersion"));
  assert_non_null(strstr(value, "\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\""));
  char why[128];
  api_object *back = etcd_value_decode("/registry/resourceclaims/ns/c", value, strlen(value), why, sizeof why);
  assert_non_null(back);
  assert_int_equal(back->info->kind, KIND_RESOURCE_CLAIM);
  assert_null(etcd_value_decode("/registry/resourceclaims/ns/other", value, strlen(value), why, sizeof why));
  assert_string_equal(why, "the object is not the one its key names");
  assert_null(etcd_value_decode("/registry/pods/ns/c", value, strlen(value), why, sizeof why));
  api_object_free(back);
  api_object_free(o);
  free(value);

  api_object *rule = test_obj("{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"DeviceTaintRule\",\"metadata\":"
                              "{\"name\":\"t\"},\"spec\":{\"taint\":{\"key\":\"k\",\"effect\":\"NoSchedule\"}}}");
  value = etcd_value(rule);
  assert_non_null(strstr(value, "\"apiVersion\":\"resource.k8s.io/v1beta2\""));
  back = etcd_value_decode("/registry/devicetaintrules/t", value, strlen(value), why, sizeof why);
  assert_non_null(back);
  api_object_free(back);
  api_object_free(rule);
  free(value);

  /* an Event written through events.k8s.io/v1 is stored as core v1, as
   * kube-apiserver stores it; one in etcd in events.k8s.io/v1 still reads */
  api_object *ev = test_obj("{\"apiVersion\":\"events.k8s.io/v1\",\"kind\":\"Event\",\"metadata\":{\"name\":\"e\","
                            "\"namespace\":\"ns\"},\"note\":\"n\",\"regarding\":{\"name\":\"p\"}}");
  value = etcd_value(ev);
  assert_non_null(strstr(value, "\"apiVersion\":\"v1\",\"kind\":\"Event\""));
  assert_non_null(strstr(value, "\"involvedObject\":{\"name\":\"p\"}"));
  assert_non_null(strstr(value, "\"message\":\"n\""));
  free(value);
  const char *events_v1 = "{\"apiVersion\":\"events.k8s.io/v1\",\"kind\":\"Event\",\"metadata\":{\"name\":\"e\","
                          "\"namespace\":\"ns\"},\"note\":\"n\"}";
  back = etcd_value_decode("/registry/events/ns/e", events_v1, strlen(events_v1), why, sizeof why);
  assert_non_null(back);
  assert_int_equal(back->info->kind, KIND_EVENT);
  api_object_free(back);
  api_object_free(ev);
}

static void gateway_replies(void **state) {
  (void)state;
  etcd_reply r;
  strbuf err = STRBUF_INIT;
  /* "/registry/x" = L3JlZ2lzdHJ5L3g=, "hello" = aGVsbG8= */
  const char *failed_txn = "{\"header\":{\"revision\":\"2\"},\"responses\":[{\"response_range\":{\"kvs\":[{\"key\":"
                           "\"L3JlZ2lzdHJ5L3g=\",\"create_revision\":\"2\",\"mod_revision\":\"2\",\"version\":\"1\","
                           "\"value\":\"aGVsbG8=\"}],\"count\":\"1\"}}]}";
  assert_true(etcd_reply_parse(failed_txn, strlen(failed_txn), &r, &err));
  assert_false(r.succeeded);
  assert_int_equal(r.revision, 2);
  assert_int_equal(r.n_kvs, 1);
  assert_string_equal(r.kvs[0].key, "/registry/x");
  assert_string_equal(r.kvs[0].value, "hello");
  assert_int_equal(r.kvs[0].mod_revision, 2);
  etcd_reply_free(&r);
  const char *watch = "{\"result\":{\"header\":{\"revision\":\"3\"},\"events\":[{\"type\":\"DELETE\",\"kv\":"
                      "{\"key\":\"L3JlZ2lzdHJ5L3g=\",\"mod_revision\":\"3\"}}]}}";
  assert_true(etcd_reply_parse(watch, strlen(watch), &r, &err));
  assert_int_equal(r.n_events, 1);
  assert_true(r.events[0].deleted);
  assert_int_equal(r.events[0].kv.mod_revision, 3);
  etcd_reply_free(&r);
  const char *compacted = "{\"result\":{\"canceled\":true,\"compact_revision\":\"2\"}}";
  assert_true(etcd_reply_parse(compacted, strlen(compacted), &r, &err));
  assert_true(r.canceled);
  assert_int_equal(r.compact_revision, 2);
  etcd_reply_free(&r);
  /* a snapshot stream's messages: a piece, and an error as the gateway streams it */
  const char *piece = "{\"result\":{\"remaining_bytes\":\"229376\",\"blob\":\"aGVsbG8=\",\"version\":\"3.6.0\"}}";
  assert_true(etcd_reply_parse(piece, strlen(piece), &r, &err));
  assert_int_equal(r.remaining_bytes, 229376);
  assert_int_equal(r.blob_len, 5);
  assert_memory_equal(r.blob, "hello", 5);
  etcd_reply_free(&r);
  const char *stream_error = "{\"error\":{\"grpc_code\":9,\"http_code\":400,\"message\":\"etcdserver: no leader\"}}";
  assert_true(etcd_reply_parse(stream_error, strlen(stream_error), &r, &err));
  assert_string_equal(r.error, "etcdserver: no leader");
  assert_null(r.blob);
  etcd_reply_free(&r);
  /* a unary call's error: etcd 3.4's gateway (grpc-gateway v1) sends
   * "error" and "message", 3.6's (v2) "message" alone */
  const char *errors[] = {"{\"error\":\"etcdserver: mvcc: required revision has been compacted\",\"message\":"
                          "\"etcdserver: mvcc: required revision has been compacted\",\"code\":11}",
                          "{\"code\":11,\"message\":\"etcdserver: mvcc: required revision has been compacted\"}"};
  for (size_t i = 0; i < 2; i++) {
    assert_true(etcd_reply_parse(errors[i], strlen(errors[i]), &r, &err));
    assert_string_equal(r.error, "etcdserver: mvcc: required revision has been compacted");
    etcd_reply_free(&r);
  }
  const char *bad[] = {"[]", "{\"kvs\":[{\"key\":\"not base64!\"}]}", "{\"header\":{\"revision\":\"x\"}}", "nope",
                       "{\"blob\":\"not base64!\"}", "{\"blob\":1}", "{\"remaining_bytes\":\"x\"}"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) assert_false(etcd_reply_parse(bad[i], strlen(bad[i]), &r, &err));
  sb_free(&err);
}

static void count(void *user, const store_event *ev) {
  (void)ev;
  (*(int *)user)++;
}

/* A durable backend restores rows in its table's order (sqlite.c): of two
 * rows of one key the later resourceVersion stays, whichever comes first. */
static void restore_keeps_the_later_version(void **state) {
  (void)state;
  store *s = test_store_open(16);
  store_memory_restore(s, test_obj(CLAIM_FINALIZED("ns", "a", "[\"later\"]")), 7, 3);
  store_memory_restore(s, test_obj(CLAIM("ns", "a")), 3, 3);
  store_memory_restore(s, test_obj(CLAIM("ns", "b")), 4, 4);
  store_memory_restore(s, test_obj(CLAIM_FINALIZED("ns", "b", "[\"later\"]")), 6, 4);
  const char *const names[] = {"a", "b"};
  const uint64_t rvs[] = {7, 6};
  for (size_t i = 0; i < 2; i++) {
    store_obj *o = NULL;
    assert_int_equal(store_get(s, KIND_RESOURCE_CLAIM, "ns", names[i], &o), STORE_OK);
    assert_int_equal(o->rv, rvs[i]);
    assert_int_equal(store_obj_meta(o)->finalizers.n, 1);
    store_obj_unref(o);
  }
  assert_int_equal(store_revision(s), 7);
  store_close(s);
}

/* The cache: fed with etcd's revisions, which skip numbers; a watch from
 * any of them resumes, one from before the start is Expired. */
static void fed_with_gaps(void **state) {
  (void)state;
  store *s = test_store_open(16);
  store_memory_restore(s, test_obj(CLAIM("ns", "a")), 5, 5);
  store_memory_set_revision(s, 9);
  store_memory_feed(s, KIND_RESOURCE_CLAIM, "ns", "b", test_obj(CLAIM("ns", "b")), 12, 12);
  store_memory_feed(s, KIND_RESOURCE_CLAIM, "ns", "a", test_obj(CLAIM_FINALIZED("ns", "a", "[\"f\"]")), 15, 5);
  store_memory_feed(s, KIND_RESOURCE_CLAIM, "ns", "b", NULL, 20, 0);
  store_memory_feed(s, KIND_RESOURCE_CLAIM, "ns", "b", test_obj(CLAIM("ns", "b")), 20, 20); /* seen: dropped */
  /* one revision that changes three keys (a lease expiring deletes its
   * keys at once): all three are fed, a replay of one is dropped */
  store_memory_feed(s, KIND_RESOURCE_CLAIM, "ns", "c", test_obj(CLAIM("ns", "c")), 21, 21);
  store_memory_feed(s, KIND_RESOURCE_CLAIM, "ns", "d", test_obj(CLAIM("ns", "d")), 21, 21);
  assert_int_equal(store_get(s, KIND_RESOURCE_CLAIM, "ns", "d", NULL), STORE_OK);
  store_memory_feed(s, KIND_RESOURCE_CLAIM, "ns", "c", NULL, 22, 0);
  store_memory_feed(s, KIND_RESOURCE_CLAIM, "ns", "d", NULL, 22, 0);
  store_memory_feed(s, KIND_RESOURCE_CLAIM, "ns", "d", test_obj(CLAIM("ns", "d")), 22, 22); /* seen: dropped */
  store_list list = {0};
  assert_int_equal(store_list_query(s, &(store_query){.kind = KIND_RESOURCE_CLAIM}, &list), STORE_OK);
  assert_int_equal(list.n, 1); /* a */
  store_list_free(&list);
  assert_int_equal(store_revision(s), 22);
  store_obj *o = NULL;
  assert_int_equal(store_get(s, KIND_RESOURCE_CLAIM, "ns", "a", &o), STORE_OK);
  assert_int_equal(o->rv, 15);
  assert_int_equal(o->created_rv, 5);
  assert_string_equal(store_obj_meta(o)->resource_version, "15");
  store_obj_unref(o);
  assert_int_equal(store_get(s, KIND_RESOURCE_CLAIM, "ns", "b", NULL), STORE_NOT_FOUND);
  int n = 0;
  uint64_t id;
  assert_int_equal(store_watch(s, 10, count, &n, &id), STORE_OK); /* 10 is in a gap */
  assert_int_equal(n, 7);
  store_unwatch(s, id);
  assert_int_equal(store_watch(s, 8, count, &n, &id), STORE_GONE);
  store_close(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(keys_as_kube_apiserver),   cmocka_unit_test(keys_that_are_not_dras),
      cmocka_unit_test(values_without_resource_version), cmocka_unit_test(gateway_replies),
      cmocka_unit_test(restore_keeps_the_later_version),
      cmocka_unit_test(fed_with_gaps),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
