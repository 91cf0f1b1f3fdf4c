/* atom.h: interned strings. Names that recur (drivers, pools, devices,
 * attribute names, classes, request names) are atoms, so equality is a pointer
 * compare and each atom has a small dense id usable as an array index.
 * Atoms live for the whole process; the table is thread-safe. */
#ifndef DRA_ATOM_H
#define DRA_ATOM_H
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
const atom *atom_by_id(uint32_t id);
uint32_t atom_count(void);
uint64_t atom_hash_bytes(const char *s, size_t len);

#endif
