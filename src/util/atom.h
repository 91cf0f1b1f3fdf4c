/* atom.h: interned strings. Names that recur (drivers, pools, devices,
 * attribute names, classes, request names) are atoms, so equality is a pointer
 * compare and each atom has a small dense id usable as an array index.
 * Interned atoms live for the whole process; the table is thread-safe.
 * Names that any client may make up in any number (label and annotation
 * keys, every key of a string-to-string map) are not interned: they are
 * atoms of their object's arena (id 0), compared by content, and freed with
 * it, so decoding them costs no memory beyond the object's life
 * (docs/server.md, "Bounded memory"). */
#ifndef DRA_ATOM_H
#define DRA_ATOM_H
#include "util/arena.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct atom {
  uint32_t id;   /* dense, starting at 1; 0 is never used */
  uint32_t len;
  uint64_t hash;
  char str[];    /* NUL-terminated */
} atom;

const atom *atom_intern(const char *s, size_t len);
const atom *atom_cstr(const char *s);
/* The atom for s if it was ever interned, else NULL (never allocates). */
const atom *atom_find(const char *s, size_t len);
/* An atom of a's, not interned (id 0): equal to others by content only. */
const atom *atom_in_arena(arena *a, const char *s, size_t len);
/* k itself when interned, else a copy in a (for a copy of its object). */
const atom *atom_copy_to(arena *a, const atom *k);
/* Equality for atoms that may be arena atoms. */
bool atom_same(const atom *x, const atom *y);
const atom *atom_by_id(uint32_t id);
uint32_t atom_count(void);
uint64_t atom_hash_bytes(const char *s, size_t len);

#endif
