/* test_alloc_prune_equiv.c: pruning never changes the answer. Random small
 * cases (devices with attributes, taints, shared counters and capacity;
 * claims with several requests, subrequests, match/distinct constraints; a
 * claim already holding devices) are allocated with and without pruning:
 * same outcome, same devices in the same order, never more steps. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "../../bench/alloc_fixture.h"
#include <stdio.h>

static uint64_t rng_state;
static unsigned rnd(unsigned n) {
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return (unsigned)((rng_state >> 33) % n);
}

static void gen_request(strbuf *sb) {
  const char *ind = "        ";
  sb_printf(sb, "%sdeviceClassName: class-a\n", ind);
  if (rnd(3) == 0) sb_printf(sb, "%sselectors: [{cel: {expression: 'device.attributes[\"driver-a\"].color == \"c%u\"'}}]\n", ind, rnd(2));
  else if (rnd(12) == 0) /* a runtime error on devices without "special" */
    sb_printf(sb, "%sselectors: [{cel: {expression: 'device.attributes[\"driver-a\"].special'}}]\n", ind);
  sb_printf(sb, "%scount: %u\n", ind, 1 + rnd(3));
  if (rnd(3) == 0) sb_printf(sb, "%stolerations: [{key: k%u, operator: Exists}]\n", ind, rnd(2));
  if (rnd(4) == 0) sb_printf(sb, "%scapacity: {requests: {mem: %uGi}}\n", ind, 1 + rnd(4));
}

static char *gen_case(void) {
  strbuf sb = STRBUF_INIT;
  unsigned n_dev = 3 + rnd(6), n_req = 1 + rnd(3);
  sb_puts(&sb, "apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\n---\n"
               "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: class-a}\n"
               "spec:\n  selectors:\n  - cel: {expression: 'device.driver == \"driver-a\"'}\n---\n"
               "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: counters}\n"
               "spec:\n  driver: driver-a\n  nodeName: node-1\n  pool: {name: pool-1, generation: 1, resourceSliceCount: 2}\n"
               "  sharedCounters:\n  - name: set\n    counters: {units: {value: '");
  sb_printf(&sb, "%u'}}\n---\n", 2 + rnd(6));
  sb_puts(&sb, "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: devices}\n"
               "spec:\n  driver: driver-a\n  nodeName: node-1\n  pool: {name: pool-1, generation: 1, resourceSliceCount: 2}\n"
               "  devices:\n");
  for (unsigned i = 0; i < n_dev; i++) {
    sb_printf(&sb, "  - name: d%u\n    attributes: {color: {string: c%u}, numa: {int: %u}, roots: {ints: [%u, %u]}%s}\n", i,
              rnd(2), rnd(3), rnd(3), rnd(3), rnd(2) ? ", special: {bool: true}" : "");
    if (rnd(4) == 0) sb_printf(&sb, "    taints: [{key: k%u, effect: NoSchedule}]\n", rnd(2));
    if (rnd(2) == 0) sb_printf(&sb, "    consumesCounters: [{counterSet: set, counters: {units: {value: '%u'}}}]\n", 1 + rnd(2));
    if (rnd(3) == 0) sb_printf(&sb, "    capacity: {mem: {value: %uGi}}\n", 2 + rnd(4));
    if (rnd(5) == 0) sb_puts(&sb, "    allowMultipleAllocations: true\n");
  }
  sb_puts(&sb, "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: held}\n"
               "spec: {devices: {requests: [{name: r, exactly: {deviceClassName: class-a}}]}}\n");
  sb_printf(&sb, "status: {allocation: {devices: {results: [{request: r, driver: driver-a, pool: pool-1, device: d%u}]}}}\n",
            rnd(n_dev));
  for (unsigned c = 0; c < 1 + rnd(2); c++) {
    sb_printf(&sb, "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: claim-%u}\n"
                   "spec:\n  devices:\n    requests:\n", c);
    for (unsigned q = 0; q < n_req; q++) {
      sb_printf(&sb, "    - name: r%u\n", q);
      if (rnd(4) == 0) {
        sb_puts(&sb, "      firstAvailable:\n");
        for (unsigned s = 0; s < 2; s++) {
          sb_printf(&sb, "      - name: s%u\n", s);
          gen_request(&sb);
        }
      } else {
        sb_puts(&sb, "      exactly:\n");
        gen_request(&sb);
      }
    }
    if (rnd(2)) {
      static const char *const attrs[] = {"driver-a/numa", "driver-a/roots", "driver-a/color"};
      sb_printf(&sb, "    constraints:\n    - %s: %s\n", rnd(2) ? "matchAttribute" : "distinctAttribute", attrs[rnd(3)]);
    }
  }
  return sb_detach(&sb);
}

/* Outcome and chosen devices, as one comparable string. */
static void run_case(const char *yaml, const char *gates, bool prune, char *out, size_t n, uint64_t *steps) {
  alloc_fixture f;
  assert_int_equal(alloc_fixture_load(&f, yaml, gates), 0);
  alloc_index *ix = alloc_index_new(&f.in);
  arena *a = arena_new();
  alloc_limits lim = {.no_pruning = !prune, .timeout_seconds = -1};
  alloc_outcome res;
  alloc_status st = alloc_run(ix, f.nd, f.claims, f.n_claims, &lim, a, &res);
  int len = snprintf(out, n, "%d %s:", (int)st, res.error ? res.error : "");
  for (size_t c = 0; st == ALLOC_OK && c < res.n_allocations; c++)
    for (uint32_t i = 0; i < res.allocations[c]->devices->results.n; i++) {
      const device_request_allocation_result *r = &res.allocations[c]->devices->results.items[i];
      len += snprintf(out + len, n - (size_t)len, " %zu:%s=%s", c, r->request, r->device->str);
    }
  *steps = res.steps;
  arena_free(a);
  alloc_index_free(ix);
  alloc_fixture_free(&f);
}

static void test_pruning_keeps_answers(void **state) {
  (void)state;
  static const char *const gates[] = {NULL, "DRAListTypeAttributes=false", "DRAConsumableCapacity=false"};
  unsigned solved = 0, pruned_less = 0;
  for (unsigned i = 0; i < 400; i++) {
    rng_state = 0x5eed0000u + i;
    char *yaml = gen_case();
    char with[2048], without[2048];
    uint64_t s_with, s_without;
    run_case(yaml, gates[i % 3], true, with, sizeof with, &s_with);
    run_case(yaml, gates[i % 3], false, without, sizeof without, &s_without);
    if (strcmp(with, without)) fprintf(stderr, "case %u:\n%s\n", i, yaml);
    assert_string_equal(with, without);
    assert_true(s_with <= s_without);
    solved += with[0] == '0';
    pruned_less += s_with < s_without;
    free(yaml);
  }
  /* the generator must produce both outcomes and give pruning work to do */
  assert_true(solved > 40 && solved < 360);
  assert_true(pruned_less > 40);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_pruning_keeps_answers)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
