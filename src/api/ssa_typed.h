/* ssa_typed.h: the operations of structured-merge-diff's typed package on
 * JSON objects, by the shapes of ssa_schema.h: the set of fields an object
 * sets (ToFieldSet), what changed between two (Compare), an applied
 * configuration merged over the live object (Merge, the applied value
 * wins), fields taken out by a set (RemoveItems), and a set with the
 * struct fields its paths pass through made members
 * (EnsureNamedFieldsAreMembers). Lists that are maps match items by their
 * keys, sets by value; atomic lists and maps are one field. */
#ifndef DRA_API_SSA_TYPED_H
#define DRA_API_SSA_TYPED_H
#include "api/ssa_set.h"
#include "util/strbuf.h"
#include <jansson.h>
#include <stdbool.h>

/* Adds the fields v sets to out; false with err (the item or field at
 * fault) when v does not fit the type. */
bool ssa_to_set(const json_t *v, int type, ssa_set *out, strbuf *err);

typedef struct ssa_comparison {
  ssa_set *added, *modified, *removed;
} ssa_comparison;
/* What changed from lhs to rhs; free with ssa_comparison_free. */
ssa_comparison ssa_compare(const json_t *lhs, const json_t *rhs, int type);
void ssa_comparison_free(ssa_comparison *c);

/* rhs merged over lhs (a new reference); NULL with err set. */
json_t *ssa_merge(const json_t *lhs, const json_t *rhs, int type, strbuf *err);
/* v without the fields of set (a new reference; an object when all went). */
json_t *ssa_remove_items(const json_t *v, int type, const ssa_set *set);
/* set, with every struct field a path passes through a member. */
ssa_set *ssa_ensure_named_members(const ssa_set *set, int type);

#endif
