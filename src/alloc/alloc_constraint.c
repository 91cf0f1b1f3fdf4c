/* alloc_constraint.c: matchAttribute and distinctAttribute trackers
 * (docs/allocator.md, 'Constraints'), with two corrections to upstream: a
 * list-mode intersection is restored on undo and
 * distinctAttribute is pairwise over every device). Derived attributes of the
 * request shadow a driver attribute of the same name here, and only here. */
#include "alloc/alloc_internal.h"
#include <string.h>

void aval_from_attribute(const device_attribute *at, aval *out) {
  memset(out, 0, sizeof *out);
  if (at->int__set) out->kind = AV_INT, out->i = at->int_;
  else if (at->bool__set) out->kind = AV_BOOL, out->b = at->bool_;
  else if (at->string) out->kind = AV_STRING, out->s = at->string;
  else if (at->version) out->kind = AV_VERSION, out->s = at->version;
  else if (at->ints.set) out->kind = AV_INTS, out->n = at->ints.n, out->ints = at->ints.items;
  else if (at->bools.set) out->kind = AV_BOOLS, out->n = at->bools.n, out->bools = at->bools.items;
  else if (at->strings.set) out->kind = AV_STRINGS, out->n = at->strings.n, out->strs = at->strings.items;
  else if (at->versions.set) out->kind = AV_VERSIONS, out->n = at->versions.n, out->strs = at->versions.items;
}

bool alloc_constraint_applies(const device_constraint *dc, const preq *r) {
  if (!dc->requests.n) return true;
  for (uint32_t i = 0; i < dc->requests.n; i++) {
    const char *n = dc->requests.items[i];
    if (r->parent && !strcmp(n, r->parent->str)) return true;
    if (r->is_sub && !strcmp(n, r->result_name)) return true;
  }
  return false;
}

void attr_name_split(arena *a, const atom *full, attr_name *out) {
  const char *slash = strchr(full->str, '/');
  out->full = full;
  out->dom = slash ? atom_intern_in(a, full->str, (size_t)(slash - full->str)) : NULL;
  out->id = slash ? atom_cstr_in(a, slash + 1) : NULL;
}

int alloc_lookup_attr(alloc_call *k, preq *r, uint32_t ci, const attr_name *name, aval *out, bool quiet) {
  for (uint32_t j = 0; j < r->derived->n; j++)
    if (r->derived->items[j].name == name->full) return alloc_derived_value(k, r, ci, j, quiet, out);
  const alloc_dev *dv = k->cands[ci].dev;
  const device_attribute_map *m = &dv->d->attributes;
  const atom *id = dv->driver == name->dom ? name->id : NULL;
  for (int pass = 0; pass < 2; pass++)
    for (uint32_t i = 0; i < m->n; i++)
      if (m->items[i].key == (pass ? id : name->full) && m->items[i].key) {
        aval_from_attribute(&m->items[i].value, out);
        return 1;
      }
  return 0;
}

static bool is_scalar(const aval *a) { return a->kind >= AV_INT && a->kind <= AV_VERSION; }

bool aval_equal_scalar(const aval *a, const aval *b) {
  if (a->kind != b->kind) return false;
  switch (a->kind) {
  case AV_INT: return a->i == b->i;
  case AV_BOOL: return a->b == b->b;
  case AV_STRING:
  case AV_VERSION: return !strcmp(a->s, b->s);
  default: return false;
  }
}

/* List-mode (DRAListTypeAttributes) conversion to a typed set (a list-kind
 * aval); false: no set. */
static bool to_set(arena *a, const aval *v, aval *out) {
  *out = *v;
  switch (v->kind) {
  case AV_INTS:
  case AV_BOOLS:
  case AV_STRINGS:
  case AV_VERSIONS: return v->n > 0;
  case AV_INT: {
    int64_t *x = arena_alloc(a, sizeof *x);
    *x = v->i;
    *out = (aval){.kind = AV_INTS, .n = 1, .ints = x};
    return true;
  }
  case AV_BOOL: {
    bool *x = arena_alloc(a, sizeof *x);
    *x = v->b;
    *out = (aval){.kind = AV_BOOLS, .n = 1, .bools = x};
    return true;
  }
  case AV_STRING:
  case AV_VERSION: {
    char **x = arena_alloc(a, sizeof *x);
    *x = (char *)v->s;
    *out = (aval){.kind = v->kind == AV_STRING ? AV_STRINGS : AV_VERSIONS, .n = 1, .strs = x};
    return true;
  }
  default: return false;
  }
}

static bool elem_equal(const aval *a, uint32_t i, const aval *b, uint32_t j) {
  switch (a->kind) {
  case AV_INTS: return a->ints[i] == b->ints[j];
  case AV_BOOLS: return a->bools[i] == b->bools[j];
  default: return !strcmp(a->strs[i], b->strs[j]);
  }
}

static bool set_has(const aval *s, const aval *from, uint32_t i) {
  for (uint32_t j = 0; j < s->n; j++)
    if (elem_equal(from, i, s, j)) return true;
  return false;
}

/* a ∩ b (same element kind), keeping a's order; n == 0 when disjoint. */
static aval intersect(arena *ar, const aval *a, const aval *b) {
  aval out = {.kind = a->kind};
  if (a->kind != b->kind) return out;
  size_t width = a->kind == AV_INTS ? sizeof(int64_t) : a->kind == AV_BOOLS ? sizeof(bool) : sizeof(char *);
  char *buf = arena_alloc(ar, width * a->n + 1);
  for (uint32_t i = 0; i < a->n; i++)
    if (set_has(b, a, i)) memcpy(buf + width * out.n++, (const char *)a->ints + width * i, width);
  out.ints = (const int64_t *)buf;
  return out;
}

static bool disjoint(arena *ar, const aval *a, const aval *b) {
  aval sa, sb;
  if (!to_set(ar, a, &sa) || !to_set(ar, b, &sb)) return true;
  for (uint32_t i = 0; i < sa.n; i++)
    if (sa.kind == sb.kind && set_has(&sb, &sa, i)) return false;
  return true;
}

/* The value to store, or false when the tracker refuses v. */
static bool tracker_accepts(alloc_call *k, const tracker *t, const aval *v, aval *store) {
  *store = *v;
  if (t->n == 0) return !(t->match && k->f.list) || to_set(k->a, v, store);
  if (t->match && k->f.list) {
    aval s;
    if (!to_set(k->a, v, &s)) return false;
    *store = intersect(k->a, &t->e[t->n - 1].v, &s);
    return store->n > 0;
  }
  if (t->match) return is_scalar(v) && aval_equal_scalar(&t->e[0].v, v);
  if (k->f.list) {
    aval s;
    if (!to_set(k->a, v, &s)) return false;
    for (uint32_t i = 0; i < t->n; i++)
      if (!disjoint(k->a, &t->e[i].v, v)) return false;
    return true;
  }
  if (!is_scalar(v)) return false;
  for (uint32_t i = 0; i < t->n; i++)
    if (aval_equal_scalar(&t->e[i].v, v)) return false;
  return true;
}

static void tracker_push(arena *a, tracker *t, uint32_t rec, const aval *v) {
  if (t->n == t->cap) {
    uint32_t cap = t->cap ? t->cap * 2 : 8;
    t->e = arena_grow(a, t->e, t->cap * sizeof *t->e, cap * sizeof *t->e);
    t->cap = cap;
  }
  t->e[t->n++] = (tracker_entry){rec, *v};
}

void alloc_constraint_remove(pclaim *pc, uint32_t rec) {
  for (uint32_t i = 0; i < pc->n_trk; i++) {
    tracker *t = &pc->trk[i];
    if (t->n && t->e[t->n - 1].rec == rec) t->n--;
  }
}

int alloc_constraint_add(alloc_call *k, pclaim *pc, preq *r, uint32_t ci, uint32_t rec) {
  for (uint32_t i = 0; i < pc->n_trk; i++) {
    if (!r->applies[i]) continue;
    tracker *t = &pc->trk[i];
    aval v, store;
    int found = alloc_lookup_attr(k, r, ci, &t->attr, &v, false);
    if (found <= 0 || !tracker_accepts(k, t, &v, &store)) {
      alloc_constraint_remove(pc, rec);
      return found < 0 ? -1 : 0;
    }
    tracker_push(k->a, t, rec, &store);
  }
  return 1;
}

bool alloc_pair_ok(alloc_call *k, bool match, const aval *a, const aval *b) {
  tracker t = {.match = match};
  aval store;
  if (!tracker_accepts(k, &t, a, &store)) return false;
  tracker_push(k->a, &t, 0, &store);
  return tracker_accepts(k, &t, b, &store);
}
