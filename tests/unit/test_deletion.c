/* test_deletion.c: the registry's delete, the garbage collector and the
 * namespace controller on a memory store, without HTTP (server/deletion.h,
 * gc.h, namespace_controller.h): orphan and foreground propagation with
 * blockOwnerDeletion, and a namespace emptied with upstream's conditions
 * before its `kubernetes` finalizer goes. */
#include "test_store.h"

#include "server/deletion.h"
#include "server/gc.h"
#include "server/namespace_controller.h"

#define OWNER_REF(kind, name, uid, block)                                                                        \
  "{\"apiVersion\":\"apps/v1\",\"kind\":\"" kind "\",\"name\":\"" name "\",\"uid\":\"" uid "\",\"controller\":true," \
  "\"blockOwnerDeletion\":" block "}"
#define DEPLOYMENT(name, uid, finalizers)                                                                     \
  "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"" name "\",\"namespace\":\"ns\"," \
  "\"uid\":\"" uid "\",\"finalizers\":" finalizers "},\"spec\":{\"selector\":{\"matchLabels\":{\"a\":\"b\"}},"   \
  "\"template\":{\"metadata\":{\"labels\":{\"a\":\"b\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]}}}}"
#define REPLICA_SET(name, uid, owner_refs)                                                                     \
  "{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\",\"metadata\":{\"name\":\"" name "\",\"namespace\":\"ns\"," \
  "\"uid\":\"" uid "\",\"ownerReferences\":" owner_refs "},\"spec\":{\"selector\":{\"matchLabels\":{\"a\":\"b\"}},"  \
  "\"template\":{\"metadata\":{\"labels\":{\"a\":\"b\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]}}}}"

static void create(store *st, const char *text) { assert_int_equal(store_create(st, test_obj(text), NULL), STORE_OK); }

static void delete_with(store *st, api_kind kind, const char *ns, const char *name, propagation_policy p) {
  delete_options o = {.propagation = p};
  deletion_outcome out;
  srv_delete_object(st, kind, ns, name, &o, &out);
  assert_int_equal(out.st, STORE_OK);
  deletion_outcome_free(&out);
}

static bool exists(store *st, api_kind kind, const char *ns, const char *name) {
  store_obj *o = NULL;
  bool there = store_get(st, kind, ns, name, &o) == STORE_OK;
  store_obj_unref(o);
  return there;
}

/* Runs the collector until it has nothing left to do. */
static void collect(garbage_collector *g, namespace_controller *c) {
  for (int i = 0; i < 50; i++) {
    size_t work = gc_collect(g) + (c ? nsc_sync(c) : 0);
    if (!work) return;
  }
  fail_msg("the collector does not settle");
}

static void test_orphan(void **state) {
  (void)state;
  store *st = test_store_open(0);
  garbage_collector *g = gc_new(st);
  create(st, DEPLOYMENT("d", "u-d", "[]"));
  create(st, REPLICA_SET("rs", "u-rs", "[" OWNER_REF("Deployment", "d", "u-d", "true") "]"));
  delete_with(st, KIND_DEPLOYMENT, "ns", "d", PROPAGATION_ORPHAN);
  assert_true(exists(st, KIND_DEPLOYMENT, "ns", "d")); /* kept by the orphan finalizer */
  collect(g, NULL);
  assert_false(exists(st, KIND_DEPLOYMENT, "ns", "d"));
  store_obj *rs = NULL;
  assert_int_equal(store_get(st, KIND_REPLICA_SET, "ns", "rs", &rs), STORE_OK);
  assert_int_equal(store_obj_meta(rs)->owner_references.n, 0);
  store_obj_unref(rs);
  gc_free(g);
  store_close(st);
}

static void test_foreground_waits_for_blocking_dependents(void **state) {
  (void)state;
  store *st = test_store_open(0);
  garbage_collector *g = gc_new(st);
  create(st, DEPLOYMENT("d", "u-d", "[]"));
  /* the blocking one is held by a finalizer of its own */
  create(st, "{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\",\"metadata\":{\"name\":\"held\",\"namespace\":\"ns\","
             "\"uid\":\"u-held\",\"finalizers\":[\"example.com/hold\"],\"ownerReferences\":[" OWNER_REF(
                 "Deployment", "d", "u-d", "true") "]},\"spec\":{\"selector\":{\"matchLabels\":{\"a\":\"b\"}},"
             "\"template\":{\"metadata\":{\"labels\":{\"a\":\"b\"}},\"spec\":{\"containers\":[{\"name\":\"c\","
             "\"image\":\"x\"}]}}}}");
  create(st, REPLICA_SET("free", "u-free", "[" OWNER_REF("Deployment", "d", "u-d", "false") "]"));
  delete_with(st, KIND_DEPLOYMENT, "ns", "d", PROPAGATION_FOREGROUND);
  collect(g, NULL);
  assert_false(exists(st, KIND_REPLICA_SET, "ns", "free"));
  assert_true(exists(st, KIND_REPLICA_SET, "ns", "held"));
  assert_true(exists(st, KIND_DEPLOYMENT, "ns", "d")); /* waits for the blocking dependent */
  /* its finalizer done, the dependent goes, then the owner */
  store_obj *held = NULL;
  assert_int_equal(store_get(st, KIND_REPLICA_SET, "ns", "held", &held), STORE_OK);
  api_object *next = api_object_clone(held->object);
  api_object_meta(next)->finalizers.n = 0;
  store_obj_unref(held);
  assert_int_equal(store_update(st, next, NULL), STORE_OK);
  collect(g, NULL);
  assert_false(exists(st, KIND_REPLICA_SET, "ns", "held"));
  assert_false(exists(st, KIND_DEPLOYMENT, "ns", "d"));
  gc_free(g);
  store_close(st);
}

static const char *ns_condition(store *st, const char *type, const char *what) {
  static char buf[512];
  store_obj *o = NULL;
  if (store_get(st, KIND_NAMESPACE, NULL, "ns", &o) != STORE_OK) return "gone";
  const namespace_obj *ns = o->object->typed;
  size_t i;
  json_t *c;
  buf[0] = 0;
  json_array_foreach(json_object_get(ns->status, "conditions"), i, c) {
    if (strcmp(json_string_value(json_object_get(c, "type")), type)) continue;
    snprintf(buf, sizeof buf, "%s", json_string_value(json_object_get(c, what)));
  }
  store_obj_unref(o);
  return buf;
}

static void test_namespace_emptied(void **state) {
  (void)state;
  store *st = test_store_open(0);
  garbage_collector *g = gc_new(st);
  namespace_controller *c = nsc_new(st);
  create(st, "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"ns\"},"
             "\"spec\":{\"finalizers\":[\"kubernetes\"]},\"status\":{\"phase\":\"Active\"}}");
  create(st, DEPLOYMENT("d", "u-d", "[]"));
  create(st, CLAIM_FINALIZED("ns", "held", "[\"example.com/hold\"]"));
  delete_with(st, KIND_NAMESPACE, NULL, "ns", PROPAGATION_UNSET);
  collect(g, c);
  assert_false(exists(st, KIND_DEPLOYMENT, "ns", "d"));
  assert_true(exists(st, KIND_RESOURCE_CLAIM, "ns", "held"));
  assert_string_equal(ns_condition(st, "NamespaceContentRemaining", "message"),
                      "Some resources are remaining: resourceclaims.resource.k8s.io has 1 resource instances");
  assert_string_equal(ns_condition(st, "NamespaceFinalizersRemaining", "reason"), "SomeFinalizersRemain");
  assert_string_equal(ns_condition(st, "NamespaceDeletionContentFailure", "status"), "False");
  store_obj *claim = NULL;
  assert_int_equal(store_get(st, KIND_RESOURCE_CLAIM, "ns", "held", &claim), STORE_OK);
  api_object *next = api_object_clone(claim->object);
  api_object_meta(next)->finalizers.n = 0;
  store_obj_unref(claim);
  assert_int_equal(store_update(st, next, NULL), STORE_OK);
  collect(g, c);
  assert_string_equal(ns_condition(st, "NamespaceContentRemaining", "status"), "gone");
  nsc_free(c);
  gc_free(g);
  store_close(st);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_orphan),
      cmocka_unit_test(test_foreground_waits_for_blocking_dependents),
      cmocka_unit_test(test_namespace_emptied),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
