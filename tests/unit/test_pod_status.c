/* test_pod_status.c: a Pod's status as the kubelet writes it, typed in Go's
 * field order with its container statuses held as text (api/types.h):
 * it round-trips byte for byte through JSON (the direct path and the tree
 * path), YAML and protobuf; values of the wrong type anywhere in it are
 * decoding errors naming their path, unknown fields inside the container
 * statuses are refused; status fields dra does not type are kept. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "dra.h"
#include "codec/pb_codec.h"
#include "objects_differential.h"
#include <stdlib.h>
#include <string.h>

#define HEAD                                                                                                 \
  "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"u1\"}," \
  "\"spec\":{\"initContainers\":[{\"name\":\"init\",\"image\":\"busybox\"}],"                              \
  "\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}],\"nodeName\":\"n1\"},"

/* Every field of PodStatus dra types, in Go's order, then two it keeps as
 * JSON (allocatedResources, volumeHealth: after the typed ones in Go's order too). */
static const char kubelet_pod[] =
    HEAD "\"status\":{\"observedGeneration\":2,\"phase\":\"Running\","
    "\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\",\"lastProbeTime\":null,"
    "\"lastTransitionTime\":\"2026-01-01T00:00:02Z\"}],"
    "\"message\":\"all good\",\"reason\":\"Fine\",\"nominatedNodeName\":\"n2\","
    "\"hostIP\":\"10.0.0.1\",\"hostIPs\":[{\"ip\":\"10.0.0.1\"},{\"ip\":\"fd00::1\"}],"
    "\"podIP\":\"10.244.0.5\",\"podIPs\":[{\"ip\":\"10.244.0.5\"}],\"startTime\":\"2026-01-01T00:00:00Z\","
    "\"initContainerStatuses\":[{\"name\":\"init\",\"state\":{\"terminated\":{\"exitCode\":0,\"reason\":\"Completed\","
    "\"startedAt\":\"2026-01-01T00:00:01Z\",\"finishedAt\":\"2026-01-01T00:00:01Z\",\"containerID\":\"containerd://1\"}},"
    "\"lastState\":{},\"ready\":true,\"restartCount\":0,\"image\":\"docker.io/library/busybox:latest\","
    "\"imageID\":\"docker.io/library/busybox@sha256:ab\",\"containerID\":\"containerd://1\",\"started\":false}],"
    "\"containerStatuses\":[{\"name\":\"c\",\"state\":{\"running\":{\"startedAt\":\"2026-01-01T00:00:02Z\"}},"
    "\"lastState\":{},\"ready\":true,\"restartCount\":3,\"image\":\"docker.io/library/busybox:latest\","
    "\"imageID\":\"docker.io/library/busybox@sha256:ab\",\"containerID\":\"containerd://2\",\"started\":true}],"
    "\"qosClass\":\"BestEffort\","
    "\"ephemeralContainerStatuses\":[{\"name\":\"debug\",\"state\":{\"waiting\":{\"reason\":\"ContainerCreating\"}},"
    "\"lastState\":{},\"ready\":false,\"restartCount\":0,\"image\":\"busybox\",\"imageID\":\"\"}],"
    "\"resize\":\"InProgress\",\"resourceClaimStatuses\":[{\"name\":\"gpu\",\"resourceClaimName\":\"p-gpu\"}],"
    "\"allocatedResources\":{\"cpu\":\"1\"},\"volumeHealth\":[{\"name\":\"v\",\"lastTransitionTime\":null}]}}";

/* The one pod of text, decoded on the direct path when direct (which must
 * take it), else through the tree, encoded again as compact JSON. */
static char *round_trip(const char *text, size_t len, bool direct) {
  object_set set = {0};
  strbuf err = STRBUF_INIT;
  if (direct) assert_true(objects_load_direct("t.json", text, len, &set));
  else assert_int_equal(objects_load_tree("t", text, len, &set, &err), 0);
  assert_int_equal(set.n, 1);
  assert_true(loaded_object_ok(&set.items[0]));
  const api_object *o = set.items[0].obj;
  char *out = codec_encode_text(o->info->desc, o->typed);
  object_set_free(&set);
  sb_free(&err);
  return out;
}

static void json_round_trip(void **state) {
  (void)state;
  char *direct = round_trip(kubelet_pod, strlen(kubelet_pod), true);
  assert_string_equal(direct, kubelet_pod);
  char *tree = round_trip(kubelet_pod, strlen(kubelet_pod), false);
  assert_string_equal(tree, kubelet_pod);
  assert_int_equal(differential_check("t.json", kubelet_pod, strlen(kubelet_pod)), 0);
  free(direct);
  free(tree);
}

static void yaml_round_trip(void **state) {
  (void)state;
  json_t *v = json_loads(kubelet_pod, 0, NULL);
  assert_non_null(v);
  strbuf yaml = STRBUF_INIT;
  doc_write_yaml(&yaml, v);
  assert_non_null(strstr(sb_str(&yaml), "containerStatuses:\n  - containerID: containerd://2\n"));
  char *back = round_trip(yaml.buf, yaml.len, false);
  json_t *got = json_loads(back, 0, NULL);
  assert_true(json_equal(got, v)); /* YAML sorts keys: the same values */
  /* and the YAML printed from the struct is the one printed from the tree */
  object_set set = {0};
  strbuf err = STRBUF_INIT;
  assert_int_equal(objects_load_tree("t.yaml", yaml.buf, yaml.len, &set, &err), 0);
  strbuf again = STRBUF_INIT;
  json_t *j = api_object_encode(set.items[0].obj);
  doc_write_yaml(&again, j);
  assert_string_equal(sb_str(&again), sb_str(&yaml));
  json_decref(j);
  object_set_free(&set);
  sb_free(&err);
  sb_free(&again);
  json_decref(got);
  free(back);
  sb_free(&yaml);
  json_decref(v);
}

static void protobuf_round_trip(void **state) {
  (void)state;
  json_t *v = json_loads(kubelet_pod, 0, NULL);
  strbuf pb = STRBUF_INIT, err = STRBUF_INIT;
  assert_true(pb_encode_object(v, &pb, &err));
  json_t *decoded = pb_decode_object(pb.buf, pb.len, &err);
  assert_non_null(decoded);
  char *text = json_dumps(decoded, JSON_COMPACT);
  char *back = round_trip(text, strlen(text), true);
  json_t *again = json_loads(back, 0, NULL);
  assert_true(json_equal(again, decoded));
  /* the status as it was, in Go's order (which protobuf's decoding gives
   * too): only the containers' resources ({}) were added */
  assert_non_null(strstr(back, strstr(kubelet_pod, "\"status\":")));
  json_decref(again);
  free(back);
  free(text);
  json_decref(decoded);
  json_decref(v);
  sb_free(&pb);
  sb_free(&err);
}

/* The decoding errors of a pod whose status is status (JSON text). */
static char *status_report(const char *status) {
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, HEAD "\"status\":%s}", status);
  dra_ctx *ctx = NULL;
  assert_int_equal(dra_open(&ctx, NULL), DRA_OK);
  assert_int_equal(dra_validate(ctx, "t.json", sb.buf, sb.len), DRA_BAD_REQUEST);
  char *report = strdup(dra_errmsg(ctx));
  dra_close(ctx);
  sb_free(&sb);
  return report;
}

static void expect_error(const char *status, const char *want) {
  char *report = status_report(status);
  if (!strstr(report, want)) fprintf(stderr, "%s\nwanted: %s\n", report, want);
  assert_non_null(strstr(report, want));
  free(report);
}

static void wrong_types_refused(void **state) {
  (void)state;
  expect_error("{\"hostIP\":5}", "cannot unmarshal number 5 into field status.hostIP of type string");
  expect_error("{\"observedGeneration\":\"2\"}",
               "cannot unmarshal string into field status.observedGeneration of type int64");
  expect_error("{\"podIPs\":[{\"ip\":true}]}", "cannot unmarshal bool into field status.podIPs[0].ip of type string");
  expect_error("{\"hostIPs\":{}}", "cannot unmarshal object into field status.hostIPs of type array");
  expect_error("{\"startTime\":1}", "cannot unmarshal number 1 into field status.startTime of type string");
  expect_error("{\"containerStatuses\":{\"name\":\"c\"}}",
               "cannot unmarshal object into field status.containerStatuses of type array");
  expect_error("{\"containerStatuses\":[{\"name\":\"c\",\"restartCount\":\"3\"}]}",
               "cannot unmarshal string into field status.containerStatuses[0].restartCount of type int32");
  expect_error("{\"initContainerStatuses\":[{\"name\":\"init\",\"state\":{\"running\":{\"startedAt\":7}}}]}",
               "cannot unmarshal number 7 into field status.initContainerStatuses[0].state.running.startedAt of type string");
  expect_error("{\"ephemeralContainerStatuses\":[5]}",
               "cannot unmarshal number 5 into field status.ephemeralContainerStatuses[0] of type object");
  /* unknown fields, typed or not, as strict decoding reports them */
  expect_error("{\"containerStatuses\":[{\"name\":\"c\",\"bogus\":1}]}",
               "unknown field \"status.containerStatuses[0].bogus\"");
  expect_error("{\"podIPs\":[{\"ip\":\"10.0.0.1\",\"bogus\":1}]}", "unknown field \"status.podIPs[0].bogus\"");
  expect_error("{\"bogus\":1}", "unknown field \"status.bogus\"");
}

/* Status fields of the schema that dra does not type stay in _extra, and
 * come out after the typed ones. */
static void untyped_fields_kept(void **state) {
  (void)state;
  static const char pod[] = HEAD "\"status\":{\"phase\":\"Running\",\"volumeHealth\":[{\"name\":\"v\"}],"
                                 "\"podIP\":\"10.244.0.5\",\"allocatedResources\":{\"cpu\":\"1\"}}}";
  static const char want[] = HEAD "\"status\":{\"phase\":\"Running\",\"podIP\":\"10.244.0.5\","
                                  "\"volumeHealth\":[{\"name\":\"v\"}],\"allocatedResources\":{\"cpu\":\"1\"}}}";
  for (int direct = 0; direct < 2; direct++) {
    char *got = round_trip(pod, strlen(pod), direct);
    assert_string_equal(got, want);
    free(got);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(json_round_trip),     cmocka_unit_test(yaml_round_trip),
      cmocka_unit_test(protobuf_round_trip), cmocka_unit_test(wrong_types_refused),
      cmocka_unit_test(untyped_fields_kept),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
