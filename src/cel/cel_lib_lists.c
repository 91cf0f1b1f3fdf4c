/* cel_lib_lists.c: Kubernetes' list library (isSorted, sum, min, max,
 * indexOf, lastIndexOf) and the cel-go lists extension version 3 (slice,
 * flatten, sort, sortBy, reverse, distinct, lists.range). */
#include "cel/cel_internal.h"
#include <stdlib.h>
#include <string.h>

#define FN(name) static cel_val name(cel_eval *ev, const cel_val *a, uint32_t n)
#define UNUSED (void)ev

static int cmp_or_fail(const cel_val *x, const cel_val *y, bool *ok) { return cel_compare(x, y, ok); }

FN(f_is_sorted) {
  UNUSED, (void)n;
  for (size_t i = 1; i < a[0].len; i++) {
    cel_val x = cel_list_at(&a[0], i - 1), y = cel_list_at(&a[0], i);
    bool ok;
    int c = cmp_or_fail(&x, &y, &ok);
    if (!ok) return cel_no_overload();
    if (c > 0) return cel_bool(false);
  }
  return cel_bool(true);
}

FN(f_sum) {
  UNUSED, (void)n;
  if (!a[0].len) return cel_int(0);
  cel_val acc = cel_list_at(&a[0], 0);
  for (size_t i = 1; i < a[0].len; i++) {
    cel_val x = cel_list_at(&a[0], i);
    if (x.kind != acc.kind) return cel_no_overload();
    if (acc.kind == V_INT) {
      if (__builtin_add_overflow(acc.i, x.i, &acc.i)) return cel_err("integer overflow");
    } else if (acc.kind == V_UINT) {
      if (__builtin_add_overflow(acc.u, x.u, &acc.u)) return cel_err("unsigned integer overflow");
    } else if (acc.kind == V_DOUBLE) {
      acc.d += x.d;
    } else {
      return cel_no_overload();
    }
  }
  return acc;
}

static cel_val extreme(const cel_val *l, int sign, const char *name) {
  if (!l->len) return cel_err("%s called on empty list", name);
  cel_val best = cel_list_at(l, 0);
  for (size_t i = 1; i < l->len; i++) {
    cel_val x = cel_list_at(l, i);
    bool ok;
    int c = cel_compare(&x, &best, &ok);
    if (!ok) return cel_no_overload();
    if (c * sign > 0) best = x;
  }
  return best;
}
FN(f_min) { UNUSED, (void)n; return extreme(&a[0], -1, "min"); }
FN(f_max) { UNUSED, (void)n; return extreme(&a[0], 1, "max"); }

FN(f_index_of) {
  UNUSED, (void)n;
  for (size_t i = 0; i < a[0].len; i++) {
    cel_val x = cel_list_at(&a[0], i);
    if (cel_equal_bool(&x, &a[1])) return cel_int((int64_t)i);
  }
  return cel_int(-1);
}
FN(f_last_index_of) {
  UNUSED, (void)n;
  for (size_t i = a[0].len; i-- > 0;) {
    cel_val x = cel_list_at(&a[0], i);
    if (cel_equal_bool(&x, &a[1])) return cel_int((int64_t)i);
  }
  return cel_int(-1);
}

static cel_val copy_list(const cel_val *l, size_t from, size_t to) {
  cel_val *items = cel_scratch_alloc((to - from + 1) * sizeof *items);
  for (size_t i = from; i < to; i++) items[i - from] = cel_list_at(l, i);
  return cel_list(items, to - from);
}

FN(f_slice) {
  UNUSED, (void)n;
  int64_t s = a[1].i, e = a[2].i;
  if (s < 0 || e < 0) return cel_err("cannot slice(%lld, %lld), negative indexes not supported", (long long)s, (long long)e);
  if (s > e) return cel_err("cannot slice(%lld, %lld), start index must be less than or equal to end index", (long long)s, (long long)e);
  if ((uint64_t)e > a[0].len) return cel_err("cannot slice(%lld, %lld), list is length %u", (long long)s, (long long)e, a[0].len);
  return copy_list(&a[0], (size_t)s, (size_t)e);
}

static void flatten_into(const cel_val *l, int64_t depth, cel_val *out, size_t *cnt, bool count_only) {
  for (size_t i = 0; i < l->len; i++) {
    cel_val x = cel_list_at(l, i);
    if (x.kind == V_LIST && depth > 0) {
      flatten_into(&x, depth - 1, out, cnt, count_only);
    } else {
      if (!count_only) out[*cnt] = x;
      (*cnt)++;
    }
  }
}

FN(f_flatten) {
  UNUSED;
  int64_t depth = n == 2 ? a[1].i : 1;
  if (depth < 0) return cel_err("level must be non-negative");
  size_t cnt = 0;
  flatten_into(&a[0], depth, NULL, &cnt, true);
  cel_val *items = cel_scratch_alloc((cnt + 1) * sizeof *items);
  cnt = 0;
  flatten_into(&a[0], depth, items, &cnt, false);
  return cel_list(items, cnt);
}

FN(f_reverse) {
  UNUSED, (void)n;
  cel_val *items = cel_scratch_alloc((a[0].len + 1) * sizeof *items);
  for (size_t i = 0; i < a[0].len; i++) items[a[0].len - 1 - i] = cel_list_at(&a[0], i);
  return cel_list(items, a[0].len);
}

FN(f_distinct) {
  UNUSED, (void)n;
  cel_val *items = cel_scratch_alloc((a[0].len + 1) * sizeof *items);
  size_t cnt = 0;
  for (size_t i = 0; i < a[0].len; i++) {
    cel_val x = cel_list_at(&a[0], i);
    bool seen = false;
    for (size_t j = 0; j < cnt && !seen; j++) seen = cel_equal_bool(&items[j], &x);
    if (!seen) items[cnt++] = x;
  }
  return cel_list(items, cnt);
}

FN(f_range) {
  UNUSED, (void)n;
  if (a[0].i < 0 || a[0].i > 1000000) return cel_err("lists.range: invalid size %lld", (long long)a[0].i);
  cel_val *items = cel_scratch_alloc(((size_t)a[0].i + 1) * sizeof *items);
  for (int64_t i = 0; i < a[0].i; i++) items[i] = cel_int(i);
  return cel_list(items, (size_t)a[0].i);
}

/* Stable insertion sort of values by keys (both lists of equal length). */
static cel_val sort_by_keys(const cel_val *vals, const cel_val *keys) {
  size_t len = keys->len;
  cel_val *k = cel_scratch_alloc((len + 1) * sizeof *k), *v = cel_scratch_alloc((len + 1) * sizeof *v);
  for (size_t i = 0; i < len; i++) {
    k[i] = cel_list_at(keys, i);
    v[i] = cel_list_at(vals, i);
    if (i && k[i].kind != k[0].kind) return cel_err("list elements must have the same type");
  }
  for (size_t i = 1; i < len; i++) {
    cel_val kk = k[i], vv = v[i];
    size_t j = i;
    while (j > 0) {
      bool ok;
      int c = cel_compare(&k[j - 1], &kk, &ok);
      if (!ok) return cel_err("list elements must be comparable");
      if (c <= 0) break;
      k[j] = k[j - 1];
      v[j] = v[j - 1];
      j--;
    }
    k[j] = kk;
    v[j] = vv;
  }
  return cel_list(v, len);
}

FN(f_sort) { UNUSED, (void)n; return sort_by_keys(&a[0], &a[0]); }
FN(f_sort_by_keys) { UNUSED, (void)n; return sort_by_keys(&a[0], &a[1]); }

#define O(id, sig, fn, k) {id, sig, fn, k, 0, 0, 0, {0}, 0, 0}
static cel_overload lists_ovs[] = {
    O("list_is_sorted", "list(A).isSorted() -> bool", f_is_sorted, K_LIST_TRAVERSE),
    O("list_sum_int", "list(int).sum() -> int", f_sum, K_LIST_TRAVERSE),
    O("list_sum_uint", "list(uint).sum() -> uint", f_sum, K_LIST_TRAVERSE),
    O("list_sum_double", "list(double).sum() -> double", f_sum, K_LIST_TRAVERSE),
    O("list_min", "list(A).min() -> A", f_min, K_LIST_TRAVERSE),
    O("list_max", "list(A).max() -> A", f_max, K_LIST_TRAVERSE),
    O("list_index_of", "list(A).indexOf(A) -> int", f_index_of, K_LIST_TRAVERSE),
    O("list_last_index_of", "list(A).lastIndexOf(A) -> int", f_last_index_of, K_LIST_TRAVERSE),
    O("list_slice", "list(A).slice(int, int) -> list(A)", f_slice, K_ONE),
    O("list_flatten", "list(list(A)).flatten() -> list(A)", f_flatten, K_ONE),
    O("list_flatten_int", "list(dyn).flatten(int) -> list(dyn)", f_flatten, K_ONE),
    O("list_sort", "list(A).sort() -> list(A)", f_sort, K_ONE),
    O("list_sortByAssociatedKeys", "list(A).@sortByAssociatedKeys(list(B)) -> list(A)", f_sort_by_keys, K_ONE),
    O("list_reverse", "list(A).reverse() -> list(A)", f_reverse, K_ONE),
    O("list_distinct", "list(A).distinct() -> list(A)", f_distinct, K_ONE),
    O("lists_range", "lists.range(int) -> list(int)", f_range, K_ONE),
};

cel_lib cel_lib_lists = {"lists", lists_ovs, sizeof lists_ovs / sizeof *lists_ovs};
