/* cel_lib_sets.c: the cel-go sets extension: sets.contains, sets.equivalent,
 * sets.intersects, by CEL equality. */
#include "cel/cel_internal.h"

static bool member(const cel_val *l, const cel_val *x) {
  for (size_t i = 0; i < l->len; i++) {
    cel_val e = cel_list_at(l, i);
    if (cel_equal_bool(&e, x)) return true;
  }
  return false;
}

/* every element of b is in a */
static bool contains_all(const cel_val *a, const cel_val *b) {
  for (size_t i = 0; i < b->len; i++) {
    cel_val e = cel_list_at(b, i);
    if (!member(a, &e)) return false;
  }
  return true;
}

static cel_val f_contains(cel_eval *ev, const cel_val *a, uint32_t n) {
  (void)ev, (void)n;
  return cel_bool(contains_all(&a[0], &a[1]));
}
static cel_val f_equivalent(cel_eval *ev, const cel_val *a, uint32_t n) {
  (void)ev, (void)n;
  return cel_bool(contains_all(&a[0], &a[1]) && contains_all(&a[1], &a[0]));
}
static cel_val f_intersects(cel_eval *ev, const cel_val *a, uint32_t n) {
  (void)ev, (void)n;
  for (size_t i = 0; i < a[1].len; i++) {
    cel_val e = cel_list_at(&a[1], i);
    if (member(&a[0], &e)) return cel_bool(true);
  }
  return cel_bool(false);
}

#define O(id, sig, fn) {id, sig, fn, K_ONE, 0, 0, 0, {0}, 0, 0}
static cel_overload sets_ovs[] = {
    O("list_sets_contains_list", "sets.contains(list(A), list(A)) -> bool", f_contains),
    O("list_sets_equivalent_list", "sets.equivalent(list(A), list(A)) -> bool", f_equivalent),
    O("list_sets_intersects_list", "sets.intersects(list(A), list(A)) -> bool", f_intersects),
};

cel_lib cel_lib_sets = {"sets", sets_ovs, sizeof sets_ovs / sizeof *sets_ovs};
