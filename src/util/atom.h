/* atom.h: interned strings. Names that recur (drivers, pools, devices,
 * attribute names, classes, request names) are atoms, so equality is a pointer
 * compare and each atom has a small id (from 1; dense, as the id of an atom
 * freed is given to the next one made). The table is thread-safe.
 * An interned atom lives while an arena holds it: an arena holds each atom
 * interned for it (atom_intern_in) or given to it (atom_hold) until the
 * arena is freed, and the last hold going frees the atom. Objects hold the
 * atoms they point at (their decoders and copies, and the store for what
 * the code set in them), as do compiled CEL programs and the allocator's
 * indexes, so names a client makes up cost memory only while something
 * that uses them lives. atom_intern and atom_cstr pin an atom for the life
 * of the process: for names fixed in the code.
 * Names that any client may make up in any number (label and annotation
 * keys, every key of a string-to-string map) are not interned at all: they
 * are atoms of their object's arena (id 0), compared by content, and freed
 * with it. See docs/server.md, "Bounded memory". */
#ifndef DRA_ATOM_H
#define DRA_ATOM_H
#include "util/arena.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct atom {
  uint32_t id;   /* dense, starting at 1; 0: an arena's atom, not interned */
  uint32_t len;
  uint64_t hash;
  char str[];    /* NUL-terminated */
} atom;

/* Pinned: never freed. */
const atom *atom_intern(const char *s, size_t len);
const atom *atom_cstr(const char *s);
/* Held by a until a is freed. */
const atom *atom_intern_in(arena *a, const char *s, size_t len);
const atom *atom_cstr_in(arena *a, const char *s);
/* a holds k too (k interned and held meanwhile; nothing for an arena atom). */
void atom_hold(arena *a, const atom *k);
/* The atom for s if it lives, else NULL (never allocates). It stays valid
 * only while something holds it: fit to compare with atoms held. */
const atom *atom_find(const char *s, size_t len);
/* An atom of a's, not interned (id 0): equal to others by content only. */
const atom *atom_in_arena(arena *a, const char *s, size_t len);
/* k itself when interned (then held by a), else a copy in a (for a copy
 * of its object). */
const atom *atom_copy_to(arena *a, const atom *k);
/* Equality for atoms that may be arena atoms. */
bool atom_same(const atom *x, const atom *y);
/* Interned atoms alive. */
uint32_t atom_count(void);
uint64_t atom_hash_bytes(const char *s, size_t len);

#endif
