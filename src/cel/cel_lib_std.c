/* cel_lib_std.c: CEL's standard definitions: operators with overflow
 * checks, comparisons, size/contains/startsWith/endsWith/matches, `in`,
 * indexing and the type conversions, with cel-go's overload ids. */
#include "cel/cel_internal.h"
#include "codec/gofloat.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define A args
#define FN(name) static cel_val name(cel_eval *ev, const cel_val *args, uint32_t n)
#define UNUSED (void)ev, (void)n

static cel_val overflow(void) { return cel_err("integer overflow"); }

FN(f_not) { UNUSED; return cel_bool(!A[0].b); }
FN(f_neg_int) { UNUSED; return A[0].i == INT64_MIN ? overflow() : cel_int(-A[0].i); }
FN(f_neg_double) { UNUSED; return cel_double(-A[0].d); }
FN(f_identity) { UNUSED; return A[0]; }
FN(f_unreachable) { UNUSED; (void)args; return cel_err("internal error: special form called as function"); }

FN(f_add) {
  UNUSED;
  const cel_val *a = &A[0], *b = &A[1];
  switch (a->kind) {
  case V_INT: {
    int64_t r;
    return __builtin_add_overflow(a->i, b->i, &r) ? overflow() : cel_int(r);
  }
  case V_UINT: {
    uint64_t r;
    return __builtin_add_overflow(a->u, b->u, &r) ? cel_err("unsigned integer overflow") : cel_uint(r);
  }
  case V_DOUBLE: return cel_double(a->d + b->d);
  case V_STRING:
  case V_BYTES: {
    char *p = cel_scratch_alloc((size_t)a->len + b->len + 1);
    memcpy(p, a->s, a->len);
    memcpy(p + a->len, b->s, b->len);
    p[a->len + b->len] = 0;
    cel_val v = *a;
    v.s = p;
    v.len = a->len + b->len;
    return v;
  }
  case V_LIST: {
    size_t na = a->len, nb = b->len;
    cel_val *items = cel_scratch_alloc((na + nb + 1) * sizeof *items);
    for (size_t i = 0; i < na; i++) items[i] = cel_list_at(a, i);
    for (size_t i = 0; i < nb; i++) items[na + i] = cel_list_at(b, i);
    return cel_list(items, na + nb);
  }
  default: return cel_no_overload();
  }
}

FN(f_sub) {
  UNUSED;
  if (A[0].kind == V_INT) {
    int64_t r;
    return __builtin_sub_overflow(A[0].i, A[1].i, &r) ? overflow() : cel_int(r);
  }
  if (A[0].kind == V_UINT) {
    uint64_t r;
    return __builtin_sub_overflow(A[0].u, A[1].u, &r) ? cel_err("unsigned integer overflow") : cel_uint(r);
  }
  return cel_double(A[0].d - A[1].d);
}

FN(f_mul) {
  UNUSED;
  if (A[0].kind == V_INT) {
    int64_t r;
    return __builtin_mul_overflow(A[0].i, A[1].i, &r) ? overflow() : cel_int(r);
  }
  if (A[0].kind == V_UINT) {
    uint64_t r;
    return __builtin_mul_overflow(A[0].u, A[1].u, &r) ? cel_err("unsigned integer overflow") : cel_uint(r);
  }
  return cel_double(A[0].d * A[1].d);
}

FN(f_div) {
  UNUSED;
  if (A[0].kind == V_INT) {
    if (A[1].i == 0) return cel_err("division by zero");
    if (A[0].i == INT64_MIN && A[1].i == -1) return overflow();
    return cel_int(A[0].i / A[1].i);
  }
  if (A[0].kind == V_UINT) return A[1].u == 0 ? cel_err("division by zero") : cel_uint(A[0].u / A[1].u);
  return cel_double(A[0].d / A[1].d);
}

FN(f_mod) {
  UNUSED;
  if (A[0].kind == V_INT) {
    if (A[1].i == 0) return cel_err("modulus by zero");
    if (A[0].i == INT64_MIN && A[1].i == -1) return overflow();
    return cel_int(A[0].i % A[1].i);
  }
  return A[1].u == 0 ? cel_err("modulus by zero") : cel_uint(A[0].u % A[1].u);
}

static cel_val ordering(const cel_val *a, const cel_val *b, int want_lo, int want_hi) {
  bool ok;
  int c = cel_compare(a, b, &ok);
  if (!ok) return c == 2 ? cel_err("NaN values cannot be ordered") : cel_no_overload(); /* cel-go's Compare */
  return cel_bool(c >= want_lo && c <= want_hi);
}
FN(f_lt) { UNUSED; return ordering(&A[0], &A[1], -1, -1); }
FN(f_le) { UNUSED; return ordering(&A[0], &A[1], -1, 0); }
FN(f_gt) { UNUSED; return ordering(&A[0], &A[1], 1, 1); }
FN(f_ge) { UNUSED; return ordering(&A[0], &A[1], 0, 1); }

FN(f_eq) { UNUSED; return cel_equals(&A[0], &A[1]); }
FN(f_ne) { UNUSED; return cel_not_equals(&A[0], &A[1]); }

FN(f_index) { UNUSED; return cel_index(&A[0], &A[1]); }

FN(f_in) {
  UNUSED;
  const cel_val *e = &A[0], *c = &A[1];
  if (c->kind == V_LIST) {
    for (size_t i = 0; i < c->len; i++) {
      cel_val x = cel_list_at(c, i);
      if (cel_equal_bool(&x, e)) return cel_bool(true);
    }
    return cel_bool(false);
  }
  if (c->kind == V_MAP) {
    if (c->store == MS_DEV_DOMAINS) { /* membership sees real domains only */
      for (size_t i = 0; i < cel_map_len(c); i++) {
        cel_val k = cel_map_key_at(c, i);
        if (cel_equal_bool(&k, e)) return cel_bool(true);
      }
      return cel_bool(false);
    }
    cel_val out;
    if (cel_map_find(c, e, &out)) return cel_bool(true);
    /* heterogeneous numeric keys: 1.0 in {1: x} */
    if (e->kind == V_DOUBLE && e->d == trunc(e->d)) {
      cel_val alt = e->d >= 0 ? cel_uint((uint64_t)e->d) : cel_int((int64_t)e->d);
      cel_val alt2 = cel_int((int64_t)e->d);
      return cel_bool(cel_map_find(c, &alt, &out) || cel_map_find(c, &alt2, &out));
    }
    if (e->kind == V_INT && e->i >= 0) {
      cel_val alt = cel_uint((uint64_t)e->i);
      return cel_bool(cel_map_find(c, &alt, &out));
    }
    if (e->kind == V_UINT && e->u <= INT64_MAX) {
      cel_val alt = cel_int((int64_t)e->u);
      return cel_bool(cel_map_find(c, &alt, &out));
    }
    return cel_bool(false);
  }
  return cel_no_overload();
}

FN(f_size) {
  UNUSED;
  const cel_val *v = &A[0];
  if (v->kind == V_STRING) return cel_int((int64_t)cel_utf8_len(v->s, v->len));
  if (v->kind == V_BYTES || v->kind == V_LIST) return cel_int(v->len);
  if (v->kind == V_MAP) return cel_int((int64_t)cel_map_len(v));
  return cel_no_overload();
}

static bool has_sub(const char *s, size_t n, const char *sub, size_t m) {
  if (m == 0) return true;
  return m <= n && memmem(s, n, sub, m) != NULL;
}
FN(f_contains) { UNUSED; return cel_bool(has_sub(A[0].s, A[0].len, A[1].s, A[1].len)); }
FN(f_starts) { UNUSED; return cel_bool(A[1].len <= A[0].len && !memcmp(A[0].s, A[1].s, A[1].len)); }
FN(f_ends) {
  UNUSED;
  return cel_bool(A[1].len <= A[0].len && !memcmp(A[0].s + A[0].len - A[1].len, A[1].s, A[1].len));
}
FN(f_matches) {
  UNUSED;
  cel_val err;
  bool m = cel_regex_match(A[1].s, A[1].len, A[0].s, A[0].len, &err);
  return err.kind == V_ERR ? err : cel_bool(m);
}

/* ---- conversions ----
 * cel-go words range failures as overflow (common/types/int.go, uint.go,
 * double.go) and unparsable strings as String.ConvertToType does
 * (common/types/string.go). */

static cel_val conversion_error(const char *to) {
  return cel_err("type conversion error from 'string' to '%s'", to);
}

static bool parse_int(const char *s, size_t n, int64_t *out) {
  char buf[64];
  if (n == 0 || n >= sizeof buf) return false;
  memcpy(buf, s, n);
  buf[n] = 0;
  char *end;
  errno = 0;
  long long v = strtoll(buf, &end, 10);
  /* strconv.ParseInt: an optional sign, then digits; no spaces */
  if (errno || *end || end == buf || (buf[0] != '-' && buf[0] != '+' && (buf[0] < '0' || buf[0] > '9'))) return false;
  *out = v;
  return true;
}

FN(f_int) {
  UNUSED;
  const cel_val *v = &A[0];
  switch (v->kind) {
  case V_INT: return *v;
  case V_UINT: return v->u > INT64_MAX ? cel_err("integer overflow") : cel_int((int64_t)v->u);
  case V_DOUBLE:
    if (!(v->d > -9223372036854775808.0 && v->d < 9223372036854775808.0)) return cel_err("integer overflow");
    return cel_int((int64_t)v->d);
  case V_STRING: {
    int64_t i;
    if (!parse_int(v->s, v->len, &i)) return conversion_error("int");
    return cel_int(i);
  }
  case V_TIMESTAMP: return cel_int(v->i);
  default: return cel_no_overload();
  }
}

FN(f_uint) {
  UNUSED;
  const cel_val *v = &A[0];
  switch (v->kind) {
  case V_UINT: return *v;
  case V_INT: return v->i < 0 ? cel_err("unsigned integer overflow") : cel_uint((uint64_t)v->i);
  case V_DOUBLE:
    /* cel-go doubleToUint64Checked: any negative value (not -0.0) is out of range */
    if (!(v->d >= 0 && v->d < 18446744073709551616.0)) return cel_err("unsigned integer overflow");
    return cel_uint((uint64_t)v->d);
  case V_STRING: {
    char buf[64];
    if (v->len == 0 || v->len >= sizeof buf || v->s[0] == '-' || v->s[0] == '+' || v->s[0] == ' ')
      return conversion_error("uint");
    memcpy(buf, v->s, v->len);
    buf[v->len] = 0;
    char *end;
    errno = 0;
    unsigned long long u = strtoull(buf, &end, 10);
    if (errno || *end) return conversion_error("uint");
    return cel_uint(u);
  }
  default: return cel_no_overload();
  }
}

FN(f_double) {
  UNUSED;
  const cel_val *v = &A[0];
  switch (v->kind) {
  case V_DOUBLE: return *v;
  case V_INT: return cel_double((double)v->i);
  case V_UINT: return cel_double((double)v->u);
  case V_STRING: {
    /* strconv.ParseFloat: no spaces, "0x" mantissas need a 'p' exponent,
     * underscores only between digits (or after a base prefix) */
    char buf[128];
    if (v->len == 0 || v->len >= sizeof buf || memchr(v->s, 0, v->len)) return conversion_error("double");
    size_t o = 0, sign = v->s[0] == '+' || v->s[0] == '-';
    bool hex = v->len > sign + 1 && v->s[sign] == '0' && (v->s[sign + 1] == 'x' || v->s[sign + 1] == 'X');
    for (size_t i = 0; i < v->len; i++) {
      char ch = v->s[i];
      if (ch == '_') {
        bool digit_before = i > 0 && (isxdigit((unsigned char)v->s[i - 1]) || (hex && i == sign + 2));
        bool digit_after = i + 1 < v->len && (hex ? isxdigit((unsigned char)v->s[i + 1]) : isdigit((unsigned char)v->s[i + 1]));
        if (!digit_before || !digit_after) return conversion_error("double");
        continue;
      }
      if (isspace((unsigned char)ch) || ch == '(') return conversion_error("double");
      buf[o++] = ch;
    }
    buf[o] = 0;
    if (hex && !strpbrk(buf, "pP")) return conversion_error("double");
    char *end;
    double d = strtod(buf, &end);
    if (*end || end == buf) return conversion_error("double");
    return cel_double(d);
  }
  default: return cel_no_overload();
  }
}

/* Go's strconv.FormatFloat(d, 'g', -1, 64). */
/* string(double) is Go's strconv.FormatFloat(d, 'g', -1, 64) in cel-go:
 * shortest digits, exponent form from 1e+06 and below 1e-04. */
size_t cel_format_double(double d, char *buf, size_t n) {
  strbuf sb = STRBUF_INIT;
  go_format_float_g(&sb, d, 64);
  size_t len = (size_t)snprintf(buf, n, "%s", sb_str(&sb));
  sb_free(&sb);
  return len;
}

FN(f_string) {
  UNUSED;
  const cel_val *v = &A[0];
  char buf[64];
  switch (v->kind) {
  case V_STRING: return *v;
  case V_INT: snprintf(buf, sizeof buf, "%lld", (long long)v->i); break;
  case V_UINT: snprintf(buf, sizeof buf, "%llu", (unsigned long long)v->u); break;
  case V_DOUBLE: cel_format_double(v->d, buf, sizeof buf); break;
  case V_BOOL: snprintf(buf, sizeof buf, "%s", v->b ? "true" : "false"); break;
  case V_BYTES:
    if (!cel_utf8_valid(v->s, v->len)) return cel_err("invalid UTF-8 in bytes, cannot convert to string");
    return cel_string(v->s, v->len);
  default: return cel_no_overload();
  }
  return cel_string_dup(buf, strlen(buf));
}

FN(f_bytes) {
  UNUSED;
  return cel_bytes(A[0].s, A[0].len);
}

FN(f_bool) {
  UNUSED;
  const cel_val *v = &A[0];
  if (v->kind == V_BOOL) return *v;
  static const char *const t[] = {"1", "t", "T", "TRUE", "true", "True"}, *const f[] = {"0", "f", "F", "FALSE", "false", "False"};
  for (size_t i = 0; i < 6; i++) {
    if (strlen(t[i]) == v->len && !memcmp(t[i], v->s, v->len)) return cel_bool(true);
    if (strlen(f[i]) == v->len && !memcmp(f[i], v->s, v->len)) return cel_bool(false);
  }
  return conversion_error("bool");
}

FN(f_type) { UNUSED; return cel_typeval(cel_val_type(&A[0])); }

FN(f_map_insert) {
  UNUSED;
  const cel_val *m = &A[0];
  size_t len = cel_map_len(m);
  if (n == 2) { /* merge an entry map */
    size_t add = cel_map_len(&A[1]);
    cel_val *items = cel_scratch_alloc((len + add + 1) * 2 * sizeof *items);
    for (size_t i = 0; i < len; i++) {
      items[2 * i] = cel_map_key_at(m, i);
      items[2 * i + 1] = cel_map_value_at(m, i);
    }
    for (size_t j = 0; j < add; j++) {
      cel_val k = cel_map_key_at(&A[1], j), out;
      if (cel_map_find(m, &k, &out)) return cel_err("insert failed: key %s already exists", "");
      items[2 * (len + j)] = k;
      items[2 * (len + j) + 1] = cel_map_value_at(&A[1], j);
    }
    return cel_map(items, len + add);
  }
  cel_val out;
  if (cel_map_find(m, &A[1], &out)) return cel_err("insert failed: key already exists");
  cel_val *items = cel_scratch_alloc((len + 1) * 2 * sizeof *items);
  for (size_t i = 0; i < len; i++) {
    items[2 * i] = cel_map_key_at(m, i);
    items[2 * i + 1] = cel_map_value_at(m, i);
  }
  items[2 * len] = A[1];
  items[2 * len + 1] = A[2];
  return cel_map(items, len + 1);
}

#define CMP(op, fn, id)                                                                                         \
  {#id "_bool", "_" op "_(bool, bool) -> bool", fn, K_ONE, 0, 0, 0, {0}, 0, 0},                               \
  {#id "_int64", "_" op "_(int, int) -> bool", fn, K_ONE, 0, 0, 0, {0}, 0, 0},                                \
  {#id "_uint64", "_" op "_(uint, uint) -> bool", fn, K_ONE, 0, 0, 0, {0}, 0, 0},                             \
  {#id "_double", "_" op "_(double, double) -> bool", fn, K_ONE, 0, 0, 0, {0}, 0, 0},                         \
  {#id "_string", "_" op "_(string, string) -> bool", fn, K_STR_ORDER, 0, 0, 0, {0}, 0, 0},                   \
  {#id "_bytes", "_" op "_(bytes, bytes) -> bool", fn, K_STR_ORDER, 0, 0, 0, {0}, 0, 0},                      \
  {#id "_int64_uint64", "_" op "_(int, uint) -> bool", fn, K_ONE, 0, 0, 0, {0}, 0, 0},                        \
  {#id "_int64_double", "_" op "_(int, double) -> bool", fn, K_ONE, 0, 0, 0, {0}, 0, 0},                      \
  {#id "_uint64_int64", "_" op "_(uint, int) -> bool", fn, K_ONE, 0, 0, 0, {0}, 0, 0},                        \
  {#id "_uint64_double", "_" op "_(uint, double) -> bool", fn, K_ONE, 0, 0, 0, {0}, 0, 0},                    \
  {#id "_double_int64", "_" op "_(double, int) -> bool", fn, K_ONE, 0, 0, 0, {0}, 0, 0},                      \
  {#id "_double_uint64", "_" op "_(double, uint) -> bool", fn, K_ONE, 0, 0, 0, {0}, 0, 0}

#define O(id, sig, fn, cost) {id, sig, fn, cost, 0, 0, 0, {0}, 0, 0}

static cel_overload std_ovs[] = {
    O("logical_not", "!_(bool) -> bool", f_not, K_ONE),
    O("negate_int64", "-_(int) -> int", f_neg_int, K_ONE),
    O("negate_double", "-_(double) -> double", f_neg_double, K_ONE),
    O("logical_and", "_&&_(bool, bool) -> bool", f_unreachable, K_LOGIC),
    O("logical_or", "_||_(bool, bool) -> bool", f_unreachable, K_LOGIC),
    O("conditional", "_?_:_(bool, A, A) -> A", f_unreachable, K_COND),
    O("not_strictly_false", "@not_strictly_false(bool) -> bool", f_unreachable, K_ONE),
    O("equals", "_==_(A, A) -> bool", f_eq, K_EQ),
    O("not_equals", "_!=_(A, A) -> bool", f_ne, K_EQ),
    CMP("<", f_lt, less),
    CMP("<=", f_le, less_equals),
    CMP(">", f_gt, greater),
    CMP(">=", f_ge, greater_equals),
    O("add_int64", "_+_(int, int) -> int", f_add, K_ONE),
    O("add_uint64", "_+_(uint, uint) -> uint", f_add, K_ONE),
    O("add_double", "_+_(double, double) -> double", f_add, K_ONE),
    O("add_string", "_+_(string, string) -> string", f_add, K_ADD_STR),
    O("add_bytes", "_+_(bytes, bytes) -> bytes", f_add, K_ADD_STR),
    O("add_list", "_+_(list(A), list(A)) -> list(A)", f_add, K_ADD_LIST),
    O("subtract_int64", "_-_(int, int) -> int", f_sub, K_ONE),
    O("subtract_uint64", "_-_(uint, uint) -> uint", f_sub, K_ONE),
    O("subtract_double", "_-_(double, double) -> double", f_sub, K_ONE),
    O("multiply_int64", "_*_(int, int) -> int", f_mul, K_ONE),
    O("multiply_uint64", "_*_(uint, uint) -> uint", f_mul, K_ONE),
    O("multiply_double", "_*_(double, double) -> double", f_mul, K_ONE),
    O("divide_int64", "_/_(int, int) -> int", f_div, K_ONE),
    O("divide_uint64", "_/_(uint, uint) -> uint", f_div, K_ONE),
    O("divide_double", "_/_(double, double) -> double", f_div, K_ONE),
    O("modulo_int64", "_%_(int, int) -> int", f_mod, K_ONE),
    O("modulo_uint64", "_%_(uint, uint) -> uint", f_mod, K_ONE),
    O("index_list", "_[_](list(A), int) -> A", f_index, K_ONE),
    O("index_map", "_[_](map(K, V), K) -> V", f_index, K_ONE),
    O("optional_list_index_int", "_[_](optional_type(list(A)), int) -> optional_type(A)", f_index, K_ONE),
    O("optional_map_index_value", "_[_](optional_type(map(K, V)), K) -> optional_type(V)", f_index, K_ONE),
    O("in_list", "@in(A, list(A)) -> bool", f_in, K_IN_LIST),
    O("in_map", "@in(A, map(A, B)) -> bool", f_in, K_ONE),
    O("size_string", "size(string) -> int", f_size, K_ONE),
    O("size_bytes", "size(bytes) -> int", f_size, K_ONE),
    O("size_list", "size(list(A)) -> int", f_size, K_ONE),
    O("size_map", "size(map(K, V)) -> int", f_size, K_ONE),
    O("string_size", "string.size() -> int", f_size, K_ONE),
    O("bytes_size", "bytes.size() -> int", f_size, K_ONE),
    O("list_size", "list(A).size() -> int", f_size, K_ONE),
    O("map_size", "map(K, V).size() -> int", f_size, K_ONE),
    O("contains_string", "string.contains(string) -> bool", f_contains, K_CONTAINS),
    O("starts_with_string", "string.startsWith(string) -> bool", f_starts, K_ARG_TRAVERSE),
    O("ends_with_string", "string.endsWith(string) -> bool", f_ends, K_ARG_TRAVERSE),
    O("matches", "matches(string, string) -> bool", f_matches, K_MATCHES),
    O("matches_string", "string.matches(string) -> bool", f_matches, K_MATCHES),
    O("int64_to_int64", "int(int) -> int", f_int, K_ONE),
    O("uint64_to_int64", "int(uint) -> int", f_int, K_ONE),
    O("double_to_int64", "int(double) -> int", f_int, K_ONE),
    O("string_to_int64", "int(string) -> int", f_int, K_ONE),
    O("uint64_to_uint64", "uint(uint) -> uint", f_uint, K_ONE),
    O("int64_to_uint64", "uint(int) -> uint", f_uint, K_ONE),
    O("double_to_uint64", "uint(double) -> uint", f_uint, K_ONE),
    O("string_to_uint64", "uint(string) -> uint", f_uint, K_ONE),
    O("double_to_double", "double(double) -> double", f_double, K_ONE),
    O("int64_to_double", "double(int) -> double", f_double, K_ONE),
    O("uint64_to_double", "double(uint) -> double", f_double, K_ONE),
    O("string_to_double", "double(string) -> double", f_double, K_ONE),
    O("string_to_string", "string(string) -> string", f_string, K_ONE),
    O("int64_to_string", "string(int) -> string", f_string, K_ONE),
    O("uint64_to_string", "string(uint) -> string", f_string, K_ONE),
    O("double_to_string", "string(double) -> string", f_string, K_ONE),
    O("bool_to_string", "string(bool) -> string", f_string, K_ONE),
    O("bytes_to_string", "string(bytes) -> string", f_string, K_TO_STRING),
    O("bytes_to_bytes", "bytes(bytes) -> bytes", f_bytes, K_ONE),
    O("string_to_bytes", "bytes(string) -> bytes", f_bytes, K_TO_BYTES),
    O("bool_to_bool", "bool(bool) -> bool", f_bool, K_ONE),
    O("string_to_bool", "bool(string) -> bool", f_bool, K_ONE),
    O("to_dyn", "dyn(A) -> dyn", f_identity, K_ONE),
    O("type", "type(A) -> type(A)", f_type, K_ONE),
    O("map_insert_key_value", "cel.@mapInsert(map(K, V), K, V) -> map(K, V)", f_map_insert, K_ONE),
    O("map_insert_map", "cel.@mapInsert(map(K, V), map(K, V)) -> map(K, V)", f_map_insert, K_ONE),
};

cel_lib cel_lib_std = {"std", std_ovs, sizeof std_ovs / sizeof *std_ovs};
