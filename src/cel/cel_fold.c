/* cel_fold.c: constant folding done when a program is built, as cel-go's
 * planner does it with OptOptimize (interpreter/decorators.go decOptimize),
 * bottom up: list and map literals of constants, and type conversions
 * (dyn() and type() included) of constants, become constants that cost
 * nothing at run time; a failed conversion is cel-go's "program
 * instantiation failed", as is a constant index cel-go cannot qualify by.
 * Also semver()/quantity() of literals, so hot selectors do not re-parse the
 * same version or quantity per device; cel-go evaluates those, so they keep
 * their runtime cost (extra_cost). */
#include "cel/cel_internal.h"
#include <string.h>

static const char *const conversions[] = {
    "int64_to_int64", "uint64_to_int64", "double_to_int64", "string_to_int64", "uint64_to_uint64",
    "int64_to_uint64", "double_to_uint64", "string_to_uint64", "double_to_double", "int64_to_double",
    "uint64_to_double", "string_to_double", "string_to_string", "int64_to_string", "uint64_to_string",
    "double_to_string", "bool_to_string", "bytes_to_string", "bytes_to_bytes", "string_to_bytes", "bool_to_bool",
    "string_to_bool", "string_to_timestamp", "string_to_duration", "int64_to_timestamp", "to_dyn", "type", NULL};
static const char *const parsers[] = {"string_to_semver", "string_bool_to_semver", "string_to_quantity", NULL};

static bool listed(const char *id, const char *const *ids) {
  for (; *ids; ids++)
    if (!strcmp(*ids, id)) return true;
  return false;
}

/* Copies a scalar result out of the evaluation scratch into the program. */
static bool persist(arena *a, cel_val *v) {
  switch (v->kind) {
  case V_STRING:
  case V_BYTES: v->s = arena_strndup(a, v->s, v->len); return true;
  case V_SEMVER: {
    semver *s = arena_alloc(a, sizeof *s);
    memcpy(s, v->p, sizeof *s);
    v->p = s;
    return true;
  }
  case V_QUANTITY: {
    quantity *q = arena_alloc(a, sizeof *q);
    memcpy(q, v->q, sizeof *q);
    v->q = q;
    return true;
  }
  case V_INT:
  case V_UINT:
  case V_DOUBLE:
  case V_BOOL:
  case V_DURATION:
  case V_TIMESTAMP:
  case V_TYPE: return true;
  default: return false;
  }
}

/* A map literal of constants folds when its keys are distinct strings,
 * ints, uints or bools (other keys and repeats are left to the evaluator). */
static bool foldable_map(const cel_node *n) {
  for (uint32_t i = 0; i < n->nargs; i++) {
    const cel_val *k = &n->args[2 * i]->cval;
    if (k->kind != V_STRING && k->kind != V_INT && k->kind != V_UINT && k->kind != V_BOOL) return false;
    for (uint32_t j = 0; j < i; j++)
      if (n->args[2 * j]->cval.kind == k->kind && cel_equal_bool(&n->args[2 * j]->cval, k)) return false;
  }
  return true;
}

/* A list or map literal of constants (no optional entries) becomes one. */
static void fold_aggregate(cel_ast *ast, cel_node *n) {
  bool list = n->kind == N_LIST;
  if (n->optional || (!list && !foldable_map(n))) return;
  uint32_t total = list ? n->nargs : 2 * n->nargs;
  cel_val *items = arena_calloc(ast->mem, total + 1, sizeof *items);
  for (uint32_t i = 0; i < total; i++) items[i] = n->args[i]->cval;
  n->cval = list ? cel_list(items, n->nargs) : cel_map(items, n->nargs);
  n->kind = N_CONST;
}

static bool fold(cel_ast *ast, cel_node *n, strbuf *err) {
  switch ((cel_nkind)n->kind) {
  case N_SELECT: return fold(ast, n->target, err);
  case N_LIST:
  case N_MAP:
  case N_CALL: {
    uint32_t total = n->kind == N_MAP ? 2 * n->nargs : n->nargs;
    bool all_const = true;
    for (uint32_t i = 0; i < total; i++) {
      if (!fold(ast, n->args[i], err)) return false;
      all_const &= n->args[i]->kind == N_CONST;
    }
    if (n->kind == N_CALL && n->nargs == 2 && (!strcmp(n->name, "_[_]") || !strcmp(n->name, "_[?_]"))) {
      /* cel-go turns a constant index (also under dyn(), which OptOptimize
       * folds) into an attribute qualifier when it plans the program
       * (interpreter/attributes.go newQualifier), and refuses kinds it
       * cannot qualify by */
      const cel_node *k = n->args[1];
      if (k->kind == N_CALL && k->nargs == 1 && k->novs == 1 && !strcmp(k->ovs[0]->id, "to_dyn")) k = k->args[0];
      if (k->kind == N_CONST && k->cval.kind != V_INT && k->cval.kind != V_UINT && k->cval.kind != V_DOUBLE &&
          k->cval.kind != V_STRING && k->cval.kind != V_BOOL) {
        sb_printf(err, "program instantiation failed: invalid qualifier type: %s", cel_val_go_type(&k->cval));
        return false;
      }
    }
    if (n->kind != N_CALL && all_const) fold_aggregate(ast, n);
    if (n->kind != N_CALL || !all_const || n->novs != 1 || total > 4) return true;
    const cel_overload *o = n->ovs[0];
    bool conv = listed(o->id, conversions);
    if (!conv && !listed(o->id, parsers)) return true;
    cel_val args[4];
    for (uint32_t i = 0; i < total; i++) args[i] = n->args[i]->cval;
    cel_eval ev = {.cost_limit = UINT64_MAX};
    cel_scratch_reset();
    cel_val r = o->fn(&ev, args, total);
    if (!strcmp(o->id, "to_dyn")) { /* the argument itself, lists and maps included */
      n->kind = N_CONST;
      n->cval = args[0];
      return true;
    }
    if (r.kind == V_ERR) {
      if (!conv) return true; /* a bad literal version stays a runtime error, as in Kubernetes */
      sb_printf(err, "program instantiation failed: %.*s", (int)r.len, r.s);
      return false;
    }
    if (!persist(ast->mem, &r)) return true;
    if (!conv) n->extra_cost = cel_call_runtime_cost(o, args, total, r);
    n->kind = N_CONST;
    n->cval = r;
    return true;
  }
  case N_COMPR:
    return fold(ast, n->range, err) && fold(ast, n->init, err) && fold(ast, n->cond, err) &&
           fold(ast, n->step, err) && fold(ast, n->result, err);
  default: return true;
  }
}

bool cel_fold(cel_ast *ast, strbuf *err) {
  bool ok = fold(ast, ast->root, err);
  cel_scratch_reset();
  return ok;
}
