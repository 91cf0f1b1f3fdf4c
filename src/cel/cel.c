/* cel.c: the public entry points: environment selection from options,
 * compile (parse, check, result-type rules, estimate, plan), selector and
 * derived-attribute evaluation. */
#include "cel/cel_internal.h"
#include "util/die.h"
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_error(cel_compile_result *res, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_error(cel_compile_result *res, const char *fmt, ...) {
  if (!res) return;
  strbuf sb = STRBUF_INIT;
  va_list ap;
  va_start(ap, fmt);
  char *tmp = NULL;
  if (vasprintf(&tmp, fmt, ap) < 0) die_oom();
  va_end(ap);
  sb_puts(&sb, tmp);
  free(tmp);
  free(res->error);
  res->error = sb_detach(&sb);
}

void cel_compile_result_free(cel_compile_result *res) {
  if (!res) return;
  free(res->error);
  res->error = NULL;
}

void cel_program_free(cel_program *p) {
  if (!p) return;
  sb_free(&p->ast.errors);
  arena_free(p->ast.mem);
  free(p);
}

uint64_t cel_program_cost(const cel_program *p) { return p->estimated_cost; }

static bool derived_type_ok(const cel_type *t) {
  switch (t->kind) {
  case TY_INT:
  case TY_BOOL:
  case TY_STRING: return true;
  case TY_OPAQUE: return !strcmp(t->name, "kubernetes.Semver");
  default: return false;
  }
}

static int select_costed(const cel_program *p, const cel_device *dev, const cel_eval_opts *opts, cel_error *err);
static int select_fused(const cel_program *p, const cel_device *dev, const cel_eval_opts *opts, cel_error *err);

cel_program *cel_compile_env(const char *expr, size_t len, const cel_env_cfg *env, bool estimate,
                             cel_compile_result *res) {
  cel_program *p = xcalloc(1, sizeof *p);
  p->env = *env;
  p->ast.mem = arena_new();
  p->ast.src = arena_strndup(p->ast.mem, expr, len);
  p->ast.len = len;
  if (res) {
    res->estimated_cost = UINT64_MAX;
    res->result_type[0] = 0;
  }
  if (!cel_parse(&p->ast, env->macros) || !cel_check(&p->ast, env)) {
    set_error(res, "compilation failed: %s", sb_str(&p->ast.errors));
    cel_program_free(p);
    return NULL;
  }
  p->result = p->ast.root->type;
  if (res) {
    strbuf sb = STRBUF_INIT;
    cel_type_print(&sb, p->result);
    snprintf(res->result_type, sizeof res->result_type, "%s", sb_str(&sb));
    sb_free(&sb);
  }
  p->estimated_cost = estimate ? cel_estimate(&p->ast) : UINT64_MAX;
  if (res) res->estimated_cost = p->estimated_cost;
  strbuf ferr = STRBUF_INIT;
  if (!cel_fold(&p->ast, &ferr)) {
    set_error(res, "%s", sb_str(&ferr));
    sb_free(&ferr);
    cel_program_free(p);
    return NULL;
  }
  sb_free(&ferr);
  cel_plan(&p->ast, env->device);
  const cel_node *root = p->ast.root;
  p->select = root->fused && root->max_cost < UINT64_MAX ? select_fused : select_costed;
  return p;
}

static void env_for(const cel_options *o, cel_env_cfg *env) {
  bool stored = o->env == CEL_ENV_STORED_EXPRESSIONS;
  *env = (cel_env_cfg){
      .device = true,
      .multi_alloc = stored || o->consumable_capacity,
      .attr_dyn = stored || o->list_type_attributes,
      .includes = stored || o->list_type_attributes,
      .homogeneous = true,
      .check = true,
      .macros = true,
  };
}

cel_program *cel_compile(const char *expr, size_t len, const cel_options *opts, cel_compile_result *res) {
  cel_options defaults = {.env = CEL_ENV_STORED_EXPRESSIONS};
  if (!opts) opts = &defaults;
  if (res) *res = (cel_compile_result){.estimated_cost = UINT64_MAX};
  if (opts->validate && len > CEL_MAX_EXPRESSION_BYTES) {
    if (res) res->too_long = true;
    set_error(res, "Too long: may not be more than %u bytes", CEL_MAX_EXPRESSION_BYTES);
    return NULL;
  }
  cel_env_cfg env;
  env_for(opts, &env);
  cel_program *p = cel_compile_env(expr, len, &env, true, res);
  if (!p) return NULL;
  strbuf sb = STRBUF_INIT;
  cel_type_print(&sb, p->result);
  const cel_type *t = p->result;
  bool ok;
  if (opts->derived) {
    ok = derived_type_ok(t) || t->kind == TY_DYN || t->kind == TY_ANY ||
         (opts->list_type_attributes && t->kind == TY_LIST &&
          (derived_type_ok(t->p[0]) || t->p[0]->kind == TY_DYN || t->p[0]->kind == TY_ANY));
    if (!ok)
      set_error(res, "derived attribute %s: must evaluate to int, bool, string or semver%s, not %s",
                opts->derived_name ? opts->derived_name : "", opts->list_type_attributes ? " or a list of one of them" : "",
                sb_str(&sb));
  } else {
    ok = t->kind == TY_BOOL || (t->kind == TY_DYN && env.attr_dyn) || (t->kind == TY_ANY && !env.attr_dyn);
    if (!ok) set_error(res, "must evaluate to bool or the unknown type, not %s", sb_str(&sb));
  }
  sb_free(&sb);
  if (ok && opts->validate && p->estimated_cost > CEL_MAX_ESTIMATED_COST) {
    if (res) res->too_complex = true;
    set_error(res, "too complex, exceeds cost limit");
    ok = false;
  }
  if (!ok) {
    cel_program_free(p);
    return NULL;
  }
  p->derived = opts->derived;
  return p;
}

/* ---- evaluation ---- */

static inline uint64_t cost_limit(const cel_eval_opts *opts) {
  return opts && opts->cost_limit ? opts->cost_limit : CEL_MAX_RUNTIME_COST;
}

static inline void setup(cel_eval *ev, const cel_program *p, const cel_device *dev, const cel_val *globals,
                         const cel_eval_opts *opts, cel_val *device) {
  cel_scratch_reset();
  *ev = (cel_eval){.device = dev, .opts = opts};
  ev->cost_limit = cost_limit(opts);
  ev->slots = p->ast.nslots ? cel_scratch_alloc(p->ast.nslots * sizeof *ev->slots) : NULL;
  *device = (cel_val){.kind = V_MAP, .store = MS_DEVICE, .len = 4};
  device->aux = dev;
  ev->globals = p->env.device ? device : globals; /* the device env declares nothing else */
}

static inline cel_val program_eval(const cel_program *p, const cel_device *dev, const cel_val *globals,
                                   const cel_eval_opts *opts, uint64_t *cost) {
  cel_eval ev;
  cel_val device;
  setup(&ev, p, dev, globals, opts, &device);
  cel_val r;
  if (dev && dev->error) r = cel_err("%s", dev->error);
  else r = cel_eval_node(&ev, p->ast.root);
  if (ev.cost_exceeded) r = ev.stop.s ? ev.stop : cel_err("operation cancelled: actual cost limit exceeded");
  if (cost) *cost = ev.cost;
  return r;
}

cel_val cel_program_eval(const cel_program *p, const cel_device *dev, const cel_val *globals,
                         const cel_eval_opts *opts, uint64_t *cost) {
  return program_eval(p, dev, globals, opts, cost);
}

static void fill_error(cel_error *err, const cel_val *v) {
  if (!err) return;
  snprintf(err->msg, sizeof err->msg, "%.*s", (int)v->len, v->s);
  err->cost_exceeded = strstr(err->msg, "actual cost limit exceeded") != NULL;
}

/* Any selector, with runtime cost accounting. */
static int select_costed(const cel_program *p, const cel_device *dev, const cel_eval_opts *opts, cel_error *err) {
  const cel_node *root = p->ast.root;
  if (root->test && !dev->error) { /* boolean fast path: no values built */
    cel_eval ev;
    cel_val device, e;
    if (p->ast.nslots || !root->fused) {
      setup(&ev, p, dev, NULL, opts, &device);
    } else { /* fused device comparisons read nothing but the device */
      cel_scratch_reset();
      ev.device = dev;
      ev.opts = opts;
      ev.cost = 0;
      ev.cost_limit = cost_limit(opts);
      ev.cost_exceeded = false;
      ev.stop.s = NULL;
    }
    int r = root->test(&ev, root, &e);
    if (opts && opts->actual_cost) *opts->actual_cost = ev.cost;
    if (!ev.cost_exceeded && r >= 0) return r;
    if (ev.cost_exceeded) e = ev.stop.s ? ev.stop : cel_err("operation cancelled: actual cost limit exceeded");
    fill_error(err, &e);
    return -1;
  }
  cel_val r = program_eval(p, dev, NULL, opts, opts ? opts->actual_cost : NULL);
  if (r.kind == V_BOOL) return r.b;
  if (r.kind != V_ERR) {
    if (err) {
      snprintf(err->msg, sizeof err->msg, "CEL result of type %s could not be converted to bool: type conversion error from '%s' to 'bool'",
               cel_val_type_name(&r), cel_val_type_name(&r));
      err->cost_exceeded = false;
    }
    return -1;
  }
  fill_error(err, &r);
  return -1;
}

/* A fused selector runs without cost accounting when its most cost fits the
 * limit: it can then never exceed it. */
static int select_fused(const cel_program *p, const cel_device *dev, const cel_eval_opts *opts, cel_error *err) {
  const cel_node *root = p->ast.root;
  if (!dev->error && root->max_cost <= cost_limit(opts) && !(opts && opts->actual_cost)) {
    int r = cel_test_fused(root, dev);
    if (r >= 0) return r;
  }
  return select_costed(p, dev, opts, err);
}

int cel_eval_selector(const cel_program *p, const cel_device *dev, const cel_eval_opts *opts, cel_error *err) {
  return p->select(p, dev, opts, err);
}

bool cel_eval_device(const cel_program *p, const cel_device *dev, const cel_eval_opts *opts, cel_attr_value *out,
                     cel_error *err) {
  cel_val r = cel_program_eval(p, dev, NULL, opts, opts ? opts->actual_cost : NULL);
  memset(out, 0, sizeof *out);
  switch (r.kind) {
  case V_ERR: fill_error(err, &r); return false;
  case V_INT: out->kind = CEL_ATTR_INT; out->i = r.i; return true;
  case V_BOOL: out->kind = CEL_ATTR_BOOL; out->b = r.b; return true;
  case V_STRING: out->kind = CEL_ATTR_STRING; out->str = (cel_str){r.s, r.len}; return true;
  case V_SEMVER: out->kind = CEL_ATTR_VERSION; out->ver = r.p; return true;
  case V_LIST: {
    if (r.len == 0) {
      out->kind = CEL_ATTR_STRINGS;
      return true;
    }
    cel_val first = cel_list_at(&r, 0);
    out->n = r.len;
    for (size_t i = 1; i < r.len; i++) {
      cel_val e = cel_list_at(&r, i);
      if (e.kind != first.kind) goto bad;
    }
    switch (first.kind) {
    case V_INT: {
      int64_t *v = cel_scratch_alloc(r.len * sizeof *v);
      for (size_t i = 0; i < r.len; i++) v[i] = cel_list_at(&r, i).i;
      out->kind = CEL_ATTR_INTS;
      out->ints = v;
      return true;
    }
    case V_BOOL: {
      bool *v = cel_scratch_alloc(r.len * sizeof *v);
      for (size_t i = 0; i < r.len; i++) v[i] = cel_list_at(&r, i).b;
      out->kind = CEL_ATTR_BOOLS;
      out->bools = v;
      return true;
    }
    case V_STRING: {
      cel_str *v = cel_scratch_alloc(r.len * sizeof *v);
      for (size_t i = 0; i < r.len; i++) {
        cel_val e = cel_list_at(&r, i);
        v[i] = (cel_str){e.s, e.len};
      }
      out->kind = CEL_ATTR_STRINGS;
      out->strs = v;
      return true;
    }
    case V_SEMVER: {
      semver *v = cel_scratch_alloc(r.len * sizeof *v);
      for (size_t i = 0; i < r.len; i++) v[i] = *(const semver *)cel_list_at(&r, i).p;
      out->kind = CEL_ATTR_VERSIONS;
      out->vers = v;
      return true;
    }
    default: goto bad;
    }
  }
  default:
  bad:
    if (err) {
      snprintf(err->msg, sizeof err->msg, "derived attribute value of type %s is not int, bool, string, semver or a list of one of them",
               cel_val_type_name(&r));
      err->cost_exceeded = false;
    }
    return false;
  }
}
