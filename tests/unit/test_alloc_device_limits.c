/* test_alloc_device_limits.c: alloc_limits.devices, the per-call limits the
 * pod-group search refuses takings with (sched/joint.c): a device refused
 * is not used, and its shared counters stay free for the partitions drawing
 * on them (unless spend_counters); a capacity limit makes the call consume less of a device that
 * allows multiple allocations, and the device stays usable. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "../../bench/alloc_fixture.h"
#include <stdio.h>

#define HEAD                                                                  \
  "apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\n---\n"               \
  "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\n" \
  "spec:\n  selectors:\n  - cel: {expression: 'device.driver == \"gpu.example.com\"'}\n---\n"

/* gpu-0 whole and as two halves, all drawing on counter set gpu-0. */
static const char *partitions =
    HEAD "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: counters}\n"
         "spec:\n  driver: gpu.example.com\n  nodeName: node-1\n"
         "  pool: {name: pool-1, generation: 1, resourceSliceCount: 2}\n"
         "  sharedCounters: [{name: gpu-0, counters: {memory: {value: 2Gi}}}]\n---\n"
         "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: devices}\n"
         "spec:\n  driver: gpu.example.com\n  nodeName: node-1\n"
         "  pool: {name: pool-1, generation: 1, resourceSliceCount: 2}\n  devices:\n"
         "  - {name: whole, consumesCounters: [{counterSet: gpu-0, counters: {memory: {value: 2Gi}}}]}\n"
         "  - {name: half-a, consumesCounters: [{counterSet: gpu-0, counters: {memory: {value: 1Gi}}}]}\n"
         "  - {name: half-b, consumesCounters: [{counterSet: gpu-0, counters: {memory: {value: 1Gi}}}]}\n---\n"
         "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: want, namespace: ns}\n"
         "spec:\n  devices:\n    requests: [{name: r, exactly: {deviceClassName: gpu}}]\n";

/* gpu-0 shared by allocations, 4Gi of memory; the claim asks for 3Gi, else 1Gi. */
static const char *capacity =
    HEAD "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: devices}\n"
         "spec:\n  driver: gpu.example.com\n  nodeName: node-1\n"
         "  pool: {name: pool-1, generation: 1, resourceSliceCount: 1}\n  devices:\n"
         "  - {name: gpu-0, allowMultipleAllocations: true, capacity: {memory: {value: 4Gi}}}\n---\n"
         "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: want, namespace: ns}\n"
         "spec:\n  devices:\n    requests:\n    - name: r\n      firstAvailable:\n"
         "      - {name: big, deviceClassName: gpu, capacity: {requests: {memory: 3Gi}}}\n"
         "      - {name: small, deviceClassName: gpu, capacity: {requests: {memory: 1Gi}}}\n";

#define GI ((__int128)1024 * 1024 * 1024 * 1000000000)

static alloc_device_limit refuse(const char *device, const char *cap, __int128 below) {
  return (alloc_device_limit){.driver = atom_cstr("gpu.example.com"),
                              .pool = atom_cstr("pool-1"),
                              .device = atom_cstr(device),
                              .capacity = cap ? atom_cstr(cap) : NULL,
                              .below = below};
}

/* "request=device" of the claim's one result under the limits, or "none". */
static const char *pick(const char *yaml, const alloc_device_limit *v, size_t n, char buf[64]) {
  alloc_fixture f;
  assert_int_equal(alloc_fixture_load(&f, yaml, NULL), 0);
  alloc_index *ix = alloc_index_new(&f.in);
  arena *out = arena_new();
  alloc_outcome res = {0};
  alloc_limits lim = {.devices = v, .n_devices = n};
  alloc_status st = alloc_run(ix, f.nd, f.claims, f.n_claims, &lim, out, &res);
  if (st == ALLOC_OK) {
    const device_request_allocation_result *r = &res.allocations[0]->devices->results.items[0];
    snprintf(buf, 64, "%s=%s", r->request, r->device->str);
  } else {
    snprintf(buf, 64, "none");
  }
  arena_free(out);
  alloc_index_free(ix);
  alloc_fixture_free(&f);
  return buf;
}

static void test_refused_partition_leaves_its_counters(void **state) {
  (void)state;
  char got[64];
  assert_string_equal(pick(partitions, NULL, 0, got), "r=whole");
  alloc_device_limit v[] = {refuse("whole", NULL, 0), refuse("half-a", NULL, 0), refuse("half-b", NULL, 0)};
  /* a hold of "whole" would have spent all of gpu-0's counters */
  assert_string_equal(pick(partitions, v, 1, got), "r=half-a");
  assert_string_equal(pick(partitions, v, 2, got), "r=half-b");
  assert_string_equal(pick(partitions, v, 3, got), "none");
  /* spend_counters: refused as a claim holding it would, the halves go too */
  alloc_device_limit held = refuse("whole", NULL, 0);
  held.spend_counters = true;
  assert_string_equal(pick(partitions, &held, 1, got), "none");
}

static void test_capacity_limit_takes_less_of_the_device(void **state) {
  (void)state;
  char got[64];
  assert_string_equal(pick(capacity, NULL, 0, got), "r/big=gpu-0");
  alloc_device_limit below_big = refuse("gpu-0", "memory", 3 * GI);
  assert_string_equal(pick(capacity, &below_big, 1, got), "r/small=gpu-0");
  alloc_device_limit below_small = refuse("gpu-0", "memory", 1 * GI);
  assert_string_equal(pick(capacity, &below_small, 1, got), "none");
  alloc_device_limit just_above = refuse("gpu-0", "memory", 3 * GI + 1);
  assert_string_equal(pick(capacity, &just_above, 1, got), "r/big=gpu-0");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_refused_partition_leaves_its_counters),
      cmocka_unit_test(test_capacity_limit_takes_less_of_the_device),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
