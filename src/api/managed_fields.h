/* managed_fields.h: metadata.managedFields as structured-merge-diff's
 * managers: one entry per manager identity (manager name, operation Apply
 * or Update, subresource, and for Update the apiVersion), with its field
 * set and time. Decoding checks entries as upstream's fieldmanager does
 * (k8s.io/apimachinery pkg/util/managedfields/internal managedfields.go);
 * encoding sorts them as upstream (Apply before Update, then by time,
 * manager, apiVersion, subresource). */
#ifndef DRA_API_MANAGED_FIELDS_H
#define DRA_API_MANAGED_FIELDS_H
#include "api/ssa_set.h"
#include "api/types.h"
#include "util/fielderr.h"
#include "util/strbuf.h"
#include <jansson.h>
#include <stdbool.h>

typedef struct mf_entry {
  char *manager, *operation, *api_version, *subresource; /* subresource "" when none */
  char *time;                                            /* RFC 3339, seconds; NULL when none */
  ssa_set *set;
  /* Decoded from typed entries a stored version holds (mf_decode_typed,
   * own): the K_RAW_TEXT string of its fieldsV1 and the set it held
   * (held, not copied), the text written again while set is still that
   * set (mf_set_typed, managed_fields_tree.h). NULL otherwise. */
  json_t *text;
  ssa_set *decoded;
} mf_entry;

typedef struct mf_list {
  mf_entry *items;
  size_t n, cap;
} mf_list;

/* managedFields (NULL: none) into out; false with err set (upstream's text)
 * when an entry is not valid. A later entry of the same identity replaces
 * an earlier one. */
bool mf_decode(const json_t *managed_fields, mf_list *out, strbuf *err);
/* mf_decode of the typed entries a stored version holds (types.h), their
 * fieldsV1 read from its text; with own, each entry keeps that text, which
 * mf_set_typed writes again while the entry's set is unchanged. */
bool mf_decode_typed(const managed_fields_entry_list *l, bool own, mf_list *out, strbuf *err);
/* The managedFields array, sorted; NULL when there are no managers. */
json_t *mf_encode(const mf_list *l);
/* l's entries in that order: a malloc'd array of pointers into l. */
const mf_entry **mf_in_order(const mf_list *l);
void mf_free(mf_list *l);

/* Whether a and b are the same manager identity. */
bool mf_same_manager(const mf_entry *a, const mf_entry *b);
/* The entry of that identity, or NULL. */
mf_entry *mf_find(mf_list *l, const mf_entry *who);
/* Sets who's set (taken) and time (copied), adding the entry if new. */
void mf_put(mf_list *l, const mf_entry *who, ssa_set *set, const char *time);
void mf_remove_at(mf_list *l, size_t i);
/* Drops entries whose sets are empty. */
void mf_drop_empty(mf_list *l);
/* The checks ObjectMeta validation makes of managedFields
 * (ValidateManagedFields), at metadata.managedFields[i]. */
void mf_validate(const json_t *managed_fields, errlist *errs);
/* Whether Go's unicode.IsPrint takes the rune (ASCII space is the only
 * space; controls and invisible formats are not). */
bool mf_rune_printable(unsigned cp);

/* The manager as upstream's conflict messages print it:
 * "\"name\" using resource.k8s.io/v1" for Update, "\"name\"" for Apply,
 * with " with subresource \"status\"" after the name when it has one. */
void mf_print_manager(strbuf *out, const mf_entry *e);

#endif
