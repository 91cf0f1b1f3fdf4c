/* cel_check.c: the type checker. Resolves identifiers to variable slots,
 * types every node with cel-go's assignability and type-parameter
 * substitution, picks the candidate overloads of every call, and reports
 * cel-go's error texts. With checking off it only resolves names. */
#include "cel/cel_internal.h"
#include "util/utf8.h"
#include <string.h>

#define MAX_SCOPE 512

typedef struct {
  const char *name;
  int slot;
  const cel_type *type;
} scoped;

typedef struct {
  cel_ast *ast;
  const cel_env_cfg *env;
  arena *a;
  const cel_type **subst; /* type variable bindings, grown on demand */
  int nvars, capvars;
  struct trail {
    int var;
    const cel_type *old;
  } *trail; /* undo log of bindings made during one overload attempt */
  int ntrail, captrail;
  scoped scope[MAX_SCOPE];
  int nscope;
  int format_depth; /* inside format(...) arguments: literals may mix types */
} checker;

static void check(checker *c, cel_node *n);

static const cel_type *fresh(checker *c) {
  cel_type *t = arena_alloc(c->a, sizeof *t);
  t->kind = TY_PARAM;
  if (c->nvars == c->capvars) {
    int cap = c->capvars ? 2 * c->capvars : 256;
    c->subst = arena_grow(c->a, c->subst, (size_t)c->capvars * sizeof *c->subst, (size_t)cap * sizeof *c->subst);
    c->capvars = cap;
  }
  t->var = c->nvars++;
  t->name = "_var";
  return t;
}

static void bind(checker *c, int var, const cel_type *t) {
  if (c->ntrail == c->captrail) {
    int cap = c->captrail ? 2 * c->captrail : 256;
    c->trail = arena_grow(c->a, c->trail, (size_t)c->captrail * sizeof *c->trail, (size_t)cap * sizeof *c->trail);
    c->captrail = cap;
  }
  c->trail[c->ntrail++] = (struct trail){var, c->subst[var]};
  c->subst[var] = t;
}

static void undo(checker *c, int mark) {
  while (c->ntrail > mark) {
    c->ntrail--;
    c->subst[c->trail[c->ntrail].var] = c->trail[c->ntrail].old;
  }
}

static const cel_type *find_sub(checker *c, const cel_type *t) {
  return t->kind == TY_PARAM && t->var >= 0 ? c->subst[t->var] : NULL;
}

/* Applies bindings; unbound variables become dyn when to_dyn. */
static const cel_type *substitute(checker *c, const cel_type *t, bool to_dyn) {
  const cel_type *s = find_sub(c, t);
  if (s) return substitute(c, s, to_dyn);
  switch (t->kind) {
  case TY_PARAM: return to_dyn ? &cel_t_dyn : t;
  case TY_LIST: {
    const cel_type *e = substitute(c, t->p[0], to_dyn);
    return e == t->p[0] ? t : cel_type_list(c->a, e);
  }
  case TY_MAP: {
    const cel_type *k = substitute(c, t->p[0], to_dyn), *v = substitute(c, t->p[1], to_dyn);
    return k == t->p[0] && v == t->p[1] ? t : cel_type_map(c->a, k, v);
  }
  case TY_OPT: {
    const cel_type *e = substitute(c, t->p[0], to_dyn);
    return e == t->p[0] ? t : cel_type_opt(c->a, e);
  }
  case TY_TYPE: {
    const cel_type *e = substitute(c, t->p[0], to_dyn);
    return e == t->p[0] ? t : cel_type_type(c->a, e);
  }
  default: return t;
  }
}

static bool occurs(checker *c, const cel_type *var, const cel_type *t) {
  t = substitute(c, t, false);
  if (t->kind == TY_PARAM) return t->var == var->var;
  for (int i = 0; i < 2; i++)
    if (t->p[i] && (t->kind == TY_LIST || t->kind == TY_MAP || t->kind == TY_OPT || t->kind == TY_TYPE) &&
        occurs(c, var, t->p[i]))
      return true;
  return false;
}

static bool less_specific(const cel_type *a, const cel_type *b) {
  if (a->kind == TY_DYN || a->kind == TY_PARAM || a->kind == TY_ANY) return true;
  if (a->kind != b->kind) return false;
  if (a->kind == TY_LIST || a->kind == TY_OPT || a->kind == TY_TYPE) return less_specific(a->p[0], b->p[0]);
  if (a->kind == TY_MAP) return less_specific(a->p[0], b->p[0]) && less_specific(a->p[1], b->p[1]);
  return true;
}

static const cel_type *most_general(const cel_type *a, const cel_type *b) { return less_specific(a, b) ? a : b; }

static bool assignable(checker *c, const cel_type *t1, const cel_type *t2);

static bool valid_sub(checker *c, const cel_type *t1, const cel_type *t2, bool *has_sub) {
  *has_sub = false;
  if (t1->kind == t2->kind && cel_type_equal(t1, t2)) {
    *has_sub = true;
    return true;
  }
  const cel_type *s = find_sub(c, t2);
  if (s) {
    *has_sub = true;
    if (t1->kind == s->kind && cel_type_equal(t1, s)) return true;
    if (assignable(c, t1, s)) {
      const cel_type *g = most_general(t1, s);
      if (!occurs(c, t2, g)) bind(c, t2->var, g);
      return true;
    }
    return false;
  }
  if (t2->var >= 0 && !occurs(c, t2, t1)) {
    bind(c, t2->var, t1);
    return true;
  }
  return false;
}

static bool assignable(checker *c, const cel_type *t1, const cel_type *t2) {
  bool has;
  if (t2->kind == TY_PARAM && t2->var >= 0) {
    if (valid_sub(c, t1, t2, &has)) return true;
    if (has) return false;
  }
  if (t1->kind == TY_PARAM && t1->var >= 0) return valid_sub(c, t2, t1, &has);
  if (cel_type_is_dynlike(t1) || cel_type_is_dynlike(t2)) return true;
  if (t1->kind == TY_NULL) return t2->kind == TY_NULL || t2->kind == TY_OPT || t2->kind == TY_OPAQUE || t2->kind == TY_OBJECT ||
                                  t2->kind == TY_DURATION || t2->kind == TY_TIMESTAMP;
  if (t2->kind == TY_NULL) return t1->kind == TY_OPAQUE || t1->kind == TY_OPT || t1->kind == TY_OBJECT || t1->kind == TY_DURATION ||
                                  t1->kind == TY_TIMESTAMP;
  if (t1->kind != t2->kind) return false;
  switch (t1->kind) {
  case TY_TYPE: return true;
  case TY_LIST:
  case TY_OPT: return assignable(c, t1->p[0], t2->p[0]);
  case TY_MAP: return assignable(c, t1->p[0], t2->p[0]) && assignable(c, t1->p[1], t2->p[1]);
  default: return cel_type_equal(t1, t2);
  }
}

/* Transactional assignability: bindings are kept only on success. */
static bool try_assign(checker *c, const cel_type *t1, const cel_type *t2) {
  int mark = c->ntrail;
  bool ok = assignable(c, t1, t2);
  if (!ok) undo(c, mark);
  c->ntrail = mark;
  return ok;
}

static void type_error(checker *c, cel_node *n, const char *fmt, const cel_type *a, const cel_type *b) {
  strbuf x = STRBUF_INIT, y = STRBUF_INIT;
  cel_type_print_checker(&x, substitute(c, a, true));
  if (b) cel_type_print_checker(&y, substitute(c, b, true));
  cel_report(c->ast, n->pos, fmt, sb_str(&x), sb_str(&y));
  sb_free(&x);
  sb_free(&y);
}

/* Copies a declared type with its named parameters replaced by fresh variables. */
static const cel_type *instantiate(checker *c, const cel_type *t, const char **names, const cel_type **vars, int *nv) {
  switch (t->kind) {
  case TY_PARAM:
    for (int i = 0; i < *nv; i++)
      if (!strcmp(names[i], t->name)) return vars[i];
    names[*nv] = t->name;
    vars[*nv] = fresh(c);
    return vars[(*nv)++];
  case TY_LIST: return cel_type_list(c->a, instantiate(c, t->p[0], names, vars, nv));
  case TY_OPT: return cel_type_opt(c->a, instantiate(c, t->p[0], names, vars, nv));
  case TY_TYPE: return cel_type_type(c->a, instantiate(c, t->p[0], names, vars, nv));
  case TY_MAP: {
    const cel_type *k = instantiate(c, t->p[0], names, vars, nv);
    return cel_type_map(c->a, k, instantiate(c, t->p[1], names, vars, nv));
  }
  default: return t;
  }
}

static bool has_params(const cel_type *t) {
  if (t->kind == TY_PARAM) return true;
  if (t->kind == TY_LIST || t->kind == TY_OPT || t->kind == TY_TYPE) return has_params(t->p[0]);
  if (t->kind == TY_MAP) return has_params(t->p[0]) || has_params(t->p[1]);
  return false;
}

/* ---- identifiers ---- */

static const struct {
  const char *name;
  const cel_type *t;
} type_idents[] = {
    {"bool", &cel_t_bool}, {"int", &cel_t_int}, {"uint", &cel_t_uint}, {"double", &cel_t_double},
    {"string", &cel_t_string}, {"bytes", &cel_t_bytes}, {"null_type", &cel_t_null}, {"list", &cel_t_list_dyn},
    {"map", &cel_t_map_dyn}, {"type", &cel_t_type_dyn}, {"net.IP", &cel_t_ip}, {"net.CIDR", &cel_t_cidr},
    {"google.protobuf.Duration", &cel_t_duration}, {"google.protobuf.Timestamp", &cel_t_timestamp},
    {"optional_type", NULL},
};

static int scope_find(checker *c, const char *name) {
  for (int i = c->nscope - 1; i >= 0; i--)
    if (!strcmp(c->scope[i].name, name)) return i;
  return -1;
}

/* Global variable index for name (device first, then env vars); -1 if none. */
static int global_find(checker *c, const char *name, size_t len, const cel_type **t) {
  int base = 0;
  if (c->env->device) {
    if (len == 6 && !memcmp(name, "device", 6)) {
      *t = &cel_t_device;
      return 0;
    }
    base = 1;
  }
  for (size_t i = 0; i < c->env->nvars; i++)
    if (strlen(c->env->vars[i].name) == len && !memcmp(c->env->vars[i].name, name, len)) {
      *t = c->env->vars[i].type;
      return base + (int)i;
    }
  return -1;
}

static bool resolve_ident(checker *c, cel_node *n, const char *name) {
  int s = scope_find(c, name);
  if (s >= 0) {
    n->slot = c->scope[s].slot;
    n->type = c->scope[s].type;
    return true;
  }
  const cel_type *t;
  int g = global_find(c, name, strlen(name), &t);
  if (g >= 0) {
    n->slot2 = g;
    n->type = t;
    return true;
  }
  for (size_t i = 0; i < sizeof type_idents / sizeof *type_idents; i++)
    if (!strcmp(type_idents[i].name, name)) {
      n->kind = N_CONST;
      const cel_type *tt = type_idents[i].t ? type_idents[i].t : cel_type_opt(c->a, &cel_t_dyn);
      n->cval = cel_typeval(tt);
      n->type = cel_type_type(c->a, tt);
      return true;
    }
  return false;
}

/* a.b.c as one qualified variable name, when every part is a plain select. */
static bool qualified_name(cel_node *n, strbuf *sb) {
  if (n->kind == N_IDENT) {
    sb_puts(sb, n->name);
    return true;
  }
  if (n->kind == N_SELECT && !n->test_only && qualified_name(n->target, sb)) {
    sb_putc(sb, '.');
    sb_puts(sb, n->name);
    return true;
  }
  return false;
}

/* ---- node checks ---- */

static const cel_type *field_type(checker *c, cel_node *n, const cel_type *ot, const char *field) {
  ot = substitute(c, ot, false);
  switch (ot->kind) {
  case TY_OPT: return cel_type_opt(c->a, field_type(c, n, ot->p[0], field));
  case TY_MAP: return ot->p[1];
  case TY_DYN:
  case TY_ANY:
  case TY_ERROR:
  case TY_PARAM: return &cel_t_dyn;
  case TY_OBJECT: {
    const cel_type *attr = c->env->attr_dyn ? &cel_t_dyn : &cel_t_any;
    if (!strcmp(field, "driver")) return &cel_t_string;
    if (!strcmp(field, "allowMultipleAllocations") && c->env->multi_alloc) return &cel_t_bool;
    if (!strcmp(field, "attributes"))
      return cel_type_map(c->a, &cel_t_string, cel_type_map(c->a, &cel_t_string, attr));
    if (!strcmp(field, "capacity"))
      return cel_type_map(c->a, &cel_t_string, cel_type_map(c->a, &cel_t_string, &cel_t_quantity));
    cel_report(c->ast, n->pos, "undefined field '%s'", field);
    return &cel_t_error;
  }
  default:
    type_error(c, n, "type '%s' does not support field selection%s", ot, NULL);
    return &cel_t_error;
  }
}

static void check_select(checker *c, cel_node *n) {
  strbuf q = STRBUF_INIT;
  if (!n->test_only && qualified_name(n, &q)) {
    const cel_type *t;
    bool local = false;
    for (cel_node *r = n; r; r = r->kind == N_SELECT ? r->target : NULL)
      if (r->kind == N_IDENT) local = scope_find(c, r->name) >= 0;
    int g = local ? -1 : global_find(c, sb_str(&q), q.len, &t);
    if (g < 0 && !local && strchr(sb_str(&q), '.')) {
      cel_node probe = *n;
      if (resolve_ident(c, &probe, sb_str(&q)) && probe.kind == N_CONST) {
        *n = probe;
        sb_free(&q);
        return;
      }
    }
    if (g >= 0) {
      n->kind = N_IDENT;
      n->name = arena_strdup(c->a, sb_str(&q));
      n->slot2 = g;
      n->type = t;
      sb_free(&q);
      return;
    }
  }
  sb_free(&q);
  check(c, n->target);
  if (!c->env->check) return;
  const cel_type *ft = field_type(c, n, n->target->type, n->name);
  n->type = n->test_only ? &cel_t_bool : ft;
}

static void check_ident(checker *c, cel_node *n) {
  if (resolve_ident(c, n, n->name)) return;
  if (!c->env->check) return; /* unchecked: an unbound name fails at run time */
  cel_report(c->ast, n->pos, "undeclared reference to '%s' (in container '')", n->name);
  n->type = &cel_t_error;
}

static bool literal_mix_exempt(checker *c) { return !c->env->homogeneous || c->format_depth > 0; }

static bool has_param(const cel_type *t) {
  if (!t) return false;
  if (t->kind == TY_PARAM) return true;
  return has_param(t->p[0]) || has_param(t->p[1]);
}

/* cel-go's Type.IsEquivalentType: same kind, name and parameters. */
static bool type_equiv(const cel_type *a, const cel_type *b) {
  if (!a || !b) return a == b;
  if (a->kind != b->kind) return false;
  if ((a->name || b->name) && (!a->name || !b->name || strcmp(a->name, b->name))) return false;
  return type_equiv(a->p[0], b->p[0]) && type_equiv(a->p[1], b->p[1]);
}

static const cel_type *join(checker *c, cel_node *at, const cel_type *prev, const cel_type *cur) {
  if (!prev) return cur;
  /* Homogeneous aggregate literals are cel-go's AST validator
   * (ValidateHomogeneousAggregateLiterals): element types must be
   * equivalent, not merely assignable, so [dyn, int] is refused. Types still
   * holding checker variables are left to the assignability rules below. */
  if (!literal_mix_exempt(c) && !has_param(prev) && !has_param(cur) && prev->kind != TY_ERROR &&
      cur->kind != TY_ERROR && !type_equiv(prev, cur)) {
    type_error(c, at, "expected type '%s' but found '%s'", prev, cur);
    return &cel_t_error;
  }
  if (prev->kind == TY_NULL && cur->kind != TY_NULL && try_assign(c, prev, cur)) return cur;
  if (cur->kind == TY_NULL && prev->kind != TY_NULL && try_assign(c, prev, cur)) return prev;
  if (try_assign(c, prev, cur)) return most_general(prev, cur);
  if (literal_mix_exempt(c)) return &cel_t_dyn;
  type_error(c, at, "expected type '%s' but found '%s'", prev, cur);
  return &cel_t_error;
}

static const cel_type *unwrap_opt(checker *c, cel_node *at, const cel_type *t) {
  t = substitute(c, t, false);
  if (t->kind == TY_OPT) return t->p[0];
  if (cel_type_is_dynlike(t) || t->kind == TY_PARAM) return &cel_t_dyn;
  type_error(c, at, "expected type 'optional_type(%s)' but found '%s'", t, t);
  return &cel_t_error;
}

static void check_aggregate(checker *c, cel_node *n) {
  bool is_map = n->kind == N_MAP;
  const cel_type *kt = NULL, *vt = NULL;
  for (uint32_t i = 0; i < n->nargs; i++) {
    cel_node *k = n->args[is_map ? 2 * i : i];
    check(c, k);
    if (is_map) check(c, n->args[2 * i + 1]);
    if (!c->env->check) continue;
    if (is_map) {
      kt = join(c, k, kt, k->type);
      const cel_type *v = n->args[2 * i + 1]->type;
      if (n->optional && n->optional[i]) v = unwrap_opt(c, n->args[2 * i + 1], v);
      vt = join(c, n->args[2 * i + 1], vt, v);
    } else {
      const cel_type *v = k->type;
      if (n->optional && n->optional[i]) v = unwrap_opt(c, k, v);
      vt = join(c, k, vt, v);
    }
  }
  if (!c->env->check) return;
  if (!vt) vt = fresh(c);
  if (is_map && !kt) kt = fresh(c);
  n->type = is_map ? cel_type_map(c->a, kt, vt) : cel_type_list(c->a, vt);
}

static void check_compr(checker *c, cel_node *n) {
  check(c, n->range);
  check(c, n->init);
  const cel_type *rt = substitute(c, n->range->type, false), *v1 = &cel_t_dyn, *v2 = &cel_t_dyn;
  if (c->env->check) {
    switch (rt->kind) {
    case TY_LIST:
      v1 = n->iter_var2 ? &cel_t_int : rt->p[0];
      v2 = rt->p[0];
      break;
    case TY_MAP:
      v1 = rt->p[0];
      v2 = rt->p[1];
      break;
    case TY_DYN:
    case TY_ERROR:
    case TY_PARAM:
      try_assign(c, &cel_t_dyn, rt);
      break;
    default:
      type_error(c, n->range, "expression of type '%s' cannot be range of a comprehension (must be list, map, or dynamic)%s", rt, NULL);
      v1 = v2 = &cel_t_error;
    }
  }
  if (c->nscope + 3 > MAX_SCOPE) {
    cel_report(c->ast, n->pos, "comprehension nesting too deep");
    return;
  }
  int base = c->nscope;
  n->accu_slot = (int)c->ast->nslots++;
  c->scope[c->nscope++] = (scoped){n->accu_var, n->accu_slot, n->init->type};
  n->slot = (int)c->ast->nslots++;
  c->scope[c->nscope++] = (scoped){n->iter_var, n->slot, v1};
  if (n->iter_var2) {
    n->slot2 = (int)c->ast->nslots++;
    c->scope[c->nscope++] = (scoped){n->iter_var2, n->slot2, v2};
  }
  check(c, n->cond);
  check(c, n->step);
  if (c->env->check && !try_assign(c, n->step->type, n->init->type))
    type_error(c, n->step, "expected type '%s' but found '%s'", n->init->type, n->step->type);
  c->nscope = base + 1;
  check(c, n->result);
  c->nscope = base;
  n->type = c->env->check ? substitute(c, n->result->type, false) : &cel_t_dyn;
}

static void format_args(strbuf *sb, checker *c, cel_node *n) {
  for (uint32_t i = 0; i < n->nargs; i++) {
    if (i == 1 && n->member) sb_puts(sb, ".(");
    else if (i > 0) sb_puts(sb, ", ");
    cel_type_print_checker(sb, substitute(c, n->args[i]->type, true));
  }
  if (n->member && n->nargs == 1) sb_puts(sb, ".(");
}

/* Kubernetes' AST validators: a literal regex, duration or timestamp must be
 * valid when the program is compiled. */
static bool literal_arguments_valid(checker *c, cel_node *n) {
  bool re = !strcmp(n->name, "matches"), d = !strcmp(n->name, "duration"), t = !strcmp(n->name, "timestamp");
  if (!(re || d || t) || !n->novs || !n->nargs) return true;
  const cel_node *lit = n->args[n->nargs - 1];
  if (lit->kind != N_CONST || lit->cval.kind != V_STRING) return true;
  cel_val err = {.kind = V_NULL};
  if (re) {
    cel_regex_match(lit->cval.s, lit->cval.len, "", 0, &err);
  } else {
    cel_eval ev = {.cost_limit = UINT64_MAX};
    for (uint32_t k = 0; k < n->novs; k++)
      if (n->ovs[k]->params[0]->kind == TY_STRING) err = n->ovs[k]->fn(&ev, &lit->cval, 1);
  }
  cel_scratch_reset();
  if (err.kind != V_ERR) return true;
  cel_report(c->ast, lit->pos, "invalid %s argument", n->name);
  return false;
}

/* cel-go's string format validator (ext/formatting.go
 * stringFormatValidator, on in Kubernetes): a literal format string applied
 * to a list literal is checked clause by clause against the elements'
 * checked types, and a mismatch is a compile error. dyn passes. */
static const char *fmt_type_name(const cel_type *t) {
  switch (t->kind) {
  case TY_NULL: return "null_type";
  case TY_BOOL: return "bool";
  case TY_INT: return "int";
  case TY_UINT: return "uint";
  case TY_DOUBLE: return "double";
  case TY_STRING: return "string";
  case TY_BYTES: return "bytes";
  case TY_DURATION: return "google.protobuf.Duration";
  case TY_TIMESTAMP: return "google.protobuf.Timestamp";
  case TY_LIST: return "list";
  case TY_MAP: return "map";
  case TY_TYPE: return "type";
  case TY_OPT: return "optional_type";
  default: return t->name ? t->name : "dyn";
  }
}

static bool fmt_kind_in(const cel_type *t, const char *kinds) {
  if (t->kind == TY_DYN) return true;
  for (const char *k = kinds; *k; k++) {
    cel_tkind want = *k == 'i' ? TY_INT : *k == 'u' ? TY_UINT : *k == 'd' ? TY_DOUBLE : *k == 's' ? TY_STRING
                   : *k == 'b' ? TY_BOOL : *k == 'y' ? TY_BYTES : *k == 'l' ? TY_LIST : *k == 'm' ? TY_MAP
                   : *k == 't' ? TY_TIMESTAMP : *k == 'r' ? TY_DURATION : *k == 'T' ? TY_TYPE : TY_NULL;
    if (t->kind == want) return true;
  }
  return false;
}

/* %s: the element and, inside list and map literals, every entry. */
static const cel_node *fmt_bad_string_arg(checker *c, const cel_node *e) {
  const cel_type *t = substitute(c, e->type, true);
  if (!fmt_kind_in(t, "iudsbyltmrTn")) return e;
  if (e->kind == N_LIST || e->kind == N_MAP)
    for (uint32_t i = 0; i < e->nargs; i++) {
      const cel_node *bad = fmt_bad_string_arg(c, e->args[i]);
      if (bad) return bad;
    }
  return NULL;
}

static void validate_format(checker *c, const cel_node *n) {
  const char *f = n->args[0]->cval.s;
  size_t len = n->args[0]->cval.len;
  const cel_node *list = n->args[1];
  uint32_t next = 0;
  for (size_t i = 0; i < len; i++) {
    if (f[i] != '%') continue;
    if (i + 1 < len && f[i + 1] == '%') {
      i++;
      continue;
    }
    if (i + 1 >= len) {
      cel_report(c->ast, n->pos, "unexpected end of string");
      return;
    }
    if (next >= list->nargs) {
      cel_report(c->ast, n->pos, "index %u out of range", next);
      return;
    }
    size_t j = i + 1;
    if (f[j] == '.') {
      size_t st = ++j;
      while (j < len && f[j] >= '0' && f[j] <= '9') j++;
      if (j >= len) {
        cel_report(c->ast, n->pos, "could not parse formatting clause: error while parsing precision: could not find end of precision specifier");
        return;
      }
      if (j == st) {
        cel_report(c->ast, n->pos, "could not parse formatting clause: error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing \"\": invalid syntax");
        return;
      }
    }
    char verb = f[j];
    const cel_node *e = list->args[next++];
    const cel_type *t = substitute(c, e->type, true);
    const char *msg = NULL;
    switch (verb) {
    case 's': {
      const cel_node *bad = fmt_bad_string_arg(c, e);
      if (bad) {
        cel_report(c->ast, bad->pos, "error during formatting: string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given %s", fmt_type_name(substitute(c, bad->type, true)));
        return;
      }
      break;
    }
    case 'd': if (!fmt_kind_in(t, "iu")) msg = "decimal clause can only be used on integers"; break;
    case 'f': if (!fmt_kind_in(t, "ds")) msg = "fixed-point clause can only be used on doubles"; break;
    case 'e': if (!fmt_kind_in(t, "ds")) msg = "scientific clause can only be used on doubles"; break;
    case 'b': if (!fmt_kind_in(t, "iub")) msg = "only integers and bools can be formatted as binary"; break;
    case 'x':
    case 'X': if (!fmt_kind_in(t, "iusy")) msg = "only integers, byte buffers, and strings can be formatted as hex"; break;
    case 'o': if (!fmt_kind_in(t, "iu")) msg = "octal clause can only be used on integers"; break;
    default: {
      strbuf v = STRBUF_INIT;
      unsigned char b = (unsigned char)verb;
      if (b < 0x80) sb_putc(&v, (char)b);
      else utf8_encode(&v, b);
      cel_report(c->ast, n->pos, "could not parse formatting clause: unrecognized formatting clause \"%s\"", sb_str(&v));
      sb_free(&v);
      return;
    }
    }
    if (msg) {
      cel_report(c->ast, e->pos, "error during formatting: %s, was given %s", msg, fmt_type_name(t));
      return;
    }
    i = j;
  }
  if (list->nargs > next)
    cel_report(c->ast, n->pos, "too many arguments supplied to string.format (expected %u, got %u)", next, list->nargs);
}

static void check_call(checker *c, cel_node *n) {
  /* receiver-style namespaced global: optional.of(x), sets.contains(a, b) */
  if (n->member && n->args[0]->kind == N_IDENT && scope_find(c, n->args[0]->name) < 0) {
    const cel_type *t;
    if (global_find(c, n->args[0]->name, strlen(n->args[0]->name), &t) < 0) {
      char *q = arena_printf(c->a, "%s.%s", n->args[0]->name, n->name);
      size_t cnt;
      if (cel_env_lookup(q, &cnt)) {
        n->name = q;
        n->member = 0;
        n->args++;
        n->nargs--;
      }
    }
  }
  bool is_format = !strcmp(n->name, "format");
  c->format_depth += is_format;
  for (uint32_t i = 0; i < n->nargs; i++) check(c, n->args[i]);
  c->format_depth -= is_format;
  size_t cnt = 0;
  const cel_overload *const *all = cel_env_lookup(n->name, &cnt);
  const cel_overload **cand = arena_calloc(c->a, cnt ? cnt : 1, sizeof *cand);
  uint32_t nc = 0;
  size_t visible = 0;
  for (size_t k = 0; k < cnt; k++) visible += all[k]->feature != CEL_FEAT_INCLUDES || c->env->includes;
  if ((!all || !visible) && !c->env->check) {
    n->ovs = NULL;
    n->novs = 0;
    return;
  }
  if (!all || !visible) {
    cel_report(c->ast, n->pos, "undeclared reference to '%s' (in container '')", n->name);
    n->type = &cel_t_error;
    return;
  }
  /* cel-go's checker types && and || argument by argument (checker.go,
   * the logical operators' branch of resolveOverload): each operand that is
   * not a bool is an "expected type" error of its own. */
  if ((!strcmp(n->name, "_&&_") || !strcmp(n->name, "_||_")) && c->env->check) {
    bool bad = false;
    for (uint32_t i = 0; i < n->nargs; i++) {
      const cel_type *t = n->args[i]->type;
      if (t->kind == TY_ERROR) bad = true;
      else if (!try_assign(c, t, &cel_t_bool)) {
        type_error(c, n->args[i], "expected type '%s' but found '%s'", &cel_t_bool, t);
        bad = true;
      }
    }
    if (bad) {
      n->type = &cel_t_error;
      return;
    }
  }
  if (!strcmp(n->name, "_?._") && c->env->check) {
    cel_node fake = {.kind = N_SELECT, .pos = n->pos};
    const cel_type *ot = substitute(c, n->args[0]->type, false);
    if (ot->kind == TY_OPT) ot = ot->p[0];
    const cel_type *ft = field_type(c, &fake, ot, n->args[1]->cval.s);
    n->type = cel_type_opt(c->a, ft);
  }
  bool errarg = false;
  for (uint32_t i = 0; i < n->nargs && c->env->check; i++) errarg |= n->args[i]->type->kind == TY_ERROR;
  const cel_type *result = NULL;
  for (size_t k = 0; k < cnt; k++) {
    const cel_overload *o = all[k];
    if (o->member != n->member || o->nparams != n->nargs) continue;
    if (o->feature == CEL_FEAT_INCLUDES && !c->env->includes) continue;
    if (!c->env->check) {
      cand[nc++] = o;
      continue;
    }
    const char *names[8];
    const cel_type *vars[8];
    int nv = 0;
    const cel_type *params[4];
    for (uint32_t i = 0; i < o->nparams; i++) params[i] = instantiate(c, o->params[i], names, vars, &nv);
    const cel_type *res = has_params(o->result) ? instantiate(c, o->result, names, vars, &nv) : o->result;
    int mark = c->ntrail;
    bool ok = true;
    for (uint32_t i = 0; i < o->nparams && ok; i++) ok = assignable(c, n->args[i]->type, params[i]);
    if (!ok) undo(c, mark);
    c->ntrail = mark;
    if (!ok) continue;
    cand[nc++] = o;
    const cel_type *r = substitute(c, res, false);
    if (!result) result = r;
    else if (!cel_type_equal(result, r)) result = &cel_t_dyn;
  }
  n->ovs = cand;
  n->novs = nc;
  if (!c->env->check) return;
  if (!literal_arguments_valid(c, n)) {
    n->type = &cel_t_error;
    return;
  }
  if (!strcmp(n->name, "_?._")) return; /* typed above */
  if (nc == 0) {
    if (errarg) {
      n->type = &cel_t_error;
      return;
    }
    strbuf sb = STRBUF_INIT;
    format_args(&sb, c, n);
    if (!n->member) {
      strbuf w = STRBUF_INIT;
      sb_putc(&w, '(');
      sb_puts(&w, sb_str(&sb));
      sb_putc(&w, ')');
      sb_free(&sb);
      sb = w;
    } else {
      sb_putc(&sb, ')');
    }
    cel_report(c->ast, n->pos, "found no matching overload for '%s' applied to '%s'", n->name, sb_str(&sb));
    sb_free(&sb);
    n->type = &cel_t_error;
    return;
  }
  n->type = result;
  if (n->member && n->nargs == 2 && nc == 1 && !strcmp(cand[0]->id, "string_format") && n->args[0]->kind == N_CONST &&
      n->args[0]->cval.kind == V_STRING && n->args[1]->kind == N_LIST)
    validate_format(c, n);
}

static void check(checker *c, cel_node *n) {
  n->type = &cel_t_dyn;
  switch ((cel_nkind)n->kind) {
  case N_CONST:
    n->type = cel_val_type(&n->cval);
    if (n->cval.kind == V_TYPE) n->type = cel_type_type(c->a, n->cval.t);
    break;
  case N_IDENT: check_ident(c, n); break;
  case N_SELECT: check_select(c, n); break;
  case N_CALL: check_call(c, n); break;
  case N_LIST:
  case N_MAP: check_aggregate(c, n); break;
  case N_STRUCT: cel_report(c->ast, n->pos, "message construction is not supported"); break;
  case N_COMPR: check_compr(c, n); break;
  }
  if (!c->env->check) n->type = &cel_t_dyn;
}

static void finalize(checker *c, cel_node *n) {
  if (!n) return;
  n->type = substitute(c, n->type ? n->type : &cel_t_dyn, true);
  switch ((cel_nkind)n->kind) {
  case N_SELECT: finalize(c, n->target); break;
  case N_CALL:
  case N_LIST:
    for (uint32_t i = 0; i < n->nargs; i++) finalize(c, n->args[i]);
    break;
  case N_MAP:
    for (uint32_t i = 0; i < 2 * n->nargs; i++) finalize(c, n->args[i]);
    break;
  case N_COMPR:
    finalize(c, n->range);
    finalize(c, n->init);
    finalize(c, n->cond);
    finalize(c, n->step);
    finalize(c, n->result);
    break;
  default: break;
  }
}

bool cel_check(cel_ast *ast, const cel_env_cfg *env) {
  cel_env_init();
  checker *c = arena_alloc(ast->mem, sizeof *c);
  c->ast = ast;
  c->env = env;
  c->a = ast->mem;
  int before = ast->nerrors;
  check(c, ast->root);
  finalize(c, ast->root);
  return ast->nerrors == before;
}
