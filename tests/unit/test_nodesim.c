/* test_nodesim.c: the node simulator and the pod garbage collector in the
 * control loop, on a fixed clock: a bound pod runs with the kubelet's
 * status (the same every time), ends at its dra.k8s.io/run-duration and
 * succeeds, one whose claim is missing waits with kubelet's conditions
 * saying why, a gracefully deleted one goes at once, a node gets kubelet's
 * conditions and capacity; an orphaned pod fails and goes after the 40 s quarantine,
 * not before, and not when its node appears. Also the pure parts: run
 * durations as Go reads them, image references as a runtime reports them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "api/codec.h"
#include "api/label_selector.h"
#include "fixture_cluster.h"
#include "sched/filter.h"
#include "sched/nodesim_status.h"
#include "sched/run_duration.h"

#define NODE "scheduler-perf-node-0000"

static void test_run_duration(void **state) {
  (void)state;
  static const struct {
    const char *text;
    int64_t seconds; /* -1: refused */
  } cases[] = {{"0", 0},        {"2s", 2},         {"1m30s", 90},  {"1.5h", 5400},     {"250ms", 1},
               {"+3s", 3},      {"1h2m3s4ms", 3724}, {"0s", 0},    {"2\xc2\xb5s", 1},  {".5m", 30},
               {"", -1},        {"5", -1},         {"-1s", -1},    {"1d", -1},         {"s", -1},
               {"1.s", 1},      {".s", -1},        {"3000000h", -1}, {"1s ", -1},      {"9223372036s", 9223372036}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    int64_t got = -1;
    bool ok = sched_parse_run_duration(cases[i].text, &got);
    if (!ok) got = -1;
    if (got != cases[i].seconds) fail_msg("%s: got %lld, want %lld", cases[i].text, (long long)got, (long long)cases[i].seconds);
  }
}

/* When the first container started, read from its status text in place or
 * through a tree when the text has escapes: the same either way. */
static void test_started_at(void **state) {
  (void)state;
  static const struct {
    const char *statuses, *want;
  } cases[] = {
      {"[{\"name\":\"a\",\"state\":{\"running\":{\"startedAt\":\"2026-01-01T00:00:05Z\"}}}]", "2026-01-01T00:00:05Z"},
      {"[{\"state\":{\"running\":{\"startedAt\":\"2026-01-01T00:00:0\\u0035Z\"}}}]", "2026-01-01T00:00:05Z"},
      {"[{\"st\\u0061te\":{\"running\":{\"startedAt\":\"2026-01-01T00:00:06Z\"}}}]", "2026-01-01T00:00:06Z"},
      {"[{\"state\":{\"waiting\":{}}}]", "2026-01-01T00:00:01Z"},
      {"[{\"state\":{\"running\":{\"startedAt\":7}}}]", "2026-01-01T00:00:01Z"},
      {"[]", "2026-01-01T00:00:01Z"},
      {"not json", "2026-01-01T00:00:01Z"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    pod p = {0};
    p.status.start_time = "2026-01-01T00:00:01Z";
    p.status.container_statuses = json_string(cases[i].statuses);
    strbuf buf = STRBUF_INIT;
    assert_string_equal(sched_nodesim_started_at(&p, &buf), cases[i].want);
    sb_free(&buf);
    json_decref(p.status.container_statuses);
  }
}

static void test_image(void **state) {
  (void)state;
  static const char *cases[][3] = {
      {"busybox", "docker.io/library/busybox:latest", "docker.io/library/busybox@sha256:"},
      {"nginx:1.27", "docker.io/library/nginx:1.27", "docker.io/library/nginx@sha256:"},
      {"user/app", "docker.io/user/app:latest", "docker.io/user/app@sha256:"},
      {"localhost:5000/app:v1", "localhost:5000/app:v1", "localhost:5000/app@sha256:"},
      {"ghcr.io/a/b@sha256:abc", "ghcr.io/a/b@sha256:abc", "ghcr.io/a/b@sha256:abc"},
  };
  strbuf image = STRBUF_INIT, id = STRBUF_INIT;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    sched_nodesim_image(cases[i][0], &image, &id);
    assert_string_equal(sb_str(&image), cases[i][1]);
    assert_true(!strncmp(sb_str(&id), cases[i][2], strlen(cases[i][2])));
  }
  sb_free(&image);
  sb_free(&id);
}

/* A pod without claims; node NULL: unbound; run "": no annotation. */
static void create_pod(store *st, const char *name, const char *node, const char *run, const char *restart) {
  strbuf y = STRBUF_INIT;
  sb_printf(&y, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: %s\n  namespace: " FIXTURE_NAMESPACE "\n", name);
  if (*run) sb_printf(&y, "  annotations: {dra.k8s.io/run-duration: \"%s\"}\n", run);
  sb_printf(&y, "spec:\n  restartPolicy: %s\n", restart);
  if (node) sb_printf(&y, "  nodeName: %s\n", node);
  sb_puts(&y, "  initContainers: [{name: init, image: busybox}]\n  containers: [{name: main, image: nginx}]\n");
  fixture_create(st, sb_str(&y));
  sb_free(&y);
}

static void create_cluster(store *st) {
  strbuf y = STRBUF_INIT;
  fixture_cluster c = {.nodes = 1, .devices = 1, .max_pods = 110};
  fixture_cluster_yaml(&y, &c);
  fixture_create(st, sb_str(&y));
  sb_free(&y);
}

/* A store on a clock, its loop, and the one-node cluster. */
typedef struct sim {
  int64_t now;
  store *st;
  sched_loop *l;
} sim;

static int sim_setup(void **state) {
  sim *s = calloc(1, sizeof *s);
  s->now = FIXTURE_NOW;
  s->st = fixture_store_open(&s->now);
  s->l = fixture_loop_new(s->st, s->now);
  create_cluster(s->st);
  *state = s;
  return 0;
}

static int sim_teardown(void **state) {
  sim *s = *state;
  sched_loop_free(s->l);
  store_close(s->st);
  free(s);
  return 0;
}

/* Moves the clock on and runs the loop. */
static void advance(sim *s, int64_t seconds) {
  s->now += seconds;
  sched_loop_set_now(s->l, s->now);
  sched_loop_run(s->l);
}

/* The pod's status as JSON text (NULL: no such pod); caller frees. */
static char *status_of(store *st, const char *name) {
  store_obj *o = NULL;
  if (store_get(st, KIND_POD, FIXTURE_NAMESPACE, name, &o) != STORE_OK) return NULL;
  json_t *j = codec_encode(&pod_status_desc, &((const pod *)o->object->typed)->status);
  char *text = json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT);
  json_decref(j);
  store_obj_unref(o);
  return text;
}

static void assert_contains(const char *text, const char *want) {
  if (!text || !strstr(text, want)) fail_msg("wanted %s in %s", want, text ? text : "(none)");
}

static void test_pod_runs_then_succeeds(void **state) {
  sim *t = *state;
  store *st = t->st;
  sched_loop *l = t->l;
  create_pod(st, "job-pod", NODE, "1m", "Never");
  create_pod(st, "server", NODE, "1m", "Always"); /* Always: runs on */
  sched_loop_run(l);
  char *s = status_of(st, "job-pod");
  assert_contains(s, "\"phase\":\"Running\"");
  assert_contains(s, "\"startTime\":\"2026-01-01T00:00:00Z\"");
  assert_contains(s, "{\"lastProbeTime\":null,\"lastTransitionTime\":\"2026-01-01T00:00:00Z\",\"observedGeneration\":1,\"status\":\"True\",\"type\":\"Ready\"}");
  assert_contains(s, "\"state\":{\"running\":{\"startedAt\":\"2026-01-01T00:00:00Z\"}}");
  assert_contains(s, "\"initContainerStatuses\":[{\"containerID\":\"dra-sim://");
  assert_contains(s, "\"reason\":\"Completed\"");
  assert_contains(s, "\"podIP\":\"10.244.");
  /* created bound: the kubelet's PodScheduled, last */
  assert_contains(s, "\"status\":\"True\",\"type\":\"ContainersReady\"},{\"lastProbeTime\":null,\"lastTransitionTime\":\"2026-01-01T00:00:00Z\",\"observedGeneration\":1,\"status\":\"True\",\"type\":\"PodScheduled\"}]");
  free(s);
  assert_int_equal(sched_loop_next_deadline(l), FIXTURE_NOW + 60);
  advance(t, 59);
  s = status_of(st, "job-pod");
  assert_contains(s, "\"phase\":\"Running\"");
  free(s);
  advance(t, 5); /* the loop woke late: the end is still the run time's */
  s = status_of(st, "job-pod");
  assert_contains(s, "\"phase\":\"Succeeded\"");
  assert_contains(s, "\"finishedAt\":\"2026-01-01T00:01:00Z\"");
  assert_contains(s, "\"exitCode\":0");
  assert_contains(s, "{\"lastProbeTime\":null,\"lastTransitionTime\":\"2026-01-01T00:01:00Z\",\"observedGeneration\":1,\"reason\":\"PodCompleted\",\"status\":\"False\",\"type\":\"Ready\"}");
  free(s);
  s = status_of(st, "server");
  assert_contains(s, "\"phase\":\"Running\"");
  free(s);
  assert_int_equal(sched_loop_next_deadline(l), 0);
}

static void test_claim_not_prepared(void **state) {
  sim *t = *state;
  store *st = t->st;
  sched_loop *l = t->l;
  fixture_create(st, "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: " FIXTURE_NAMESPACE "}\n"
                     "spec:\n  nodeName: " NODE "\n  initContainers: [{name: i, image: x}]\n"
                     "  containers: [{name: a, image: x}, {name: b, image: x}]\n"
                     "  resourceClaims: [{name: g, resourceClaimName: missing}]\n");
  sched_loop_run(l);
  char *s = status_of(st, "p");
  assert_contains(s, "\"phase\":\"Pending\"");
  assert_contains(s, "\"message\":\"containers with incomplete status: [i]\",\"observedGeneration\":1,"
                     "\"reason\":\"ContainersNotInitialized\",\"status\":\"False\",\"type\":\"Initialized\"");
  assert_contains(s, "\"message\":\"containers with unready status: [a b]\"");
  assert_contains(s, "\"reason\":\"PodSandboxNotReady\"");
  assert_contains(s, "\"state\":{\"waiting\":{\"reason\":\"PodInitializing\"}}");
  assert_contains(s, "\"startTime\":\"2026-01-01T00:00:00Z\"");
  assert_null(strstr(s, "podIP"));
  free(s);
}

static char *run_once(void) {
  void *state;
  sim_setup(&state);
  sim *t = state;
  create_pod(t->st, "p", NODE, "", "Always");
  sched_loop_run(t->l);
  char *s = status_of(t->st, "p");
  sim_teardown(&state);
  return s;
}

static void test_same_input_same_status(void **state) {
  (void)state;
  char *a = run_once(), *b = run_once();
  assert_string_equal(a, b);
  free(a);
  free(b);
}

static void test_graceful_delete_and_node_status(void **state) {
  sim *t = *state;
  store *st = t->st;
  sched_loop *l = t->l;
  create_pod(st, "p", NODE, "", "Always");
  sched_loop_run(l);
  store_preconditions grace = {.grace_period_seconds = 30};
  store_obj *o = NULL;
  assert_int_equal(store_delete(st, KIND_POD, FIXTURE_NAMESPACE, "p", &grace, &o), STORE_OK);
  assert_string_equal(store_obj_meta(o)->deletion_timestamp, "2026-01-01T00:00:30Z");
  assert_int_equal(store_obj_meta(o)->deletion_grace_period_seconds, 30);
  store_obj_unref(o);
  sched_loop_run(l);
  assert_null(status_of(st, "p")); /* the simulated containers stopped at once */
  assert_int_equal(store_get(st, KIND_NODE, NULL, NODE, &o), STORE_OK);
  const node *n = o->object->typed;
  json_t *conds = json_object_get(n->status._extra, "conditions");
  assert_int_equal(json_array_size(conds), 4);
  assert_string_equal(json_string_value(json_object_get(json_array_get(conds, 3), "reason")), "KubeletReady");
  assert_non_null(json_object_get(n->status._extra, "nodeInfo"));
  assert_string_equal(label_get(&n->metadata.labels, "kubernetes.io/hostname"), NODE);
  assert_string_equal(label_get(&n->metadata.labels, "kubernetes.io/os"), "linux");
  assert_int_equal(n->metadata.annotations.n, 1);
  assert_string_equal(n->metadata.annotations.items[0].key->str, SCHED_NODESIM_NODE_ANNOTATION);
  store_obj_unref(o);
}

/* The node's status.capacity or allocatable as "cpu=32 memory=256Gi ...",
 * each key checked to be the interned atom the scheduler compares with. */
static void quantities_text(const quantity_map *m, strbuf *out) {
  for (uint32_t i = 0; i < m->n; i++) {
    char buf[64];
    assert_ptr_equal(m->items[i].key, atom_cstr(m->items[i].key->str));
    sb_printf(out, "%s%s=%s", i ? " " : "", m->items[i].key->str, quantity_format_str(&m->items[i].value, buf, sizeof buf));
  }
}

static void assert_resources(store *st, const char *name, const char *capacity, const char *allocatable,
                             int64_t max_pods) {
  store_obj *o = NULL;
  assert_int_equal(store_get(st, KIND_NODE, NULL, name, &o), STORE_OK);
  const node *n = o->object->typed;
  strbuf c = STRBUF_INIT, a = STRBUF_INIT;
  quantities_text(&n->status.capacity, &c);
  quantities_text(&n->status.allocatable, &a);
  assert_string_equal(sb_str(&c), capacity);
  assert_string_equal(sb_str(&a), allocatable);
  assert_null(json_object_get(n->status._extra, "capacity"));
  assert_null(json_object_get(n->status._extra, "allocatable"));
  sched_node_usage u = {0};
  sched_node_capacity(n, &u);
  assert_int_equal(u.max_pods, max_pods);
  sb_free(&c);
  sb_free(&a);
  store_obj_unref(o);
}

/* Typed capacity and allocatable: KWOK's fake node's on a Node with
 * neither; a Node's own kept, the other the same. */
static void test_node_resources(void **state) {
  sim *t = *state;
  fixture_create(t->st, "apiVersion: v1\nkind: Node\nmetadata: {name: bare}\n---\n"
                        "apiVersion: v1\nkind: Node\nmetadata: {name: small}\n"
                        "status: {capacity: {cpu: \"2\", pods: \"5\"}}\n");
  sched_loop_run(t->l);
  assert_resources(t->st, "bare", "cpu=32 memory=256Gi pods=110", "cpu=32 memory=256Gi pods=110", 110);
  assert_resources(t->st, "small", "cpu=2 pods=5", "cpu=2 pods=5", 5);
  assert_resources(t->st, NODE, "cpu=4 memory=32Gi pods=110", "cpu=4 memory=32Gi pods=110", 110);
}

static void test_orphans_collected_after_quarantine(void **state) {
  sim *t = *state;
  store *st = t->st;
  sched_loop *l = t->l;
  create_pod(st, "lost", "node-gone", "", "Always");
  create_pod(st, "found", "node-late", "", "Always");
  sched_loop_run(l);
  char *s = status_of(st, "lost");
  assert_contains(s, "\"phase\":\"Pending\"");
  free(s);
  assert_int_equal(sched_loop_next_deadline(l), FIXTURE_NOW + 40);
  fixture_create(st, "apiVersion: v1\nkind: Node\nmetadata: {name: node-late}\n");
  advance(t, 39);
  s = status_of(st, "found");
  assert_contains(s, "\"phase\":\"Running\""); /* its node came: it runs */
  free(s);
  s = status_of(st, "lost");
  assert_non_null(s);
  free(s);
  advance(t, 1);
  assert_null(status_of(st, "lost"));
  s = status_of(st, "found");
  assert_non_null(s);
  free(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_run_duration),
      cmocka_unit_test(test_image),
      cmocka_unit_test(test_started_at),
      cmocka_unit_test_setup_teardown(test_pod_runs_then_succeeds, sim_setup, sim_teardown),
      cmocka_unit_test(test_same_input_same_status),
      cmocka_unit_test_setup_teardown(test_claim_not_prepared, sim_setup, sim_teardown),
      cmocka_unit_test_setup_teardown(test_graceful_delete_and_node_status, sim_setup, sim_teardown),
      cmocka_unit_test_setup_teardown(test_node_resources, sim_setup, sim_teardown),
      cmocka_unit_test_setup_teardown(test_orphans_collected_after_quarantine, sim_setup, sim_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
