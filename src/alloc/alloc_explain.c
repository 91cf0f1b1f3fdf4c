/* alloc_explain.c: why claims do not fit on a node (dra allocate --explain,
 * dra schedule --explain, kubectl dra explain; docs/kubectl-dra.md).
 * Each claim is looked at alone, against the devices already allocated:
 * per request and subrequest, how many devices survive each filter, why the
 * request's selectors refuse devices of the class (the first false operand
 * with the device's values, cel/cel_why.h), why the others are unavailable
 * (naming the holder claim and what it is reserved for), the nearest miss,
 * and for each constraint the device pairs it refuses with their values.
 * Then what would make the claims fit now (alloc_explain_fit.c). One JSON
 * document carries the data; the text form is rendered from it.
 *
 * JSON schema (-o json):
 *   {"node": str, "error": str?  (preparation failed: the allocator's error),
 *    "pools": [{"driver", "pool", "state": "ok"|"incomplete"|"invalid", "devices": int}],
 *    "claims": [{"claim": "ns/name",
 *      "requests": [{"request": "req" | "req/sub", "class": str, "mode": "ExactCount"|"All",
 *        "needed": int, "visible": int, "classSelected": int, "requestSelected": int,
 *        "free": int, "unavailable": [{"device": "driver/pool/device", "reason": str}],
 *        "refused": [{"device": devid, "why": str}]  (by the request's selectors),
 *        "error": str?, "nearestMiss": str?}],
 *      "constraints": [{"index": int, "kind": "matchAttribute"|"distinctAttribute",
 *        "attribute": str, "pairs": int, "failingPairs": int,
 *        "examples": [{"a": devid, "aRequest": str, "aValue": str,
 *                      "b": devid, "bRequest": str, "bValue": str}],
 *        "missingAttribute": [devid]}],
 *      "wouldFit": [{"request": str, "entry": "req/sub"?, "count": int, "asked": int}],
 *      "release": [{"claim": "ns/name", "reservedFor": str?, "devices": [devid]}]}]} */
#include "alloc/alloc_internal.h"
#include "codec/doc.h"
#include <stdio.h>
#include <string.h>

#define EXPLAIN_MAX_LISTED 8 /* devices and pairs listed per request or constraint */
#define EXPLAIN_MISSES 3      /* of each kind, named in the nearest miss */

static const char *devid(arena *a, const alloc_dev *dv) {
  return arena_cat(a, dv->driver->str, "/", dv->pool->str, "/", dv->name->str, NULL);
}

/* {"device": id, key: why}: json_pack("{s:s, s:s}") without parsing its
 * format for every device listed; NULL when a string is not UTF-8. */
static json_t *device_why(const char *id, const char *key, const char *why) {
  json_t *o = json_object(), *a = json_string(id), *b = json_string(why);
  if (!a || !b) {
    json_decref(a);
    json_decref(b);
    json_decref(o);
    return NULL;
  }
  json_object_set_new(o, "device", a);
  json_object_set_new(o, key, b);
  return o;
}

static const char *taint_text(arena *a, const device *d, const device_toleration_list *tols) {
  for (uint32_t i = 0; i < d->taints.n; i++) {
    const device_taint *x = &d->taints.items[i];
    device_taint_list one = {(device_taint *)x, 1, true};
    device one_dev = {.taints = one};
    if (!alloc_tolerated(&one_dev, tols))
      return arena_printf(a, "tainted %s=%s:%s, not tolerated", x->key ? x->key : "", x->value ? x->value : "",
                          x->effect ? x->effect : "");
  }
  return "tainted";
}

/* "default/train-7, reserved for pod default/t": a holder and its consumers. */
static const char *holder_text(arena *a, const char *holder, const alloc_explain_opts *opts) {
  if (!holder) return "another claim";
  strbuf users = STRBUF_INIT;
  if (opts->claim_consumers) opts->claim_consumers(opts->user, holder, &users);
  const char *text = users.len ? arena_cat(a, holder, ", reserved for ", sb_str(&users), NULL) : holder;
  sb_free(&users);
  return text;
}

/* Why a selected device cannot be taken now; NULL when it is free. */
static const char *why_unavailable(alloc_call *k, const preq *r, uint32_t ci, const alloc_explain_opts *opts) {
  const alloc_dev *dv = k->cands[ci].dev;
  if (!r->admin && dv->held && dv->held->exclusive) return arena_cat(k->a, "held by ", holder_text(k->a, dv->held->holder, opts), NULL);
  if (dv->d->consumes_counters.n) {
    if (!k->f.part) return "consumes counters, but DRAPartitionableDevices is disabled";
    if (!alloc_counters_charge(k, ci)) return "shared counters exhausted";
    alloc_counters_release(k, ci);
  }
  if (k->f.taints && !alloc_tolerated(dv->d, r->tols)) return taint_text(k->a, dv->d, r->tols);
  if (k->f.cap && !alloc_fits(k, ci, r)) return "not enough capacity left";
  return NULL;
}

/* Can the device be taken with any other free one: no shared counters to
 * run out of together, and a slice of this node's alone (so the result's
 * node selector is the node's name)? */
static bool plain_device(const alloc_dev *dv) {
  const resource_slice_spec *sp = &dv->slice->s->spec;
  bool per_device = sp->per_device_node_selection_set && sp->per_device_node_selection;
  return !dv->d->consumes_counters.n && !per_device && sp->node_name && sp->node_name[0];
}

typedef struct req_view {
  preq *r;
  uint32_t *free;
  uint32_t n_free;
  bool bounded; /* no device can be taken twice and none failed to select: n_free bounds the count */
  bool plain;   /* each free device can be taken with any others: no counters, node-local */
} req_view;

static json_t *request_report(alloc_call *k, preq *r, req_view *rv, const alloc_explain_opts *opts) {
  json_t *o = json_object();
  json_object_set_new(o, "request", json_string(r->result_name));
  json_object_set_new(o, "class", json_string(r->cls->metadata.name ? r->cls->metadata.name : ""));
  json_object_set_new(o, "mode", json_string(r->all ? "All" : "ExactCount"));
  json_object_set_new(o, "needed", json_integer(r->needed));
  json_t *unavailable = json_array(), *refused = json_array();
  uint32_t visible = 0, stage[SELECT_PASSED + 1] = {0};
  /* the devices nearest to being taken: selected but unavailable, then refused by the request */
  const char *held_miss[EXPLAIN_MISSES], *refused_miss[EXPLAIN_MISSES];
  uint32_t n_held_miss = 0, n_refused_miss = 0;
  rv->r = r;
  rv->free = arena_calloc(k->a, k->n_cands + 1, sizeof *rv->free);
  rv->bounded = true;
  rv->plain = !r->admin && !r->all;
  for (uint32_t ci = 0; ci < k->n_cands; ci++) {
    const alloc_dev *dv = k->cands[ci].dev;
    if (!k->f.binding && dv->has_binding_conditions) continue;
    visible++;
    int s = alloc_select_stage(k, r, ci);
    if (s < 0) {
      rv->bounded = false;
      json_object_set_new(o, "error", json_string(sb_str(&k->err)));
      sb_truncate(&k->err, 0);
      k->has_err = false;
      break;
    }
    stage[s]++;
    if (s == SELECT_REQUEST && json_array_size(refused) < EXPLAIN_MAX_LISTED) {
      const char *why = alloc_request_selectors_why(k, r, ci);
      json_array_append_new(refused, device_why(devid(k->a, dv), "why", why));
      if (n_refused_miss < EXPLAIN_MISSES) refused_miss[n_refused_miss++] = arena_cat(k->a, dv->name->str, ": ", why, NULL);
    }
    if (s != SELECT_PASSED) continue;
    if (alloc_is_multi(k, dv)) rv->bounded = false;
    const char *why = why_unavailable(k, r, ci, opts);
    if (!why) {
      rv->free[rv->n_free++] = ci;
      rv->plain &= plain_device(dv);
      continue;
    }
    if (json_array_size(unavailable) < EXPLAIN_MAX_LISTED)
      json_array_append_new(unavailable, device_why(devid(k->a, dv), "reason", why));
    if (n_held_miss < EXPLAIN_MISSES) held_miss[n_held_miss++] = arena_cat(k->a, dv->name->str, " ", why, NULL);
  }
  json_object_set_new(o, "visible", json_integer(visible));
  json_object_set_new(o, "classSelected", json_integer(visible - stage[SELECT_CLASS]));
  json_object_set_new(o, "requestSelected", json_integer(stage[SELECT_NODE] + stage[SELECT_PASSED]));
  json_object_set_new(o, "free", json_integer(rv->n_free));
  json_object_set_new(o, "unavailable", unavailable);
  json_object_set_new(o, "refused", refused);
  int64_t want = r->all ? stage[SELECT_PASSED] : r->needed;
  if ((int64_t)rv->n_free < want || (r->all && want == 0)) {
    strbuf m = STRBUF_INIT;
    sb_puts(&m, "needs ");
    sb_put_int(&m, r->all ? want : r->needed);
    sb_puts(&m, ", ");
    sb_put_uint(&m, rv->n_free);
    sb_puts(&m, " free");
    for (uint32_t i = 0; i < n_held_miss + n_refused_miss && i < EXPLAIN_MISSES; i++)
      sb_cat(&m, "; ", i < n_held_miss ? held_miss[i] : refused_miss[i - n_held_miss], NULL);
    json_object_set_new(o, "nearestMiss", json_string(sb_str(&m)));
    sb_free(&m);
  }
  return o;
}

/* A constraint value as text: "0", "a100", "[1, 2]". */
static const char *aval_text(arena *a, const aval *v) {
  bool list = v->kind >= AV_INTS;
  uint32_t n = list ? v->n : 1;
  strbuf sb = STRBUF_INIT;
  if (list) sb_putc(&sb, '[');
  for (uint32_t i = 0; i < n; i++) {
    if (i) sb_puts(&sb, ", ");
    switch (v->kind) {
    case AV_NONE: break;
    case AV_INT: sb_printf(&sb, "%lld", (long long)v->i); break;
    case AV_INTS: sb_printf(&sb, "%lld", (long long)v->ints[i]); break;
    case AV_BOOL: sb_puts(&sb, v->b ? "true" : "false"); break;
    case AV_BOOLS: sb_puts(&sb, v->bools[i] ? "true" : "false"); break;
    case AV_STRING:
    case AV_VERSION: sb_puts(&sb, v->s); break;
    case AV_STRINGS:
    case AV_VERSIONS: sb_puts(&sb, v->strs[i]); break;
    }
  }
  if (list) sb_putc(&sb, ']');
  const char *text = arena_strdup(a, sb_str(&sb));
  sb_free(&sb);
  return text;
}

/* Can views a and b each contribute a device to one allocation? */
static bool views_combine(const req_view *a, const req_view *b) {
  if (a == b) return a->r->needed >= 2;
  return !(a->r->is_sub && b->r->is_sub && a->r->parent == b->r->parent);
}

/* Device pairs the constraint refuses, among free devices that requests it
 * applies to could take together; each unordered device pair counted once. */
static json_t *constraint_report(alloc_call *k, pclaim *pc, uint32_t ti, req_view *views, uint32_t n_views) {
  const tracker *t = &pc->trk[ti];
  json_t *o = json_pack("{s:i, s:s, s:s}", "index", (json_int_t)ti, "kind", t->match ? "matchAttribute" : "distinctAttribute",
                        "attribute", t->attr.full->str);
  json_t *examples = json_array(), *missing = json_array();
  /* per candidate: the first applicable view offering it, or -1 */
  int32_t *first = arena_alloc(k->a, (k->n_cands + 1) * sizeof *first);
  bool *in = arena_calloc(k->a, (size_t)n_views * k->n_cands + 1, sizeof *in);
  for (uint32_t x = 0; x < k->n_cands; x++) first[x] = -1;
  for (uint32_t a = 0; a < n_views; a++) {
    if (!views[a].r->applies[ti]) continue;
    for (uint32_t i = 0; i < views[a].n_free; i++) {
      in[(size_t)a * k->n_cands + views[a].free[i]] = true;
      if (first[views[a].free[i]] < 0) first[views[a].free[i]] = (int32_t)a;
    }
  }
  long long pairs = 0, failing = 0;
  for (uint32_t x = 0; x < k->n_cands; x++) {
    if (first[x] < 0) continue;
    aval vx, vy;
    if (alloc_lookup_attr(k, views[first[x]].r, x, &t->attr, &vx, true) <= 0) {
      if (json_array_size(missing) < EXPLAIN_MAX_LISTED) json_array_append_new(missing, json_string(devid(k->a, k->cands[x].dev)));
      continue;
    }
    for (uint32_t y = x + 1; y < k->n_cands; y++) {
      if (first[y] < 0 || alloc_lookup_attr(k, views[first[y]].r, y, &t->attr, &vy, true) <= 0) continue;
      int32_t ax = -1, by = -1;
      for (uint32_t a = 0; a < n_views && ax < 0; a++)
        for (uint32_t b = 0; b < n_views && ax < 0; b++)
          if (in[(size_t)a * k->n_cands + x] && in[(size_t)b * k->n_cands + y] && views_combine(&views[a], &views[b]))
            ax = (int32_t)a, by = (int32_t)b;
      if (ax < 0) continue;
      pairs++;
      if (alloc_pair_ok(k, t->match, &vx, &vy)) continue;
      if (failing++ < EXPLAIN_MAX_LISTED)
        json_array_append_new(examples, json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "a", devid(k->a, k->cands[x].dev),
                                                  "aRequest", views[ax].r->result_name, "aValue", aval_text(k->a, &vx),
                                                  "b", devid(k->a, k->cands[y].dev), "bRequest",
                                                  views[by].r->result_name, "bValue", aval_text(k->a, &vy)));
    }
  }
  json_object_set_new(o, "pairs", json_integer(pairs));
  json_object_set_new(o, "failingPairs", json_integer(failing));
  json_object_set_new(o, "examples", examples);
  json_object_set_new(o, "missingAttribute", missing);
  return o;
}

/* The claim's report, and its fit bounds (alloc_internal.h). A claim of
 * one plain request and no constraints fits with any count up to the free
 * devices: nothing but their number can stop the search, which takes one
 * free device after the other (fewer than 1024 steps: no deadline is
 * checked), and the result pins the claim to the node. */
static json_t *claim_report(alloc_call *k, pclaim *pc, const alloc_explain_opts *opts, fit_bound **bounds) {
  json_t *o = json_pack("{s:s}", "claim", pc->label), *reqs = json_array(), *cons = json_array();
  uint32_t n_views = 0;
  for (uint32_t q = 0; q < pc->n_reqs; q++) n_views += pc->reqs[q].n_subs;
  req_view *views = arena_calloc(k->a, n_views + 1, sizeof *views);
  n_views = 0;
  for (uint32_t q = 0; q < pc->n_reqs; q++)
    for (uint32_t s = 0; s < pc->reqs[q].n_subs; s++)
      json_array_append_new(reqs, request_report(k, &pc->reqs[q].subs[s], &views[n_views++], opts));
  bool alone = pc->n_reqs == 1 && !pc->reqs[0].has_subs && !pc->n_trk;
  *bounds = arena_alloc(k->a, (n_views + 1) * sizeof **bounds);
  for (uint32_t v = 0; v < n_views; v++) {
    const req_view *rv = &views[v];
    bool few = ((uint64_t)k->n_cands + 2) * ((uint64_t)rv->r->needed + 1) <= 1000;
    (*bounds)[v] = (fit_bound){rv->bounded ? rv->n_free : INT64_MAX, rv->bounded && rv->plain && alone && few};
  }
  for (uint32_t ti = 0; ti < pc->n_trk; ti++) json_array_append_new(cons, constraint_report(k, pc, ti, views, n_views));
  json_object_set_new(o, "requests", reqs);
  json_object_set_new(o, "constraints", cons);
  return o;
}

static json_t *pools_report(const alloc_call *k) {
  static const char *const state[] = {"ok", "incomplete", "invalid"};
  json_t *v = json_array();
  for (uint32_t i = 0; i < k->n_pools; i++)
    json_array_append_new(v, json_pack("{s:s, s:s, s:s, s:i}", "driver", k->pools[i].driver->str, "pool", k->pools[i].name->str,
                                       "state", state[k->pools[i].state], "devices", (json_int_t)k->pools[i].n_cands));
  return v;
}

static const char *str(const json_t *o, const char *key) { return json_string_value(json_object_get(o, key)); }
static long long num(const json_t *o, const char *key) { return json_integer_value(json_object_get(o, key)); }

/* A string as printf's %s printed it: "(null)" when absent. */
static const char *text_of(const json_t *s) { return json_string_value(s) ? json_string_value(s) : "(null)"; }
static const char *text(const json_t *o, const char *key) { return text_of(json_object_get(o, key)); }

/* The number, then the end of the line. */
static void put_num_line(strbuf *sb, long long v) {
  sb_put_int(sb, v);
  sb_putc(sb, '\n');
}

/* The report is rendered for every node: by appending, not sb_printf. */
static void render_request(strbuf *sb, const json_t *r) {
  sb_cat(sb, "  request ", text(r, "request"), " (class ", text(r, "class"), ", ", text(r, "mode"), "): needs ", NULL);
  put_num_line(sb, num(r, "needed"));
  sb_puts(sb, "    devices the node can see: ");
  put_num_line(sb, num(r, "visible"));
  sb_puts(sb, "    passing class selectors: ");
  put_num_line(sb, num(r, "classSelected"));
  sb_puts(sb, "    passing request selectors: ");
  put_num_line(sb, num(r, "requestSelected"));
  size_t i;
  json_t *u;
  json_array_foreach(json_object_get(r, "refused"), i, u) sb_cat(sb, "      ", text(u, "device"), ": ", text(u, "why"), "\n", NULL);
  sb_puts(sb, "    free: ");
  put_num_line(sb, num(r, "free"));
  json_array_foreach(json_object_get(r, "unavailable"), i, u)
      sb_cat(sb, "      ", text(u, "device"), ": ", text(u, "reason"), "\n", NULL);
  if (str(r, "error")) sb_cat(sb, "    error: ", str(r, "error"), "\n", NULL);
  if (str(r, "nearestMiss")) sb_cat(sb, "    nearest miss: ", str(r, "nearestMiss"), "\n", NULL);
}

static void render_constraint(strbuf *sb, const json_t *c) {
  sb_printf(sb, "  constraint #%lld %s %s: %lld of %lld device pairs fail\n", num(c, "index"), str(c, "kind"),
            str(c, "attribute"), num(c, "failingPairs"), num(c, "pairs"));
  size_t i;
  json_t *e;
  json_array_foreach(json_object_get(c, "examples"), i, e)
      sb_printf(sb, "      %s (%s, %s %s) and %s (%s, %s %s)\n", str(e, "a"), str(e, "aRequest"), str(c, "attribute"),
                str(e, "aValue"), str(e, "b"), str(e, "bRequest"), str(c, "attribute"), str(e, "bValue"));
  json_array_foreach(json_object_get(c, "missingAttribute"), i, e)
      sb_printf(sb, "      %s has no attribute %s\n", json_string_value(e), str(c, "attribute"));
}

/* What would make the claims fit: a change to one request, or devices released. */
static void render_fit(strbuf *sb, const json_t *c) {
  const json_t *fits = json_object_get(c, "wouldFit"), *release = json_object_get(c, "release");
  if (!json_array_size(fits) && !json_array_size(release)) return;
  sb_puts(sb, "  would fit now with one of:\n");
  size_t i, j;
  json_t *f, *d;
  json_array_foreach(fits, i, f) {
    sb_cat(sb, "    request ", text(f, "request"), ": ", NULL);
    if (str(f, "entry")) sb_cat(sb, "firstAvailable entry ", str(f, "entry"), ", ", NULL);
    sb_puts(sb, "count ");
    sb_put_int(sb, num(f, "count"));
    sb_puts(sb, " instead of ");
    put_num_line(sb, num(f, "asked"));
  }
  json_array_foreach(release, i, f) {
    sb_cat(sb, "    claim ", text(f, "claim"), NULL);
    if (str(f, "reservedFor")) sb_cat(sb, " (reserved for ", str(f, "reservedFor"), ")", NULL);
    sb_puts(sb, " releasing");
    json_array_foreach(json_object_get(f, "devices"), j, d) sb_cat(sb, j ? ", " : " ", text_of(d), NULL);
    sb_putc(sb, '\n');
  }
}

static void render_text(strbuf *sb, const json_t *root) {
  size_t i, j;
  json_t *p, *c, *x;
  sb_cat(sb, "node ", text(root, "node"), ":\n", NULL);
  json_array_foreach(json_object_get(root, "pools"), i, p) {
    sb_cat(sb, "  pool ", text(p, "driver"), "/", text(p, "pool"), ": ", text(p, "state"), ", ", NULL);
    sb_put_int(sb, num(p, "devices"));
    sb_puts(sb, " devices\n");
  }
  if (str(root, "error")) sb_cat(sb, "error: ", str(root, "error"), "\n", NULL);
  json_array_foreach(json_object_get(root, "claims"), i, c) {
    sb_cat(sb, "claim ", text(c, "claim"), ":\n", NULL);
    json_array_foreach(json_object_get(c, "requests"), j, x) render_request(sb, x);
    json_array_foreach(json_object_get(c, "constraints"), j, x) render_constraint(sb, x);
    render_fit(sb, c);
  }
}

void alloc_explain(alloc_index *ix, const node *nd, const resource_claim *const *claims, size_t n,
                   const alloc_explain_opts *opts, strbuf *sb) {
  arena *a = arena_new();
  alloc_call k;
  alloc_call_init(&k, ix, nd, a);
  k.has_deadline = false;
  json_t *root = json_pack("{s:s}", "node", k.node_name ? k.node_name : "");
  json_t *list = json_array();
  if (alloc_gather_pools(&k) < 0 || alloc_prepare_claims(&k, claims, n) < 0) {
    json_object_set_new(root, "error", json_string(sb_str(&k.err)));
  } else {
    fit_bound **bounds = arena_alloc(a, (k.n_claims + 1) * sizeof *bounds);
    for (uint32_t c = 0; c < k.n_claims; c++) json_array_append_new(list, claim_report(&k, &k.claims[c], opts, &bounds[c]));
    alloc_explain_fit(ix, nd, claims, n, (const fit_bound *const *)bounds, opts, list);
  }
  json_object_set_new(root, "pools", pools_report(&k));
  json_object_set_new(root, "claims", list);
  if (opts->json) doc_write_json(sb, root);
  else render_text(sb, root);
  json_decref(root);
  sb_free(&k.err);
  arena_free(a);
}
