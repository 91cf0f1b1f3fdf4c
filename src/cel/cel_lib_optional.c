/* cel_lib_optional.c: cel-go's optional library: optional.of/none/
 * ofNonZeroValue, hasValue, value, or, orValue, first/last, unwrap, and the
 * optional selection/index operators (evaluated as special forms). */
#include "cel/cel_internal.h"

#define FN(name) static cel_val name(cel_eval *ev, const cel_val *a, uint32_t n)
#define UNUSED (void)ev, (void)n

FN(f_of) { UNUSED; return cel_opt(&a[0]); }
FN(f_none) { UNUSED; (void)a; return cel_opt(NULL); }

static bool is_zero(const cel_val *v) {
  switch (v->kind) {
  case V_NULL: return true;
  case V_BOOL: return !v->b;
  case V_INT: return v->i == 0;
  case V_UINT: return v->u == 0;
  case V_DOUBLE: return v->d == 0;
  case V_STRING:
  case V_BYTES:
  case V_LIST: return v->len == 0;
  case V_MAP: return cel_map_len(v) == 0;
  default: return false;
  }
}

FN(f_of_nonzero) { UNUSED; return is_zero(&a[0]) ? cel_opt(NULL) : cel_opt(&a[0]); }
FN(f_has_value) { UNUSED; return cel_bool(a[0].opt != NULL); }
FN(f_value) { UNUSED; return a[0].opt ? *a[0].opt : cel_err("optional.none() dereference"); }
FN(f_or) { UNUSED; return a[0].opt ? a[0] : a[1]; }
FN(f_or_value) { UNUSED; return a[0].opt ? *a[0].opt : a[1]; }
FN(f_first) {
  UNUSED;
  if (!a[0].len) return cel_opt(NULL);
  cel_val v = cel_list_at(&a[0], 0);
  return cel_opt(&v);
}
FN(f_last) {
  UNUSED;
  if (!a[0].len) return cel_opt(NULL);
  cel_val v = cel_list_at(&a[0], a[0].len - 1);
  return cel_opt(&v);
}
FN(f_unwrap) {
  UNUSED;
  size_t cnt = 0;
  for (size_t i = 0; i < a[0].len; i++) {
    cel_val o = cel_list_at(&a[0], i);
    cnt += o.kind == V_OPT && o.opt;
  }
  cel_val *items = cel_scratch_alloc((cnt + 1) * sizeof *items);
  cnt = 0;
  for (size_t i = 0; i < a[0].len; i++) {
    cel_val o = cel_list_at(&a[0], i);
    if (o.kind == V_OPT && o.opt) items[cnt++] = *o.opt;
  }
  return cel_list(items, cnt);
}
FN(f_special) { UNUSED; (void)a; return cel_err("internal error: special form called as function"); }

#define O(id, sig, fn) {id, sig, fn, K_ONE, 0, 0, 0, {0}, 0, 0}
static cel_overload opt_ovs[] = {
    O("optional_of", "optional.of(A) -> optional_type(A)", f_of),
    O("optional_of_non_zero_value", "optional.ofNonZeroValue(A) -> optional_type(A)", f_of_nonzero),
    O("optional_none", "optional.none() -> optional_type(A)", f_none),
    O("optional_has_value", "optional_type(A).hasValue() -> bool", f_has_value),
    O("optional_value", "optional_type(A).value() -> A", f_value),
    O("optional_or_optional", "optional_type(A).or(optional_type(A)) -> optional_type(A)", f_or),
    O("optional_orValue_value", "optional_type(A).orValue(A) -> A", f_or_value),
    O("list_first", "list(A).first() -> optional_type(A)", f_first),
    O("list_last", "list(A).last() -> optional_type(A)", f_last),
    O("optional_unwrap", "optional.unwrap(list(optional_type(A))) -> list(A)", f_unwrap),
    O("optional_unwrap_list", "list(optional_type(A)).unwrapOpt() -> list(A)", f_unwrap),
    O("select_optional_field", "_?._(dyn, string) -> dyn", f_special),
    O("list_optindex_optional_int", "_[?_](list(A), int) -> optional_type(A)", f_special),
    O("optional_list_optindex_optional_int", "_[?_](optional_type(list(A)), int) -> optional_type(A)", f_special),
    O("map_optindex_optional_value", "_[?_](map(K, V), K) -> optional_type(V)", f_special),
    O("optional_map_optindex_optional_value", "_[?_](optional_type(map(K, V)), K) -> optional_type(V)", f_special),
};

cel_lib cel_lib_optional = {"optional", opt_ovs, sizeof opt_ovs / sizeof *opt_ovs};
