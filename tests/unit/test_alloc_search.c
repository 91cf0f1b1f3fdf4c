/* test_alloc_search.c: the allocator's search: backtracking and combinations
 * with upstream's step counts, pruning of hopeless branches, the step and time
 * budgets, and dra's corrections to upstream (docs/allocator.md, 'Where dra
 * departs from upstream': intersection restored on undo, pairwise
 * distinctAttribute, counter charge given back). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "../../bench/alloc_fixture.h"
#include "cel/cel.h"
#include <pthread.h>
#include <stdio.h>

#define HEAD                                                                                         \
  "apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\n---\n"                                      \
  "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: class-a}\n"                   \
  "spec:\n  selectors:\n  - cel: {expression: 'device.driver == \"driver-a\"'}\n---\n"               \
  "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: slice-1}\n"                 \
  "spec:\n  driver: driver-a\n  nodeName: node-1\n  pool: {name: pool-1, generation: 1, resourceSliceCount: 1}\n"

typedef struct run {
  alloc_fixture f;
  alloc_index *ix;
  arena *out;
  alloc_outcome res;
} run;

static alloc_status run_yaml(run *r, const char *yaml, const char *gates, const alloc_limits *lim) {
  assert_int_equal(alloc_fixture_load(&r->f, yaml, gates), 0);
  r->ix = alloc_index_new(&r->f.in);
  r->out = arena_new();
  return alloc_run(r->ix, r->f.nd, r->f.claims, r->f.n_claims, lim, r->out, &r->res);
}

static void run_free(run *r) {
  arena_free(r->out);
  alloc_index_free(r->ix);
  alloc_fixture_free(&r->f);
}

/* "req/device req/device ..." of claim i. */
static void results_of(const run *r, size_t i, char *buf, size_t n) {
  buf[0] = 0;
  const device_allocation_result *d = r->res.allocations[i]->devices;
  for (uint32_t j = 0; j < d->results.n; j++) {
    size_t len = strlen(buf);
    snprintf(buf + len, n - len, "%s%s/%s", j ? " " : "", d->results.items[j].request, d->results.items[j].device->str);
  }
}

static const char *backtracking =
    HEAD "  devices:\n  - {name: device-1, attributes: {type: {string: X}}}\n"
         "  - {name: device-2, attributes: {type: {string: 'Y'}}}\n  - {name: device-3, attributes: {type: {string: 'Y'}}}\n"
         "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: claim-0}\nspec:\n  devices:\n    requests:\n"
         "    - {name: req-1, exactly: {deviceClassName: class-a, count: 2}}\n"
         "    - name: req-2\n      exactly:\n        deviceClassName: class-a\n"
         "        selectors: [{cel: {expression: 'device.driver == \"driver-a\" && device.attributes[\"driver-a\"].type == \"X\"'}}]\n";

static void test_backtracking_matches_upstream_steps(void **state) {
  (void)state;
  char got[256];
  for (int prune = 0; prune < 2; prune++) {
    run r;
    alloc_limits lim = {.no_pruning = !prune};
    assert_int_equal(run_yaml(&r, backtracking, NULL, &lim), ALLOC_OK);
    results_of(&r, 0, got, sizeof got);
    assert_string_equal(got, "req-1/device-2 req-1/device-3 req-2/device-1");
    if (!prune) assert_int_equal(r.res.steps, 12); /* upstream's count for this case */
    else assert_true(r.res.steps <= 12);
    run_free(&r);
  }
}

static const char *five_of_four =
    HEAD "  devices:\n  - {name: d1}\n  - {name: d2}\n  - {name: d3}\n  - {name: d4}\n"
         "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: claim-0}\nspec:\n  devices:\n    requests:\n"
         "    - {name: req-0, exactly: {deviceClassName: class-a, count: 5}}\n";

static void test_combinations_and_request_pruning(void **state) {
  (void)state;
  run r;
  alloc_limits lim = {.no_pruning = true};
  assert_int_equal(run_yaml(&r, five_of_four, NULL, &lim), ALLOC_UNSATISFIABLE);
  assert_int_equal(r.res.steps, 16); /* one step per subset of the 4 devices */
  run_free(&r);
  assert_int_equal(run_yaml(&r, five_of_four, NULL, NULL), ALLOC_UNSATISFIABLE);
  assert_int_equal(r.res.steps, 1); /* no device set can satisfy req-0 */
  run_free(&r);
}

static void test_match_groups_too_small_pruned(void **state) {
  (void)state;
  char *yaml = alloc_fixture_matching_groups(12, 2, 11, 0);
  run r;
  assert_int_equal(run_yaml(&r, yaml, NULL, NULL), ALLOC_UNSATISFIABLE);
  assert_true(r.res.steps <= 1000000);
  assert_true(r.res.steps <= 100);
  run_free(&r);
  free(yaml);
}

static void test_match_extra_group_solvable_fast(void **state) {
  (void)state;
  char *yaml = alloc_fixture_matching_groups(12, 2, 11, 12);
  run r;
  assert_int_equal(run_yaml(&r, yaml, NULL, NULL), ALLOC_OK);
  assert_true(r.res.steps <= 100);
  const device_allocation_result *d = r.res.allocations[0]->devices;
  assert_int_equal(d->results.n, 12);
  for (uint32_t i = 0; i < d->results.n; i++) assert_non_null(strstr(d->results.items[i].device->str, "dev-2-"));
  run_free(&r);
  free(yaml);
}

/* 12 requests whose devices must all differ in numa, 13 devices with
 * `values` different numa values. */
static char *distinct_case(int values) {
  strbuf sb = STRBUF_INIT;
  sb_puts(&sb, HEAD "  devices:\n");
  for (int i = 0; i < 13; i++) sb_printf(&sb, "  - {name: d%d, attributes: {numa: {int: %d}}}\n", i, i < values ? i : 0);
  sb_puts(&sb, "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: claim-0}\nspec:\n  devices:\n"
               "    requests:\n");
  for (int i = 0; i < 12; i++) sb_printf(&sb, "    - {name: r%d, exactly: {deviceClassName: class-a}}\n", i);
  sb_puts(&sb, "    constraints: [{distinctAttribute: driver-a/numa}]\n");
  return sb_detach(&sb);
}

static void test_distinct_values_too_few_pruned(void **state) {
  (void)state;
  char *yaml = distinct_case(11);
  run r;
  assert_int_equal(run_yaml(&r, yaml, NULL, NULL), ALLOC_UNSATISFIABLE);
  assert_int_equal(r.res.steps, 1);
  run_free(&r);
  free(yaml);
  yaml = distinct_case(12);
  assert_int_equal(run_yaml(&r, yaml, NULL, NULL), ALLOC_OK);
  assert_true(r.res.steps <= 100);
  run_free(&r);
  free(yaml);
}

static void test_step_budget(void **state) {
  (void)state;
  char *yaml = alloc_fixture_matching_groups(12, 2, 11, 0);
  run r;
  alloc_limits lim = {.no_pruning = true, .max_steps = 1000};
  assert_int_equal(run_yaml(&r, yaml, NULL, &lim), ALLOC_ERROR);
  assert_string_equal(r.res.error, "allocation aborted: steps budget exhausted after 1000 steps");
  assert_int_equal(r.res.steps, 1001);
  run_free(&r);
  free(yaml);
}

static void test_time_budget(void **state) {
  (void)state;
  char *yaml = alloc_fixture_matching_groups(12, 2, 11, 0);
  run r;
  alloc_limits lim = {.no_pruning = true, .timeout_seconds = 0.02};
  assert_int_equal(run_yaml(&r, yaml, NULL, &lim), ALLOC_ERROR);
  assert_non_null(strstr(r.res.error, "allocation aborted: time budget exhausted after "));
  assert_true(r.res.seconds < 1.0);
  run_free(&r);
  free(yaml);
}

static void test_list_intersection_restored_on_undo(void **state) {
  (void)state;
  const char *yaml =
      HEAD "  devices:\n  - {name: d1, attributes: {pcie: {strings: [a, b]}}}\n"
           "  - {name: d2, attributes: {pcie: {strings: [a]}}}\n  - {name: d3, attributes: {pcie: {strings: [b]}}}\n"
           "  - {name: d4, attributes: {pcie: {strings: [b]}}}\n"
           "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: claim-0}\nspec:\n  devices:\n    requests:\n"
           "    - {name: r1, exactly: {deviceClassName: class-a}}\n    - {name: r2, exactly: {deviceClassName: class-a}}\n"
           "    - {name: r3, exactly: {deviceClassName: class-a}}\n"
           "    constraints:\n    - matchAttribute: driver-a/pcie\n";
  char got[256];
  for (int prune = 0; prune < 2; prune++) {
    run r;
    alloc_limits lim = {.no_pruning = !prune};
    assert_int_equal(run_yaml(&r, yaml, NULL, &lim), ALLOC_OK);
    results_of(&r, 0, got, sizeof got);
    assert_string_equal(got, "r1/d1 r2/d3 r3/d4");
    run_free(&r);
  }
}

static void test_distinct_is_pairwise(void **state) {
  (void)state;
  const char *yaml =
      HEAD "  devices:\n  - {name: d1, attributes: {numa: {int: 1}}}\n  - {name: d2, attributes: {numa: {int: 2}}}\n"
           "  - {name: d3, attributes: {numa: {int: 1}}}\n  - {name: d4, attributes: {numa: {int: 3}}}\n"
           "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: claim-0}\nspec:\n  devices:\n    requests:\n"
           "    - {name: r, exactly: {deviceClassName: class-a, count: 3}}\n"
           "    constraints:\n    - distinctAttribute: driver-a/numa\n";
  char got[256];
  for (int list = 0; list < 2; list++) {
    run r;
    assert_int_equal(run_yaml(&r, yaml, list ? NULL : "DRAListTypeAttributes=false", NULL), ALLOC_OK);
    results_of(&r, 0, got, sizeof got);
    assert_string_equal(got, "r/d1 r/d2 r/d4");
    run_free(&r);
  }
}

static void test_counter_charge_given_back(void **state) {
  (void)state;
  const char *yaml =
      "apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\n---\n"
      "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: class-a}\n"
      "spec:\n  selectors:\n  - cel: {expression: 'device.driver == \"driver-a\"'}\n---\n"
      "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: counters}\n"
      "spec:\n  driver: driver-a\n  nodeName: node-1\n  pool: {name: pool-1, generation: 1, resourceSliceCount: 2}\n"
      "  sharedCounters:\n  - name: gpu\n    counters: {memory: {value: 8Gi}}\n---\n"
      "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: devices}\n"
      "spec:\n  driver: driver-a\n  nodeName: node-1\n  pool: {name: pool-1, generation: 1, resourceSliceCount: 2}\n"
      "  devices:\n"
      "  - name: d1\n    taints: [{key: broken, effect: NoSchedule}]\n"
      "    consumesCounters: [{counterSet: gpu, counters: {memory: {value: 6Gi}}}]\n"
      "  - name: d2\n    consumesCounters: [{counterSet: gpu, counters: {memory: {value: 6Gi}}}]\n"
      "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: claim-0}\nspec:\n  devices:\n    requests:\n"
      "    - {name: r, exactly: {deviceClassName: class-a}}\n";
  char got[256];
  run r;
  assert_int_equal(run_yaml(&r, yaml, NULL, NULL), ALLOC_OK);
  results_of(&r, 0, got, sizeof got);
  assert_string_equal(got, "r/d2");
  run_free(&r);
}

typedef struct worker {
  alloc_index *ix;
  const alloc_fixture *f;
  int ok;
} worker;

static void *work(void *arg) {
  worker *w = arg;
  for (int i = 0; i < 50; i++) {
    arena *out = arena_new();
    alloc_outcome res;
    if (alloc_run(w->ix, w->f->nd, w->f->claims, w->f->n_claims, NULL, out, &res) == ALLOC_OK &&
        !strcmp(res.allocations[0]->devices->results.items[2].device->str, "device-1"))
      w->ok++;
    arena_free(out);
  }
  cel_thread_release();
  return NULL;
}

static void test_concurrent_runs_share_one_index(void **state) {
  (void)state;
  alloc_fixture f;
  assert_int_equal(alloc_fixture_load(&f, backtracking, NULL), 0);
  alloc_index *ix = alloc_index_new(&f.in);
  pthread_t t[4];
  worker w[4];
  for (int i = 0; i < 4; i++) {
    w[i] = (worker){ix, &f, 0};
    pthread_create(&t[i], NULL, work, &w[i]);
  }
  for (int i = 0; i < 4; i++) {
    pthread_join(t[i], NULL);
    assert_int_equal(w[i].ok, 50);
  }
  alloc_index_free(ix);
  alloc_fixture_free(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_backtracking_matches_upstream_steps),
      cmocka_unit_test(test_combinations_and_request_pruning),
      cmocka_unit_test(test_match_groups_too_small_pruned),
      cmocka_unit_test(test_match_extra_group_solvable_fast),
      cmocka_unit_test(test_distinct_values_too_few_pruned),
      cmocka_unit_test(test_step_budget),
      cmocka_unit_test(test_time_budget),
      cmocka_unit_test(test_list_intersection_restored_on_undo),
      cmocka_unit_test(test_distinct_is_pairwise),
      cmocka_unit_test(test_counter_charge_given_back),
      cmocka_unit_test(test_concurrent_runs_share_one_index),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
