/* alloc_select.c: is a device selectable for a request (docs/allocator.md,
 * 'Selecting devices'): binding conditions gate, class then request CEL
 * selectors (memoised per request and per (program, device) across calls),
 * per-device node selection, and the request's derived attributes, evaluated
 * once per passing candidate. */
#include "alloc/alloc_internal.h"
#include "cel/cel_why.h"
#include "util/die.h"
#include <stdio.h>
#include <string.h>

static const cel_options selector_env = {
    .env = CEL_ENV_STORED_EXPRESSIONS, .consumable_capacity = true, .list_type_attributes = true};

/* The program for an expression: looked up once per index by the text's
 * address (and checked against a copy of the text), else through the
 * process-wide cache, whose reference the index then holds. */
static const cel_program *compile_locked(alloc_call *k, const char *expr, bool derived, strbuf *err) {
  /* Stored expressions: upstream allows list-valued derived attributes
   * whatever DRAListTypeAttributes says (cel/compile.go, validateOutputType). */
  bool list = true;
  const void *key2 = (const void *)(uintptr_t)(derived * 2 + list + 1);
  alloc_program *ap = alloc_map_get(&k->ix->programs, expr, key2, NULL);
  if (ap && !strcmp(ap->text, expr)) return ap->p;
  cel_options o = selector_env;
  o.derived = derived;
  o.list_type_attributes = !derived || list;
  cel_compile_result res = {0};
  const cel_program *p = cel_cache_get(expr, strlen(expr), &o, &res);
  if (!p) sb_puts(err, res.error ? res.error : "compile failed");
  else {
    alloc_index *ix = k->ix;
    ix->held_programs = xgrow(ix->held_programs, ix->n_held_programs, &ix->cap_held_programs,
                              sizeof *ix->held_programs, 8);
    ix->held_programs[ix->n_held_programs++] = p;
    if (!ap) {
      ap = arena_alloc(k->ix->a, sizeof *ap);
      alloc_map_put(&k->ix->programs, expr, key2, NULL, ap);
    }
    *ap = (alloc_program){arena_strdup(k->ix->a, expr), p};
  }
  cel_compile_result_free(&res);
  return p;
}

/* NULL with the compiler's message added to err when expr does not compile. */
static const cel_program *compile(alloc_call *k, const char *expr, bool derived, strbuf *err) {
  pthread_mutex_lock(&k->ix->lock);
  const cel_program *p = compile_locked(k, expr, derived, err);
  pthread_mutex_unlock(&k->ix->lock);
  return p;
}

static uintptr_t memo_get(alloc_index *ix, const cel_program *p, const alloc_dev *dv) {
  pthread_mutex_lock(&ix->lock);
  uintptr_t v = (uintptr_t)alloc_map_get(&ix->sel_memo, p, dv, NULL);
  pthread_mutex_unlock(&ix->lock);
  return v;
}

static void memo_put(alloc_index *ix, const cel_program *p, const alloc_dev *dv, bool r) {
  pthread_mutex_lock(&ix->lock);
  alloc_map_put(&ix->sel_memo, p, dv, NULL, (void *)(uintptr_t)(r ? 2 : 1));
  pthread_mutex_unlock(&ix->lock);
}

static void eval_opts(const alloc_call *k, cel_eval_opts *o) {
  memset(o, 0, sizeof *o);
  if (k->has_deadline) o->deadline_ns = (int64_t)k->deadline.tv_sec * 1000000000 + k->deadline.tv_nsec;
  o->cancel_cause = "context deadline exceeded";
}

/* 1 true, 0 false, -1 compile error, -2 runtime error (err filled). */
static int run_selector(alloc_call *k, const char *expr, const alloc_dev *dv, strbuf *err) {
  const cel_program *p = compile(k, expr, false, err);
  if (!p) return -1;
  uintptr_t memo = memo_get(k->ix, p, dv);
  if (memo) return memo == 2;
  cel_eval_opts o;
  eval_opts(k, &o);
  cel_error ce;
  int r = cel_eval_selector(p, &dv->view, &o, &ce);
  if (r < 0) {
    sb_puts(err, ce.msg);
    return -2;
  }
  memo_put(k->ix, p, dv, r);
  return r;
}

/* Runs a selector list: 1 all true, 0 one false, -1 error (reported unless
 * quiet). who_kind/who name the list's owner in messages ("class" / "claim"). */
static int run_list(alloc_call *k, const device_selector_list *l, const char *who_kind, const char *who,
                    const alloc_dev *dv, bool quiet) {
  for (uint32_t i = 0; i < l->n; i++) {
    const char *expr = l->items[i].cel && l->items[i].cel->expression ? l->items[i].cel->expression : "";
    strbuf err = STRBUF_INIT;
    int r = run_selector(k, expr, dv, &err);
    if (r > 0) continue; /* nothing was written to err */
    if (r < 0 && !quiet) {
      if (r == -1) alloc_errf(k, "%s %s: selector #%u: CEL compile error: %s", who_kind, who, i, sb_str(&err));
      else
        /* Kubernetes 1.37 adds a hint to "no such key" (cel.EnhanceRuntimeError
         * in k8s.io/dynamic-resource-allocation/cel/errors.go). */
        alloc_errf(k, "%s %s: selector #%u on device %s/%s/%s: CEL runtime error: %s%s", who_kind, who, i,
                   dv->driver->str, dv->pool->str, dv->name->str, sb_str(&err),
                   strstr(sb_str(&err), "no such key:") ? ". consider using CEL optional chaining (.? followed by "
                                                          "orValue()) or guarding the check with has() for optional fields"
                                                        : "");
    }
    sb_free(&err);
    return r == 0 ? 0 : -1;
  }
  return 1;
}

static const char *version_text(arena *a, const semver *v) {
  strbuf sb = STRBUF_INIT;
  semver_write(v, &sb);
  const char *text = arena_strdup(a, sb_str(&sb));
  sb_free(&sb);
  return text;
}

/* A derived value copied out of the evaluator's scratch memory. */
static void derived_value(arena *a, const cel_attr_value *v, aval *out) {
  memset(out, 0, sizeof *out);
  out->n = v->n;
  switch (v->kind) {
  case CEL_ATTR_INT: out->kind = AV_INT, out->i = v->i; break;
  case CEL_ATTR_BOOL: out->kind = AV_BOOL, out->b = v->b; break;
  case CEL_ATTR_STRING: out->kind = AV_STRING, out->s = arena_strndup(a, v->str.s, v->str.len); break;
  case CEL_ATTR_VERSION: out->kind = AV_VERSION, out->s = version_text(a, v->ver); break;
  case CEL_ATTR_INTS: {
    int64_t *x = arena_calloc(a, v->n + 1, sizeof *x);
    memcpy(x, v->ints, v->n * sizeof *x);
    out->kind = AV_INTS, out->ints = x;
    break;
  }
  case CEL_ATTR_BOOLS: {
    bool *x = arena_calloc(a, v->n + 1, sizeof *x);
    memcpy(x, v->bools, v->n * sizeof *x);
    out->kind = AV_BOOLS, out->bools = x;
    break;
  }
  case CEL_ATTR_STRINGS:
  case CEL_ATTR_VERSIONS: {
    char **x = arena_calloc(a, v->n + 1, sizeof *x);
    for (uint32_t i = 0; i < v->n; i++)
      x[i] = v->kind == CEL_ATTR_STRINGS ? arena_strndup(a, v->strs[i].s, v->strs[i].len)
                                         : (char *)version_text(a, &v->vers[i]);
    out->kind = v->kind == CEL_ATTR_STRINGS ? AV_STRINGS : AV_VERSIONS, out->strs = x;
    break;
  }
  }
}

/* r's derived attribute j on candidate ci, evaluated when first asked for:
 * upstream evaluates a derived attribute only when a constraint looks it up
 * (lookupAttribute in the experimental allocator), so a device no constraint
 * reaches never fails on one. 1 with *out set, -1 on an error (reported with
 * upstream's wording unless quiet; errors are not kept). */
int alloc_derived_value(alloc_call *k, preq *r, uint32_t ci, uint32_t j, bool quiet, aval *out) {
  size_t slot = (size_t)ci * r->derived->n + j;
  if (r->dset[slot]) {
    *out = r->dvals[slot];
    return 1;
  }
  const alloc_dev *dv = k->cands[ci].dev;
  const device_derived_attribute *da = &r->derived->items[j];
  const char *name = da->name ? da->name->str : "";
  strbuf err = STRBUF_INIT;
  const cel_program *p = compile(k, da->expression ? da->expression : "", true, &err);
  if (!p) {
    if (!quiet) alloc_errf(k, "compile derived attribute %s failed: %s", name, sb_str(&err));
    sb_free(&err);
    return -1;
  }
  cel_attr_value v;
  cel_error ce;
  cel_eval_opts o;
  eval_opts(k, &o);
  if (!cel_eval_device(p, &dv->view, &o, &v, &ce)) {
    if (!quiet)
      alloc_errf(k, "evaluate derived attribute %s on device %s/%s/%s failed: %s", name, dv->driver->str, dv->pool->str,
                 dv->name->str, ce.msg);
    return -1;
  }
  derived_value(k->a, &v, &r->dvals[slot]);
  r->dset[slot] = 1;
  *out = r->dvals[slot];
  return 1;
}

/* How far dv gets: SELECT_* (the stage that refused it, or SELECT_PASSED),
 * or -1 on an error (reported unless quiet). */
static int select_stage(alloc_call *k, preq *r, const alloc_dev *dv, bool quiet) {
  int s = run_list(k, &r->cls->spec.selectors, "class", r->cls->metadata.name ? r->cls->metadata.name : "", dv, quiet);
  if (s <= 0) return s < 0 ? -1 : SELECT_CLASS;
  s = run_list(k, r->sels, "claim", r->label, dv, quiet);
  if (s <= 0) return s < 0 ? -1 : SELECT_REQUEST;
  const resource_slice_spec *sp = &dv->slice->s->spec;
  if (!sp->per_device_node_selection_set || !sp->per_device_node_selection) return SELECT_PASSED;
  strbuf e = STRBUF_INIT;
  const device *d = dv->d;
  s = alloc_node_matches(k->nd, d->node_name, d->all_nodes_set && d->all_nodes, d->node_selector, &e);
  if (s < 0 && !quiet) alloc_errf(k, "%s", sb_str(&e));
  sb_free(&e);
  return s < 0 ? -1 : s ? SELECT_PASSED : SELECT_NODE;
}

const char *alloc_request_selectors_why(alloc_call *k, const preq *r, uint32_t ci) {
  const alloc_dev *dv = k->cands[ci].dev;
  for (uint32_t i = 0; i < r->sels->n; i++) {
    const char *expr = r->sels->items[i].cel && r->sels->items[i].cel->expression ? r->sels->items[i].cel->expression : "";
    strbuf why = STRBUF_INIT;
    if (cel_selector_why(expr, &selector_env, &dv->view, &why) == 1) continue;
    const char *text = arena_strdup(k->a, sb_str(&why));
    sb_free(&why);
    return text;
  }
  return "the request's selectors are false";
}

int alloc_select_stage(alloc_call *k, preq *r, uint32_t ci) { return select_stage(k, r, k->cands[ci].dev, false); }

int alloc_selectable(alloc_call *k, preq *r, uint32_t ci, bool quiet) {
  const alloc_dev *dv = k->cands[ci].dev;
  if (!k->f.binding && dv->has_binding_conditions) return 0;
  if (r->memo[ci]) return r->memo[ci] == 2;
  int s = select_stage(k, r, dv, quiet);
  if (s < 0) return quiet ? ALLOC_SELECT_UNSURE : -1; /* errors are never memoised */
  s = s == SELECT_PASSED;
  r->memo[ci] = s ? 2 : 1;
  return s;
}
