/* validate_keyed_set.h: a list whose entries are unique by their first
 * member, an atom (a name): validateSet of the hand-written validation
 * (size limit that stops everything else, each entry, then a Duplicate on
 * every later repeat showing the key) or the declarative listType=map form
 * (repeats first, shown as the whole entry's JSON, then each entry; on an
 * update, entries equal to the old entry of their key are not checked
 * again, as declarative validation ratchets). */
#ifndef DRA_VALIDATE_KEYED_SET_H
#define DRA_VALIDATE_KEYED_SET_H
#include "api/schema.h"
#include "util/fielderr.h"

typedef struct keyed_set {
  const void *items;
  uint32_t n;
  const type_desc *td; /* the entry type: its size, and its JSON for DV duplicates */
  size_t max;
  bool dv; /* declarative form */
  void (*each)(errlist *e, fpath *p, const void *item, const void *arg);
  const void *arg;
} keyed_set;

/* An update's old list, for the declarative form; each replaces the set's
 * and gets the old entry of the same key, NULL for a new one. */
typedef struct keyed_set_old {
  const void *items;
  uint32_t n;
  void (*each)(errlist *e, fpath *p, const void *item, const void *old, const void *arg);
} keyed_set_old;

/* p names the list. */
void validate_keyed_set(errlist *e, fpath *p, const keyed_set *s);
void validate_keyed_set_update(errlist *e, fpath *p, const keyed_set *s, const keyed_set_old *old);

#endif
