/* cel_eval.c: the tree-walking interpreter over a checked program: special
 * forms (&&, ||, ?:, optional selection), comprehensions with interruption
 * checks, overload dispatch on runtime values, runtime cost tracking, and the
 * fast paths chosen by cel_plan for device attribute lookups. */
#include "cel/cel_internal.h"
#include <stdatomic.h>
#include <string.h>
#include <time.h>

enum {
  F_AND = 16, F_OR, F_COND, F_NSF, F_OPT_SELECT, F_OPT_INDEX, F_EQ, F_NE, F_INDEX, F_CALL, F_OPT_OR,
};

#define COST_ERROR "operation cancelled: actual cost limit exceeded"

static cel_val cost_error(void) {
  cel_val v = {.kind = V_ERR, .len = sizeof COST_ERROR - 1};
  v.s = COST_ERROR;
  return v;
}

static bool type_matches(const cel_type *t, const cel_val *v) {
  switch (t->kind) {
  case TY_DYN:
  case TY_ANY:
  case TY_PARAM:
  case TY_ERROR: return true;
  case TY_NULL: return v->kind == V_NULL;
  case TY_BOOL: return v->kind == V_BOOL;
  case TY_INT: return v->kind == V_INT;
  case TY_UINT: return v->kind == V_UINT;
  case TY_DOUBLE: return v->kind == V_DOUBLE;
  case TY_STRING: return v->kind == V_STRING;
  case TY_BYTES: return v->kind == V_BYTES;
  case TY_DURATION: return v->kind == V_DURATION;
  case TY_TIMESTAMP: return v->kind == V_TIMESTAMP;
  case TY_LIST: return v->kind == V_LIST;
  case TY_MAP: return v->kind == V_MAP;
  case TY_TYPE: return v->kind == V_TYPE;
  case TY_OPT: return v->kind == V_OPT;
  case TY_OBJECT: return v->kind == V_MAP && v->store == MS_DEVICE;
  case TY_OPAQUE:
    return (t == &cel_t_semver && v->kind == V_SEMVER) || (t == &cel_t_quantity && v->kind == V_QUANTITY) ||
           (t == &cel_t_ip && v->kind == V_IP) || (t == &cel_t_cidr && v->kind == V_CIDR) ||
           (t == &cel_t_url && v->kind == V_URL) || (t == &cel_t_format && v->kind == V_FORMAT);
  }
  return false;
}

static const cel_overload *dispatch(const cel_node *n, const cel_val *args) {
  for (uint32_t k = 0; k < n->novs; k++) {
    const cel_overload *o = n->ovs[k];
    bool ok = true;
    for (uint32_t i = 0; i < o->nparams && ok; i++) ok = type_matches(o->params[i], &args[i]);
    if (ok) return o;
  }
  return NULL;
}

static bool interrupted(cel_eval *ev, cel_val *err) {
  const cel_eval_opts *o = ev->opts;
  if (!o) return false;
  const char *cause = NULL;
  if (o->cancel && atomic_load(o->cancel)) cause = o->cancel_cause ? o->cancel_cause : "context canceled";
  if (!cause && o->deadline_ns) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    if ((int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec >= o->deadline_ns) cause = "context deadline exceeded";
  }
  if (!cause) return false;
  *err = cel_err("operation interrupted: %s", cause);
  return true;
}

/* Errors of a select or index that finds nothing, worded as cel-go's
 * interpreter words them (interpreter/attributes.go qualifiers,
 * common/types/list.go and map.go): a qualifier of a kind it cannot use
 * names its Go type. */
static cel_val bad_qualifier(const cel_val *k) {
  const char *go = k->kind == V_LIST ? "*types.baseList" : k->kind == V_MAP ? "*types.baseMap" : cel_val_go_type(k);
  return cel_err("invalid qualifier type: %s", go);
}

static cel_val select_field(const cel_val *t, const char *field, size_t flen) {
  if (t->kind == V_LIST) return cel_err("unsupported index type 'string' in list");
  if (t->kind == V_MAP) {
    cel_val key = cel_string(field, flen), out;
    if (cel_map_find(t, &key, &out)) return out;
  }
  return cel_err("no such key: %.*s", (int)flen, field);
}

static cel_val index_value(const cel_val *t, const cel_val *k) {
  if (t->kind == V_LIST) {
    int64_t i;
    char buf[64];
    if (k->kind == V_INT) i = k->i;
    else if (k->kind == V_UINT) {
      if (k->u > INT64_MAX) return cel_err("unsupported index value %llu in list", (unsigned long long)k->u);
      i = (int64_t)k->u;
    } else if (k->kind == V_DOUBLE) {
      if (!(k->d > -9223372036854775808.0 && k->d < 9223372036854775808.0) || k->d != (double)(int64_t)k->d) {
        cel_format_double(k->d, buf, sizeof buf);
        return cel_err("unsupported index value %s in list", buf);
      }
      i = (int64_t)k->d;
    } else if (k->kind == V_STRING || k->kind == V_BOOL) {
      return cel_err("unsupported index type '%s' in list", cel_val_type_name(k));
    } else {
      return bad_qualifier(k);
    }
    if (i < 0 || (uint64_t)i >= t->len) return cel_err("index out of bounds: %lld", (long long)i);
    return cel_list_at(t, (size_t)i);
  }
  if (t->kind == V_MAP) {
    cel_val out;
    char buf[64];
    if (k->kind != V_STRING && k->kind != V_INT && k->kind != V_UINT && k->kind != V_BOOL && k->kind != V_DOUBLE)
      return bad_qualifier(k);
    if (cel_map_find(t, k, &out)) return out;
    if (k->kind == V_STRING) return cel_err("no such key: %.*s", (int)k->len, k->s);
    if (k->kind == V_INT) return cel_err("no such key: %lld", (long long)k->i);
    if (k->kind == V_UINT) return cel_err("no such key: %llu", (unsigned long long)k->u);
    if (k->kind == V_BOOL) return cel_err("no such key: %s", k->b ? "true" : "false");
    cel_format_double(k->d, buf, sizeof buf);
    return cel_err("no such key: %s", buf);
  }
  return cel_no_overload();
}

/* A select or index starting a relative attribute charges its 1 when the
 * attribute is observed, whether it resolved or failed (interpreter
 * decorators.go evalWatchAttr, runtimecost.go InterpretableAttribute).
 * has() on a value is the exception: its 1 is the presence test's
 * qualifier, which is not reached when the value failed (Kubernetes
 * prices the test-only attribute itself at 0: PresenceTestHasCost(false)). */
static cel_val eval_select(cel_eval *ev, const cel_node *n) {
  cel_val t = cel_eval_node(ev, n->target);
  if (t.kind == V_ERR && n->test_only) return t;
  cel_eval_charge(ev, n->extra_cost);
  if (t.kind == V_ERR) return t;
  size_t flen = strlen(n->name);
  if (n->test_only) {
    if (t.kind == V_OPT) {
      if (!t.opt) return cel_bool(false);
      t = *t.opt;
    }
    /* cel-go's interpreter (attributes.go, QualifyIfPresent) answers false
     * for a value that has no fields, and fails on a list as an index would */
    if (t.kind == V_LIST) return cel_err("unsupported index type 'string' in list");
    if (t.kind != V_MAP) return cel_bool(false);
    cel_val key = cel_string(n->name, flen), out;
    return cel_bool(cel_map_find(&t, &key, &out));
  }
  if (t.kind == V_OPT) { /* optional chaining: a.?b.c (charged when present, as cel-go's QualifyIfPresent) */
    if (!t.opt) return t;
    cel_val key = cel_string(n->name, flen), out;
    if (t.opt->kind == V_MAP && cel_map_find(t.opt, &key, &out)) {
      cel_eval_charge(ev, 1);
      return cel_opt(&out);
    }
    /* cel-go qualifies an optional value "if present" (interpreter
     * attributes.go): a value without fields is simply absent, while a list
     * still refuses a string index */
    if (t.opt->kind == V_LIST) return select_field(t.opt, n->name, flen);
    return cel_opt(NULL);
  }
  cel_eval_charge(ev, 1);
  return select_field(&t, n->name, flen);
}

/* The attribute a device fast-path node names, or NULL. */
static inline __attribute__((always_inline)) const cel_device_attr *device_attr(const cel_device *d, const cel_node *o) {
  const cel_device_attr *a = d->attrs; /* NULL when there are none */
  uint32_t n = d->n_attrs, i = 0;
  _Atomic uint32_t *hint = (_Atomic uint32_t *)&o->attr_hint; /* nodes are arena memory, written only here */
  if (d->names_unique) { /* the one match: found where the previous device had it, without a scan */
    uint32_t h = atomic_load_explicit(hint, memory_order_relaxed);
    if (h < n && a[h].name == o->fast_name && a[h].domain == o->fast_domain) return &a[h];
  }
  while (i < n && (a[i].name != o->fast_name || a[i].domain != o->fast_domain)) i++; /* names differ more */
  if (i == n) return NULL;
  if (d->names_unique) atomic_store_explicit(hint, i, memory_order_relaxed);
  return &a[i];
}

static cel_val eval_device_fast(cel_eval *ev, const cel_node *n) {
  const cel_device *d = ev->device;
  /* device (1, unless a conditional resolves the attribute), then 1 per qualifier */
  if (n->fast == F_DEVICE_DRIVER) {
    cel_eval_charge(ev, 2 - n->base_free);
    return d->driver ? cel_string(d->driver->str, d->driver->len) : cel_string("", 0);
  }
  if (n->fast == F_DEVICE_MULTI) {
    cel_eval_charge(ev, 2 - n->base_free);
    return cel_bool(d->allow_multiple == CEL_TRI_TRUE);
  }
  cel_eval_charge(ev, 4 - n->base_free);
  if (n->fast == F_DEVICE_CAP) {
    for (uint32_t i = 0; i < d->n_caps; i++)
      if (d->caps[i].domain == n->fast_domain && d->caps[i].name == n->fast_name) {
        cel_val v = {.kind = V_QUANTITY};
        v.q = &d->caps[i].value;
        return v;
      }
  } else {
    const cel_device_attr *a = device_attr(d, n);
    if (a) return cel_attr_to_val(&a->value);
  }
  return cel_err("no such key: %s", n->fast_name->str);
}

static cel_val eval_compr(cel_eval *ev, const cel_node *n) {
  cel_val range = cel_eval_node(ev, n->range);
  if (range.kind == V_ERR) return range;
  cel_val accu = cel_eval_node(ev, n->init);
  if (range.kind != V_LIST && range.kind != V_MAP)
    return cel_err("got '%s', expected iterable type", cel_val_go_type(&range));
  size_t len = range.kind == V_LIST ? cel_list_len(&range) : cel_map_len(&range);
  cel_val *slots = ev->slots;
  slots[n->accu_slot] = accu;
  for (size_t i = 0; i < len; i++) {
    if (++ev->iterations % 100 == 0) {
      cel_val err;
      if (interrupted(ev, &err)) {
        ev->stop = err;
        ev->cost_exceeded = true;
        return err;
      }
    }
    if (range.kind == V_LIST) {
      if (n->iter_var2) {
        slots[n->slot] = cel_int((int64_t)i);
        slots[n->slot2] = cel_list_at(&range, i);
      } else {
        slots[n->slot] = cel_list_at(&range, i);
      }
    } else {
      slots[n->slot] = cel_map_key_at(&range, i);
      if (n->iter_var2) slots[n->slot2] = cel_map_value_at(&range, i);
    }
    cel_val c = cel_eval_node(ev, n->cond);
    if (ev->cost_exceeded) return cost_error();
    if (c.kind == V_BOOL && !c.b) break;
    slots[n->accu_slot] = cel_eval_node(ev, n->step);
    if (ev->cost_exceeded) return cost_error();
  }
  return cel_eval_node(ev, n->result);
}

/* A list or map literal; cel-go charges its base cost (10, 30) also when
 * an entry fails (runtimecost.go, InterpretableConstructor). */
static cel_val eval_aggregate(cel_eval *ev, const cel_node *n) {
  bool is_map = n->kind == N_MAP;
  cel_eval_charge(ev, is_map ? 30 : 10);
  size_t per = is_map ? 2 : 1;
  cel_val *items = cel_scratch_alloc(n->nargs * per * sizeof *items + 1);
  size_t cnt = 0;
  for (uint32_t i = 0; i < n->nargs; i++) {
    cel_val k = cel_eval_node(ev, n->args[i * per]);
    if (k.kind == V_ERR) return k;
    cel_val v = k;
    if (is_map) {
      v = cel_eval_node(ev, n->args[2 * i + 1]);
      if (v.kind == V_ERR) return v;
      /* cel-go builds the literal as a Go map: doubles and null are keys
       * too (only bytes, lists and maps are refused here) */
      if (k.kind != V_INT && k.kind != V_UINT && k.kind != V_STRING && k.kind != V_BOOL && k.kind != V_DOUBLE &&
          k.kind != V_NULL)
        return cel_err("unsupported key type");
    }
    if (n->optional && n->optional[i]) {
      if (v.kind != V_OPT) return cel_no_overload();
      if (!v.opt) continue;
      v = *v.opt;
    }
    if (is_map) {
      /* a repeated key (same kind, equal) keeps the last value, as a Go map
       * assignment does; 1 and 1u stay two keys */
      size_t j = 0;
      while (j < cnt && !(items[2 * j].kind == k.kind && cel_equal_bool(&items[2 * j], &k))) j++;
      if (j < cnt) {
        items[2 * j + 1] = v;
        continue;
      }
      items[2 * cnt] = k;
      items[2 * cnt + 1] = v;
    } else {
      items[cnt] = v;
    }
    cnt++;
  }
  return is_map ? cel_map(items, cnt) : cel_list(items, cnt);
}

/* A call whose argument failed: cel-go returns the first error and still
 * charges the call when every argument was evaluated, which its cost
 * tracker needs to find them on its stack (interpreter/runtimecost.go
 * dropArgs); evalVarArgs stops at the error, so a call whose failed
 * argument is not the last is uncharged. The charge is the call's own cost
 * rule with the error as an argument of size 1 (actualSize), e.g. 0 for
 * `err == ""`. args holds the values of all n's arguments when
 * all_evaluated. */
static cel_val failed_call(cel_eval *ev, const cel_node *n, const cel_val *args, cel_val err, bool all_evaluated) {
  /* matches() of a constant pattern is cel-go's precompiled regex
   * (OptimizeRegex), which charges nothing when its argument failed */
  bool precompiled = n->novs && n->ovs[0]->cost == K_MATCHES && n->args[n->nargs - 1]->kind == N_CONST;
  if (!all_evaluated || n->uncharged || precompiled) return err;
  cel_eval_charge(ev, n->novs ? cel_node_runtime_cost(n, n->ovs[0], args, n->nargs, err) : 1);
  return err;
}

static cel_val eval_call(cel_eval *ev, const cel_node *n) {
  cel_val stack[8];
  cel_val *args = n->nargs <= 8 ? stack : cel_scratch_alloc(n->nargs * sizeof *args);
  const cel_val *err = NULL;
  uint32_t evaluated = 0;
  while (evaluated < n->nargs && !(err && n->stops_at_error)) {
    cel_val *a = &args[evaluated];
    *a = cel_eval_node(ev, n->args[evaluated++]);
    if (a->kind == V_ERR && !err) err = a;
  }
  if (err) return failed_call(ev, n, args, *err, evaluated == n->nargs);
  const cel_overload *o = dispatch(n, args);
  if (!o) { /* cel-go charges the call that found no overload for its values as any other */
    cel_val r = cel_no_overload();
    if (!n->uncharged && n->novs) cel_eval_charge(ev, cel_node_runtime_cost(n, n->ovs[0], args, n->nargs, r));
    return r;
  }
  cel_val r = o->fn(ev, args, n->nargs);
  if (!n->uncharged) cel_eval_charge(ev, cel_node_runtime_cost(n, o, args, n->nargs, r));
  return r;
}

static cel_val eval_logic(cel_eval *ev, const cel_node *n, bool is_and) {
  cel_val a = cel_eval_node(ev, n->args[0]);
  if (a.kind == V_BOOL && a.b != is_and) return a; /* short circuit */
  cel_val b = cel_eval_node(ev, n->args[1]);
  if (b.kind == V_BOOL && b.b != is_and) return b;
  if (a.kind == V_BOOL && b.kind == V_BOOL) return b;
  /* the first term that is not a bool decides the error, as cel-go's evalAnd */
  const cel_val *first = a.kind != V_BOOL ? &a : &b;
  return first->kind == V_ERR ? *first : cel_no_overload();
}

#define EV(name) static cel_val name(cel_eval *ev, const cel_node *n)

EV(ev_and) { return eval_logic(ev, n, true); }
EV(ev_or) { return eval_logic(ev, n, false); }

EV(ev_cond) {
  cel_val c = cel_eval_node(ev, n->args[0]);
  if (c.kind == V_ERR) return c;
  if (c.kind != V_BOOL) return cel_no_overload();
  return cel_eval_node(ev, n->args[c.b ? 1 : 2]);
}

EV(ev_nsf) {
  cel_val c = cel_eval_node(ev, n->args[0]);
  cel_eval_charge(ev, 1);
  return cel_bool(!(c.kind == V_BOOL && !c.b));
}

/* ceil(min(code points of s, c) / 10) without counting when the byte length
 * already decides it (a code point takes 1 to 4 bytes). */
static inline uint64_t eq_cost(const char *s, size_t len, uint32_t c) {
  size_t lo = (len + 3) / 4, hi = len;
  if (lo > c) lo = c;
  if (hi > c) hi = c;
  if ((lo + 9) / 10 == (hi + 9) / 10) return (hi + 9) / 10;
  return (cel_utf8_len_upto(s, len, c) + 9) / 10;
}

EV(ev_eq_string_const) {
  bool const_left = n->args[0]->kind == N_CONST;
  const cel_node *other = n->args[const_left ? 1 : 0];
  const cel_val *k = &n->args[const_left ? 0 : 1]->cval;
  cel_val a = cel_eval_node(ev, other);
  if (a.kind != V_STRING) {
    cel_val args[2] = {const_left ? *k : a, const_left ? a : *k};
    if (a.kind == V_ERR) return failed_call(ev, n, args, a, true);
    cel_val r = n->name[1] == '!' ? cel_not_equals(&args[0], &args[1]) : cel_equals(&args[0], &args[1]);
    cel_eval_charge(ev, cel_node_runtime_cost(n, n->ovs[0], args, 2, r));
    return r;
  }
  cel_eval_charge(ev, eq_cost(a.s, a.len, n->const_cp));
  bool eq = a.len == k->len && !memcmp(a.s, k->s, a.len);
  return cel_bool(n->name[1] == '=' ? eq : !eq);
}

static inline bool bytes_equal(const char *a, const char *b, size_t n) {
  if (n > 16) return !memcmp(a, b, n);
  uint64_t x, y, u, v;
  if (n >= 8) {
    memcpy(&x, a, 8), memcpy(&y, b, 8), memcpy(&u, a + n - 8, 8), memcpy(&v, b + n - 8, 8);
    return ((x ^ y) | (u ^ v)) == 0;
  }
  for (size_t i = 0; i < n; i++)
    if (a[i] != b[i]) return false;
  return true;
}

/* The string attribute a fused comparison reads, or NULL (slow path). */
static inline const cel_str *device_string_attr(const cel_device *d, const cel_node *o) {
  const cel_device_attr *a = device_attr(d, o);
  return a && a->value.kind == CEL_ATTR_STRING ? &a->value.str : NULL;
}

/* device.driver == "lit" and device.attributes["d"].n == "lit" (or !=) in one
 * step: no intermediate values; the costs are those of the unfused nodes.
 * Returns -2 when the attribute is missing or not a string (slow path). */
static inline __attribute__((always_inline)) int device_eq_const(cel_eval *ev, const cel_node *n) {
  const cel_node *o = n->other;
  const cel_val *k = n->const_val;
  const cel_device *d = ev->device;
  const char *s = "";
  size_t len = 0;
  if (o->fast == F_DEVICE_DRIVER) {
    ev->cost += 2;
    if (d->driver) s = d->driver->str, len = d->driver->len;
  } else {
    const cel_str *v = device_string_attr(d, o);
    if (!v) return -2;
    ev->cost += 4;
    s = v->s;
    len = v->len;
  }
  cel_eval_charge(ev, eq_cost(s, len, n->const_cp));
  bool eq = len == k->len && bytes_equal(s, k->s, len);
  return n->name[1] == '=' ? eq : !eq;
}

EV(ev_device_eq_const) {
  int r = device_eq_const(ev, n);
  return r == -2 ? ev_eq_string_const(ev, n) : cel_bool(r);
}

static int test_device_eq_const(cel_eval *ev, const cel_node *n, cel_val *err) {
  int r = device_eq_const(ev, n);
  if (r >= 0) return r;
  *err = ev_eq_string_const(ev, n);
  if (err->kind == V_BOOL) return err->b;
  return -1;
}

/* Any node as a condition: bools as is, errors (-1) kept, other values -3. */
static int test_value(cel_eval *ev, const cel_node *n, cel_val *err) {
  cel_val v = cel_eval_node(ev, n);
  if (v.kind == V_BOOL) return v.b;
  *err = v.kind == V_ERR ? v : cel_no_overload();
  return v.kind == V_ERR ? -1 : -3;
}

static inline int test_child(cel_eval *ev, const cel_node *n, cel_val *err) {
  return n->test ? n->test(ev, n, err) : test_value(ev, n, err);
}

/* "lit" in device.attributes["d"].n and device.attributes["d"].n.includes("lit")
 * over a string list (includes: of at most CEL_INCLUDES_MAX elements) without
 * building values; the costs are those of the unfused nodes (the lookup, then
 * one per element for in, the traversal for includes). Other values take the general path. */
static int test_device_list_has(cel_eval *ev, const cel_node *n, cel_val *err) {
  bool in = n->name[0] == '@';
  const cel_device_attr *a = device_attr(ev->device, n->args[in ? 1 : 0]);
  if (!a || a->value.kind != CEL_ATTR_STRINGS || (!in && a->value.n > CEL_INCLUDES_MAX)) return test_value(ev, n, err);
  const cel_val *k = &n->args[in ? 0 : 1]->cval;
  uint64_t traversal = 0; /* includes(): library/cost.go traversalCost, a tenth of each string's bytes */
  for (uint32_t i = 0; !in && i < a->value.n; i++) traversal += a->value.strs[i].len / 10;
  /* `in` a dyn attribute is checked against several overloads: cel-go's 1 (cel_node_runtime_cost) */
  cel_eval_charge(ev, 4 + (in ? (n->novs > 1 ? 1 : (uint64_t)a->value.n) : traversal));
  for (uint32_t i = 0; i < a->value.n; i++)
    if (a->value.strs[i].len == k->len && bytes_equal(a->value.strs[i].s, k->s, k->len)) return 1;
  return 0;
}

/* && and || with CEL's commutative error absorption. */
static int test_logic(cel_eval *ev, const cel_node *n, cel_val *err) {
  int stop = n->fast == F_AND ? 0 : 1;
  cel_val ea, eb;
  int a = test_child(ev, n->args[0], &ea);
  if (a == stop) return a;
  int b = test_child(ev, n->args[1], &eb);
  if (b == stop) return b;
  /* cel-go's evalAnd/evalOr: the first term that is not a bool decides the
   * error (its own, or no such overload for another value) */
  if (a < 0) return *err = a == -1 ? ea : cel_no_overload(), -1;
  if (b < 0) return *err = b == -1 ? eb : cel_no_overload(), -1;
  return b;
}

int cel_test_fused(const cel_node *n, const cel_device *d) {
  if (n->test == test_logic) {
    int a = cel_test_fused(n->args[0], d);
    if (a == -2 || a == (n->fast == F_OR)) return a; /* no errors to absorb: the left side decides or defers */
    return cel_test_fused(n->args[1], d);
  }
  const cel_node *o = n->other;
  bool eq;
  if (o->fast == F_DEVICE_DRIVER) { /* atoms are unique: a pointer compare */
    eq = d->driver ? d->driver == n->const_atom : n->const_val->len == 0;
  } else {
    const cel_str *v = device_string_attr(d, o);
    if (!v) return -2;
    eq = v->len == n->const_val->len && bytes_equal(v->s, n->const_val->s, v->len);
  }
  return n->name[1] == '=' ? eq : !eq;
}

EV(ev_eq) {
  cel_val a = cel_eval_node(ev, n->args[0]);
  cel_val b = cel_eval_node(ev, n->args[1]);
  cel_val args[2] = {a, b};
  if (a.kind == V_ERR || b.kind == V_ERR) return failed_call(ev, n, args, a.kind == V_ERR ? a : b, true);
  cel_val r = n->fast == F_NE ? cel_not_equals(&a, &b) : cel_equals(&a, &b);
  cel_eval_charge(ev, cel_node_runtime_cost(n, n->ovs[0], args, 2, r));
  return r;
}

/* The key of an index is a qualifier that cel-go observes (1) also when
 * computing it failed (interpreter.go evalWatchAttrQual.Qualify); an
 * optional one only when the entry is there (QualifyIfPresent). */
EV(ev_index) {
  cel_val t = cel_eval_node(ev, n->args[0]);
  cel_eval_charge(ev, n->extra_cost);
  if (t.kind == V_ERR) return t;
  cel_val k = cel_eval_node(ev, n->args[1]);
  if (k.kind == V_ERR) {
    cel_eval_charge(ev, t.kind != V_OPT);
    return k;
  }
  if (t.kind == V_OPT) { /* optional chaining: m[?k][j] (charged when present) */
    if (!t.opt) return t;
    cel_val r = index_value(t.opt, &k);
    if (r.kind == V_ERR) return cel_opt(NULL);
    cel_eval_charge(ev, 1);
    return cel_opt(&r);
  }
  cel_eval_charge(ev, 1);
  return index_value(&t, &k);
}

/* a.?b and m[?k]: cel-go charges the qualifier only when the entry is
 * there (attributes.go, evalWatchConstQual.QualifyIfPresent). */
EV(ev_opt_select) {
  cel_val t = cel_eval_node(ev, n->args[0]);
  cel_eval_charge(ev, n->extra_cost);
  if (t.kind == V_ERR) return t;
  cel_val k = cel_eval_node(ev, n->args[1]);
  if (k.kind == V_ERR) return k;
  if (t.kind == V_OPT) {
    if (!t.opt) return t;
    t = *t.opt;
  }
  cel_val out;
  if (t.kind == V_MAP && n->fast == F_OPT_SELECT && k.kind == V_STRING && t.store == MS_DEV_DOMAINS) {
    cel_map_find(&t, &k, &out);
    cel_eval_charge(ev, 1);
    return cel_opt(&out);
  }
  if (t.kind == V_MAP) {
    if (!cel_map_find(&t, &k, &out)) return cel_opt(NULL);
    cel_eval_charge(ev, 1);
    return cel_opt(&out);
  }
  if (t.kind == V_LIST && n->fast == F_OPT_INDEX) {
    cel_val r = index_value(&t, &k);
    if (r.kind == V_ERR && r.s[0] == 'i') return cel_opt(NULL);
    if (r.kind == V_ERR) return r;
    cel_eval_charge(ev, 1);
    return cel_opt(&r);
  }
  /* as for a.?b.c above: a list refuses a field name, anything else without
   * entries has none */
  if (t.kind == V_LIST) return select_field(&t, k.s, k.len);
  return cel_opt(NULL);
}

/* or() and orValue() on an optional: cel-go plans them as non-calls that
 * charge nothing and evaluate the alternative only when the optional is
 * empty (cel/library.go decorateOptionalOr). */
EV(ev_opt_or) {
  cel_val t = cel_eval_node(ev, n->args[0]);
  if (t.kind == V_ERR) return t;
  if (t.kind != V_OPT) return cel_no_overload();
  if (t.opt) return n->name[2] == 'V' ? *t.opt : t; /* "orValue" or "or" */
  return cel_eval_node(ev, n->args[1]);
}

EV(ev_const) {
  cel_eval_charge(ev, n->extra_cost);
  return n->cval;
}

EV(ev_ident) {
  cel_eval_charge(ev, !n->base_free);
  if (n->slot < 0 && n->slot2 < 0) return cel_err("no such attribute(s): %s", n->name);
  return n->slot >= 0 ? ev->slots[n->slot] : ev->globals[n->slot2];
}

/* The evaluation function of a planned node. */
static cel_evalfn eval_fn(const cel_node *n) {
  switch (n->fast) {
  case F_DEVICE_DRIVER:
  case F_DEVICE_MULTI:
  case F_DEVICE_ATTR:
  case F_DEVICE_CAP: return eval_device_fast;
  case F_AND: return ev_and;
  case F_OR: return ev_or;
  case F_COND: return ev_cond;
  case F_NSF: return ev_nsf;
  case F_EQ_STRING_CONST:
    return n->other->fast == F_DEVICE_DRIVER || n->other->fast == F_DEVICE_ATTR ? ev_device_eq_const : ev_eq_string_const;
  case F_EQ:
  case F_NE: return ev_eq;
  case F_INDEX: return ev_index;
  case F_OPT_OR: return ev_opt_or;
  case F_OPT_SELECT:
  case F_OPT_INDEX: return ev_opt_select;
  default: break;
  }
  switch ((cel_nkind)n->kind) {
  case N_CONST: return ev_const;
  case N_IDENT: return ev_ident;
  case N_SELECT: return eval_select;
  case N_CALL: return eval_call;
  case N_COMPR: return eval_compr;
  default: return eval_aggregate;
  }
}

cel_val cel_index(const cel_val *t, const cel_val *k) { return index_value(t, k); }

/* ---- planning: special forms, constant aggregates, device fast paths ---- */

static bool is_device(const cel_node *n) { return n->kind == N_IDENT && n->slot < 0 && n->slot2 == 0; }

static bool const_string(const cel_node *n) { return n->kind == N_CONST && n->cval.kind == V_STRING; }

/* device.attributes["d"] / device.capacity["d"]: which map, or -1. */
static int device_domain(arena *mem, const cel_node *n, const atom **domain) {
  if (n->kind != N_CALL || n->fast != F_INDEX || n->nargs != 2) return -1;
  const cel_node *m = n->args[0], *k = n->args[1];
  if (m->kind != N_SELECT || m->test_only || !is_device(m->target) || !const_string(k)) return -1;
  int which = !strcmp(m->name, "attributes") ? 0 : !strcmp(m->name, "capacity") ? 1 : -1;
  if (which >= 0) *domain = atom_intern_in(mem, k->cval.s, k->cval.len);
  return which;
}

/* "lit" in device.attributes["d"].n or device.attributes["d"].n.includes("lit"),
 * with the list overload among the candidates. */
static bool is_device_list_has(const cel_node *n) {
  if (n->kind != N_CALL || n->nargs != 2) return false;
  bool in = !strcmp(n->name, "@in"), includes = n->member && !strcmp(n->name, "includes");
  const cel_node *list = n->args[in ? 1 : 0], *lit = n->args[in ? 0 : 1];
  if (!(in || includes) || !const_string(lit) || list->fast != F_DEVICE_ATTR) return false;
  for (uint32_t i = 0; i < n->novs; i++)
    if (n->ovs[i]->cost == (in ? K_IN_LIST : K_INCLUDES)) return true;
  return false;
}

/* The atoms a plan names are held by the program's arena mem. */
static void plan_fast(arena *mem, cel_node *n, bool device_env) {
  if (!device_env) return;
  if (n->kind == N_SELECT && !n->test_only && is_device(n->target)) {
    if (!strcmp(n->name, "driver")) n->fast = F_DEVICE_DRIVER;
    if (!strcmp(n->name, "allowMultipleAllocations")) n->fast = F_DEVICE_MULTI;
    return;
  }
  const cel_node *inner = NULL;
  const char *name = NULL;
  size_t nlen = 0;
  if (n->kind == N_SELECT && !n->test_only) {
    inner = n->target;
    name = n->name;
    nlen = strlen(name);
  } else if (n->kind == N_CALL && n->fast == F_INDEX && const_string(n->args[1])) {
    inner = n->args[0];
    name = n->args[1]->cval.s;
    nlen = n->args[1]->cval.len;
  }
  const atom *dom;
  int which = inner ? device_domain(mem, inner, &dom) : -1;
  if (which < 0) return;
  n->fast = which ? F_DEVICE_CAP : F_DEVICE_ATTR;
  n->fast_domain = dom;
  n->fast_name = atom_intern_in(mem, name, nlen);
}

/* `x in [constants]`: cel-go's OptOptimize plans it as a set lookup that
 * charges no cost when the constants are all bool, int, uint, double or
 * string (decorators.go maybeOptimizeSetMembership), and as false, without
 * evaluating x, when the list is empty. */
static void plan_in_constant(cel_node *n) {
  const cel_node *l = n->args[1];
  if (n->nargs != 2 || l->kind != N_CONST || l->cval.kind != V_LIST) return;
  if (!l->cval.len) {
    n->kind = N_CONST;
    n->fast = F_NONE;
    n->cval = cel_bool(false);
    return;
  }
  for (uint32_t i = 0; i < l->cval.len; i++) {
    cel_vkind k = cel_list_at(&l->cval, i).kind;
    if (k != V_BOOL && k != V_INT && k != V_UINT && k != V_DOUBLE && k != V_STRING) return;
  }
  n->uncharged = true;
}

/* Whether cel-go plans n as an attribute (a variable, a select or index on
 * one, a conditional) to which a select or index adds a qualifier. */
static bool is_attribute(const cel_node *n) {
  if (n->kind == N_IDENT || (n->kind == N_SELECT && !n->test_only)) return true;
  return n->kind == N_CALL && (!strcmp(n->name, "_[_]") || !strcmp(n->name, "_[?_]") || !strcmp(n->name, "_?._") ||
                               !strcmp(n->name, "_?_:_"));
}

/* A select or index on anything else starts a relative attribute, which
 * cel-go charges 1 for (runtimecost.go, InterpretableAttribute). */
static bool starts_relative_attribute(const cel_node *n) {
  if (n->kind == N_SELECT) return !is_attribute(n->target); /* has() on a value too */
  return n->kind == N_CALL && n->nargs == 2 &&
         (!strcmp(n->name, "_[_]") || !strcmp(n->name, "_[?_]") || !strcmp(n->name, "_?._")) && !is_attribute(n->args[0]);
}

/* A branch of a conditional, or an index's key, that is an attribute:
 * cel-go resolves it through the conditional attribute or as a qualifier,
 * which charges its qualifiers but not the attribute itself
 * (runtimecost.go: a ternary has no direct cost), so the 1 of the chain's
 * root goes. */
static void mark_base_free(cel_node *n) {
  for (;;) {
    if (!is_attribute(n) || !strcmp(n->kind == N_CALL ? n->name : "", "_?_:_")) return;
    n->base_free = true;
    if (starts_relative_attribute(n)) {
      n->extra_cost = 0;
      return;
    }
    if (n->kind == N_IDENT) return;
    n = n->kind == N_SELECT ? n->target : n->args[0];
  }
}

/* The functions cel-go's standard library binds once for all their
 * overloads (common/stdlib/standard.go, decls.Singleton*Binding): a call of
 * them is evalUnary/evalBinary whatever its candidate overloads. */
static bool singleton_bound(const char *name) {
  static const char *const names[] = {"_+_", "_-_", "_*_", "_/_", "_%_", "-_",    "!_",   "_<_",   "_<=_",
                                      "_>_", "_>=_", "@in", "size", "type", "dyn", "matches"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (!strcmp(name, names[i])) return true;
  return false;
}

/* Whether cel-go plans the call n as evalVarArgs, which evaluates its
 * arguments in order and stops at the first error: a call of more than two
 * arguments, or one checked against several overloads of a function bound
 * per overload, which the planner gives the function's dynamic dispatch, a
 * FunctionOp only (interpreter/planner.go planCall, common/decls
 * FunctionDecl.Bindings). Other unary and binary calls are
 * evalUnary/evalBinary, which evaluate every argument first. */
static bool stops_at_error(const cel_node *n) {
  return n->nargs > 2 || (n->novs > 1 && !singleton_bound(n->name));
}

static void plan(cel_ast *ast, cel_node *n, bool device_env) {
  if (!n) return;
  switch ((cel_nkind)n->kind) {
  case N_SELECT: plan(ast, n->target, device_env); break;
  case N_CALL:
    for (uint32_t i = 0; i < n->nargs; i++) plan(ast, n->args[i], device_env);
    n->fast = F_CALL;
    n->stops_at_error = stops_at_error(n);
    if (!strcmp(n->name, "_&&_")) n->fast = F_AND;
    else if (!strcmp(n->name, "_||_")) n->fast = F_OR;
    else if (!strcmp(n->name, "_?_:_")) {
      n->fast = F_COND;
      if (n->nargs == 3) mark_base_free(n->args[1]), mark_base_free(n->args[2]);
    }
    else if (!strcmp(n->name, "@not_strictly_false")) n->fast = F_NSF;
    else if (!strcmp(n->name, "_?._")) n->fast = F_OPT_SELECT;
    else if (!strcmp(n->name, "_[_]")) n->fast = F_INDEX;
    else if (!strcmp(n->name, "_[?_]")) n->fast = F_OPT_INDEX;
    else if (!strcmp(n->name, "_==_") && n->novs) n->fast = F_EQ;
    else if (!strcmp(n->name, "_!=_") && n->novs) n->fast = F_NE;
    else if (!strcmp(n->name, "@in")) plan_in_constant(n);
    else if (n->member && n->nargs == 2 && n->novs == 1 &&
             (!strcmp(n->ovs[0]->id, "optional_or_optional") || !strcmp(n->ovs[0]->id, "optional_orValue_value")))
      n->fast = F_OPT_OR;
    if (n->kind == N_CONST) break; /* `in` an empty constant list */
    /* an attribute as an index's key is resolved as a qualifier, without its base cost */
    if ((n->fast == F_INDEX || n->fast == F_OPT_INDEX) && n->nargs == 2) mark_base_free(n->args[1]);
    if ((n->fast == F_EQ || n->fast == F_NE) && (const_string(n->args[0]) || const_string(n->args[1]))) {
      const cel_val *k = const_string(n->args[0]) ? &n->args[0]->cval : &n->args[1]->cval;
      n->const_cp = (uint32_t)cel_utf8_len(k->s, k->len);
      n->const_val = k;
      n->other = n->args[const_string(n->args[0]) ? 1 : 0];
      n->fast = F_EQ_STRING_CONST;
    }
    break;
  case N_LIST:
  case N_MAP: {
    uint32_t total = n->kind == N_MAP ? 2 * n->nargs : n->nargs;
    for (uint32_t i = 0; i < total; i++) plan(ast, n->args[i], device_env);
    break;
  }
  case N_COMPR:
    plan(ast, n->range, device_env);
    plan(ast, n->init, device_env);
    plan(ast, n->cond, device_env);
    plan(ast, n->step, device_env);
    plan(ast, n->result, device_env);
    break;
  default: break;
  }
  if (starts_relative_attribute(n)) n->extra_cost = 1;
  plan_fast(ast->mem, n, device_env);
  n->eval = eval_fn(n);
  if (n->fast == F_AND || n->fast == F_OR) {
    n->test = test_logic;
    n->fused = n->args[0]->fused && n->args[1]->fused;
    n->max_cost = cel_sat_add(n->args[0]->max_cost, n->args[1]->max_cost);
  }
  if (n->eval == ev_device_eq_const) {
    n->test = test_device_eq_const;
    n->fused = true;
    /* the unfused costs: the device read, then the comparison (eq_cost <= this) */
    n->max_cost = (n->other->fast == F_DEVICE_DRIVER ? 2 : 4) + (n->const_cp + 9) / 10;
    n->const_atom = atom_intern_in(ast->mem, n->const_val->s, n->const_val->len);
  }
  if (is_device_list_has(n)) {
    n->test = test_device_list_has;
    n->fused = true;
    n->max_cost = UINT64_MAX; /* grows with the list: never run uncounted (cel_compile_env) */
  }
}



void cel_plan(cel_ast *ast, bool device) { plan(ast, ast->root, device); }
