/* ssa_set.h: sets of field paths, as structured-merge-diff's fieldpath.Set:
 * a tree whose nodes hold the path elements that are members and the
 * children reached through others. A path element is a field name, the
 * key fields of a list-map item, the value of a set item, or a list index.
 * Also the path text conflicts print (".spec.devices[name=\"gpu\"]");
 * their FieldsV1 form is ssa_fields.h's. */
#ifndef DRA_API_SSA_SET_H
#define DRA_API_SSA_SET_H
#include "util/strbuf.h"
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

typedef enum { SSA_PE_FIELD, SSA_PE_KEY, SSA_PE_VALUE, SSA_PE_INDEX } ssa_pe_kind;

/* FIELD: value is the name (a JSON string); KEY: a JSON object of the key
 * fields; VALUE: the item; INDEX: index. value is owned (a reference). */
typedef struct ssa_pe {
  ssa_pe_kind kind;
  json_t *value;
  long index;
} ssa_pe;

typedef struct ssa_set ssa_set;
typedef struct ssa_child {
  ssa_pe pe; /* first: children are searched as members are (ssa_set.c) */
  ssa_set *set;
} ssa_child;
struct ssa_set {
  size_t holds;    /* holders beyond the first (ssa_set_hold, atomic); ssa_set_free lets one go */
  ssa_pe *members; /* sorted, as PathElement.Compare orders them */
  size_t n_members, cap_members;
  ssa_child *children; /* sorted by pe */
  size_t n_children, cap_children;
};

/* A path: elements from the root, borrowed. */
typedef struct ssa_path {
  const ssa_pe *items;
  size_t n;
} ssa_path;

ssa_set *ssa_set_new(void);
/* Lets go of s: freed once no holder is left. */
void ssa_set_free(ssa_set *s);
/* s with one more holder (a set and its subtrees may have several: the
 * operations below share what their result has unchanged). A set with
 * holders is not changed in place: ssa_set_insert and ssa_set_adopt are
 * for a set being built, and copy a shared subtree they go into. */
ssa_set *ssa_set_hold(const ssa_set *s);
ssa_set *ssa_set_copy(const ssa_set *s);
bool ssa_set_empty(const ssa_set *s);
/* Whether a and b hold the same paths (fieldpath.Set.Equals). */
bool ssa_set_equal(const ssa_set *a, const ssa_set *b);
/* Makes path a member (children created on the way). */
void ssa_set_insert(ssa_set *s, const ssa_pe *path, size_t n);
bool ssa_set_has(const ssa_set *s, const ssa_pe *path, size_t n);
/* The child node at pe, or NULL. */
ssa_set *ssa_set_child(const ssa_set *s, const ssa_pe *pe);
bool ssa_set_is_member(const ssa_set *s, const ssa_pe *pe);
/* Puts child (taken) at pe; dropped when empty. */
void ssa_set_adopt(ssa_set *s, const ssa_pe *pe, ssa_set *child);
ssa_set *ssa_set_union(const ssa_set *a, const ssa_set *b);
ssa_set *ssa_set_intersection(const ssa_set *a, const ssa_set *b);
ssa_set *ssa_set_difference(const ssa_set *a, const ssa_set *b);
/* a without b's members and without everything under them (upstream's
 * ExcludeSetFilter: fieldpath.Set.RecursiveDifference). */
ssa_set *ssa_set_recursive_difference(const ssa_set *a, const ssa_set *b);
/* Every member path, members of a node before its children's, in order. */
typedef void (*ssa_path_fn)(void *user, const ssa_pe *path, size_t n);
void ssa_set_iterate(const ssa_set *s, ssa_path_fn fn, void *user);

int ssa_pe_compare(const ssa_pe *a, const ssa_pe *b);
ssa_pe ssa_pe_field(const char *name); /* a new reference */
void ssa_pe_release(ssa_pe *pe);
/* The path text fieldpath.Path.String gives. */
void ssa_path_text(strbuf *out, const ssa_pe *path, size_t n);

#endif
