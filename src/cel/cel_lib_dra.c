/* cel_lib_dra.c: DRA's includes(): list membership with CEL equality over at
 * most 48 elements, or whole-value equality for scalars. */
#include "cel/cel_internal.h"

static cel_val f_includes(cel_eval *ev, const cel_val *a, uint32_t n) {
  (void)ev, (void)n;
  if (a[0].kind == V_LIST) {
    for (size_t i = 0; i < a[0].len; i++) {
      if (i == CEL_INCLUDES_MAX) return cel_err("'includes' function cannot be applied to lists longer than %d values", CEL_INCLUDES_MAX);
      cel_val x = cel_list_at(&a[0], i);
      if (cel_equal_bool(&x, &a[1])) return cel_bool(true);
    }
    return cel_bool(false);
  }
  return cel_bool(cel_equal_bool(&a[0], &a[1]));
}

static cel_overload dra_ovs[] = {
    {"dra_includes_dyn_dyn", "dyn.includes(dyn) -> bool", f_includes, K_INCLUDES, 0, 0, 0, {0}, 0, CEL_FEAT_INCLUDES},
};

cel_lib cel_lib_dra = {"dra", dra_ovs, 1};
