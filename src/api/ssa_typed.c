/* ssa_typed.c: see ssa_typed.h. The walks follow structured-merge-diff's
 * typed package (tofieldset.go, compare.go, merge.go, remove.go). */
#include "api/ssa_typed.h"
#include "api/ssa_schema.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

#define SSA_MAX_DEPTH 100

typedef enum { SHAPE_LEAF, SHAPE_MAP, SHAPE_LIST } shape;

/* How a value of type t is walked: a leaf (scalars, atomic lists and maps,
 * values of no known type), a map or a granular list. */
static shape shape_of(int t, const json_t *v) {
  if (t == SSA_NO_TYPE) return SHAPE_LEAF;
  const ssa_type *ty = &ssa_types[t];
  switch (ty->kind) {
  case SSA_LIST: return ty->relation == SSA_ATOMIC ? SHAPE_LEAF : SHAPE_LIST;
  case SSA_MAP: return ty->relation == SSA_ATOMIC ? SHAPE_LEAF : SHAPE_MAP;
  case SSA_UNTYPED: return json_is_object(v) && ty->relation != SSA_ATOMIC ? SHAPE_MAP : SHAPE_LEAF;
  default: return SHAPE_LEAF;
  }
}

static int elem_of(int t) { return t == SSA_NO_TYPE ? SSA_NO_TYPE : ssa_types[t].elem; }

typedef struct path {
  ssa_pe *items;
  size_t n, cap;
} path;

static void push(path *p, ssa_pe pe) {
  if (p->n == p->cap) {
    p->cap = p->cap ? 2 * p->cap : 16;
    p->items = xrealloc(p->items, p->cap * sizeof *p->items);
  }
  p->items[p->n++] = pe;
}

static void pop(path *p) { ssa_pe_release(&p->items[--p->n]); }

/* The path element of a list item: its key fields, or for a set its value;
 * false with err when the item cannot be one. */
static bool item_pe(int list, const json_t *item, ssa_pe *pe, strbuf *err) {
  const ssa_type *ty = &ssa_types[list];
  if (ty->relation != SSA_ASSOCIATIVE) {
    sb_puts(err, "invalid indexing of non-associative list");
    return false;
  }
  if (ty->n_keys) {
    if (json_is_null(item)) {
      sb_puts(err, "associative list with keys may not have a null element");
      return false;
    }
    if (!json_is_object(item)) {
      sb_puts(err, "associative list with keys may not have non-map elements");
      return false;
    }
    json_t *key = json_object();
    for (uint32_t k = 0; k < ty->n_keys; k++) {
      const ssa_key *kd = &ssa_keys[ty->first_key + k];
      json_t *v = json_object_get(item, kd->name);
      if (v) json_object_set(key, kd->name, v);
      else if (kd->default_json) /* the item type's default stands in (getAssociativeKeyDefault) */
        json_object_set_new(key, kd->name, json_loads(kd->default_json, JSON_DECODE_ANY, NULL));
    }
    if (!json_object_size(key)) {
      json_decref(key);
      sb_puts(err, "associative list with keys has an element that omits all key fields [");
      for (uint32_t k = 0; k < ty->n_keys; k++) sb_printf(err, "%s\"%s\"", k ? " " : "", ssa_keys[ty->first_key + k].name);
      sb_puts(err, "] (and doesn't have default values for any key fields)");
      return false;
    }
    *pe = (ssa_pe){.kind = SSA_PE_KEY, .value = key};
    return true;
  }
  if (json_is_object(item)) sb_puts(err, "associative list without keys has an element that's a map type");
  else if (json_is_array(item)) sb_puts(err, "not supported: associative list with lists as elements");
  else if (json_is_null(item)) sb_puts(err, "associative list without keys has an element that's an explicit null");
  else {
    *pe = (ssa_pe){.kind = SSA_PE_VALUE, .value = json_incref((json_t *)item)};
    return true;
  }
  return false;
}

static void prefix_error(strbuf *err, const path *p) {
  strbuf where = STRBUF_INIT;
  ssa_path_text(&where, p->items, p->n);
  if (where.len) {
    sb_puts(&where, ": ");
    sb_add(&where, err->buf, err->len);
    sb_free(err);
    *err = where;
  } else sb_free(&where);
}

/* ---- ToFieldSet ---- */

static bool to_set(const json_t *v, int t, path *p, ssa_set *out, strbuf *err, int depth) {
  if (depth > SSA_MAX_DEPTH) {
    sb_puts(err, "the object nests too deep");
    return false;
  }
  switch (shape_of(t, v)) {
  case SHAPE_LEAF: ssa_set_insert(out, p->items, p->n); return true;
  case SHAPE_LIST: {
    if (!json_is_array(v)) return true;
    size_t i;
    json_t *item;
    json_array_foreach(v, i, item) {
      ssa_pe pe;
      if (!item_pe(t, item, &pe, err)) return false;
      push(p, pe);
      bool ok = to_set(item, elem_of(t), p, out, err, depth + 1);
      if (ok) ssa_set_insert(out, p->items, p->n);
      pop(p);
      if (!ok) return false;
    }
    return true;
  }
  default: {
    if (!json_is_object(v)) return true;
    const char *key;
    json_t *child;
    json_object_foreach((json_t *)v, key, child) {
      int named;
      int ct = ssa_field_type(t, key, &named);
      push(p, ssa_pe_field(key));
      if (ct == SSA_NO_TYPE) {
        sb_puts(err, "field not declared in schema");
        prefix_error(err, p);
        pop(p);
        return false;
      }
      bool ok = to_set(child, ct, p, out, err, depth + 1);
      if (ok && (json_is_null(child) || (json_is_object(child) && !json_object_size(child)) || !named))
        ssa_set_insert(out, p->items, p->n);
      pop(p);
      if (!ok) return false;
    }
    return true;
  }
  }
}

bool ssa_to_set(const json_t *v, int type, ssa_set *out, strbuf *err) {
  path p = {0};
  bool ok = to_set(v, type, &p, out, err, 0);
  while (p.n) pop(&p);
  free(p.items);
  return ok;
}

/* ---- Compare ---- */

typedef struct item_group {
  ssa_pe pe;
  const json_t *l[2], *r[2]; /* the first two items with this element on each side */
  size_t nl, nr;
} item_group;

typedef struct item_index {
  item_group *g;
  size_t n;
} item_index;

typedef struct side_item {
  ssa_pe pe;
  int side; /* 0: lhs, 1: rhs */
  size_t order;
  const json_t *item;
} side_item;

static int compare_side_items(const void *x, const void *y) {
  const side_item *a = x, *b = y;
  int c = ssa_pe_compare(&a->pe, &b->pe);
  return c ? c : a->order < b->order ? -1 : a->order > b->order;
}

/* Items of both lists grouped by path element (sorted, so that large
 * lists cost n log n). */
static item_index index_items(int t, const json_t *l, const json_t *r) {
  size_t cap = (json_is_array(l) ? json_array_size(l) : 0) + (json_is_array(r) ? json_array_size(r) : 0), n = 0;
  side_item *all = xcalloc(cap + 1, sizeof *all);
  for (int side = 0; side < 2; side++) {
    const json_t *list = side ? r : l;
    size_t i;
    json_t *item;
    if (!json_is_array(list)) continue;
    json_array_foreach(list, i, item) {
      strbuf err = STRBUF_INIT;
      if (item_pe(t, item, &all[n].pe, &err)) {
        all[n].side = side, all[n].order = n, all[n].item = item;
        n++;
      }
      sb_free(&err);
    }
  }
  qsort(all, n, sizeof *all, compare_side_items);
  item_index x = {xcalloc(n + 1, sizeof(item_group)), 0};
  for (size_t i = 0; i < n; i++) {
    item_group *g = x.n && !ssa_pe_compare(&x.g[x.n - 1].pe, &all[i].pe) ? &x.g[x.n - 1] : NULL;
    if (!g) {
      g = &x.g[x.n++];
      g->pe = all[i].pe;
    } else ssa_pe_release(&all[i].pe);
    size_t *count = all[i].side ? &g->nr : &g->nl;
    if (*count < 2) (all[i].side ? g->r : g->l)[*count] = all[i].item;
    (*count)++;
  }
  free(all);
  return x;
}

static void free_index(item_index *x) {
  for (size_t i = 0; i < x->n; i++) ssa_pe_release(&x->g[i].pe);
  free(x->g);
}

static bool empty_or_absent(const json_t *v) {
  return !v || json_is_null(v) || (json_is_array(v) && !json_array_size(v)) ||
         (json_is_object(v) && !json_object_size(v));
}

static void compare(const json_t *l, const json_t *r, int t, path *p, ssa_comparison *c, int depth);

static bool same_items(const item_group *g) {
  if (g->nl != g->nr || g->nl > 2) return false;
  for (size_t i = 0; i < g->nl; i++)
    if (!json_equal(g->l[i], g->r[i])) return false;
  return true;
}

static void compare_items(int t, const json_t *l, const json_t *r, path *p, ssa_comparison *c, int depth) {
  item_index x = index_items(t, l, r);
  for (size_t i = 0; i < x.n; i++) {
    item_group *g = &x.g[i];
    push(p, g->pe);
    json_incref(g->pe.value);
    if (g->nl <= 1 && g->nr <= 1) compare(g->nl ? g->l[0] : NULL, g->nr ? g->r[0] : NULL, elem_of(t), p, c, depth + 1);
    else if (g->nl >= 2 && g->nr >= 2) {
      if (!same_items(g)) ssa_set_insert(c->modified, p->items, p->n);
    } else if (g->nl >= 2) {
      if (g->nr) compare(NULL, g->r[0], elem_of(t), p, c, depth + 1);
      ssa_set_insert(c->removed, p->items, p->n);
    } else {
      if (g->nl) compare(g->l[0], NULL, elem_of(t), p, c, depth + 1);
      ssa_set_insert(c->added, p->items, p->n);
    }
    pop(p);
  }
  free_index(&x);
}

static void compare(const json_t *l, const json_t *r, int t, path *p, ssa_comparison *c, int depth) {
  if (depth > SSA_MAX_DEPTH) return;
  shape s = shape_of(t, r ? r : l);
  bool leaf = s == SHAPE_LEAF || (empty_or_absent(l) && empty_or_absent(r));
  if (leaf) {
    if (!l) ssa_set_insert(c->added, p->items, p->n);
    else if (!r) ssa_set_insert(c->removed, p->items, p->n);
    else if (!json_equal(l, r)) ssa_set_insert(c->modified, p->items, p->n);
    return;
  }
  if (s == SHAPE_LIST) compare_items(t, l, r, p, c, depth);
  else {
    const char *key;
    json_t *v;
    if (json_is_object(l)) json_object_foreach((json_t *)l, key, v) {
        push(p, ssa_pe_field(key));
        compare(v, json_is_object(r) ? json_object_get(r, key) : NULL, ssa_field_type(t, key, NULL), p, c, depth + 1);
        pop(p);
      }
    if (json_is_object(r)) json_object_foreach((json_t *)r, key, v) {
        if (json_is_object(l) && json_object_get(l, key)) continue;
        push(p, ssa_pe_field(key));
        compare(NULL, v, ssa_field_type(t, key, NULL), p, c, depth + 1);
        pop(p);
      }
  }
  if (!l) ssa_set_insert(c->added, p->items, p->n);
  else if (!r) ssa_set_insert(c->removed, p->items, p->n);
}

ssa_comparison ssa_compare(const json_t *lhs, const json_t *rhs, int type) {
  ssa_comparison c = {ssa_set_new(), ssa_set_new(), ssa_set_new()};
  path p = {0};
  compare(lhs, rhs, type, &p, &c, 0);
  free(p.items);
  return c;
}

void ssa_comparison_free(ssa_comparison *c) {
  ssa_set_free(c->added);
  ssa_set_free(c->modified);
  ssa_set_free(c->removed);
}

/* ---- Merge ---- */

static json_t *merge(const json_t *l, const json_t *r, int t, path *p, strbuf *err, int depth);

typedef struct pe_list {
  ssa_pe *pe;
  const json_t **item; /* NULL for a duplicate */
  size_t n;
  struct pe_at *sorted; /* ordered by pe, then index: lookups in log n */
} pe_list;

typedef struct pe_at {
  const ssa_pe *pe;
  size_t index;
} pe_at;

static int compare_pe_at(const void *x, const void *y) {
  const pe_at *a = x, *b = y;
  int c = ssa_pe_compare(a->pe, b->pe);
  return c ? c : a->index < b->index ? -1 : a->index > b->index;
}

static bool list_pes(int t, const json_t *list, bool allow_duplicates, pe_list *out, path *p, strbuf *err) {
  size_t n = json_is_array(list) ? json_array_size(list) : 0;
  out->pe = xcalloc(n + 1, sizeof *out->pe);
  out->item = xcalloc(n + 1, sizeof *out->item);
  out->n = 0;
  for (size_t i = 0; i < n; i++) {
    const json_t *item = json_array_get(list, i);
    ssa_pe pe;
    if (!item_pe(t, item, &pe, err)) {
      strbuf e = STRBUF_INIT;
      sb_printf(&e, "element %zu: %s", i, sb_str(err));
      sb_free(err);
      *err = e;
      prefix_error(err, p);
      return false;
    }
    out->pe[out->n] = pe;
    out->item[out->n] = item;
    out->n++;
  }
  out->sorted = xcalloc(out->n + 1, sizeof *out->sorted);
  for (size_t i = 0; i < out->n; i++) out->sorted[i] = (pe_at){&out->pe[i], i};
  qsort(out->sorted, out->n, sizeof *out->sorted, compare_pe_at);
  for (size_t i = 0; i + 1 < out->n; i++) {
    size_t a = out->sorted[i].index, b = out->sorted[i + 1].index;
    if (ssa_pe_compare(&out->pe[a], &out->pe[b])) continue;
    if (!allow_duplicates) {
      sb_puts(err, "duplicate entries for key ");
      ssa_path_text(err, &out->pe[b], 1);
      prefix_error(err, p);
      return false;
    }
    out->item[a] = out->item[b] = NULL; /* a duplicated element has no one item */
  }
  return true;
}

static void free_pes(pe_list *l) {
  for (size_t i = 0; i < l->n; i++) ssa_pe_release(&l->pe[i]);
  free(l->pe);
  free(l->item);
  free(l->sorted);
}

/* The first index holding pe, or -1. */
static long pe_find(const pe_list *l, const ssa_pe *pe) {
  size_t lo = 0, hi = l->n;
  while (lo < hi) { /* the first of the equal ones */
    size_t mid = (lo + hi) / 2;
    if (ssa_pe_compare(l->sorted[mid].pe, pe) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo < l->n && !ssa_pe_compare(l->sorted[lo].pe, pe) ? (long)l->sorted[lo].index : -1;
}

/* The item of an element, as observed (NULL for duplicates). */
static const json_t *observed(const pe_list *l, const ssa_pe *pe) {
  long i = pe_find(l, pe);
  return i < 0 ? NULL : l->item[i];
}

static bool merge_item(int t, const ssa_pe *pe, const json_t *l, const json_t *r, json_t *out, path *p, strbuf *err,
                       int depth) {
  ssa_pe own = *pe;
  json_incref(own.value);
  push(p, own);
  json_t *m = l || r ? merge(l, r, elem_of(t), p, err, depth + 1) : NULL;
  bool ok = !err->len;
  pop(p);
  if (m) json_array_append_new(out, m);
  return ok;
}

/* Items in the applied order, live items the configuration does not name
 * kept where they were (merge.go visitListItems). */
static json_t *merge_list(const json_t *l, const json_t *r, int t, path *p, strbuf *err, int depth) {
  pe_list lp = {0}, rp = {0};
  json_t *out = NULL;
  if (!list_pes(t, r, false, &rp, p, err) || !list_pes(t, l, true, &lp, p, err)) goto done;
  out = json_array();
  bool *merged = xcalloc(rp.n + 1, sizeof *merged);
  size_t *shared = xcalloc(rp.n + 1, sizeof *shared), n_shared = 0, next = 0;
  for (size_t i = 0; i < rp.n; i++)
    if (pe_find(&lp, &rp.pe[i]) >= 0) shared[n_shared++] = i;
  size_t li = 0, ri = 0;
  while (li < lp.n || ri < rp.n) {
    if (li < lp.n && ri < rp.n) {
      if (!ssa_pe_compare(&lp.pe[li], &rp.pe[ri])) {
        merged[ri] = true;
        if (!merge_item(t, &lp.pe[li], observed(&lp, &lp.pe[li]), observed(&rp, &rp.pe[ri]), out, p, err, depth)) break;
        li++, ri++;
        next++;
        continue;
      }
      if (pe_find(&rp, &lp.pe[li]) >= 0 && next < n_shared && ssa_pe_compare(&rp.pe[shared[next]], &lp.pe[li])) {
        li++;
        continue;
      }
    }
    if (li < lp.n) {
      long in_r = pe_find(&rp, &lp.pe[li]);
      if (in_r < 0) {
        if (!merge_item(t, &lp.pe[li], json_array_get(l, li), NULL, out, p, err, depth)) break;
        li++;
        continue;
      }
      if (merged[in_r]) li++;
    }
    if (ri < rp.n) {
      merged[ri] = true;
      if (!merge_item(t, &rp.pe[ri], observed(&lp, &rp.pe[ri]), observed(&rp, &rp.pe[ri]), out, p, err, depth)) break;
      if (next < n_shared && !ssa_pe_compare(&rp.pe[shared[next]], &rp.pe[ri])) next++;
      ri++;
    }
  }
  free(merged);
  free(shared);
  if (err->len || !json_array_size(out)) {
    json_decref(out);
    out = NULL;
  }
done:
  free_pes(&lp);
  free_pes(&rp);
  return out;
}

static json_t *merge(const json_t *l, const json_t *r, int t, path *p, strbuf *err, int depth) {
  if (depth > SSA_MAX_DEPTH) {
    sb_puts(err, "the object nests too deep");
    return NULL;
  }
  shape s = shape_of(t, r ? r : l);
  if (s == SHAPE_LEAF || (empty_or_absent(l) && empty_or_absent(r))) return json_deep_copy(r ? r : l);
  if (s == SHAPE_LIST) return merge_list(json_is_array(l) ? l : NULL, json_is_array(r) ? r : NULL, t, p, err, depth);
  json_t *out = json_object();
  const char *key;
  json_t *v;
  for (int side = 0; side < 2; side++) {
    const json_t *m = side ? r : l;
    if (!json_is_object(m)) continue;
    json_object_foreach((json_t *)m, key, v) {
      if (side == 0 && json_is_object(r) && json_object_get(r, key)) continue; /* merged from the right */
      const json_t *lv = json_is_object(l) ? json_object_get(l, key) : NULL;
      push(p, ssa_pe_field(key));
      json_t *child = merge(side ? lv : v, side ? v : NULL, ssa_field_type(t, key, NULL), p, err, depth + 1);
      pop(p);
      if (err->len) {
        json_decref(child);
        json_decref(out);
        return NULL;
      }
      if (child) json_object_set_new(out, key, child);
    }
  }
  return out;
}

json_t *ssa_merge(const json_t *lhs, const json_t *rhs, int type, strbuf *err) {
  path p = {0};
  json_t *out = merge(lhs, rhs, type, &p, err, 0);
  free(p.items);
  if (err->len) {
    json_decref(out);
    return NULL;
  }
  return out ? out : json_object();
}

/* ---- RemoveItems ---- */

static json_t *remove_items(const json_t *v, int t, const ssa_set *set, int depth) {
  if (depth > SSA_MAX_DEPTH) return json_deep_copy(v);
  shape s = shape_of(t, v);
  if (s == SHAPE_LIST && json_is_array(v) && json_array_size(v)) {
    json_t *out = json_array();
    size_t i;
    json_t *item;
    json_array_foreach(v, i, item) {
      ssa_pe pe;
      strbuf err = STRBUF_INIT;
      bool keyed = item_pe(t, item, &pe, &err);
      sb_free(&err);
      if (!keyed) {
        json_array_append(out, item);
        continue;
      }
      const ssa_set *child = ssa_set_child(set, &pe);
      if (!ssa_set_is_member(set, &pe)) {
        json_t *kept = child && !ssa_set_empty(child) ? remove_items(item, elem_of(t), child, depth + 1) : NULL;
        json_array_append_new(out, kept ? kept : json_deep_copy(item));
      }
      ssa_pe_release(&pe);
    }
    if (json_array_size(out)) return out;
    json_decref(out);
    return NULL;
  }
  if (s == SHAPE_MAP && json_is_object(v) && json_object_size(v)) {
    json_t *out = json_object();
    const char *key;
    json_t *child;
    json_object_foreach((json_t *)v, key, child) {
      ssa_pe pe = ssa_pe_field(key);
      const ssa_set *sub = ssa_set_child(set, &pe);
      if (!ssa_set_is_member(set, &pe)) {
        json_t *kept = sub && !ssa_set_empty(sub) ? remove_items(child, ssa_field_type(t, key, NULL), sub, depth + 1)
                                                 : json_deep_copy(child);
        if (kept) json_object_set_new(out, key, kept);
      }
      ssa_pe_release(&pe);
    }
    if (json_object_size(out)) return out;
    json_decref(out);
    return NULL;
  }
  return json_deep_copy(v);
}

json_t *ssa_remove_items(const json_t *v, int type, const ssa_set *set) {
  json_t *out = remove_items(v, type, set, 0);
  return out ? out : json_object();
}

/* ---- EnsureNamedFieldsAreMembers ---- */

static ssa_set *ensure_named(const ssa_set *s, int t, int depth) {
  ssa_set *out = ssa_set_new();
  for (size_t i = 0; i < s->n_members; i++) ssa_set_insert(out, &s->members[i], 1);
  bool is_map = t != SSA_NO_TYPE && (ssa_types[t].kind == SSA_MAP || ssa_types[t].kind == SSA_UNTYPED);
  for (size_t i = 0; i < s->n_children; i++) {
    const ssa_pe *pe = &s->children[i].pe;
    int ct = elem_of(t), named = 0;
    if (pe->kind == SSA_PE_FIELD && is_map) ct = ssa_field_type(t, json_string_value(pe->value), &named);
    if (named) ssa_set_insert(out, pe, 1);
    if (depth > SSA_MAX_DEPTH) continue;
    ssa_set_adopt(out, pe, ensure_named(s->children[i].set, ct, depth + 1));
  }
  return out;
}

ssa_set *ssa_ensure_named_members(const ssa_set *set, int type) { return ensure_named(set, type, 0); }
