/* test_sched_loop.c: the loop as the HTTP server drives it, through store
 * events only: objects created after the loop started are picked up; a pod
 * deleted later gives its device back and its generated claim is deleted; a
 * PodGroup deleted later releases and deletes the group's claim; a loop
 * started on a filled store replays what is there; a tolerated NoExecute
 * taint gives a deadline and evicts when the clock reaches it, and so does a
 * NoExecute DeviceTaintRule, whose EvictionInProgress condition follows;
 * a flood of controller work does not keep a ready pod from its node. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "fixture_cluster.h"

#define NODE "scheduler-perf-node-0000"

/* One node with one device, and the PodGroup "job". */
static void create_cluster(store *st) {
  strbuf y = STRBUF_INIT;
  fixture_cluster c = {.nodes = 1, .devices = 1, .max_pods = 110};
  fixture_cluster_yaml(&y, &c);
  fixture_group_yaml(&y, "job");
  fixture_create(st, sb_str(&y));
  sb_free(&y);
}

static void create_pod(store *st, const char *name, bool grouped) {
  strbuf y = STRBUF_INIT;
  fixture_pod_yaml(&y, name, NULL, grouped ? "job" : NULL);
  fixture_create(st, sb_str(&y));
  sb_free(&y);
}

static const char *node_of(store *st, const char *pod_name) {
  static char node[64];
  store_obj *o = NULL;
  if (store_get(st, KIND_POD, FIXTURE_NAMESPACE, pod_name, &o) != STORE_OK) return "gone";
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

static void test_pod_deleted_releases_device(void **state) {
  (void)state;
  int64_t now = FIXTURE_NOW;
  store *st = fixture_store_open(&now);
  sched_loop *l = fixture_loop_new(st, now);
  create_cluster(st);
  create_pod(st, "first", false);
  create_pod(st, "second", false);
  sched_loop_run(l);
  assert_string_equal(node_of(st, "first"), NODE);
  assert_string_equal(node_of(st, "second"), "");
  assert_int_equal(claims(st), 3); /* two pod claims and the group's */
  assert_int_equal(store_delete(st, KIND_POD, FIXTURE_NAMESPACE, "first", NULL, NULL), STORE_OK);
  sched_loop_run(l);
  assert_string_equal(node_of(st, "second"), NODE);
  assert_int_equal(claims(st), 2); /* first's generated claim deleted */
  sched_loop_free(l);
  store_close(st);
}

static void test_group_deleted_releases_claim(void **state) {
  (void)state;
  int64_t now = FIXTURE_NOW;
  store *st = fixture_store_open(&now);
  create_cluster(st);
  create_pod(st, "member", true);
  sched_loop *l = fixture_loop_new(st, now); /* replays the filled store */
  sched_loop_run(l);
  assert_string_equal(node_of(st, "member"), NODE);
  assert_int_equal(claims(st), 1);
  assert_int_equal(store_delete(st, KIND_POD, FIXTURE_NAMESPACE, "member", NULL, NULL), STORE_OK);
  sched_loop_run(l);
  assert_int_equal(claims(st), 1); /* the group keeps its claim while it exists */
  create_pod(st, "outsider", false);
  sched_loop_run(l);
  assert_string_equal(node_of(st, "outsider"), ""); /* the group still holds the GPU */
  assert_int_equal(store_delete(st, KIND_POD_GROUP, FIXTURE_NAMESPACE, "job", NULL, NULL), STORE_OK);
  sched_loop_run(l);
  assert_string_equal(node_of(st, "outsider"), NODE);
  assert_int_equal(claims(st), 1); /* only outsider's */
  sched_loop_free(l);
  store_close(st);
}

/* A node and a class, one slice with gpu-0 (SLICE_DEVICE follows its
 * devices: line), then claim c tolerating "broken" for 60 s and pod p using it. */
#define CLUSTER                                                                                                   \
  "apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\n---\n"                                                   \
  "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\n"                                     \
  "spec:\n  selectors:\n  - cel: {expression: 'device.driver == \"gpu.example.com\"'}\n---\n"                       \
  "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: node-1-gpus}\n"                            \
  "spec:\n  driver: gpu.example.com\n  nodeName: node-1\n  pool: {name: node-1, generation: 1, resourceSliceCount: 1}\n" \
  "  devices:\n"
#define CLAIM_AND_POD                                                                                             \
  "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c, namespace: " FIXTURE_NAMESPACE "}\n"     \
  "spec:\n  devices:\n"                                                                                          \
  "    requests:\n    - name: gpu\n      exactly:\n        deviceClassName: gpu\n"                                 \
  "        tolerations: [{key: broken, operator: Exists, effect: NoExecute, tolerationSeconds: 60}]\n---\n"        \
  "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: " FIXTURE_NAMESPACE "}\n"                             \
  "spec:\n  containers:\n  - {name: c, image: busybox}\n"                                                          \
  "  resourceClaims:\n  - {name: gpu, resourceClaimName: c}\n"

static const char *tainted =
    CLUSTER "  - name: gpu-0\n    taints: [{key: broken, effect: NoExecute, timeAdded: '2026-01-01T00:00:00Z'}]\n---\n"
    CLAIM_AND_POD;

/* A tolerated NoExecute taint evicts once the clock passes timeAdded + 60s. */
static void test_eviction_deadline(void **state) {
  (void)state;
  int64_t now = FIXTURE_NOW;
  store *st = fixture_store_open(&now);
  sched_loop *l = fixture_loop_new(st, now);
  fixture_create(st, "apiVersion: v1\nkind: Namespace\nmetadata: {name: " FIXTURE_NAMESPACE "}\n");
  fixture_create(st, tainted);
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

static const char *untainted = CLUSTER "  - name: gpu-0\n---\n" CLAIM_AND_POD;

static const char *broken_rule =
    "apiVersion: resource.k8s.io/v1\nkind: DeviceTaintRule\nmetadata: {name: broken-gpu}\n"
    "spec:\n  deviceSelector: {driver: gpu.example.com, pool: node-1, device: gpu-0}\n"
    "  taint: {key: broken, effect: NoExecute}\n";

/* The EvictionInProgress condition of rule broken-gpu: "reason|status|message|time". */
static const char *rule_condition(store *st) {
  static char text[512];
  store_obj *o = NULL;
  if (store_get(st, KIND_DEVICE_TAINT_RULE, NULL, "broken-gpu", &o) != STORE_OK) return "gone";
  const device_taint_rule *r = o->object->typed;
  snprintf(text, sizeof text, "none");
  for (uint32_t i = 0; i < r->status.conditions.n; i++) {
    const condition *c = &r->status.conditions.items[i];
    if (!strcmp(c->type, "EvictionInProgress"))
      snprintf(text, sizeof text, "%s|%s|%s|%s|%lld", c->reason, c->status, c->message, c->last_transition_time,
               (long long)c->observed_generation);
  }
  store_obj_unref(o);
  return text;
}

/* A NoExecute DeviceTaintRule on a running pod's device: the condition says
 * the pod is pending eviction at once, the pod goes after its 60 seconds of
 * toleration, and ten seconds later the condition says Completed. */
static void test_rule_eviction_and_status(void **state) {
  (void)state;
  int64_t now = FIXTURE_NOW;
  store *st = fixture_store_open(&now);
  sched_loop *l = fixture_loop_new(st, now);
  fixture_create(st, "apiVersion: v1\nkind: Namespace\nmetadata: {name: " FIXTURE_NAMESPACE "}\n");
  fixture_create(st, untainted);
  sched_loop_run(l);
  assert_string_equal(node_of(st, "p"), "node-1");
  assert_int_equal(sched_loop_next_deadline(l), 0);
  fixture_create(st, broken_rule);
  sched_loop_run(l);
  assert_string_equal(rule_condition(st),
                      "PodsPendingEviction|True|1 pod needs to be evicted in 1 namespace.|2026-01-01T00:00:00Z|1");
  assert_string_equal(node_of(st, "p"), "node-1");
  assert_int_equal(sched_loop_next_deadline(l), now + 10); /* the delayed status update */
  sched_loop_set_now(l, now + 10);
  sched_loop_run(l); /* nothing new to say: the condition stays as it was */
  assert_string_equal(rule_condition(st),
                      "PodsPendingEviction|True|1 pod needs to be evicted in 1 namespace.|2026-01-01T00:00:00Z|1");
  assert_int_equal(sched_loop_next_deadline(l), now + 60);
  sched_loop_set_now(l, now + 60);
  sched_loop_run(l);
  assert_string_equal(node_of(st, "p"), "gone");
  assert_int_equal(sched_loop_next_deadline(l), now + 70);
  sched_loop_set_now(l, now + 70);
  sched_loop_run(l);
  assert_string_equal(rule_condition(st),
                      "Completed|False|1 pod evicted since starting the controller.|2026-01-01T00:01:10Z|1");
  assert_int_equal(sched_loop_next_deadline(l), 0);
  sched_loop_free(l);
  store_close(st);
}

/* The stored version as JSON (malloc'd). */
static char *dump(const store_obj *o) {
  json_t *j = api_object_encode(o->object);
  char *text = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
  json_decref(j);
  return text;
}

/* The loop writes new versions that share the stored ones' unchanged parts
 * (docs/server.md, "Control loop writes"): the versions it replaced, and
 * the template its claims share a spec with, read as they did before. */
static void test_stored_versions_never_written(void **state) {
  (void)state;
  int64_t now = FIXTURE_NOW;
  store *st = fixture_store_open(&now);
  sched_loop *l = fixture_loop_new(st, now);
  create_cluster(st);
  create_pod(st, "first", false);
  store_obj *pod_v1 = NULL, *tmpl = NULL;
  assert_int_equal(store_get(st, KIND_POD, FIXTURE_NAMESPACE, "first", &pod_v1), STORE_OK);
  store_list lst = {0};
  store_query q = {.kind = KIND_RESOURCE_CLAIM_TEMPLATE, .order = STORE_BY_CREATION};
  assert_int_equal(store_list_query(st, &q, &lst), STORE_OK);
  assert_int_equal(lst.n, 1);
  tmpl = store_obj_ref(lst.items[0]);
  store_list_free(&lst);
  char *pod_before = dump(pod_v1), *tmpl_before = dump(tmpl);
  sched_loop_run(l);
  assert_string_equal(node_of(st, "first"), NODE);
  char *pod_after = dump(pod_v1), *tmpl_after = dump(tmpl);
  assert_string_equal(pod_after, pod_before);
  assert_string_equal(tmpl_after, tmpl_before);
  assert_null(strstr(pod_after, NODE)); /* the old version stayed unbound */
  free(pod_before), free(pod_after), free(tmpl_before), free(tmpl_after);
  store_obj_unref(pod_v1);
  store_obj_unref(tmpl);
  sched_loop_free(l);
  store_close(st);
}

/* Creates n PodDisruptionBudgets named <round>-<i>: each queues a
 * controller key ("pdb:"), work the loop takes before pods. */
static void create_budgets(store *st, int round, int n) {
  strbuf y = STRBUF_INIT;
  for (int i = 0; i < n; i++)
    sb_printf(&y,
              "---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: flood-%d-%d, namespace: " FIXTURE_NAMESPACE
              "}\nspec: {minAvailable: 1, selector: {matchLabels: {app: flood}}}\n",
              round, i);
  fixture_create(st, sb_str(&y));
  sb_free(&y);
}

enum { ROUND_STEPS = 8, FLOOD_ROUNDS = 20 };

/* Rounds of the loop, each after 2 * ROUND_STEPS more controller keys (work
 * arriving faster than the loop does it, as when its store writes slow
 * down: docs/ha.md), until the pod "first" is bound: FLOOD_ROUNDS if never. */
static int rounds_to_bind(size_t controller_steps_per_pod) {
  int64_t now = FIXTURE_NOW;
  store *st = fixture_store_open(&now);
  sched_options opt = {.now = now, .controller_steps_per_pod = controller_steps_per_pod};
  gates_default(&opt.gates);
  sched_loop *l = sched_loop_new(st, &opt);
  create_cluster(st);
  sched_loop_run(l);
  create_pod(st, "first", false);
  int rounds = 0;
  while (!*node_of(st, "first") && rounds < FLOOD_ROUNDS) {
    create_budgets(st, rounds++, 2 * ROUND_STEPS);
    assert_int_equal(sched_loop_run_some(l, ROUND_STEPS), ROUND_STEPS); /* the backlog only grows */
  }
  sched_loop_run(l); /* all of it is done once the flood stops */
  assert_int_equal(sched_loop_run_some(l, 1), 0);
  assert_string_equal(node_of(st, "first"), NODE);
  sched_loop_free(l);
  store_close(st);
  return rounds;
}

/* With a budget, the flood does not keep a ready pod from its node:
 * controller work still comes first (the first step makes its claim), and
 * the pod is the step after controller_steps_per_pod of it. Without one
 * (`dra schedule`), it waits until the flood stops. */
static void test_controller_flood_does_not_starve_pods(void **state) {
  (void)state;
  assert_int_equal(rounds_to_bind(16), 16 / ROUND_STEPS + 1);
  assert_int_equal(rounds_to_bind(20), 20 / ROUND_STEPS + 1);
  assert_int_equal(rounds_to_bind(0), FLOOD_ROUNDS);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pod_deleted_releases_device),
      cmocka_unit_test(test_group_deleted_releases_claim),
      cmocka_unit_test(test_eviction_deadline),
      cmocka_unit_test(test_rule_eviction_and_status),
      cmocka_unit_test(test_stored_versions_never_written),
      cmocka_unit_test(test_controller_flood_does_not_starve_pods),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
