/* test_alloc_explain.c: `--explain` data: per request the filter counts,
 * why devices are unavailable, the nearest miss, and failing constraint pairs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "../../bench/alloc_fixture.h"

static const char *yaml =
    "apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\n---\n"
    "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\n"
    "spec:\n  selectors:\n  - cel: {expression: 'device.driver == \"gpu.example.com\"'}\n---\n"
    "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: slice-1}\n"
    "spec:\n  driver: gpu.example.com\n  nodeName: node-1\n  pool: {name: pool-1, generation: 1, resourceSliceCount: 1}\n"
    "  devices:\n  - {name: gpu-0, attributes: {numa: {int: 0}}}\n  - {name: gpu-1, attributes: {numa: {int: 1}}}\n"
    "  - {name: gpu-2, attributes: {numa: {int: 0}}}\n  - {name: gpu-3, attributes: {numa: {int: 1}}}\n---\n"
    "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: train-7}\nspec:\n  devices:\n"
    "    requests: [{name: r, exactly: {deviceClassName: gpu}}]\n"
    "status:\n  allocation:\n    devices:\n      results: [{request: r, driver: gpu.example.com, pool: pool-1, device: gpu-2}]\n---\n"
    "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: big}\nspec:\n  devices:\n"
    "    requests: [{name: r, exactly: {deviceClassName: gpu, count: 4}}]\n---\n"
    "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: aligned}\nspec:\n  devices:\n"
    "    requests: [{name: r, exactly: {deviceClassName: gpu, count: 3}}]\n"
    "    constraints: [{matchAttribute: gpu.example.com/numa}]\n";

static json_t *explain(alloc_fixture *f, alloc_index *ix, bool as_json, strbuf *sb) {
  alloc_explain_opts opts = {.json = as_json};
  alloc_explain(ix, f->nd, f->claims, f->n_claims, &opts, sb);
  return as_json ? json_loads(sb_str(sb), 0, NULL) : NULL;
}

static void test_counts_and_nearest_miss(void **state) {
  (void)state;
  alloc_fixture f;
  assert_int_equal(alloc_fixture_load(&f, yaml, NULL), 0);
  alloc_index *ix = alloc_index_new(&f.in);
  strbuf sb = STRBUF_INIT;
  json_t *root = explain(&f, ix, true, &sb);
  assert_non_null(root);
  json_t *big = json_array_get(json_object_get(root, "claims"), 0);
  assert_string_equal(json_string_value(json_object_get(big, "claim")), "default/big");
  json_t *r = json_array_get(json_object_get(big, "requests"), 0);
  assert_int_equal(json_integer_value(json_object_get(r, "visible")), 4);
  assert_int_equal(json_integer_value(json_object_get(r, "requestSelected")), 4);
  assert_int_equal(json_integer_value(json_object_get(r, "free")), 3);
  assert_string_equal(json_string_value(json_object_get(r, "nearestMiss")),
                      "needs 4, 3 free; gpu-2 held by default/train-7");
  json_t *aligned = json_array_get(json_object_get(root, "claims"), 1);
  json_t *c = json_array_get(json_object_get(aligned, "constraints"), 0);
  assert_int_equal(json_integer_value(json_object_get(c, "pairs")), 3); /* gpu-0, gpu-1, gpu-3 */
  assert_int_equal(json_integer_value(json_object_get(c, "failingPairs")), 2);
  json_t *pair = json_array_get(json_object_get(c, "examples"), 0);
  assert_string_not_equal(json_string_value(json_object_get(pair, "aValue")), json_string_value(json_object_get(pair, "bValue")));
  /* what would fit now: three of four, or train-7 releasing gpu-2 */
  json_t *fit = json_array_get(json_object_get(big, "wouldFit"), 0);
  assert_int_equal(json_integer_value(json_object_get(fit, "count")), 3);
  assert_int_equal(json_integer_value(json_object_get(fit, "asked")), 4);
  json_t *release = json_array_get(json_object_get(big, "release"), 0);
  assert_string_equal(json_string_value(json_object_get(release, "claim")), "default/train-7");
  assert_string_equal(json_string_value(json_array_get(json_object_get(release, "devices"), 0)), "gpu.example.com/pool-1/gpu-2");
  fit = json_array_get(json_object_get(aligned, "wouldFit"), 0);
  assert_int_equal(json_integer_value(json_object_get(fit, "count")), 2);
  json_decref(root);
  sb_truncate(&sb, 0);
  explain(&f, ix, false, &sb);
  assert_non_null(strstr(sb_str(&sb), "nearest miss: needs 4, 3 free; gpu-2 held by default/train-7"));
  assert_non_null(strstr(sb_str(&sb), "constraint #0 matchAttribute gpu.example.com/numa: 2 of 3 device pairs fail"));
  sb_free(&sb);
  alloc_index_free(ix);
  alloc_fixture_free(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_counts_and_nearest_miss)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
