/* cel_cost.c: cost model. The static estimate reproduces cel-go's checker
 * cost estimator with Kubernetes' library estimator and DRA's size bounds
 * for values reached through `device`; the runtime side prices each call
 * with actual sizes. Arithmetic saturates at 2^64-1. */
#include "cel/cel_internal.h"
#include <math.h>
#include <string.h>

#define UNKNOWN UINT64_MAX

uint64_t cel_sat_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }
uint64_t cel_sat_mul(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}
uint64_t cel_cost_factor(uint64_t size, uint64_t num, uint64_t den) {
  uint64_t m;
  if (__builtin_mul_overflow(size, num, &m)) return UINT64_MAX;
  return m / den + (m % den != 0);
}

typedef struct {
  uint64_t min, max;
} range;

static range radd(range a, range b) { return (range){cel_sat_add(a.min, b.min), cel_sat_add(a.max, b.max)}; }
static range rfactor(range a, uint64_t num, uint64_t den) {
  return (range){cel_cost_factor(a.min, num, den), cel_cost_factor(a.max, num, den)};
}
static range rmul(range a, range b) { return (range){cel_sat_mul(a.min, b.min), cel_sat_mul(a.max, b.max)}; }
static range runion(range a, range b) { return (range){a.min < b.min ? a.min : b.min, a.max > b.max ? a.max : b.max}; }
static const range R_ONE = {1, 1}, R_ZERO = {0, 0}, R_UNKNOWN = {0, UNKNOWN};

/* Field path of a node through `device` (cel-go's Path()), as DRA size bounds
 * need it: device, field names, @items, @keys, @values. */
#define PATH_MAX_LEN 8
typedef struct {
  uint8_t len;
  const char *seg[PATH_MAX_LEN];
} path;

typedef struct {
  cel_ast *ast;
  path *paths;      /* by node id */
  range *sizes;     /* computed result sizes by node id */
  bool *has_size;
  const cel_node **iter_range; /* by variable slot: the range node */
  bool *iter_is_range_key;
  uint32_t n;
} coster;

static void set_path(coster *c, const cel_node *n, const path *p, const char *seg) {
  if (n->id >= c->n || p->len == 0 || p->len >= PATH_MAX_LEN) return;
  path *d = &c->paths[n->id];
  *d = *p;
  if (seg) d->seg[d->len++] = seg;
}

/* DRA's size estimator over the declared device type. */
typedef enum { D_DEVICE, D_DRIVER, D_MULTI, D_OUTER, D_INNER_ATTR, D_INNER_CAP, D_ATTR, D_DOMAIN, D_ID, D_QTY, D_NONE } dnode;

static range dra_size(const path *p) {
  if (p->len == 0 || strcmp(p->seg[0], "device")) return (range){0, 0};
  dnode cur = D_DEVICE;
  bool caps = false;
  for (int i = 1; i < p->len; i++) {
    const char *s = p->seg[i];
    bool items = !strcmp(s, "@items") || !strcmp(s, "@values"), keys = !strcmp(s, "@keys");
    switch (cur) {
    case D_DEVICE:
      if (items || keys) return (range){0, 0};
      if (!strcmp(s, "driver")) cur = D_DRIVER;
      else if (!strcmp(s, "allowMultipleAllocations")) cur = D_MULTI;
      else if (!strcmp(s, "attributes")) cur = D_OUTER;
      else if (!strcmp(s, "capacity")) cur = D_OUTER, caps = true;
      else return (range){0, 0};
      break;
    case D_OUTER:
      if (keys) cur = D_DOMAIN;
      else if (items) cur = caps ? D_INNER_CAP : D_INNER_ATTR;
      else return (range){0, 0};
      break;
    case D_INNER_ATTR:
    case D_INNER_CAP:
      if (keys) cur = D_ID;
      else if (items || cur == D_INNER_ATTR) cur = cur == D_INNER_ATTR ? D_ATTR : D_QTY;
      else return (range){0, 0};
      break;
    default: return (range){0, 0};
    }
  }
  switch (cur) {
  case D_DRIVER: return (range){0, 63};
  case D_MULTI: return (range){0, 1};
  case D_OUTER:
  case D_INNER_ATTR:
  case D_INNER_CAP: return (range){0, 32};
  case D_ATTR: return (range){0, 64};
  case D_DOMAIN: return (range){0, 63};
  case D_ID: return (range){0, 32};
  default: return (range){0, 0};
  }
}

static bool is_scalar(const cel_type *t) {
  switch (t->kind) {
  case TY_OPT: return is_scalar(t->p[0]);
  case TY_BOOL:
  case TY_DOUBLE:
  case TY_DURATION:
  case TY_INT:
  case TY_TIMESTAMP:
  case TY_UINT: return true;
  default: return false;
  }
}

static range size_of(coster *c, const cel_node *n) {
  if (n->id < c->n && c->has_size[n->id]) return c->sizes[n->id];
  if (n->kind == N_CONST) {
    const cel_val *v = &n->cval;
    switch (v->kind) {
    case V_STRING: { uint64_t s = cel_utf8_len(v->s, v->len); return (range){s, s}; }
    case V_BYTES: return (range){v->len, v->len};
    case V_BOOL: case V_DOUBLE: case V_INT: case V_UINT: case V_NULL: case V_DURATION: case V_TIMESTAMP: return R_ONE;
    default: break;
    }
  }
  if (n->kind == N_LIST || n->kind == N_MAP) return (range){n->nargs, n->nargs};
  if (n->id < c->n && c->paths[n->id].len) {
    range r = dra_size(&c->paths[n->id]);
    if (r.max) return r;
  }
  if (is_scalar(n->type)) return R_ONE;
  return R_UNKNOWN;
}

static void set_size(coster *c, const cel_node *n, range r) {
  if (n->id >= c->n) return;
  c->sizes[n->id] = r;
  c->has_size[n->id] = true;
}

static range cost(coster *c, const cel_node *n);

static bool opaque_eq(const cel_type *t) {
  return t == &cel_t_semver || t == &cel_t_quantity || t == &cel_t_ip || t == &cel_t_cidr ||
         (t->kind == TY_OPAQUE && (!strcmp(t->name, "kubernetes.Semver") || !strcmp(t->name, "kubernetes.Quantity") ||
                                   !strcmp(t->name, "net.IP") || !strcmp(t->name, "net.CIDR")));
}

/* The function cost of one overload (argument costs added by the caller). */
static range function_cost(coster *c, const cel_node *n, const cel_overload *o, range *result_size, bool *have_size) {
  const cel_node *t = n->nargs ? n->args[0] : NULL;
  const cel_node *arg1 = n->nargs > 1 ? n->args[1] : NULL;
  *have_size = false;
  switch (o->cost) {
  case K_INCLUDES: return (range){0, 48};
  case K_SEM_PARSE:
  case K_TARGET_TRAVERSE: {
    range s = size_of(c, t);
    if (o->cost == K_TARGET_TRAVERSE && strstr(o->sig, "-> string")) {
      *result_size = s;
      *have_size = true;
    }
    return rfactor(s, 1, 10);
  }
  case K_IP_CANON: {
    range s = rfactor(size_of(c, t), 1, 10);
    return radd(s, s);
  }
  case K_TARGET_02: {
    range s = size_of(c, t);
    if (!strcmp(o->name, "split")) {
      uint64_t max = s.max;
      if (n->nargs > 2 && n->args[2]->kind == N_CONST && n->args[2]->cval.kind == V_INT) max = (uint64_t)n->args[2]->cval.i;
      *result_size = (range){0, max};
      *have_size = true;
    }
    return rfactor(s, 2, 10);
  }
  case K_LIST_TRAVERSE: {
    range s = size_of(c, t);
    const cel_type *et = t->type->kind == TY_LIST ? t->type->p[0] : &cel_t_dyn;
    range per = R_ONE;
    if (et->kind == TY_STRING || et->kind == TY_BYTES) per = radd(R_ONE, rfactor(R_UNKNOWN, 1, 10));
    return rmul(s, per);
  }
  case K_FIND:
  case K_MATCHES: {
    range str = rfactor(radd(size_of(c, t), R_ONE), 1, 10);
    range re = rfactor(size_of(c, arg1), 1, 4);
    return rmul(str, re);
  }
  case K_CONTAINS: return rmul(rfactor(size_of(c, t), 1, 10), rfactor(size_of(c, arg1), 1, 10));
  case K_ARG_TRAVERSE: return rfactor(size_of(c, arg1), 1, 10);
  case K_CONV_STR:
  case K_QUOTE:
  case K_FORMAT: {
    range s = size_of(c, t);
    *result_size = o->cost == K_QUOTE ? (range){cel_sat_add(s.min, 2), cel_sat_add(cel_sat_mul(s.max, 2), 2)} : s;
    *have_size = o->cost != K_FORMAT;
    return rfactor(s, 1, 10);
  }
  case K_JOIN: return rfactor(R_UNKNOWN, 1, 10);
  case K_IN_LIST: return size_of(c, arg1);
  case K_ADD_STR:
  case K_ADD_LIST: {
    range s = radd(size_of(c, t), size_of(c, arg1));
    *result_size = s;
    *have_size = true;
    return o->cost == K_ADD_LIST ? R_ONE : rfactor(s, 1, 10);
  }
  case K_EQ:
  case K_STR_ORDER: {
    if (o->cost == K_EQ && (opaque_eq(t->type) || opaque_eq(arg1->type))) return R_ONE;
    range l = size_of(c, t), r = size_of(c, arg1);
    uint64_t smallest = l.max < r.max ? l.max : r.max;
    return rfactor((range){smallest > 0, smallest}, 1, 10);
  }
  default: return R_ONE;
  }
}

static range cost_call(coster *c, const cel_node *n) {
  range *args = arena_calloc(c->ast->mem, n->nargs + 1, sizeof *args);
  range sum = R_ZERO;
  for (uint32_t i = 0; i < n->nargs; i++) {
    args[i] = cost(c, n->args[i]);
    if (i == 0 && n->member) sum = args[0];
  }
  range argsum = R_ZERO;
  for (uint32_t i = n->member ? 1 : 0; i < n->nargs; i++) argsum = radd(argsum, args[i]);
  if (!strcmp(n->name, "_&&_") || !strcmp(n->name, "_||_")) return (range){args[0].min, radd(args[0], args[1]).max};
  if (!strcmp(n->name, "_?_:_")) {
    set_size(c, n, runion(size_of(c, n->args[1]), size_of(c, n->args[2])));
    return radd(args[0], runion(args[1], args[2]));
  }
  range fn = {UINT64_MAX, 0}, rsize = {0, 0};
  bool any_size = false;
  for (uint32_t k = 0; k < n->novs; k++) {
    const cel_overload *o = n->ovs[k];
    range s;
    bool hs;
    range f = radd(function_cost(c, n, o, &s, &hs), argsum);
    fn = runion(fn, f);
    if (hs) {
      rsize = any_size ? runion(rsize, s) : s;
      any_size = true;
    }
    if (!strcmp(o->id, "index_list") && n->id < c->n) set_path(c, n, &c->paths[n->args[0]->id], "@items");
    if (!strcmp(o->id, "index_map") && n->id < c->n) set_path(c, n, &c->paths[n->args[0]->id], "@values");
  }
  if (!n->novs) fn = radd(R_ONE, argsum);
  if (any_size) set_size(c, n, rsize);
  return radd(sum, fn);
}

static range cost(coster *c, const cel_node *n) {
  switch ((cel_nkind)n->kind) {
  case N_CONST: return R_ZERO;
  case N_IDENT: {
    if (n->slot >= 0 && c->iter_range[n->slot]) {
      const cel_node *r = c->iter_range[n->slot];
      bool list = r->type->kind == TY_LIST;
      set_path(c, n, &c->paths[r->id], list ? "@items" : (c->iter_is_range_key[n->slot] ? "@keys" : "@values"));
    } else if (n->slot < 0) {
      path p = {.len = 1, .seg = {n->name}};
      set_path(c, n, &p, NULL);
    }
    return R_ONE;
  }
  case N_SELECT: {
    range r = cost(c, n->target);
    if (n->test_only) return r;
    cel_tkind k = n->target->type->kind;
    if (k == TY_MAP || k == TY_OBJECT || k == TY_PARAM) r = radd(r, R_ONE);
    set_path(c, n, &c->paths[n->target->id], n->name);
    return r;
  }
  case N_CALL: return cost_call(c, n);
  case N_LIST:
  case N_MAP: {
    range r = {n->kind == N_LIST ? 10 : 30, n->kind == N_LIST ? 10 : 30};
    uint32_t total = n->kind == N_MAP ? 2 * n->nargs : n->nargs;
    for (uint32_t i = 0; i < total; i++) r = radd(r, cost(c, n->args[i]));
    return r;
  }
  case N_STRUCT: return (range){40, 40};
  case N_COMPR: {
    range sum = radd(cost(c, n->range), cost(c, n->init));
    if (n->slot >= 0) {
      c->iter_range[n->slot] = n->range;
      c->iter_is_range_key[n->slot] = true;
    }
    if (n->iter_var2 && n->slot2 >= 0) {
      c->iter_range[n->slot2] = n->range;
      c->iter_is_range_key[n->slot2] = false;
      if (n->range->type->kind == TY_LIST) c->iter_range[n->slot] = NULL; /* index */
    }
    range loop = cost(c, n->cond), step = cost(c, n->step);
    sum = radd(sum, cost(c, n->result));
    range cnt = size_of(c, n->range);
    set_size(c, n, cnt);
    return radd(sum, rmul(cnt, radd(step, loop)));
  }
  }
  return R_ZERO;
}

uint64_t cel_estimate(cel_ast *ast) {
  coster c = {.ast = ast, .n = ast->next_id + 1};
  c.paths = arena_calloc(ast->mem, c.n, sizeof *c.paths);
  c.sizes = arena_calloc(ast->mem, c.n, sizeof *c.sizes);
  c.has_size = arena_calloc(ast->mem, c.n, sizeof *c.has_size);
  c.iter_range = arena_calloc(ast->mem, ast->nslots + 1, sizeof *c.iter_range);
  c.iter_is_range_key = arena_calloc(ast->mem, ast->nslots + 1, sizeof *c.iter_is_range_key);
  return cost(&c, ast->root).max;
}

/* ---- runtime ---- */

static uint64_t rsize(const cel_val *v) { return cel_val_size(v); }

uint64_t cel_call_runtime_cost(const cel_overload *o, const cel_val *a, uint32_t n, cel_val result) {
  switch (o->cost) {
  case K_LOGIC:
  case K_COND: return 0;
  case K_EQ:
  case K_STR_ORDER: {
    if (a[0].kind == V_SEMVER || a[0].kind == V_QUANTITY || a[0].kind == V_IP || a[0].kind == V_CIDR) return 1;
    if (a[0].kind == V_STRING && a[1].kind == V_STRING) {
      size_t l = cel_utf8_len_upto(a[0].s, a[0].len, SIZE_MAX);
      return cel_cost_factor(cel_utf8_len_upto(a[1].s, a[1].len, l), 1, 10);
    }
    uint64_t l = rsize(&a[0]), r = rsize(&a[1]);
    return cel_cost_factor(l < r ? l : r, 1, 10);
  }
  case K_IN_LIST: return a[1].kind == V_LIST ? a[1].len : 1;
  case K_FIND:
  case K_MATCHES: return cel_sat_mul(cel_cost_factor(rsize(&a[0]) + 1, 1, 10), cel_cost_factor(rsize(&a[1]), 1, 4));
  case K_CONTAINS: return cel_sat_mul(cel_cost_factor(rsize(&a[0]), 1, 10), cel_cost_factor(rsize(&a[1]), 1, 10));
  case K_ARG_TRAVERSE: return n > 1 ? cel_cost_factor(rsize(&a[1]), 1, 10) : 1;
  case K_ADD_STR: return cel_cost_factor(rsize(&a[0]) + rsize(&a[1]), 1, 10);
  case K_CONV_STR:
  case K_QUOTE:
  case K_FORMAT:
  case K_SEM_PARSE: return cel_cost_factor(rsize(&a[0]), 1, 10);
  case K_TARGET_TRAVERSE:
    if (a[0].kind == V_STRING && strstr(o->name, "ndexOf")) return a[0].len / 10;
    return cel_cost_factor(rsize(&a[0]), 1, 10);
  case K_IP_CANON: return 2 * cel_cost_factor(rsize(&a[0]), 1, 10);
  case K_TARGET_02: return cel_cost_factor(rsize(&a[0]), 2, 10);
  case K_JOIN: return result.kind == V_STRING ? cel_cost_factor(result.len, 2, 10) : 1;
  case K_LIST_TRAVERSE: {
    uint64_t c = 0;
    for (size_t i = 0; i < a[0].len; i++) {
      cel_val e = cel_list_at(&a[0], i);
      c += (e.kind == V_STRING || e.kind == V_BYTES) ? e.len / 10 : 1;
    }
    return c;
  }
  default: return 1;
  }
}
