/* test_atoms_bounded.c: interned atoms live only while something holds
 * them (util/atom.h, docs/server.md "Bounded memory"). ResourceSlices with
 * a driver, pool, device, attribute and capacity name of their own,
 * created and deleted in a store by the thousand, leave the intern table
 * as it was once the store's history has moved past them; so do contexts
 * that load such names, compile a DeviceClass selector naming them and
 * allocate from them, once the CEL cache lets go of the programs (it keeps
 * at most CEL_CACHE_IDLE_MAX); an allocation result still reads its names
 * after its context is closed; an atom freed gives its id to the next one;
 * a pinned atom and one held by a copy survive their first holder.
 * Figures go to stdout. */
#include "test_store.h"
#include "api/codec.h"
#include "cel/cel.h"
#include "dra.h"
#include "util/atom.h"

#define HISTORY 64
#define SLICES 20000
#define CONTEXTS 1500

static api_object *slice(unsigned i) {
  char text[1024];
  snprintf(text, sizeof text,
           "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceSlice\",\"metadata\":{\"name\":\"s-%u\"},"
           "\"spec\":{\"driver\":\"drv-%u.example.com\",\"nodeName\":\"node-%u\",\"pool\":{\"name\":\"pool-%u\","
           "\"generation\":1,\"resourceSliceCount\":1},\"devices\":[{\"name\":\"dev-%u\",\"attributes\":"
           "{\"attr_%u\":{\"string\":\"v\"}},\"capacity\":{\"cap_%u\":{\"value\":\"1\"}}}]}}",
           i, i, i, i, i, i, i);
  return test_obj(text);
}

/* Creates and deletes slices from..to-1 in s. */
static void churn(store *s, unsigned from, unsigned to) { test_store_churn(s, KIND_RESOURCE_SLICE, "s-%u", slice, from, to); }

static void deleted_slices_free_their_names(void **state) {
  (void)state;
  store *s = test_store_open(HISTORY);
  churn(s, 0, HISTORY); /* the history full of slices of their own names */
  uint32_t atoms0 = atom_count();
  churn(s, HISTORY, SLICES);
  printf("%d slices with names of their own: %d atoms more than before\n", SLICES - HISTORY,
         (int)atom_count() - (int)atoms0);
  assert_int_equal(atom_count(), atoms0); /* the history holds as many slices' names as before */
  assert_null(atom_find("drv-100.example.com", strlen("drv-100.example.com")));
  assert_non_null(atom_find("drv-19999.example.com", strlen("drv-19999.example.com"))); /* in the history */
  store_close(s);
  assert_null(atom_find("drv-19999.example.com", strlen("drv-19999.example.com")));
}

/* One context: a slice, a class selecting by the slice's attribute and a
 * claim, all with names of i's own; the result of allocating the claim. */
static dra_result *allocate_in_own_context(unsigned i) {
  char text[2048];
  snprintf(text, sizeof text,
           "apiVersion: v1\nkind: Node\nmetadata: {name: node-%u}\n---\n"
           "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: class-%u}\n"
           "spec:\n  selectors:\n  - cel: {expression: 'device.attributes[\"drv-%u.example.com\"][\"attr_%u\"] == \"v\"'}\n"
           "---\n"
           "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s-%u}\n"
           "spec:\n  driver: drv-%u.example.com\n  nodeName: node-%u\n"
           "  pool: {name: pool-%u, generation: 1, resourceSliceCount: 1}\n"
           "  devices:\n  - {name: dev-%u, attributes: {attr_%u: {string: v}}, capacity: {cap_%u: {value: '1'}}}\n"
           "---\n"
           "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: claim-%u, namespace: default}\n"
           "spec:\n  devices:\n    requests:\n    - name: req-%u\n      exactly: {deviceClassName: class-%u}\n",
           i, i, i, i, i, i, i, i, i, i, i, i, i, i);
  dra_ctx *ctx = NULL;
  assert_int_equal(dra_open(&ctx, NULL), DRA_OK);
  dra_set_time(ctx, TEST_NOW);
  const char ns[] = "apiVersion: v1\nkind: Namespace\nmetadata: {name: default}\n";
  assert_int_equal(dra_load_buffer(ctx, "ns.yaml", ns, strlen(ns), 0), DRA_OK);
  if (dra_load_buffer(ctx, "own.yaml", text, strlen(text), 0) != DRA_OK) fail_msg("load: %s", dra_errmsg(ctx));
  char node[32];
  snprintf(node, sizeof node, "node-%u", i);
  dra_result *r = NULL;
  if (dra_allocate(ctx, node, NULL, 0, &r) != DRA_OK) fail_msg("allocate: %s", dra_errmsg(ctx));
  dra_close(ctx);
  return r;
}

static void contexts_free_their_names(void **state) {
  (void)state;
  cel_cache_clear();
  dra_result_free(allocate_in_own_context(0)); /* a warm-up: what any context interns */
  cel_cache_clear();
  uint32_t atoms0 = atom_count();
  int most = 0;
  for (unsigned i = 1; i <= CONTEXTS; i++) {
    dra_result *r = allocate_in_own_context(i);
    const dra_device *d = dra_result_device(r, 0, 0); /* its context is closed: the result holds its names */
    assert_non_null(d);
    char want[64];
    snprintf(want, sizeof want, "drv-%u.example.com", i);
    assert_string_equal(d->driver, want);
    snprintf(want, sizeof want, "dev-%u", i);
    assert_string_equal(d->device, want);
    dra_result_free(r);
    int more = (int)atom_count() - (int)atoms0;
    if (more > most) most = more;
  }
  /* what the cache's idle programs hold: each names its domain and attribute */
  printf("%d contexts with names of their own: at most %d atoms more (the CEL cache keeps %zu programs)\n", CONTEXTS,
         most, cel_cache_size());
  assert_true(most <= 2 * CEL_CACHE_IDLE_MAX + 16);
  cel_cache_clear();
  printf("after the CEL cache is cleared: %d atoms more\n", (int)atom_count() - (int)atoms0);
  assert_int_equal(atom_count(), atoms0);
}

static void holds_pins_and_ids(void **state) {
  (void)state;
  arena *a = arena_new(), *b = arena_new();
  const atom *x = atom_cstr_in(a, "held-by-two");
  assert_ptr_equal(atom_cstr_in(a, "held-by-two"), x); /* one hold per arena */
  atom_hold(b, x);
  uint32_t id = x->id, n = atom_count();
  arena_free(a);
  assert_ptr_equal(atom_find("held-by-two", 11), x); /* b still holds it */
  arena_free(b);
  assert_null(atom_find("held-by-two", 11));
  assert_int_equal(atom_count(), n - 1);
  arena *c = arena_new();
  assert_int_equal(atom_cstr_in(c, "next")->id, id); /* the freed id is given out again */
  const atom *pinned = atom_cstr("next");
  arena_free(c);
  assert_ptr_equal(atom_find("next", 4), pinned); /* pinned: it stays */
  /* a copy of an object holds its atoms: the original may go first */
  api_object *o = slice(424242);
  api_object *copy = api_object_clone(o);
  api_object_free(o);
  const resource_slice *sl = copy->typed;
  assert_string_equal(sl->spec.driver->str, "drv-424242.example.com");
  assert_ptr_equal(atom_find("dev-424242", 10), sl->spec.devices.items[0].name);
  api_object_free(copy);
  assert_null(atom_find("dev-424242", 10));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(deleted_slices_free_their_names),
      cmocka_unit_test(contexts_free_their_names),
      cmocka_unit_test(holds_pins_and_ids),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
