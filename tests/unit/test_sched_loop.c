/* test_sched_loop.c: the loop as the HTTP server drives it, through store
 * events only: objects created after the loop started are picked up; a pod
 * deleted later gives its device back and its generated claim is deleted; a
 * PodGroup deleted later releases and deletes the group's claim; a loop
 * started on a filled store replays what is there; a tolerated NoExecute
 * taint gives a deadline and evicts when the clock reaches it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "api/admission.h"
#include "load/objects.h"
#include "sched/loop.h"
#include "store/store.h"

static const char *cluster =
    "apiVersion: v1\nkind: Namespace\nmetadata: {name: ml}\n---\n"
    "apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\n---\n"
    "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\n"
    "spec:\n  selectors:\n  - cel: {expression: 'device.driver == \"gpu.example.com\"'}\n---\n"
    "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: node-1-gpus}\n"
    "spec:\n  driver: gpu.example.com\n  nodeName: node-1\n  pool: {name: node-1, generation: 1, resourceSliceCount: 1}\n"
    "  devices:\n  - name: gpu-0\n---\n"
    "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: gpu, namespace: ml}\n"
    "spec:\n  spec:\n    devices:\n      requests:\n      - name: gpu\n        exactly: {deviceClassName: gpu}\n---\n"
    "apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: job, namespace: ml}\n"
    "spec:\n  resourceClaims:\n  - {name: gpu, resourceClaimTemplateName: gpu}\n---\n";

static const char *pod_yaml(const char *name, bool grouped) {
  static char buf[1024];
  snprintf(buf, sizeof buf,
           "apiVersion: v1\nkind: Pod\nmetadata: {name: %s, namespace: ml}\nspec:\n%s"
           "  containers:\n  - {name: c, image: busybox}\n"
           "  resourceClaims:\n  - {name: gpu, resourceClaimTemplateName: gpu}\n",
           name, grouped ? "  schedulingGroup: {podGroupName: job}\n" : "");
  return buf;
}

static void create_all(store *st, const char *yaml) {
  object_set set = {0};
  strbuf err = STRBUF_INIT;
  assert_int_equal(objects_load_buffer("test", yaml, strlen(yaml), &set, &err), 0);
  admission_ctx ctx = {.now = "2026-01-01T00:00:00Z"};
  gates_default(&ctx.gates);
  for (size_t i = 0; i < set.n; i++) {
    errlist errs = {0};
    assert_true(admit_object(&ctx, ADMIT_CREATE, set.items[i].obj, NULL, &errs));
    errlist_free(&errs);
    assert_int_equal(store_create(st, set.items[i].obj, NULL), STORE_OK);
    set.items[i].obj = NULL;
  }
  object_set_free(&set);
  sb_free(&err);
}

static const char *node_of(store *st, const char *pod_name) {
  static char node[64];
  store_obj *o = NULL;
  if (store_get(st, KIND_POD, "ml", pod_name, &o) != STORE_OK) return "gone";
  const pod *p = o->object->typed;
  snprintf(node, sizeof node, "%s", p->spec.node_name ? p->spec.node_name : "");
  store_obj_unref(o);
  return node;
}

static size_t claims(store *st) {
  store_list lst = {0};
  store_query q = {.kind = KIND_RESOURCE_CLAIM, .order = STORE_BY_CREATION};
  store_list_query(st, &q, &lst);
  size_t n = lst.n;
  store_list_free(&lst);
  return n;
}

static int64_t fixed_clock(void *user) { return *(const int64_t *)user; }

static void test_pod_deleted_releases_device(void **state) {
  (void)state;
  int64_t now = 1767225600;
  store_options so = {.clock = fixed_clock, .clock_user = &now};
  store *st = store_memory_open(&so);
  sched_options opt = {.now = now};
  gates_default(&opt.gates);
  sched_loop *l = sched_loop_new(st, &opt);
  create_all(st, cluster);
  create_all(st, pod_yaml("first", false));
  create_all(st, pod_yaml("second", false));
  sched_loop_run(l);
  assert_string_equal(node_of(st, "first"), "node-1");
  assert_string_equal(node_of(st, "second"), "");
  assert_int_equal(claims(st), 3); /* two pod claims and the group's */
  assert_int_equal(store_delete(st, KIND_POD, "ml", "first", NULL, NULL), STORE_OK);
  sched_loop_run(l);
  assert_string_equal(node_of(st, "second"), "node-1");
  assert_int_equal(claims(st), 2); /* first's generated claim deleted */
  sched_loop_free(l);
  store_close(st);
}

static void test_group_deleted_releases_claim(void **state) {
  (void)state;
  int64_t now = 1767225600;
  store_options so = {.clock = fixed_clock, .clock_user = &now};
  store *st = store_memory_open(&so);
  create_all(st, cluster);
  create_all(st, pod_yaml("member", true));
  sched_options opt = {.now = now};
  gates_default(&opt.gates);
  sched_loop *l = sched_loop_new(st, &opt); /* replays the filled store */
  sched_loop_run(l);
  assert_string_equal(node_of(st, "member"), "node-1");
  assert_int_equal(claims(st), 1);
  assert_int_equal(store_delete(st, KIND_POD, "ml", "member", NULL, NULL), STORE_OK);
  sched_loop_run(l);
  assert_int_equal(claims(st), 1); /* the group keeps its claim while it exists */
  create_all(st, pod_yaml("outsider", false));
  sched_loop_run(l);
  assert_string_equal(node_of(st, "outsider"), ""); /* the group still holds the GPU */
  assert_int_equal(store_delete(st, KIND_POD_GROUP, "ml", "job", NULL, NULL), STORE_OK);
  sched_loop_run(l);
  assert_string_equal(node_of(st, "outsider"), "node-1");
  assert_int_equal(claims(st), 1); /* only outsider's */
  sched_loop_free(l);
  store_close(st);
}

static const char *tainted =
    "apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\n---\n"
    "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\n"
    "spec:\n  selectors:\n  - cel: {expression: 'device.driver == \"gpu.example.com\"'}\n---\n"
    "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: node-1-gpus}\n"
    "spec:\n  driver: gpu.example.com\n  nodeName: node-1\n  pool: {name: node-1, generation: 1, resourceSliceCount: 1}\n"
    "  devices:\n  - name: gpu-0\n    taints: [{key: broken, effect: NoExecute, timeAdded: '2026-01-01T00:00:00Z'}]\n---\n"
    "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c, namespace: ml}\nspec:\n  devices:\n"
    "    requests:\n    - name: gpu\n      exactly:\n        deviceClassName: gpu\n"
    "        tolerations: [{key: broken, operator: Exists, effect: NoExecute, tolerationSeconds: 60}]\n---\n"
    "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ml}\nspec:\n  containers:\n  - {name: c, image: busybox}\n"
    "  resourceClaims:\n  - {name: gpu, resourceClaimName: c}\n";

/* A tolerated NoExecute taint evicts once the clock passes timeAdded + 60s. */
static void test_eviction_deadline(void **state) {
  (void)state;
  int64_t now = 1767225600;
  store_options so = {.clock = fixed_clock, .clock_user = &now};
  store *st = store_memory_open(&so);
  sched_options opt = {.now = now};
  gates_default(&opt.gates);
  sched_loop *l = sched_loop_new(st, &opt);
  create_all(st, "apiVersion: v1\nkind: Namespace\nmetadata: {name: ml}\n");
  create_all(st, tainted);
  sched_loop_run(l);
  assert_string_equal(node_of(st, "p"), "node-1");
  assert_int_equal(sched_loop_next_deadline(l), now + 60);
  sched_loop_set_now(l, now + 60);
  sched_loop_run(l);
  assert_string_equal(node_of(st, "p"), "gone");
  assert_int_equal(sched_loop_next_deadline(l), 0);
  sched_loop_free(l);
  store_close(st);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pod_deleted_releases_device),
      cmocka_unit_test(test_group_deleted_releases_claim),
      cmocka_unit_test(test_eviction_deadline),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
