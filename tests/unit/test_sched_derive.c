/* test_sched_derive.c: the versions the scheduling loop writes
 * (sched/derive.c) share the stored version's memory by keeping its arena
 * alive, up to a bounded chain, then start again from a copy: a chain of
 * one kept arena for an object of the server's store, of four for an
 * object of a short-lived snapshot (unshared), whose versions stay
 * unshared; every version reads as the one it came from. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "api/codec.h"
#include "sched/internal.h"
#include "store/store_obj.h"
#include "test_store.h"
#include <stdlib.h>
#include <string.h>

static const char pod_text[] =
    "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\"},"
    "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\",\"command\":[\"sleep\",\"1\"]}]}}";

/* Derives version after version of the pod, each stored in turn: the
 * depth of each new version's chain of kept arenas, in depths[]. */
static void derive_chain(bool unshared, unsigned *depths, size_t n) {
  api_object *first = test_obj(pod_text);
  first->unshared = unshared;
  char *text = codec_encode_text(first->info->desc, first->typed);
  store_obj *cur = store_obj_new(first, 1, 1);
  for (size_t i = 0; i < n; i++) {
    api_object *next = sched_derive(cur);
    assert_int_equal(next->unshared, unshared);
    depths[i] = arena_keep_depth(next->arena);
    char *again = codec_encode_text(next->info->desc, next->typed);
    assert_string_equal(again, text);
    free(again);
    store_obj *stored = store_obj_new(next, 2 + i, 1);
    store_obj_unref(cur);
    cur = stored;
  }
  store_obj_unref(cur);
  free(text);
}

static void server_objects_keep_one_arena(void **state) {
  (void)state;
  unsigned depths[6];
  derive_chain(false, depths, 6);
  static const unsigned want[6] = {1, 0, 1, 0, 1, 0};
  assert_memory_equal(depths, want, sizeof want);
}

static void snapshot_objects_keep_four(void **state) {
  (void)state;
  unsigned depths[10];
  derive_chain(true, depths, 10);
  static const unsigned want[10] = {1, 2, 3, 4, 0, 1, 2, 3, 4, 0};
  assert_memory_equal(depths, want, sizeof want);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(server_objects_keep_one_arena),
                                     cmocka_unit_test(snapshot_objects_keep_four)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
