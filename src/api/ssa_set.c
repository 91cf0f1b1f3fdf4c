/* ssa_set.c: see ssa_set.h. Orders and texts follow structured-merge-diff's
 * fieldpath package (PathElement.Compare, Path.String). */
#include "api/ssa_set.h"
#include "api/ssa_pe_values.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

/* value.Compare's total order: numbers, strings, booleans, lists, maps, null. */
static int value_rank(const json_t *v) {
  if (json_is_number(v)) return 0;
  if (json_is_string(v)) return 1;
  if (json_is_boolean(v)) return 2;
  if (json_is_array(v)) return 3;
  if (json_is_object(v)) return 4;
  return 5;
}

static int cmp_double(double a, double b) { return a < b ? -1 : a > b; }

static int compare_values(const json_t *a, const json_t *b);

static int compare_keys(const void *x, const void *y) { return strcmp(*(const char *const *)x, *(const char *const *)y); }

static const char **sorted_keys(const json_t *o, size_t *n) {
  *n = json_object_size(o);
  const char **keys = xcalloc(*n + 1, sizeof *keys);
  size_t i = 0;
  const char *k;
  json_t *v;
  json_object_foreach((json_t *)o, k, v) keys[i++] = k;
  qsort(keys, *n, sizeof *keys, compare_keys);
  return keys;
}

/* Maps compare as their sorted (name, value) lists, lexically. */
static int compare_maps(const json_t *a, const json_t *b) {
  if (json_object_size(a) == 1 && json_object_size(b) == 1) { /* a list-map key of one field: the common case */
    void *ia = json_object_iter((json_t *)a), *ib = json_object_iter((json_t *)b);
    int c = strcmp(json_object_iter_key(ia), json_object_iter_key(ib));
    return c ? (c < 0 ? -1 : 1) : compare_values(json_object_iter_value(ia), json_object_iter_value(ib));
  }
  size_t na, nb;
  const char **ka = sorted_keys(a, &na), **kb = sorted_keys(b, &nb);
  int c = 0;
  for (size_t i = 0; !c; i++) {
    if (i >= na || i >= nb) {
      c = na == nb ? 0 : i >= na ? -1 : 1;
      break;
    }
    c = strcmp(ka[i], kb[i]);
    if (!c) c = compare_values(json_object_get(a, ka[i]), json_object_get(b, kb[i]));
  }
  free(ka);
  free(kb);
  return c;
}

static int compare_values(const json_t *a, const json_t *b) {
  int ra = value_rank(a), rb = value_rank(b);
  if (ra != rb) return ra < rb ? -1 : 1;
  switch (ra) {
  case 0:
    if (json_is_integer(a) && json_is_integer(b)) {
      json_int_t x = json_integer_value(a), y = json_integer_value(b);
      return x < y ? -1 : x > y;
    }
    return cmp_double(json_number_value(a), json_number_value(b));
  case 1: {
    int c = strcmp(json_string_value(a), json_string_value(b));
    return c < 0 ? -1 : c > 0;
  }
  case 2: return json_is_true(a) == json_is_true(b) ? 0 : json_is_true(a) ? 1 : -1;
  case 3:
    for (size_t i = 0;; i++) {
      if (i >= json_array_size(a) || i >= json_array_size(b))
        return json_array_size(a) == json_array_size(b) ? 0 : i >= json_array_size(a) ? -1 : 1;
      int c = compare_values(json_array_get(a, i), json_array_get(b, i));
      if (c) return c;
    }
  case 4: return compare_maps(a, b);
  default: return 0;
  }
}

int ssa_pe_compare(const ssa_pe *a, const ssa_pe *b) {
  if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
  switch (a->kind) {
  case SSA_PE_FIELD: {
    int c = strcmp(json_string_value(a->value), json_string_value(b->value));
    return c < 0 ? -1 : c > 0;
  }
  case SSA_PE_KEY: return compare_maps(a->value, b->value);
  case SSA_PE_VALUE: return compare_values(a->value, b->value);
  default: return a->index < b->index ? -1 : a->index > b->index;
  }
}

ssa_pe ssa_pe_field(const char *name) { return (ssa_pe){.kind = SSA_PE_FIELD, .value = ssa_pe_name_value(name)}; }

void ssa_pe_release(ssa_pe *pe) {
  json_decref(pe->value);
  pe->value = NULL;
}

static ssa_pe pe_copy(const ssa_pe *pe) {
  ssa_pe c = *pe;
  json_incref(c.value);
  return c;
}

bool ssa_set_equal(const ssa_set *a, const ssa_set *b) {
  if (a == b) return true;
  if (a->n_members != b->n_members || a->n_children != b->n_children) return false;
  for (size_t i = 0; i < a->n_members; i++)
    if (ssa_pe_compare(&a->members[i], &b->members[i])) return false;
  for (size_t i = 0; i < a->n_children; i++)
    if (ssa_pe_compare(&a->children[i].pe, &b->children[i].pe) || !ssa_set_equal(a->children[i].set, b->children[i].set))
      return false;
  return true;
}

ssa_set *ssa_set_new(void) { return xcalloc(1, sizeof(ssa_set)); }

ssa_set *ssa_set_hold(const ssa_set *s) {
  ssa_set *held = (ssa_set *)s; /* the count is bookkeeping, not the set */
  __atomic_add_fetch(&held->holds, 1, __ATOMIC_RELAXED);
  return held;
}

void ssa_set_free(ssa_set *s) {
  if (!s) return;
  if (__atomic_fetch_sub(&s->holds, 1, __ATOMIC_ACQ_REL)) return; /* 0: the last holder */
  for (size_t i = 0; i < s->n_members; i++) ssa_pe_release(&s->members[i]);
  for (size_t i = 0; i < s->n_children; i++) {
    ssa_pe_release(&s->children[i].pe);
    ssa_set_free(s->children[i].set);
  }
  free(s->members);
  free(s->children);
  free(s);
}

bool ssa_set_empty(const ssa_set *s) {
  if (s->n_members) return false;
  for (size_t i = 0; i < s->n_children; i++)
    if (!ssa_set_empty(s->children[i].set)) return false;
  return true;
}

/* Index of pe in a sorted array whose elements start with their path
 * element (members, children), or where it would go (*found false). */
static size_t search(const void *base, size_t n, size_t stride, const ssa_pe *pe, bool *found) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    int c = ssa_pe_compare((const ssa_pe *)((const char *)base + mid * stride), pe);
    if (!c) {
      *found = true;
      return mid;
    }
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  *found = false;
  return lo;
}

static size_t find_member(const ssa_set *s, const ssa_pe *pe, bool *found) {
  return search(s->members, s->n_members, sizeof *s->members, pe, found);
}

static size_t find_child(const ssa_set *s, const ssa_pe *pe, bool *found) {
  return search(s->children, s->n_children, sizeof *s->children, pe, found);
}

bool ssa_set_is_member(const ssa_set *s, const ssa_pe *pe) {
  bool found;
  find_member(s, pe, &found);
  return found;
}

ssa_set *ssa_set_child(const ssa_set *s, const ssa_pe *pe) {
  bool found;
  size_t i = find_child(s, pe, &found);
  return found ? s->children[i].set : NULL;
}

static void add_member(ssa_set *s, const ssa_pe *pe) {
  bool found;
  size_t i = find_member(s, pe, &found);
  if (found) return;
  if (s->n_members == s->cap_members) {
    s->cap_members = s->cap_members ? 2 * s->cap_members : 4;
    s->members = xrealloc(s->members, s->cap_members * sizeof *s->members);
  }
  memmove(&s->members[i + 1], &s->members[i], (s->n_members - i) * sizeof *s->members);
  s->members[i] = pe_copy(pe);
  s->n_members++;
}

/* The child at pe, made when missing. */
static ssa_set *child_at(ssa_set *s, const ssa_pe *pe) {
  bool found;
  size_t i = find_child(s, pe, &found);
  if (found && __atomic_load_n(&s->children[i].set->holds, __ATOMIC_ACQUIRE)) { /* shared: changed as a copy */
    ssa_set *copy = ssa_set_copy(s->children[i].set);
    ssa_set_free(s->children[i].set);
    s->children[i].set = copy;
  }
  if (found) return s->children[i].set;
  if (s->n_children == s->cap_children) {
    s->cap_children = s->cap_children ? 2 * s->cap_children : 4;
    s->children = xrealloc(s->children, s->cap_children * sizeof *s->children);
  }
  memmove(&s->children[i + 1], &s->children[i], (s->n_children - i) * sizeof *s->children);
  s->children[i] = (ssa_child){pe_copy(pe), ssa_set_new()};
  s->n_children++;
  return s->children[i].set;
}

void ssa_set_adopt(ssa_set *s, const ssa_pe *pe, ssa_set *c) {
  if (ssa_set_empty(c)) {
    ssa_set_free(c);
    return;
  }
  ssa_set *slot = child_at(s, pe);
  bool found;
  size_t i = find_child(s, pe, &found);
  ssa_set_free(slot);
  s->children[i].set = c;
}

void ssa_set_insert(ssa_set *s, const ssa_pe *path, size_t n) {
  if (!n) return;
  for (size_t i = 0; i + 1 < n; i++) s = child_at(s, &path[i]);
  add_member(s, &path[n - 1]);
}

bool ssa_set_has(const ssa_set *s, const ssa_pe *path, size_t n) {
  if (!n) return false;
  for (size_t i = 0; i + 1 < n && s; i++) s = ssa_set_child(s, &path[i]);
  return s && ssa_set_is_member(s, &path[n - 1]);
}

ssa_set *ssa_set_copy(const ssa_set *s) {
  ssa_set *c = ssa_set_new();
  for (size_t i = 0; i < s->n_members; i++) add_member(c, &s->members[i]);
  for (size_t i = 0; i < s->n_children; i++) ssa_set_adopt(c, &s->children[i].pe, ssa_set_copy(s->children[i].set));
  return c;
}

/* Appends pe (a copy) to s's members, after every one s has. */
static void push_member(ssa_set *s, const ssa_pe *pe) {
  if (s->n_members == s->cap_members) {
    s->cap_members = s->cap_members ? 2 * s->cap_members : 4;
    s->members = xrealloc(s->members, s->cap_members * sizeof *s->members);
  }
  s->members[s->n_members++] = pe_copy(pe);
}

/* Appends child (taken; dropped when empty) at pe (a copy), after every
 * child s has. */
static void push_child(ssa_set *s, const ssa_pe *pe, ssa_set *child) {
  if (ssa_set_empty(child)) {
    ssa_set_free(child);
    return;
  }
  if (s->n_children == s->cap_children) {
    s->cap_children = s->cap_children ? 2 * s->cap_children : 4;
    s->children = xrealloc(s->children, s->cap_children * sizeof *s->children);
  }
  s->children[s->n_children++] = (ssa_child){pe_copy(pe), child};
}

/* The operations below make their result by merging the sorted members
 * and children of their operands; a subtree the result has unchanged is
 * the operand's, held rather than copied, and a result equal to a whole
 * is a itself, held. */

ssa_set *ssa_set_union(const ssa_set *a, const ssa_set *b) {
  if (ssa_set_empty(b)) return ssa_set_hold(a);
  if (ssa_set_empty(a)) return ssa_set_hold(b);
  ssa_set *u = ssa_set_new();
  size_t i = 0, j = 0;
  while (i < a->n_members || j < b->n_members) {
    int c = i == a->n_members ? 1 : j == b->n_members ? -1 : ssa_pe_compare(&a->members[i], &b->members[j]);
    push_member(u, c <= 0 ? &a->members[i] : &b->members[j]);
    if (c <= 0) i++;
    if (c >= 0) j++;
  }
  for (i = 0, j = 0; i < a->n_children || j < b->n_children;) {
    int c = i == a->n_children   ? 1
            : j == b->n_children ? -1
                                 : ssa_pe_compare(&a->children[i].pe, &b->children[j].pe);
    if (c < 0) push_child(u, &a->children[i].pe, ssa_set_hold(a->children[i].set));
    else if (c > 0) push_child(u, &b->children[j].pe, ssa_set_hold(b->children[j].set));
    else push_child(u, &a->children[i].pe, ssa_set_union(a->children[i].set, b->children[j].set));
    if (c <= 0) i++;
    if (c >= 0) j++;
  }
  return u;
}

/* r, the result of an operation on a that made it member by member: a
 * itself (held) when r holds all of a, r otherwise. */
static ssa_set *a_when_whole(const ssa_set *a, ssa_set *r) {
  if (r->n_members != a->n_members || r->n_children != a->n_children) return r;
  for (size_t i = 0; i < r->n_children; i++)
    if (r->children[i].set != a->children[i].set) return r;
  ssa_set_free(r);
  return ssa_set_hold(a);
}

ssa_set *ssa_set_intersection(const ssa_set *a, const ssa_set *b) {
  ssa_set *x = ssa_set_new();
  for (size_t i = 0; i < a->n_members; i++)
    if (ssa_set_is_member(b, &a->members[i])) push_member(x, &a->members[i]);
  for (size_t i = 0; i < a->n_children; i++) {
    const ssa_set *theirs = ssa_set_child(b, &a->children[i].pe);
    if (theirs) push_child(x, &a->children[i].pe, ssa_set_intersection(a->children[i].set, theirs));
  }
  return a_when_whole(a, x);
}

/* a without b's members; recursive: nor anything under them. */
static ssa_set *difference(const ssa_set *a, const ssa_set *b, bool recursive) {
  if (!b->n_members && !b->n_children) return ssa_set_hold(a);
  ssa_set *d = ssa_set_new();
  for (size_t i = 0; i < a->n_members; i++)
    if (!ssa_set_is_member(b, &a->members[i])) push_member(d, &a->members[i]);
  for (size_t i = 0; i < a->n_children; i++) {
    const ssa_pe *pe = &a->children[i].pe;
    if (recursive && ssa_set_is_member(b, pe)) continue;
    const ssa_set *theirs = ssa_set_child(b, pe);
    push_child(d, pe, theirs ? difference(a->children[i].set, theirs, recursive) : ssa_set_hold(a->children[i].set));
  }
  return a_when_whole(a, d);
}

ssa_set *ssa_set_difference(const ssa_set *a, const ssa_set *b) { return difference(a, b, false); }

ssa_set *ssa_set_recursive_difference(const ssa_set *a, const ssa_set *b) { return difference(a, b, true); }

typedef struct path_stack {
  ssa_pe *items;
  size_t n, cap;
} path_stack;

static void push(path_stack *p, const ssa_pe *pe) {
  if (p->n == p->cap) {
    p->cap = p->cap ? 2 * p->cap : 8;
    p->items = xrealloc(p->items, p->cap * sizeof *p->items);
  }
  p->items[p->n++] = *pe;
}

static void iterate(const ssa_set *s, path_stack *p, ssa_path_fn fn, void *user) {
  for (size_t i = 0; i < s->n_members; i++) {
    push(p, &s->members[i]);
    fn(user, p->items, p->n);
    p->n--;
  }
  for (size_t i = 0; i < s->n_children; i++) {
    push(p, &s->children[i].pe);
    iterate(s->children[i].set, p, fn, user);
    p->n--;
  }
}

void ssa_set_iterate(const ssa_set *s, ssa_path_fn fn, void *user) {
  path_stack p = {0};
  iterate(s, &p, fn, user);
  free(p.items);
}

/* value.ToString: strings quoted as Go's %q, the rest as JSON. */
static void value_text(strbuf *out, const json_t *v) {
  if (json_is_string(v)) {
    sb_go_quote(out, json_string_value(v));
    return;
  }
  char *t = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_SORT_KEYS);
  sb_puts(out, t ? t : "null");
  free(t);
}

void ssa_path_text(strbuf *out, const ssa_pe *path, size_t n) {
  for (size_t i = 0; i < n; i++) {
    const ssa_pe *pe = &path[i];
    switch (pe->kind) {
    case SSA_PE_FIELD: sb_printf(out, ".%s", json_string_value(pe->value)); break;
    case SSA_PE_KEY: {
      size_t nk;
      const char **keys = sorted_keys(pe->value, &nk);
      sb_putc(out, '[');
      for (size_t k = 0; k < nk; k++) {
        if (k) sb_putc(out, ',');
        sb_printf(out, "%s=", keys[k]);
        value_text(out, json_object_get(pe->value, keys[k]));
      }
      sb_putc(out, ']');
      free(keys);
      break;
    }
    case SSA_PE_VALUE:
      sb_puts(out, "[=");
      value_text(out, pe->value);
      sb_putc(out, ']');
      break;
    default: sb_printf(out, "[%ld]", pe->index); break;
    }
  }
}
