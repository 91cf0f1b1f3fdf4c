/* cel_lib_quantity.c: Kubernetes' quantity library over api/quantity.h:
 * parsing, sign, comparisons, exact add/sub, integer and float views. */
#include "cel/cel_internal.h"
#include <math.h>

#define FN(name) static cel_val name(cel_eval *ev, const cel_val *a, uint32_t n)
#define UNUSED (void)ev, (void)n

static cel_val qval(quantity q) {
  quantity *p = cel_scratch_alloc(sizeof *p);
  *p = q;
  cel_val v = {.kind = V_QUANTITY};
  v.q = p;
  return v;
}

FN(f_quantity) {
  UNUSED;
  quantity q;
  const char *err = NULL;
  if (!quantity_parse(a[0].s, a[0].len, &q, &err)) return cel_err("%s", err ? err : QUANTITY_REGEX_ERROR);
  return qval(q);
}

FN(f_is_quantity) {
  UNUSED;
  quantity q;
  return cel_bool(quantity_parse(a[0].s, a[0].len, &q, NULL));
}

FN(f_sign) { UNUSED; return cel_int(a[0].q->nanos < 0 ? -1 : a[0].q->nanos > 0); }
FN(f_gt) { UNUSED; return cel_bool(quantity_cmp(a[0].q, a[1].q) > 0); }
FN(f_lt) { UNUSED; return cel_bool(quantity_cmp(a[0].q, a[1].q) < 0); }
FN(f_compare) { UNUSED; int c = quantity_cmp(a[0].q, a[1].q); return cel_int(c < 0 ? -1 : c > 0); }

static quantity operand(const cel_val *v) {
  return v->kind == V_INT ? quantity_from_int(v->i, QUANTITY_DECIMAL_SI) : *v->q;
}
FN(f_add) { UNUSED; return qval(quantity_add(*a[0].q, operand(&a[1]))); }
FN(f_sub) { UNUSED; return qval(quantity_sub(*a[0].q, operand(&a[1]))); }

/* Kubernetes answers from how it holds the value (quantity_as_int64):
 * quantity("1.5Gi") and quantity("1000m") are not integers there. */
FN(f_is_integer) { UNUSED; int64_t i; return cel_bool(quantity_as_int64(a[0].q, &i)); }
FN(f_as_integer) {
  UNUSED;
  int64_t i;
  return quantity_as_int64(a[0].q, &i) ? cel_int(i) : cel_err("cannot convert value to integer");
}
FN(f_as_float) { UNUSED; return cel_double((double)a[0].q->nanos / 1e9); }

#define O(id, sig, fn, k) {id, sig, fn, k, 0, 0, 0, {0}, 0, 0}
#define Q "kubernetes.Quantity"
static cel_overload quantity_ovs[] = {
    O("string_to_quantity", "quantity(string) -> " Q, f_quantity, K_SEM_PARSE),
    O("is_quantity_string", "isQuantity(string) -> bool", f_is_quantity, K_SEM_PARSE),
    O("quantity_sign", "sign(" Q ") -> int", f_sign, K_ONE),
    O("quantity_is_greater_than", Q ".isGreaterThan(" Q ") -> bool", f_gt, K_ONE),
    O("quantity_is_less_than", Q ".isLessThan(" Q ") -> bool", f_lt, K_ONE),
    O("quantity_compare_to", Q ".compareTo(" Q ") -> int", f_compare, K_ONE),
    O("quantity_add", Q ".add(" Q ") -> " Q, f_add, K_ONE),
    O("quantity_add_int", Q ".add(int) -> " Q, f_add, K_ONE),
    O("quantity_sub", Q ".sub(" Q ") -> " Q, f_sub, K_ONE),
    O("quantity_sub_int", Q ".sub(int) -> " Q, f_sub, K_ONE),
    O("quantity_is_integer", Q ".isInteger() -> bool", f_is_integer, K_ONE),
    O("quantity_get_integer", Q ".asInteger() -> int", f_as_integer, K_ONE),
    O("quantity_get_float", Q ".asApproximateFloat() -> double", f_as_float, K_ONE),
};

cel_lib cel_lib_quantity = {"quantity", quantity_ovs, sizeof quantity_ovs / sizeof *quantity_ovs};
