/* atom.c: the process-wide intern table behind atom.h (open addressing,
 * FNV-1a hashes, a mutex around inserts and lookups), and atoms that live
 * in an arena instead. */
#include "util/atom.h"
#include "util/die.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t atom_lock = PTHREAD_MUTEX_INITIALIZER;
static const atom **slots;     /* hash table of atoms */
static size_t slot_cap;        /* power of two */
static const atom **by_id;     /* by_id[id] */
static uint32_t n_atoms;

uint64_t atom_hash_bytes(const char *s, size_t len) {
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < len; i++) {
    h ^= (unsigned char)s[i];
    h *= 1099511628211ULL;
  }
  return h;
}

static const atom **find_slot(const char *s, size_t len, uint64_t h) {
  size_t mask = slot_cap - 1;
  for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
    const atom *a = slots[i];
    if (!a || (a->hash == h && a->len == len && memcmp(a->str, s, len) == 0)) return &slots[i];
  }
}

static void grow(void) {
  size_t old_cap = slot_cap;
  const atom **old = slots;
  slot_cap = old_cap ? old_cap * 2 : 1024;
  slots = xcalloc(slot_cap, sizeof *slots);
  for (size_t i = 0; i < old_cap; i++)
    if (old[i]) *find_slot(old[i]->str, old[i]->len, old[i]->hash) = old[i];
  free(old);
  by_id = xrealloc(by_id, (slot_cap / 2 + 1) * sizeof *by_id);
}

static const atom *lookup(const char *s, size_t len, int create) {
  uint64_t h = atom_hash_bytes(s, len);
  pthread_mutex_lock(&atom_lock);
  const atom *found = NULL;
  if (slot_cap) found = *find_slot(s, len, h);
  if (!found && create) {
    if ((n_atoms + 1) * 2 >= slot_cap) grow();
    atom *a = xmalloc(sizeof *a + len + 1);
    a->id = ++n_atoms;
    a->len = (uint32_t)len;
    a->hash = h;
    memcpy(a->str, s, len);
    a->str[len] = 0;
    *find_slot(s, len, h) = a;
    by_id[a->id] = a;
    found = a;
  }
  pthread_mutex_unlock(&atom_lock);
  return found;
}

const atom *atom_intern(const char *s, size_t len) { return lookup(s, len, 1); }
const atom *atom_cstr(const char *s) { return lookup(s, strlen(s), 1); }
const atom *atom_find(const char *s, size_t len) { return lookup(s, len, 0); }

const atom *atom_in_arena(arena *a, const char *s, size_t len) {
  atom *k = arena_alloc(a, sizeof *k + len + 1);
  k->id = 0;
  k->len = (uint32_t)len;
  k->hash = atom_hash_bytes(s, len);
  memcpy(k->str, s, len);
  k->str[len] = 0;
  return k;
}

const atom *atom_copy_to(arena *a, const atom *k) { return !k || k->id ? k : atom_in_arena(a, k->str, k->len); }

bool atom_same(const atom *x, const atom *y) {
  if (x == y) return true;
  if (!x || !y || (x->id && y->id)) return false; /* two interned atoms are equal only if one */
  return x->hash == y->hash && x->len == y->len && !memcmp(x->str, y->str, x->len);
}

const atom *atom_by_id(uint32_t id) {
  pthread_mutex_lock(&atom_lock);
  const atom *a = id && id <= n_atoms ? by_id[id] : NULL;
  pthread_mutex_unlock(&atom_lock);
  return a;
}

uint32_t atom_count(void) {
  pthread_mutex_lock(&atom_lock);
  uint32_t n = n_atoms;
  pthread_mutex_unlock(&atom_lock);
  return n;
}
