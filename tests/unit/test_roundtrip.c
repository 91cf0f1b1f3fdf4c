/* test_roundtrip.c: golden round trips for every kind. Each
 * tests/data/golden/<kind>.in.yaml decodes cleanly, encodes to exactly
 * <kind>.golden.yaml (kubectl-style YAML, sorted keys, canonical quantities),
 * and the golden file is a fixed point of decode+encode. Set
 * DRA_UPDATE_GOLDEN=1 to rewrite the golden files after a reviewed change. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "dra.h"
#include "codec/doc.h"
#include "load/objects.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kinds[] = {"namespace", "node", "deviceclass", "resourceslice",
                                    "resourceclaimtemplate", "podgroup", "resourceclaim", "pod"};

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  size_t got = fread(buf, 1, (size_t)n, f);
  buf[got] = 0;
  fclose(f);
  return buf;
}

/* Loads one file, asserts it holds one clean object, returns its YAML. */
static char *encode_file_as_yaml(const char *path) {
  object_set set = {0};
  strbuf err = STRBUF_INIT;
  const char *paths[] = {path};
  int rc = objects_load_paths(paths, 1, false, &set, &err);
  if (rc) fprintf(stderr, "%s\n", sb_str(&err));
  assert_int_equal(rc, 0);
  assert_int_equal(set.n, 1);
  if (!loaded_object_ok(&set.items[0])) fprintf(stderr, "%s: does not decode\n", path);
  assert_true(loaded_object_ok(&set.items[0]));
  json_t *j = api_object_encode(set.items[0].obj);
  strbuf out = STRBUF_INIT;
  doc_write_yaml(&out, j);
  json_decref(j);
  object_set_free(&set);
  sb_free(&err);
  return sb_detach(&out);
}

static void test_golden_round_trip(void **state) {
  (void)state;
  bool update = getenv("DRA_UPDATE_GOLDEN") != NULL;
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
    char in[256], golden[256];
    snprintf(in, sizeof in, "tests/data/golden/%s.in.yaml", kinds[i]);
    snprintf(golden, sizeof golden, "tests/data/golden/%s.golden.yaml", kinds[i]);
    char *got = encode_file_as_yaml(in);
    if (update) {
      FILE *f = fopen(golden, "wb");
      fputs(got, f);
      fclose(f);
    }
    char *want = read_file(golden);
    assert_non_null(want);
    if (strcmp(got, want)) fprintf(stderr, "%s: encoding differs from %s:\n%s\n", in, golden, got);
    assert_string_equal(got, want);
    char *again = encode_file_as_yaml(golden);
    if (strcmp(again, want)) fprintf(stderr, "%s is not a fixed point:\n%s\n", golden, again);
    assert_string_equal(again, want);
    free(got);
    free(want);
    free(again);
  }
}

/* -o json keeps the API's field order (apiVersion, kind, metadata, spec, status). */
static void test_json_field_order(void **state) {
  (void)state;
  object_set set = {0};
  strbuf err = STRBUF_INIT;
  const char *paths[] = {"tests/data/golden/resourceclaim.in.yaml"};
  assert_int_equal(objects_load_paths(paths, 1, false, &set, &err), 0);
  json_t *j = api_object_encode(set.items[0].obj);
  const char *order[] = {"apiVersion", "kind", "metadata", "spec", "status"};
  size_t k = 0;
  const char *key;
  json_t *v;
  json_object_foreach(j, key, v) {
    assert_true(k < 5);
    assert_string_equal(key, order[k++]);
  }
  json_t *exactly = json_object_get(json_array_get(json_object_get(json_object_get(json_object_get(j, "spec"), "devices"), "requests"), 0), "exactly");
  const char *exact_order[] = {"deviceClassName", "selectors", "allocationMode", "count", "adminAccess",
                               "tolerations", "capacity", "derivedAttributes"};
  k = 0;
  json_object_foreach(exactly, key, v) assert_string_equal(key, exact_order[k++]);
  assert_int_equal(k, 8);
  json_decref(j);
  object_set_free(&set);
  sb_free(&err);
}

/* Strict decoding: every unknown field, wrong type and bad quantity is named by path. */
static char *decode_report(const char *yaml) {
  dra_ctx *ctx = NULL;
  assert_int_equal(dra_open(&ctx, NULL), DRA_OK);
  assert_int_equal(dra_validate(ctx, "t.yaml", yaml, strlen(yaml)), DRA_BAD_REQUEST);
  char *report = strdup(dra_errmsg(ctx));
  dra_close(ctx);
  return report;
}

/* Strict decoding names every problem by path. As kube-apiserver, malformed
 * values (wrong types, bad quantities) are reported when there are any;
 * otherwise every unknown and duplicate field, as a strict decoding error. */
static void test_strict_decode_errors(void **state) {
  (void)state;
  char *report = decode_report("apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c}\n"
                               "spec:\n  devices:\n    requests:\n    - name: r\n      exactly:\n        name: x\n"
                               "        deviceClassName: c\n        count: two\n        capacity: {requests: {mem: 10Gb}}\n"
                               "      bogus: 1\n");
  assert_non_null(strstr(report, "ResourceClaim in version \"v1\" cannot be handled as a ResourceClaim: "));
  assert_non_null(strstr(report, "cannot unmarshal string into field spec.devices.requests[0].exactly.count of type int64"));
  assert_non_null(strstr(report, "spec.devices.requests[0].exactly.capacity.requests[mem]: quantities must match the regular expression"));
  assert_null(strstr(report, "unknown field"));
  free(report);
  report = decode_report("apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c}\n"
                         "spec:\n  devices:\n    requests:\n    - name: r\n      exactly:\n        name: x\n"
                         "        deviceClassName: c\n        deviceClassName: d\n      bogus: 1\n");
  assert_non_null(strstr(report, "ResourceClaim in version \"v1\" cannot be handled as a ResourceClaim: strict decoding error: "));
  assert_non_null(strstr(report, "unknown field \"spec.devices.requests[0].exactly.name\""));
  assert_non_null(strstr(report, "unknown field \"spec.devices.requests[0].bogus\""));
  assert_non_null(strstr(report, "duplicate field \"spec.devices.requests[0].exactly.deviceClassName\""));
  free(report);
}

/* Pass-through: fields of Pod/Node outside DRA survive decode+encode. */
static void test_pod_pass_through(void **state) {
  (void)state;
  char *yaml = encode_file_as_yaml("tests/data/golden/pod.in.yaml");
  assert_non_null(strstr(yaml, "terminationGracePeriodSeconds: 5"));
  assert_non_null(strstr(yaml, "preferredDuringSchedulingIgnoredDuringExecution"));
  assert_non_null(strstr(yaml, "hostIP: 10.0.0.1"));
  assert_non_null(strstr(yaml, "echo hi"));
  free(yaml);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_golden_round_trip),
      cmocka_unit_test(test_json_field_order),
      cmocka_unit_test(test_strict_decode_errors),
      cmocka_unit_test(test_pod_pass_through),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
