/* test_store_dra_api.c: the embedding API of include/dra.h over the store:
 * loading through admission and as stored, all-or-nothing on bad input,
 * restore order, default namespace, feature gates and their warnings,
 * validation without storing, objects out as JSON, error codes and texts. */
#include "dra.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define NOW 1767225600 /* 2026-01-01T00:00:00Z */

static const char admin_claim_and_namespace[] = "apiVersion: resource.k8s.io/v1\n"
                                                "kind: ResourceClaim\n"
                                                "metadata: {name: c, namespace: admins}\n"
                                                "spec:\n"
                                                "  devices:\n"
                                                "    requests:\n"
                                                "    - name: r\n"
                                                "      exactly: {deviceClassName: gpu, adminAccess: true}\n"
                                                "---\n"
                                                "apiVersion: v1\n"
                                                "kind: Namespace\n"
                                                "metadata:\n"
                                                "  name: admins\n"
                                                "  labels: {resource.kubernetes.io/admin-access: \"true\"}\n";

static const char allocated_claim[] = "apiVersion: resource.k8s.io/v1\n"
                                      "kind: ResourceClaim\n"
                                      "metadata: {name: done}\n"
                                      "spec:\n"
                                      "  devices:\n"
                                      "    requests:\n"
                                      "    - name: r\n"
                                      "      exactly: {deviceClassName: gpu}\n"
                                      "status:\n"
                                      "  allocation:\n"
                                      "    devices:\n"
                                      "      results:\n"
                                      "      - {request: r, driver: gpu.example.com, pool: p, device: d0}\n";

static const char prioritized_claim[] = "apiVersion: resource.k8s.io/v1\n"
                                        "kind: ResourceClaim\n"
                                        "metadata: {name: pick, namespace: default}\n"
                                        "spec:\n"
                                        "  devices:\n"
                                        "    requests:\n"
                                        "    - name: r\n"
                                        "      firstAvailable:\n"
                                        "      - {name: big, deviceClassName: gpu}\n";

static dra_ctx *open_ctx(const char *gates) {
  dra_ctx *ctx = NULL;
  assert_int_equal(dra_open(&ctx, gates), DRA_OK);
  dra_set_time(ctx, NOW);
  return ctx;
}

static dra_status load(dra_ctx *ctx, const char *text, unsigned flags) {
  return dra_load_buffer(ctx, "test.yaml", text, strlen(text), flags);
}

/* The stored object's JSON, which must exist; caller frees. */
static char *get(dra_ctx *ctx, const char *kind, const char *ns, const char *name) {
  char *json = NULL;
  assert_int_equal(dra_get_json(ctx, kind, ns, name, &json), DRA_OK);
  assert_non_null(json);
  return json;
}

static void contains(const char *text, const char *part) {
  if (!strstr(text, part)) fail_msg("%s\n--- does not contain ---\n%s", text, part);
}

static void admitted_in_restore_order(void **state) {
  (void)state;
  dra_ctx *ctx = open_ctx(NULL);
  /* The Namespace comes after the claim in the text but is created first,
   * and its admin-access label admits the claim. */
  assert_int_equal(load(ctx, admin_claim_and_namespace, 0), DRA_OK);
  assert_string_equal(dra_errmsg(ctx), "");
  assert_int_equal(dra_object_count(ctx), 2);
  char *ns = get(ctx, "Namespace", NULL, "admins");
  contains(ns, "\"resourceVersion\": \"1\"");
  char *claim = get(ctx, "resourceclaims", "admins", "c");
  contains(claim, "\"resourceVersion\": \"2\"");
  contains(claim, "\"creationTimestamp\": \"2026-01-01T00:00:00Z\"");
  contains(claim, "\"allocationMode\": \"ExactCount\""); /* admission defaulted it */
  contains(claim, "\"uid\": \"");
  dra_free(ns);
  dra_free(claim);
  dra_close(ctx);
}

static void as_stored_keeps_status_and_defaults_the_namespace(void **state) {
  (void)state;
  dra_ctx *ctx = open_ctx(NULL);
  assert_int_equal(load(ctx, allocated_claim, DRA_LOAD_AS_STORED), DRA_OK);
  char *claim = get(ctx, "ResourceClaim", NULL, "done");
  contains(claim, "\"namespace\": \"default\"");
  contains(claim, "\"device\": \"d0\"");
  assert_null(strstr(claim, "allocationMode")); /* no admission, no defaults */
  dra_free(claim);

  /* Through admission, a create drops the status. */
  dra_ctx *admitted = open_ctx(NULL);
  assert_int_equal(load(admitted, allocated_claim, 0), DRA_OK);
  claim = get(admitted, "ResourceClaim", "default", "done");
  assert_null(strstr(claim, "\"device\": \"d0\""));
  dra_free(claim);
  dra_close(admitted);
  dra_close(ctx);
}

/* DRA_LOAD_NO_MANAGED_FIELDS leaves managedFields out and nothing else;
 * DRA_LOAD_UNSHARED changes nothing one can read. */
static void managed_fields_left_out(void **state) {
  (void)state;
  static const char pod[] = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\","
                            "\"managedFields\":[{\"manager\":\"kubelet\",\"fieldsV1\":{\"f:status\":{}}}]},"
                            "\"spec\":{\"nodeName\":\"node-1\",\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}";
  dra_ctx *ctx = open_ctx(NULL);
  assert_int_equal(load(ctx, pod, DRA_LOAD_AS_STORED | DRA_LOAD_NO_MANAGED_FIELDS), DRA_OK);
  char *json = get(ctx, "Pod", NULL, "p");
  assert_null(strstr(json, "managedFields"));
  contains(json, "\"image\": \"i\"");
  contains(json, "\"nodeName\": \"node-1\"");
  dra_free(json);
  dra_close(ctx);
  ctx = open_ctx(NULL);
  assert_int_equal(load(ctx, pod, DRA_LOAD_AS_STORED), DRA_OK);
  json = get(ctx, "Pod", NULL, "p");
  contains(json, "\"manager\": \"kubelet\"");
  dra_close(ctx);
  /* unshared values print the same */
  ctx = open_ctx(NULL);
  assert_int_equal(load(ctx, pod, DRA_LOAD_AS_STORED | DRA_LOAD_UNSHARED), DRA_OK);
  char *unshared = get(ctx, "Pod", NULL, "p");
  assert_string_equal(unshared, json);
  dra_free(unshared);
  dra_free(json);
  dra_close(ctx);
}

/* DRA_LOAD_SCHEDULING_ONLY keeps, of the fields dra does not model, those
 * the scheduler reads, on the direct path (JSON) and the tree path (YAML
 * with an anchor), and the scheduler still reads them: a pod for another
 * scheduler stays unbound. */
static void scheduling_only_keeps_what_scheduling_reads(void **state) {
  (void)state;
  static const char node[] = "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"node-1\"},"
                             "\"status\":{\"allocatable\":{\"cpu\":\"8\",\"pods\":\"110\"},"
                             "\"addresses\":[{\"type\":\"InternalIP\",\"address\":\"10.0.0.1\"}]}}";
  static const char pods[] =
      "{\"apiVersion\":\"v1\",\"kind\":\"PodList\",\"items\":["
      "{\"metadata\":{\"name\":\"other\",\"namespace\":\"default\"},\"spec\":{\"schedulerName\":\"other-scheduler\","
      "\"dnsPolicy\":\"ClusterFirst\",\"securityContext\":{},\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]},"
      "\"status\":{\"phase\":\"Pending\",\"startTime\":\"2026-01-01T00:00:00Z\",\"podIPs\":[{\"ip\":\"10.1.0.1\"}],"
      "\"containerStatuses\":[{\"name\":\"c\",\"ready\":false}]}},"
      "{\"metadata\":{\"name\":\"mine\",\"namespace\":\"default\"},\"spec\":{\"schedulerName\":\"default-scheduler\","
      "\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}]}";
  static const char yaml_pod[] = "apiVersion: v1\nkind: Pod\nmetadata: {name: other, namespace: default}\n"
                                 "spec:\n  schedulerName: &s other-scheduler\n  dnsPolicy: ClusterFirst\n"
                                 "  securityContext: {}\n  containers: [{name: c, image: i}]\n"
                                 "status:\n  phase: Pending\n  startTime: \"2026-01-01T00:00:00Z\"\n"
                                 "  podIPs: [{ip: 10.1.0.1}]\n  containerStatuses: [{name: c, ready: false}]\n";
  unsigned flags = DRA_LOAD_AS_STORED | DRA_LOAD_SCHEDULING_ONLY;
  dra_ctx *ctx = open_ctx(NULL);
  assert_int_equal(load(ctx, node, flags), DRA_OK);
  assert_int_equal(load(ctx, pods, flags), DRA_OK);
  char *json = get(ctx, "Pod", "default", "other");
  contains(json, "\"schedulerName\": \"other-scheduler\"");
  contains(json, "\"startTime\": \"2026-01-01T00:00:00Z\"");
  contains(json, "\"phase\": \"Pending\"");
  assert_null(strstr(json, "dnsPolicy"));
  assert_null(strstr(json, "securityContext"));
  assert_null(strstr(json, "image"));
  assert_null(strstr(json, "podIPs"));
  assert_null(strstr(json, "containerStatuses"));
  char *node_json = get(ctx, "Node", NULL, "node-1");
  assert_null(strstr(node_json, "addresses"));
  contains(node_json, "\"pods\": \"110\"");
  dra_free(node_json);
  assert_int_equal(dra_schedule(ctx, 0, NULL), DRA_OK);
  char *other = get(ctx, "Pod", "default", "other"), *mine = get(ctx, "Pod", "default", "mine");
  assert_null(strstr(other, "nodeName"));
  contains(mine, "\"nodeName\": \"node-1\"");
  dra_free(other);
  dra_free(mine);
  dra_close(ctx);
  /* the tree path leaves out the same */
  ctx = open_ctx(NULL);
  assert_int_equal(load(ctx, node, flags), DRA_OK);
  assert_int_equal(load(ctx, yaml_pod, flags), DRA_OK);
  char *tree = get(ctx, "Pod", "default", "other");
  assert_string_equal(tree, json);
  dra_free(tree);
  dra_free(json);
  dra_close(ctx);
  /* without the flag they are all kept */
  ctx = open_ctx(NULL);
  assert_int_equal(load(ctx, pods, DRA_LOAD_AS_STORED), DRA_OK);
  json = get(ctx, "Pod", "default", "other");
  contains(json, "\"dnsPolicy\": \"ClusterFirst\"");
  contains(json, "\"containerStatuses\"");
  contains(json, "\"image\": \"i\"");
  dra_free(json);
  dra_close(ctx);
}

/* A restore admits (defaults are set) but keeps the status, uid and a pod's node. */
static void restore_admits_and_keeps_status(void **state) {
  (void)state;
  static const char bound_pod[] = "apiVersion: v1\nkind: Pod\nmetadata: {name: p, uid: 1234-abcd}\n"
                                  "spec:\n  nodeName: node-1\n  containers: [{name: c, image: i}]\n";
  dra_ctx *ctx = open_ctx(NULL);
  assert_int_equal(load(ctx, allocated_claim, DRA_LOAD_RESTORE), DRA_OK);
  assert_int_equal(load(ctx, bound_pod, DRA_LOAD_RESTORE), DRA_OK);
  char *claim = get(ctx, "ResourceClaim", NULL, "done");
  contains(claim, "\"device\": \"d0\"");
  contains(claim, "\"allocationMode\": \"ExactCount\""); /* admission's defaults */
  dra_free(claim);
  char *pod = get(ctx, "Pod", NULL, "p");
  contains(pod, "\"nodeName\": \"node-1\"");
  contains(pod, "\"uid\": \"1234-abcd\"");
  dra_free(pod);
  assert_int_equal(load(ctx, allocated_claim, DRA_LOAD_RESTORE | DRA_LOAD_AS_STORED), DRA_MISUSE);
  assert_int_equal(load(ctx, allocated_claim, 32), DRA_MISUSE);
  dra_close(ctx);
}

static void bad_input_stores_nothing(void **state) {
  (void)state;
  dra_ctx *ctx = open_ctx(NULL);
  static const char invalid_and_unknown[] = "apiVersion: v1\nkind: Namespace\nmetadata: {name: fine}\n---\n"
                                            "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\n"
                                            "metadata: {name: c}\nspec:\n  devices:\n    requests:\n"
                                            "    - name: r\n      exactly: {deviceClassName: gpu, count: -1}\n"
                                            "---\n"
                                            "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\n"
                                            "metadata: {name: x}\nspec: {colour: red}\n";
  assert_int_equal(load(ctx, invalid_and_unknown, 0), DRA_BAD_REQUEST); /* the first problem's status */
  assert_int_equal(dra_errcode(ctx), DRA_BAD_REQUEST);
  assert_string_equal(dra_errmsg(ctx),
                      "test.yaml:14: DeviceClass in version \"v1\" cannot be handled as a DeviceClass: strict "
                      "decoding error: unknown field \"spec.colour\"\n"
                      "test.yaml:5: ResourceClaim.resource.k8s.io \"c\" is invalid: "
                      "spec.devices.requests[0].exactly.count: Invalid value: -1: must be greater than zero");
  assert_int_equal(dra_object_count(ctx), 0);

  /* A malformed value hides the unknown fields, as in kube-apiserver. */
  static const char malformed[] = "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: x}\n"
                                  "spec: {colour: red, selectors: 7}\n";
  assert_int_equal(load(ctx, malformed, 0), DRA_BAD_REQUEST);
  assert_string_equal(dra_errmsg(ctx), "test.yaml:1: DeviceClass in version \"v1\" cannot be handled as a "
                                       "DeviceClass: cannot unmarshal number 7 into field spec.selectors of type "
                                       "array");
  /* A nameless Namespace is refused, and does not trip the admin-access lookup. */
  static const char nameless[] = "apiVersion: v1\nkind: Namespace\nmetadata: {labels: {a: b}}\n---\n";
  char both[sizeof nameless + sizeof admin_claim_and_namespace];
  snprintf(both, sizeof both, "%s%s", nameless, admin_claim_and_namespace);
  assert_int_equal(load(ctx, both, 0), DRA_INVALID);
  contains(dra_errmsg(ctx), "test.yaml:1: Namespace \"\" is invalid: metadata.name: Required value");

  assert_int_equal(load(ctx, "a: [", 0), DRA_READ);
  contains(dra_errmsg(ctx), "test.yaml:");
  assert_int_equal(dra_load_file(ctx, "/nonexistent/dra.yaml", 0), DRA_READ);
  contains(dra_errmsg(ctx), "/nonexistent/dra.yaml");

  /* A success clears the last error. */
  assert_int_equal(load(ctx, "apiVersion: v1\nkind: Namespace\nmetadata: {name: fine}\n", 0), DRA_OK);
  assert_string_equal(dra_errmsg(ctx), "");
  assert_int_equal(dra_errcode(ctx), DRA_OK);
  dra_close(ctx);
}

static void names_taken_stop_the_load(void **state) {
  (void)state;
  dra_ctx *ctx = open_ctx(NULL);
  assert_int_equal(load(ctx, "apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n", 0), DRA_OK);
  assert_int_equal(load(ctx,
                        "apiVersion: v1\nkind: Namespace\nmetadata: {name: b}\n---\n"
                        "apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n",
                        0),
                   DRA_ALREADY_EXISTS);
  assert_string_equal(dra_errmsg(ctx), "test.yaml:5: namespaces \"a\" already exists");
  assert_int_equal(dra_object_count(ctx), 2); /* b was stored before */
  dra_close(ctx);
}

static void feature_gates_and_warnings(void **state) {
  (void)state;
  dra_ctx *ctx = NULL;
  assert_int_equal(dra_open(&ctx, "DRANoSuchGate=true"), DRA_MISUSE);
  assert_string_equal(dra_errmsg(ctx), "unrecognized feature gate: DRANoSuchGate");
  dra_close(ctx);

  ctx = open_ctx("DRAPrioritizedList=false");
  assert_int_equal(dra_validate(ctx, "test.yaml", prioritized_claim, strlen(prioritized_claim)), DRA_INVALID);
  assert_string_equal(dra_warnings(ctx), "Warning: ResourceClaim \"pick\": spec.devices.requests[0].firstAvailable: "
                                         "dropped, feature gate DRAPrioritizedList is disabled");
  contains(dra_errmsg(ctx), "exactly one of `exactly` or `firstAvailable` is required");
  dra_close(ctx);

  ctx = open_ctx(NULL);
  assert_int_equal(dra_validate(ctx, "test.yaml", prioritized_claim, strlen(prioritized_claim)), DRA_OK);
  assert_string_equal(dra_warnings(ctx), "");
  assert_int_equal(dra_object_count(ctx), 0); /* validate stores nothing */
  dra_close(ctx);
}

static void getting_objects(void **state) {
  (void)state;
  dra_ctx *ctx = open_ctx(NULL);
  char *json = NULL;
  assert_int_equal(dra_get_json(ctx, "ResourceClaim", "default", "none", &json), DRA_NOT_FOUND);
  assert_null(json);
  assert_string_equal(dra_errmsg(ctx), "resourceclaims.resource.k8s.io \"none\" not found");
  assert_int_equal(dra_get_json(ctx, "Widget", "default", "x", &json), DRA_MISUSE);
  assert_string_equal(dra_errmsg(ctx), "the server doesn't have a resource type \"Widget\"");
  assert_int_equal(dra_get_json(ctx, "Pod", "default", NULL, &json), DRA_MISUSE);
  assert_int_equal(dra_get_json(NULL, "Pod", "default", "x", &json), DRA_MISUSE);
  assert_int_equal(dra_load_buffer(NULL, "x", "", 0, 0), DRA_MISUSE);
  assert_int_equal(dra_open(NULL, NULL), DRA_MISUSE);

  assert_int_equal(load(ctx, "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"}}", 0), DRA_OK);
  /* A cluster-scoped kind ignores the namespace. */
  json = get(ctx, "nodes", "ignored", "n1");
  assert_string_equal(json, "{\n"
                            "    \"apiVersion\": \"v1\",\n"
                            "    \"kind\": \"Node\",\n"
                            "    \"metadata\": {\n"
                            "        \"name\": \"n1\",\n"
                            "        \"uid\": \"bf4306e8-c442-541d-9308-ac047dff50a8\",\n"
                            "        \"resourceVersion\": \"1\",\n"
                            "        \"creationTimestamp\": \"2026-01-01T00:00:00Z\"\n"
                            "    },\n"
                            "    \"spec\": {},\n"
                            "    \"status\": {\n"
                            "        \"daemonEndpoints\": {\n"
                            "            \"kubeletEndpoint\": {\n"
                            "                \"Port\": 0\n"
                            "            }\n"
                            "        },\n"
                            "        \"nodeInfo\": {\n"
                            "            \"machineID\": \"\",\n"
                            "            \"systemUUID\": \"\",\n"
                            "            \"bootID\": \"\",\n"
                            "            \"kernelVersion\": \"\",\n"
                            "            \"osImage\": \"\",\n"
                            "            \"containerRuntimeVersion\": \"\",\n"
                            "            \"kubeletVersion\": \"\",\n"
                            "            \"kubeProxyVersion\": \"\",\n"
                            "            \"operatingSystem\": \"\",\n"
                            "            \"architecture\": \"\"\n"
                            "        }\n"
                            "    }\n"
                            "}\n");
  dra_free(json);
  assert_string_equal(dra_status_name(DRA_ALREADY_EXISTS), "DRA_ALREADY_EXISTS");
  assert_string_equal(dra_version(), "0.1.0");
  dra_close(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(admitted_in_restore_order),
      cmocka_unit_test(as_stored_keeps_status_and_defaults_the_namespace),
      cmocka_unit_test(restore_admits_and_keeps_status),
      cmocka_unit_test(managed_fields_left_out),
      cmocka_unit_test(scheduling_only_keeps_what_scheduling_reads),
      cmocka_unit_test(bad_input_stores_nothing),
      cmocka_unit_test(names_taken_stop_the_load),
      cmocka_unit_test(feature_gates_and_warnings),
      cmocka_unit_test(getting_objects),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
