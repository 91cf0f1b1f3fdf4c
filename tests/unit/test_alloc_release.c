/* test_alloc_release.c: alloc_index_release frees a claim's devices in the
 * index in place, leaving what an index built without the claim gives; it
 * refuses (for a rebuild) when the claim was the named holder of a device
 * another claim holds too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "../../bench/alloc_fixture.h"
#include <stdio.h>

/* node-1 with d1..d3; held-a holds d1, held-b d1 too (a conflict the index
 * still counts), held-c d2; "want" asks for one device. */
#define HELD(name, dev)                                                                                  \
  "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: " name ", namespace: ns}\n" \
  "spec:\n  devices:\n    requests: [{name: r, exactly: {deviceClassName: class-a}}]\n"                  \
  "status:\n  allocation:\n    devices:\n      results: [{request: r, driver: driver-a, pool: pool-1, device: " dev "}]\n"
static const char *cluster =
    "apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\n---\n"
    "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: class-a}\n"
    "spec:\n  selectors:\n  - cel: {expression: 'device.driver == \"driver-a\"'}\n---\n"
    "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: slice-1}\n"
    "spec:\n  driver: driver-a\n  nodeName: node-1\n  pool: {name: pool-1, generation: 1, resourceSliceCount: 1}\n"
    "  devices: [{name: d1}, {name: d2}, {name: d3}]\n" HELD("held-a", "d1") HELD("held-b", "d1") HELD("held-c", "d2")
    "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: want, namespace: ns}\n"
    "spec:\n  devices:\n    requests: [{name: r, exactly: {deviceClassName: class-a}}]\n";

/* The allocated claim named name (held-a, held-b, held-c: in that order). */
static const resource_claim *held(const alloc_fixture *f, const char *name) {
  for (size_t i = 0; i < f->in.n_allocated; i++)
    if (!strcmp(f->in.allocated[i]->metadata.name, name)) return f->in.allocated[i];
  fail_msg("no claim %s", name);
  return NULL;
}

/* The device "want" gets from ix, or "none". */
static const char *pick(const alloc_fixture *f, alloc_index *ix, char buf[32]) {
  arena *out = arena_new();
  alloc_outcome res = {0};
  alloc_status st = alloc_run(ix, f->nd, f->claims, f->n_claims, NULL, out, &res);
  snprintf(buf, 32, "%s", st == ALLOC_OK ? res.allocations[0]->devices->results.items[0].device->str : "none");
  arena_free(out);
  return buf;
}

/* An index from the fixture's allocated claims, leaving out the one named skip. */
static alloc_index *index_without(const alloc_fixture *f, const char *skip) {
  alloc_input in = f->in;
  const resource_claim *kept[8];
  in.n_allocated = 0;
  for (size_t i = 0; i < f->in.n_allocated; i++)
    if (!skip || strcmp(f->in.allocated[i]->metadata.name, skip)) kept[in.n_allocated++] = f->in.allocated[i];
  in.allocated = kept;
  return alloc_index_new(&in);
}

static void test_release_frees_devices_in_place(void **state) {
  (void)state;
  alloc_fixture f;
  assert_int_equal(alloc_fixture_load(&f, cluster, NULL), 0);
  char got[32], want[32];
  alloc_index *ix = index_without(&f, "held-b");
  assert_string_equal(pick(&f, ix, got), "d3");
  assert_true(alloc_index_release(ix, held(&f, "held-c")));
  /* as an index built from held-a alone: d2 is the first free device */
  alloc_input in = f.in;
  const resource_claim *only_a[] = {held(&f, "held-a")};
  in.allocated = only_a, in.n_allocated = 1;
  alloc_index *fresh = alloc_index_new(&in);
  assert_string_equal(pick(&f, ix, got), pick(&f, fresh, want));
  assert_string_equal(got, "d2");
  assert_true(alloc_index_release(ix, held(&f, "held-a")));
  assert_string_equal(pick(&f, ix, got), "d1");
  alloc_index_free(fresh);
  alloc_index_free(ix);
  alloc_fixture_free(&f);
}

static void test_release_of_named_holder_of_shared_device_refused(void **state) {
  (void)state;
  alloc_fixture f;
  assert_int_equal(alloc_fixture_load(&f, cluster, NULL), 0);
  char got[32];
  alloc_index *ix = index_without(&f, NULL);
  assert_string_equal(pick(&f, ix, got), "d3");
  /* held-a is d1's named holder and held-b holds d1 too: no exact undo */
  assert_false(alloc_index_release(ix, held(&f, "held-a")));
  /* held-b is not the named holder: d1 stays held by held-a */
  assert_true(alloc_index_release(ix, held(&f, "held-b")));
  assert_true(alloc_index_release(ix, held(&f, "held-c")));
  assert_string_equal(pick(&f, ix, got), "d2");
  assert_true(alloc_index_release(ix, held(&f, "held-a")));
  assert_string_equal(pick(&f, ix, got), "d1");
  alloc_index_free(ix);
  alloc_fixture_free(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_release_frees_devices_in_place),
      cmocka_unit_test(test_release_of_named_holder_of_shared_device_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
