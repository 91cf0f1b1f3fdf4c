/* test_dra_api_alloc.c: allocation, explanation, scheduling and listing
 * through include/dra.h: claims placed on a node with their devices as
 * records and JSON, allocation pod after pod with the write-back, claims
 * that do not fit, DeviceTaintRules' taints, a CEL runtime error, search bounds, a dump loaded as
 * stored, the explanation's counts in text and JSON, pods scheduled and
 * read back as JSON and as records, the explanation of every node of a
 * pod that fits nowhere, device selectors as records, and every bad
 * argument. */
#include "dra.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define NOW 1767225600 /* 2026-01-01T00:00:00Z */

/* node-1 with two GPUs (an A100 and an H100) of driver gpu.example.com. */
static const char cluster[] = "apiVersion: v1\nkind: Namespace\nmetadata: {name: team-a}\n---\n"
                              "apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\n---\n"
                              "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\n"
                              "spec:\n  selectors:\n  - cel: {expression: 'device.driver == \"gpu.example.com\"'}\n"
                              "---\n"
                              "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: node-1-gpus}\n"
                              "spec:\n  driver: gpu.example.com\n  nodeName: node-1\n"
                              "  pool: {name: node-1, generation: 1, resourceSliceCount: 1}\n"
                              "  devices:\n"
                              "  - {name: gpu-0, attributes: {model: {string: A100}}}\n"
                              "  - {name: gpu-1, attributes: {model: {string: H100}}}\n";

/* A claim for count GPUs of the class, with an optional CEL selector. */
static void load_claim(dra_ctx *ctx, const char *name, int count, const char *selector) {
  char text[1024];
  snprintf(text, sizeof text,
           "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: %s, namespace: team-a}\n"
           "spec:\n  devices:\n    requests:\n    - name: gpu\n      exactly:\n"
           "        deviceClassName: gpu\n        count: %d\n%s%s%s",
           name, count, selector ? "        selectors:\n        - cel: {expression: '" : "", selector ? selector : "",
           selector ? "'}\n" : "");
  assert_int_equal(dra_load_buffer(ctx, name, text, strlen(text), 0), DRA_OK);
}

static void load_pod(dra_ctx *ctx, const char *name, const char *claim) {
  char text[1024];
  snprintf(text, sizeof text,
           "apiVersion: v1\nkind: Pod\nmetadata: {name: %s, namespace: team-a}\n"
           "spec:\n  containers:\n  - {name: main, image: busybox, resources: {claims: [{name: gpu}]}}\n"
           "  resourceClaims:\n  - {name: gpu, resourceClaimName: %s}\n",
           name, claim);
  assert_int_equal(dra_load_buffer(ctx, name, text, strlen(text), 0), DRA_OK);
}

static dra_ctx *open_cluster(void) {
  dra_ctx *ctx = NULL;
  assert_int_equal(dra_open(&ctx, NULL), DRA_OK);
  dra_set_time(ctx, NOW);
  assert_int_equal(dra_load_buffer(ctx, "cluster.yaml", cluster, strlen(cluster), 0), DRA_OK);
  return ctx;
}

static void contains(const char *text, const char *part) {
  if (!text || !strstr(text, part)) fail_msg("%s\n--- does not contain ---\n%s", text ? text : "(null)", part);
}

/* Text appended piece by piece. */
typedef struct strbuf_t {
  char *s;
  size_t n;
} strbuf_t;

static void add(strbuf_t *b, const char *text) {
  size_t len = strlen(text);
  b->s = realloc(b->s, b->n + len + 1);
  assert_non_null(b->s);
  memcpy(b->s + b->n, text, len + 1);
  b->n += len;
}

static char *get(dra_ctx *ctx, const char *kind, const char *name) {
  char *json = NULL;
  assert_int_equal(dra_get_json(ctx, kind, "team-a", name, &json), DRA_OK);
  return json;
}

static void assert_device(const dra_result *r, size_t claim, size_t i, const char *device) {
  const dra_device *d = dra_result_device(r, claim, i);
  assert_non_null(d);
  assert_string_equal(d->request, "gpu");
  assert_string_equal(d->driver, "gpu.example.com");
  assert_string_equal(d->pool, "node-1");
  assert_string_equal(d->device, device);
  assert_int_equal(d->admin_access, 0);
}

static void allocates_without_changing_the_store(void **state) {
  (void)state;
  dra_ctx *ctx = open_cluster();
  load_claim(ctx, "any-gpu", 1, NULL);
  load_claim(ctx, "h100", 1, "device.attributes[\"gpu.example.com\"].model == \"H100\"");
  dra_result *r = NULL;
  /* NULL: every unallocated claim, in load order, together. */
  assert_int_equal(dra_allocate(ctx, "node-1", NULL, 0, &r), DRA_OK);
  assert_string_equal(dra_errmsg(ctx), "");
  assert_int_equal(dra_result_claim_count(r), 2);
  assert_string_equal(dra_result_node(r), "node-1");
  assert_string_equal(dra_result_claim(r, 0), "team-a/any-gpu");
  assert_string_equal(dra_result_claim(r, 1), "team-a/h100");
  assert_null(dra_result_claim(r, 2));
  assert_int_equal(dra_result_device_count(r, 0), 1);
  assert_int_equal(dra_result_device_count(r, 2), 0);
  assert_device(r, 0, 0, "gpu-0");
  assert_device(r, 1, 0, "gpu-1");
  assert_null(dra_result_device(r, 0, 1));
  const char *json = dra_result_json(r);
  contains(json, "\"kind\": \"List\"");
  contains(json, "\"name\": \"any-gpu\"");
  contains(json, "\"device\": \"gpu-0\"");
  contains(json, "\"values\": [\n"); /* the nodeSelector of a node-local pool */

  /* Without DRA_ALLOC_STORE the store is as it was: the same call again gives the same answer. */
  char *claim = get(ctx, "ResourceClaim", "any-gpu");
  assert_null(strstr(claim, "\"allocation\":"));
  dra_free(claim);
  dra_close(ctx);
  /* The result outlives its context. */
  assert_string_equal(dra_result_device(r, 1, 0)->device, "gpu-1");
  dra_result_free(r);
}

static void allocates_pod_after_pod(void **state) {
  (void)state;
  dra_ctx *ctx = open_cluster();
  load_claim(ctx, "first", 1, NULL);
  load_claim(ctx, "second", 1, NULL);
  load_claim(ctx, "third", 1, NULL);
  const char *first[] = {"team-a/first", NULL}, *second[] = {"team-a/second", NULL}, *third[] = {"team-a/third", NULL};
  dra_result *r = NULL;
  assert_int_equal(dra_allocate(ctx, "node-1", first, DRA_ALLOC_STORE, &r), DRA_OK);
  assert_device(r, 0, 0, "gpu-0");
  contains(dra_result_json(r), "\"resourceVersion\": \"8\""); /* the stored version */
  dra_result_free(r);
  char *claim = get(ctx, "resourceclaims", "first");
  contains(claim, "\"device\": \"gpu-0\"");
  dra_free(claim);

  /* gpu-0 is in use now. */
  assert_int_equal(dra_allocate(ctx, "node-1", second, DRA_ALLOC_STORE, &r), DRA_OK);
  assert_device(r, 0, 0, "gpu-1");
  dra_result_free(r);

  r = NULL;
  assert_int_equal(dra_allocate(ctx, "node-1", third, DRA_ALLOC_STORE, &r), DRA_UNSATISFIABLE);
  assert_null(r);
  assert_int_equal(dra_errcode(ctx), DRA_UNSATISFIABLE);
  assert_string_equal(dra_errmsg(ctx), "the claims cannot be allocated on node node-1");
  claim = get(ctx, "ResourceClaim", "third");
  assert_null(strstr(claim, "\"allocation\":"));
  dra_free(claim);

  /* Naming an allocated claim is a mistake; NULL skips it. */
  assert_int_equal(dra_allocate(ctx, "node-1", first, 0, &r), DRA_MISUSE);
  assert_string_equal(dra_errmsg(ctx), "resourceclaim \"team-a/first\" is already allocated");
  assert_int_equal(dra_allocate(ctx, "node-1", NULL, 0, &r), DRA_UNSATISFIABLE);
  dra_close(ctx);
}

static void unsatisfiable_and_explained(void **state) {
  (void)state;
  dra_ctx *ctx = open_cluster();
  load_claim(ctx, "two-h100", 2, "device.attributes[\"gpu.example.com\"].model == \"H100\"");
  const char *claims[] = {"team-a/two-h100", NULL};
  dra_result *r = NULL;
  assert_int_equal(dra_allocate(ctx, "node-1", claims, 0, &r), DRA_UNSATISFIABLE);
  assert_null(r);

  char *text = NULL;
  assert_int_equal(dra_explain(ctx, "node-1", claims, 0, &text), DRA_OK);
  assert_string_equal(dra_errmsg(ctx), "");
  contains(text, "node node-1:\n  pool gpu.example.com/node-1: ok, 2 devices\n");
  contains(text, "claim team-a/two-h100:\n  request gpu (class gpu, ExactCount): needs 2\n"
                 "    devices the node can see: 2\n"
                 "    passing class selectors: 2\n"
                 "    passing request selectors: 1\n"
                 "      gpu.example.com/node-1/gpu-0: device.attributes[\"gpu.example.com\"].model == \"H100\" is false "
                 "(attribute model: A100)\n"
                 "    free: 1\n");
  contains(text, "  would fit now with one of:\n    request gpu: count 1 instead of 2\n");
  dra_free(text);

  assert_int_equal(dra_explain(ctx, "node-1", claims, DRA_EXPLAIN_JSON, &text), DRA_OK);
  contains(text, "\"node\": \"node-1\"");
  contains(text, "\"claim\": \"team-a/two-h100\"");
  contains(text, "\"needed\": 2,\n");
  contains(text, "\"visible\": 2,\n");
  contains(text, "\"classSelected\": 2,\n");
  contains(text, "\"requestSelected\": 1,\n");
  contains(text, "\"free\": 1,\n");
  dra_free(text);

  /* NULL: the unallocated claims, as dra_allocate takes them. */
  assert_int_equal(dra_explain(ctx, "node-1", NULL, 0, &text), DRA_OK);
  contains(text, "claim team-a/two-h100:");
  dra_free(text);
  dra_close(ctx);
}

static void load_rule(dra_ctx *ctx, const char *name, const char *device, const char *effect) {
  char text[512];
  snprintf(text, sizeof text,
           "apiVersion: resource.k8s.io/v1\nkind: DeviceTaintRule\nmetadata: {name: %s}\n"
           "spec: {deviceSelector: {driver: gpu.example.com, device: %s}, taint: {key: example.com/%s, effect: %s}}\n",
           name, device, name, effect);
  assert_int_equal(dra_load_buffer(ctx, name, text, strlen(text), 0), DRA_OK);
}

/* The one device claim `name` gets on node-1, "" when it does not fit. */
static const char *device_for(dra_ctx *ctx, const char *name) {
  static char device[32];
  char ref[64];
  snprintf(ref, sizeof ref, "team-a/%s", name);
  const char *claims[] = {ref, NULL};
  dra_result *r = NULL;
  device[0] = 0;
  if (dra_allocate(ctx, "node-1", claims, 0, &r) == DRA_OK)
    snprintf(device, sizeof device, "%s", dra_result_device(r, 0, 0)->device);
  dra_result_free(r);
  return device;
}

/* DeviceTaintRules taint the devices they select as slice taints do: None
 * changes nothing, NoSchedule and NoExecute need a toleration, and
 * --explain names the rule's taint; with DRADeviceTaintRules off they are
 * ignored. */
static void taint_rules(void **state) {
  (void)state;
  dra_ctx *ctx = open_cluster();
  load_claim(ctx, "plain", 1, NULL);
  const char *tolerant = "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: tolerant, namespace: team-a}\n"
                         "spec:\n  devices:\n    requests:\n    - name: gpu\n      exactly:\n"
                         "        deviceClassName: gpu\n        tolerations: [{operator: Exists}]\n";
  assert_int_equal(dra_load_buffer(ctx, "tolerant", tolerant, strlen(tolerant), 0), DRA_OK);
  load_rule(ctx, "informational", "gpu-0", "None");
  assert_string_equal(device_for(ctx, "plain"), "gpu-0");
  load_rule(ctx, "drain", "gpu-0", "NoSchedule");
  assert_string_equal(device_for(ctx, "plain"), "gpu-1");
  load_rule(ctx, "broken", "gpu-1", "NoExecute");
  assert_string_equal(device_for(ctx, "plain"), "");
  assert_string_equal(device_for(ctx, "tolerant"), "gpu-0");
  const char *claims[] = {"team-a/plain", NULL};
  char *text = NULL;
  assert_int_equal(dra_explain(ctx, "node-1", claims, 0, &text), DRA_OK);
  contains(text, "tainted example.com/broken=:NoExecute, not tolerated");
  dra_free(text);
  dra_close(ctx);

  assert_int_equal(dra_open(&ctx, "DRADeviceTaintRules=false"), DRA_OK);
  dra_set_time(ctx, NOW);
  assert_int_equal(dra_load_buffer(ctx, "cluster.yaml", cluster, strlen(cluster), 0), DRA_OK);
  load_claim(ctx, "plain", 1, NULL);
  load_rule(ctx, "drain", "gpu-0", "NoSchedule");
  assert_string_equal(device_for(ctx, "plain"), "gpu-0");
  dra_close(ctx);
}

static void cel_runtime_error(void **state) {
  (void)state;
  dra_ctx *ctx = open_cluster();
  /* Admission compiles the expression; the slices have no such capacity, so evaluating it fails. */
  load_claim(ctx, "big-memory", 1, "device.capacity[\"gpu.example.com\"].memory.compareTo(quantity(\"1Gi\")) > 0");
  dra_result *r = NULL;
  assert_int_equal(dra_allocate(ctx, "node-1", NULL, 0, &r), DRA_ALLOC_ERROR);
  assert_null(r);
  assert_string_equal(dra_status_name(dra_errcode(ctx)), "DRA_ALLOC_ERROR");
  assert_string_equal(dra_errmsg(ctx), "claim team-a/big-memory: selector #0 on device gpu.example.com/node-1/gpu-0: "
                                       "CEL runtime error: no such key: memory. consider using CEL optional chaining "
                                       "(.? followed by orValue()) or guarding the check with has() for optional fields");
  char *text = NULL;
  assert_int_equal(dra_explain(ctx, "node-1", NULL, 0, &text), DRA_OK);
  contains(text, "error: claim team-a/big-memory: selector #0");
  dra_free(text);
  dra_close(ctx);
}

static void search_bounds(void **state) {
  (void)state;
  dra_ctx *ctx = open_cluster();
  load_claim(ctx, "both", 2, NULL);
  dra_result *r = NULL;
  dra_set_alloc_limits(ctx, 1, 0);
  assert_int_equal(dra_allocate(ctx, "node-1", NULL, 0, &r), DRA_ALLOC_ERROR);
  assert_null(r);
  assert_string_equal(dra_errmsg(ctx), "allocation aborted: steps budget exhausted after 1 steps");
  uint64_t steps = 0;
  double seconds = -1;
  dra_alloc_stats(ctx, &steps, &seconds);
  assert_true(steps > 1); /* the step that went over the budget counts */
  assert_true(seconds >= 0);
  /* Back to the defaults; no time limit at all is fine too. */
  dra_set_alloc_limits(ctx, 0, -1);
  assert_int_equal(dra_allocate(ctx, "node-1", NULL, 0, &r), DRA_OK);
  assert_int_equal(dra_result_device_count(r, 0), 2);
  dra_result_free(r);
  dra_alloc_stats(ctx, &steps, NULL);
  assert_true(steps >= 1);
  dra_set_alloc_limits(NULL, 1, 1); /* ignored */
  dra_alloc_stats(NULL, &steps, &seconds);
  assert_true(steps == 0 && seconds == 0);
  dra_close(ctx);
}

/* A cluster dump loaded as stored: the claim that holds gpu-0 keeps it, and
 * the new claim (no admission, so no defaults) gets the other GPU. */
static void as_stored_allocations_hold_devices(void **state) {
  (void)state;
  dra_ctx *ctx = NULL;
  assert_int_equal(dra_open(&ctx, NULL), DRA_OK);
  static const char dump[] = "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: holder}\n"
                             "spec:\n  devices:\n    requests:\n    - {name: gpu, exactly: {deviceClassName: gpu}}\n"
                             "status:\n  allocation:\n    devices:\n      results:\n"
                             "      - {request: gpu, driver: gpu.example.com, pool: node-1, device: gpu-0}\n---\n"
                             "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: newcomer}\n"
                             "spec:\n  devices:\n    requests:\n    - {name: gpu, exactly: {deviceClassName: gpu}}\n";
  assert_int_equal(dra_load_buffer(ctx, "cluster.yaml", cluster, strlen(cluster), DRA_LOAD_AS_STORED), DRA_OK);
  assert_int_equal(dra_load_buffer(ctx, "dump.yaml", dump, strlen(dump), DRA_LOAD_AS_STORED), DRA_OK);
  dra_result *r = NULL;
  assert_int_equal(dra_allocate(ctx, "node-1", NULL, 0, &r), DRA_OK);
  assert_int_equal(dra_result_claim_count(r), 1);
  assert_string_equal(dra_result_claim(r, 0), "default/newcomer");
  assert_device(r, 0, 0, "gpu-1");
  dra_result_free(r);
  dra_close(ctx);
}

/* dra_schedule's explanation of a pod that fits nowhere has every node in
 * name order: its first failing filter's line, or the allocator's
 * explanation, which libdra computes on several threads after the scan and
 * puts back in place; each the same text as dra_explain gives for that
 * node alone. Some nodes are tainted, so filter lines sit between the
 * allocator's explanations. */
static void explains_every_node_in_order(void **state) {
  (void)state;
  enum { NODES = 24 };
  dra_ctx *ctx = NULL;
  assert_int_equal(dra_open(&ctx, NULL), DRA_OK);
  dra_set_time(ctx, NOW);
  strbuf_t objects = {0};
  add(&objects, "apiVersion: v1\nkind: Namespace\nmetadata: {name: team-a}\n---\n"
                "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\n"
                "spec:\n  selectors:\n  - cel: {expression: 'device.driver == \"gpu.example.com\"'}\n");
  for (int i = 0; i < NODES; i++) {
    char text[1024];
    snprintf(text, sizeof text,
             "---\napiVersion: v1\nkind: Node\nmetadata: {name: node-%02d}\n%s"
             "---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: node-%02d-gpus}\n"
             "spec:\n  driver: gpu.example.com\n  nodeName: node-%02d\n"
             "  pool: {name: node-%02d, generation: 1, resourceSliceCount: 1}\n"
             "  devices:\n  - {name: gpu-0, attributes: {model: {string: A100}}}\n"
             "  - {name: gpu-1, attributes: {model: {string: %s}}}\n",
             i, i % 5 == 3 ? "spec:\n  taints: [{key: maintenance, effect: NoSchedule}]\n" : "", i, i, i,
             i % 2 ? "H100" : "A100");
    add(&objects, text);
  }
  assert_int_equal(dra_load_buffer(ctx, "cluster.yaml", objects.s, objects.n, 0), DRA_OK);
  free(objects.s);
  load_claim(ctx, "three", 3, NULL);
  load_pod(ctx, "waits", "three");
  char *explain = NULL;
  assert_int_equal(dra_schedule(ctx, DRA_SCHEDULE_EXPLAIN, &explain), DRA_OK);
  strbuf_t want = {0};
  add(&want, "pod team-a/waits:\n");
  const char *claims[] = {"team-a/three", NULL};
  for (int i = 0; i < NODES; i++) {
    char node[16], line[64];
    snprintf(node, sizeof node, "node-%02d", i);
    snprintf(line, sizeof line, "node %s: ", node);
    if (i % 5 == 3) { /* tainted: the filter's line, as the scan wrote it */
      const char *at = strstr(explain, line);
      assert_non_null(at);
      contains(at, "untolerated taint");
      char copy[512];
      snprintf(copy, sizeof copy, "%.*s", (int)(strchr(at, '\n') + 1 - at), at);
      add(&want, copy);
      continue;
    }
    char *one = NULL;
    assert_int_equal(dra_explain(ctx, node, claims, 0, &one), DRA_OK);
    add(&want, one);
    dra_free(one);
  }
  assert_string_equal(explain, want.s);
  free(want.s);
  dra_free(explain);
  dra_close(ctx);
}

static void schedules_and_lists(void **state) {
  (void)state;
  dra_ctx *ctx = open_cluster();
  load_claim(ctx, "small", 1, NULL);
  load_claim(ctx, "too-big", 3, NULL);
  load_pod(ctx, "runs", "small");
  load_pod(ctx, "waits", "too-big");
  static const char templated[] = "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\n"
                                  "metadata: {name: one-gpu, namespace: team-a}\n"
                                  "spec:\n  spec:\n    devices:\n      requests:\n"
                                  "      - {name: gpu, exactly: {deviceClassName: gpu}}\n---\n"
                                  "apiVersion: v1\nkind: Pod\nmetadata: {name: templated, namespace: team-a}\n"
                                  "spec:\n  containers:\n  - {name: main, image: busybox, resources: {claims: [{name: gpu}]}}\n"
                                  "  resourceClaims:\n  - {name: gpu, resourceClaimTemplateName: one-gpu}\n";
  assert_int_equal(dra_load_buffer(ctx, "templated.yaml", templated, strlen(templated), 0), DRA_OK);
  char *explain = NULL;
  assert_int_equal(dra_schedule(ctx, DRA_SCHEDULE_EXPLAIN, &explain), DRA_OK);
  contains(explain, "pod team-a/waits:\n");
  contains(explain, "claim team-a/too-big:\n  request gpu (class gpu, ExactCount): needs 3\n");
  assert_null(strstr(explain, "pod team-a/runs:\n")); /* it runs; its claim may be named as a holder */
  dra_free(explain);

  char *pod = get(ctx, "Pod", "runs");
  contains(pod, "\"nodeName\": \"node-1\"");
  dra_free(pod);

  /* Where each pod stands, as records. */
  dra_result *r = NULL;
  assert_int_equal(dra_get_pod_result(ctx, "team-a", "runs", &r), DRA_OK);
  assert_string_equal(dra_result_node(r), "node-1");
  assert_int_equal(dra_result_claim_count(r), 1);
  assert_string_equal(dra_result_claim(r, 0), "team-a/small");
  assert_device(r, 0, 0, "gpu-0");
  contains(dra_result_json(r), "\"reservedFor\": [");
  dra_result_free(r);
  assert_int_equal(dra_get_pod_result(ctx, "team-a", "templated", &r), DRA_OK);
  assert_string_equal(dra_result_node(r), "node-1");
  assert_int_equal(dra_result_claim_count(r), 1);
  assert_int_equal(strncmp(dra_result_claim(r, 0), "team-a/templated-gpu-", 21), 0);
  assert_device(r, 0, 0, "gpu-1");
  dra_result_free(r);
  assert_int_equal(dra_get_pod_result(ctx, "team-a", "waits", &r), DRA_OK);
  assert_null(dra_result_node(r));
  assert_int_equal(dra_result_claim_count(r), 0);
  contains(dra_result_json(r), "\"items\": []");
  dra_result_free(r);

  /* Every allocated claim as records, by namespace then name, without JSON. */
  assert_int_equal(dra_allocated_claims(ctx, NULL, &r), DRA_OK);
  assert_null(dra_result_json(r));
  assert_null(dra_result_node(r));
  assert_int_equal(dra_result_claim_count(r), 2);
  assert_string_equal(dra_result_claim(r, 0), "team-a/small");
  assert_device(r, 0, 0, "gpu-0");
  assert_int_equal(strncmp(dra_result_claim(r, 1), "team-a/templated-gpu-", 21), 0);
  assert_device(r, 1, 0, "gpu-1");
  dra_result_free(r);
  assert_int_equal(dra_allocated_claims(ctx, "elsewhere", &r), DRA_OK);
  assert_int_equal(dra_result_claim_count(r), 0);
  dra_result_free(r);
  assert_int_equal(dra_allocated_claims(ctx, "team-a", NULL), DRA_MISUSE);
  assert_string_equal(dra_errmsg(ctx), "dra_allocated_claims: result is required");

  pod = get(ctx, "pods", "waits");
  assert_null(strstr(pod, "nodeName"));
  contains(pod, "\"reason\": \"Unschedulable\"");
  dra_free(pod);
  char *claim = get(ctx, "ResourceClaim", "small");
  contains(claim, "\"reservedFor\": [");
  contains(claim, "\"name\": \"runs\"");
  dra_free(claim);

  /* Pods by name; a namespace filters; another kind, another list. */
  char *list = NULL;
  assert_int_equal(dra_list_json(ctx, "pods", "team-a", &list), DRA_OK);
  const char *runs = strstr(list, "\"name\": \"runs\""), *waits = strstr(list, "\"name\": \"waits\"");
  assert_true(runs && waits && runs < waits);
  assert_true(strncmp(list, "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n", 41) == 0);
  contains(list, "    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n");
  dra_free(list);
  assert_int_equal(dra_list_json(ctx, "Pod", "elsewhere", &list), DRA_OK);
  contains(list, "\"items\": [],");
  dra_free(list);
  assert_int_equal(dra_list_json(ctx, "Node", NULL, &list), DRA_OK);
  contains(list, "\"name\": \"node-1\"");
  dra_free(list);

  /* Another pass with nothing new changes nothing; without the flag there is no explanation. */
  assert_int_equal(dra_schedule(ctx, 0, NULL), DRA_OK);
  pod = get(ctx, "Pod", "runs");
  contains(pod, "\"nodeName\": \"node-1\"");
  dra_free(pod);
  dra_close(ctx);
}

static void bad_arguments(void **state) {
  (void)state;
  dra_ctx *ctx = open_cluster();
  load_claim(ctx, "c", 1, NULL);
  dra_result *r = NULL;
  char *text = NULL;
  const char *missing[] = {"team-a/none", NULL}, *in_default[] = {"c", NULL};
  assert_int_equal(dra_allocate(NULL, "node-1", NULL, 0, &r), DRA_MISUSE);
  assert_int_equal(dra_allocate(ctx, NULL, NULL, 0, &r), DRA_MISUSE);
  assert_string_equal(dra_errmsg(ctx), "dra_allocate: node_name and the result pointer are required");
  assert_int_equal(dra_allocate(ctx, "node-1", NULL, 0, NULL), DRA_MISUSE);
  assert_int_equal(dra_allocate(ctx, "node-1", NULL, 6, &r), DRA_MISUSE);
  assert_string_equal(dra_errmsg(ctx), "dra_allocate: unknown flags 0x6");
  assert_int_equal(dra_allocate(ctx, "node-2", NULL, 0, &r), DRA_NOT_FOUND);
  assert_string_equal(dra_errmsg(ctx), "nodes \"node-2\" not found");
  assert_int_equal(dra_allocate(ctx, "node-1", missing, 0, &r), DRA_NOT_FOUND);
  assert_string_equal(dra_errmsg(ctx), "resourceclaims.resource.k8s.io \"none\" not found");
  /* A bare name is in "default". */
  assert_int_equal(dra_allocate(ctx, "node-1", in_default, 0, &r), DRA_NOT_FOUND);
  assert_null(r);

  assert_int_equal(dra_explain(NULL, "node-1", NULL, 0, &text), DRA_MISUSE);
  assert_int_equal(dra_explain(ctx, "node-1", NULL, 0, NULL), DRA_MISUSE);
  assert_string_equal(dra_errmsg(ctx), "dra_explain: node_name and the result pointer are required");
  assert_int_equal(dra_explain(ctx, "node-1", NULL, 2, &text), DRA_MISUSE);
  assert_int_equal(dra_explain(ctx, "node-2", NULL, 0, &text), DRA_NOT_FOUND);
  assert_null(text);

  assert_int_equal(dra_schedule(NULL, 0, NULL), DRA_MISUSE);
  assert_int_equal(dra_schedule(ctx, DRA_SCHEDULE_EXPLAIN, NULL), DRA_MISUSE);
  assert_string_equal(dra_errmsg(ctx), "dra_schedule: explain is required with DRA_SCHEDULE_EXPLAIN, and only then");
  assert_int_equal(dra_schedule(ctx, 0, &text), DRA_MISUSE);
  assert_int_equal(dra_schedule(ctx, 4, NULL), DRA_MISUSE);
  assert_string_equal(dra_errmsg(ctx), "dra_schedule: unknown flags 0x4");

  assert_int_equal(dra_list_json(NULL, "pods", NULL, &text), DRA_MISUSE);
  assert_int_equal(dra_list_json(ctx, NULL, NULL, &text), DRA_MISUSE);
  assert_int_equal(dra_list_json(ctx, "pods", NULL, NULL), DRA_MISUSE);
  assert_int_equal(dra_list_json(ctx, "widgets", NULL, &text), DRA_MISUSE);
  assert_string_equal(dra_errmsg(ctx), "the server doesn't have a resource type \"widgets\"");
  assert_null(text);

  assert_int_equal(dra_get_pod_result(NULL, "team-a", "p", &r), DRA_MISUSE);
  assert_int_equal(dra_get_pod_result(ctx, "team-a", NULL, &r), DRA_MISUSE);
  assert_string_equal(dra_errmsg(ctx), "dra_get_pod_result: name and result are required");
  assert_int_equal(dra_get_pod_result(ctx, "team-a", "p", NULL), DRA_MISUSE);
  assert_int_equal(dra_get_pod_result(ctx, NULL, "p", &r), DRA_NOT_FOUND);
  assert_string_equal(dra_errmsg(ctx), "pods \"p\" not found");
  assert_null(r);

  /* Results: NULL is an empty result. */
  assert_null(dra_result_json(NULL));
  assert_null(dra_result_node(NULL));
  assert_int_equal(dra_result_claim_count(NULL), 0);
  assert_null(dra_result_claim(NULL, 0));
  assert_int_equal(dra_result_device_count(NULL, 0), 0);
  assert_null(dra_result_device(NULL, 0, 0));
  dra_result_free(NULL);
  assert_string_equal(dra_status_name(DRA_UNSATISFIABLE), "DRA_UNSATISFIABLE");

  /* A success clears the error. */
  assert_int_equal(dra_allocate(ctx, "node-1", NULL, 0, &r), DRA_OK);
  assert_string_equal(dra_errmsg(ctx), "");
  assert_int_equal(dra_errcode(ctx), DRA_OK);
  dra_result_free(r);
  dra_close(ctx);
}

/* Selectors on every device, as records and as JSON alike: a match, a
 * miss with its why, a runtime error, and an expression that does not
 * compile. */
static void selects_devices(void **state) {
  (void)state;
  dra_ctx *ctx = open_cluster();
  dra_selection *sel = NULL;
  const char *expr = "device.attributes[\"gpu.example.com\"].model == \"H100\"";
  assert_int_equal(dra_select(ctx, expr, DRA_SELECT_WHY, &sel), DRA_OK);
  assert_int_equal(dra_selection_count(sel), 2);
  const dra_selected *a = dra_selection_item(sel, 0), *b = dra_selection_item(sel, 1);
  assert_string_equal(a->driver, "gpu.example.com");
  assert_string_equal(a->pool, "node-1");
  assert_string_equal(a->device, "gpu-0");
  assert_int_equal(a->matches, 0);
  assert_null(a->error);
  contains(a->why, "is false (attribute model: A100)");
  assert_string_equal(b->device, "gpu-1");
  assert_int_equal(b->matches, 1);
  assert_null(b->why);
  assert_null(dra_selection_item(sel, 2));
  char *json = NULL;
  assert_int_equal(dra_select_devices_why(ctx, expr, &json), DRA_OK);
  contains(json, "is false (attribute model: A100)\"");
  contains(json, "\"matches\": true");
  dra_free(json);
  dra_close(ctx); /* the records outlive their context */
  assert_string_equal(dra_selection_item(sel, 0)->device, "gpu-0");
  dra_selection_free(sel);

  ctx = open_cluster();
  assert_int_equal(dra_select(ctx, "device.attributes[\"gpu.example.com\"].memory > 1", 0, &sel), DRA_OK);
  assert_int_equal(dra_selection_item(sel, 0)->matches, -1);
  contains(dra_selection_item(sel, 0)->error, "no such key: memory");
  assert_null(dra_selection_item(sel, 0)->why);
  dra_selection_free(sel);
  assert_int_equal(dra_select(ctx, "device.driver ==", 0, &sel), DRA_INVALID);
  assert_null(sel);
  assert_int_equal(dra_select(ctx, "true", 4, &sel), DRA_MISUSE);
  assert_int_equal(dra_select(ctx, NULL, 0, &sel), DRA_MISUSE);
  assert_string_equal(dra_errmsg(ctx), "dra_select: expression and selection are required");
  assert_int_equal(dra_selection_count(NULL), 0);
  dra_selection_free(NULL);
  dra_close(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(allocates_without_changing_the_store),
      cmocka_unit_test(allocates_pod_after_pod),
      cmocka_unit_test(unsatisfiable_and_explained),
      cmocka_unit_test(taint_rules),
      cmocka_unit_test(cel_runtime_error),
      cmocka_unit_test(search_bounds),
      cmocka_unit_test(as_stored_allocations_hold_devices),
      cmocka_unit_test(schedules_and_lists),
      cmocka_unit_test(explains_every_node_in_order),
      cmocka_unit_test(bad_arguments),
      cmocka_unit_test(selects_devices),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
