/* atom.c: the process-wide intern table behind atom.h (open addressing,
 * FNV-1a hashes, a mutex around every lookup and count), the holds arenas
 * have on its atoms, and atoms that live in an arena instead.
 * Each interned atom counts the arenas holding it; an arena's holds are a
 * hash set of atoms (each held once however often it is interned there),
 * released by a cleanup when the arena is freed. */
#include "util/atom.h"
#include "util/die.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* What precedes each interned atom in its allocation. */
typedef struct counts {
  uint32_t holds; /* arenas holding it */
  bool pinned;    /* never freed */
} counts;
#define COUNTS_SIZE ((sizeof(counts) + _Alignof(atom) - 1) / _Alignof(atom) * _Alignof(atom))

static pthread_mutex_t atom_lock = PTHREAD_MUTEX_INITIALIZER;
static const atom **slots; /* hash table of atoms */
static size_t slot_cap;    /* power of two */
static uint32_t n_atoms;   /* alive */
static uint32_t max_id;    /* the highest id given out */
static uint32_t *free_ids; /* ids of atoms freed, to give out again */
static uint32_t n_free_ids, free_ids_cap;

static counts *counts_of(const atom *a) { return (counts *)((char *)a - COUNTS_SIZE); }

/* A thread's atoms interned last, by a key of a few of their bytes (no
 * hash over all of them): most texts interned (a namespace, a driver, a
 * claim's name) come again and again. Emptied whenever an atom was freed
 * since it was filled, so that it never holds a freed one. Read and
 * written under atom_lock. */
#define RECENT_SLOTS 64
static _Thread_local struct {
  const atom *atoms[RECENT_SLOTS];
  uint64_t freed; /* atoms_freed when it was emptied */
} recent;
static uint64_t atoms_freed;

static size_t recent_key(const char *s, size_t len) {
  if (!len) return 0;
  const unsigned char *u = (const unsigned char *)s;
  return (len * 7 + u[0] * 31 + u[len / 2] * 5 + u[len - 1]) & (RECENT_SLOTS - 1);
}

uint64_t atom_hash_bytes(const char *s, size_t len) {
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < len; i++) {
    h ^= (unsigned char)s[i];
    h *= 1099511628211ULL;
  }
  return h;
}

static size_t find_slot(const char *s, size_t len, uint64_t h) {
  size_t mask = slot_cap - 1;
  for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
    const atom *a = slots[i];
    if (!a || (a->hash == h && a->len == len && memcmp(a->str, s, len) == 0)) return i;
  }
}

/* The table at new_cap slots: grown when half full, halved when an
 * eighth full (never below 1,024), so its size follows the atoms alive. */
static void resize(size_t new_cap) {
  size_t old_cap = slot_cap;
  const atom **old = slots;
  slot_cap = new_cap;
  slots = xcalloc(slot_cap, sizeof *slots);
  for (size_t i = 0; i < old_cap; i++)
    if (old[i]) slots[find_slot(old[i]->str, old[i]->len, old[i]->hash)] = old[i];
  free(old);
}

/* The atom for s, made (with no hold) when missing. Under atom_lock. */
static atom *intern_locked(const char *s, size_t len) {
  uint64_t h = atom_hash_bytes(s, len);
  if (slot_cap) {
    const atom *found = slots[find_slot(s, len, h)];
    if (found) return (atom *)found;
  }
  if ((n_atoms + 1) * 2 >= slot_cap) resize(slot_cap ? slot_cap * 2 : 1024);
  char *mem = xmalloc(COUNTS_SIZE + sizeof(atom) + len + 1);
  *(counts *)mem = (counts){0};
  atom *a = (atom *)(mem + COUNTS_SIZE);
  a->id = n_free_ids ? free_ids[--n_free_ids] : ++max_id;
  a->len = (uint32_t)len;
  a->hash = h;
  memcpy(a->str, s, len);
  a->str[len] = 0;
  slots[find_slot(s, len, h)] = a;
  n_atoms++;
  return a;
}

/* Takes a out of the table (moving back the entries after it that would
 * no longer be found) and frees it. Under atom_lock. */
static void free_locked(const atom *a) {
  size_t mask = slot_cap - 1, i = find_slot(a->str, a->len, a->hash);
  slots[i] = NULL;
  for (size_t j = (i + 1) & mask; slots[j]; j = (j + 1) & mask) {
    size_t home = (size_t)slots[j]->hash & mask;
    bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
    if (stays) continue;
    slots[i] = slots[j];
    slots[j] = NULL;
    i = j;
  }
  if (n_free_ids == free_ids_cap) {
    free_ids_cap = free_ids_cap ? free_ids_cap * 2 : 256;
    free_ids = xrealloc(free_ids, free_ids_cap * sizeof *free_ids);
  }
  free_ids[n_free_ids++] = a->id;
  n_atoms--;
  atoms_freed++;
  free(counts_of(a));
  if (slot_cap > 1024 && (size_t)n_atoms * 8 < slot_cap) resize(slot_cap / 2);
}

/* ---- the atoms an arena holds ---- */

/* The set and its first slots (HOLD_FIRST_SLOTS, enough for most objects)
 * come from the arena itself: a malloc and a free fewer per object. A set
 * that outgrows them moves to malloc'd slots, freed with it. */
#define HOLD_FIRST_SLOTS 8

typedef struct hold_set {
  const atom **slots;
  uint32_t n, cap; /* cap is a power of two */
} hold_set;

static void release_holds(void *p) {
  hold_set *h = p;
  pthread_mutex_lock(&atom_lock);
  for (uint32_t i = 0; i < h->cap; i++) {
    const atom *a = h->slots[i];
    if (!a) continue;
    counts *c = counts_of(a);
    if (--c->holds == 0 && !c->pinned) free_locked(a);
  }
  pthread_mutex_unlock(&atom_lock);
  if (h->cap > HOLD_FIRST_SLOTS) free(h->slots);
}

static hold_set *holds_of(arena *ar) {
  void **slot = arena_atom_holds(ar);
  if (!*slot) { /* the set, its first slots after it: one allocation */
    hold_set *h = arena_alloc(ar, sizeof *h + HOLD_FIRST_SLOTS * sizeof *h->slots);
    h->slots = (const atom **)(h + 1);
    h->cap = HOLD_FIRST_SLOTS;
    arena_on_free(ar, release_holds, h);
    *slot = h;
  }
  return *slot;
}

static uint32_t set_find(const hold_set *h, const atom *a) {
  uint32_t mask = h->cap - 1;
  uint32_t i = (uint32_t)a->hash & mask;
  while (h->slots[i] && h->slots[i] != a) i = (i + 1) & mask;
  return i;
}

/* Adds a to h; false when h had it already. */
static bool set_add(hold_set *h, const atom *a) {
  if (h->slots[set_find(h, a)]) return false;
  if ((h->n + 1) * 2 > h->cap) {
    hold_set old = *h;
    h->cap = old.cap * 2;
    h->slots = xcalloc(h->cap, sizeof *h->slots);
    for (uint32_t i = 0; i < old.cap; i++)
      if (old.slots[i]) h->slots[set_find(h, old.slots[i])] = old.slots[i];
    if (old.cap > HOLD_FIRST_SLOTS) free(old.slots);
  }
  h->slots[set_find(h, a)] = a;
  h->n++;
  return true;
}

/* ---- atom.h ---- */

const atom *atom_intern(const char *s, size_t len) {
  pthread_mutex_lock(&atom_lock);
  atom *a = intern_locked(s, len);
  counts_of(a)->pinned = true;
  pthread_mutex_unlock(&atom_lock);
  return a;
}

const atom *atom_cstr(const char *s) { return atom_intern(s, strlen(s)); }

const atom *atom_intern_in(arena *ar, const char *s, size_t len) {
  hold_set *h = holds_of(ar);
  size_t key = recent_key(s, len);
  pthread_mutex_lock(&atom_lock);
  if (recent.freed != atoms_freed) {
    memset(recent.atoms, 0, sizeof recent.atoms);
    recent.freed = atoms_freed;
  }
  const atom *a = recent.atoms[key];
  if (!a || a->len != len || memcmp(a->str, s, len)) recent.atoms[key] = a = intern_locked(s, len);
  if (set_add(h, a)) counts_of(a)->holds++;
  pthread_mutex_unlock(&atom_lock);
  return a;
}

const atom *atom_cstr_in(arena *ar, const char *s) { return atom_intern_in(ar, s, strlen(s)); }

void atom_hold(arena *ar, const atom *k) {
  if (!k || !k->id || !set_add(holds_of(ar), k)) return;
  pthread_mutex_lock(&atom_lock);
  counts_of(k)->holds++;
  pthread_mutex_unlock(&atom_lock);
}

const atom *atom_find(const char *s, size_t len) {
  uint64_t h = atom_hash_bytes(s, len);
  pthread_mutex_lock(&atom_lock);
  const atom *found = slot_cap ? slots[find_slot(s, len, h)] : NULL;
  pthread_mutex_unlock(&atom_lock);
  return found;
}

const atom *atom_in_arena(arena *a, const char *s, size_t len) {
  atom *k = arena_alloc(a, sizeof *k + len + 1);
  k->id = 0;
  k->len = (uint32_t)len;
  k->hash = atom_hash_bytes(s, len);
  memcpy(k->str, s, len);
  k->str[len] = 0;
  return k;
}

const atom *atom_copy_to(arena *a, const atom *k) {
  if (!k) return NULL;
  if (!k->id) return atom_in_arena(a, k->str, k->len);
  atom_hold(a, k);
  return k;
}

bool atom_same(const atom *x, const atom *y) {
  if (x == y) return true;
  if (!x || !y || (x->id && y->id)) return false; /* two interned atoms are equal only if one */
  return x->hash == y->hash && x->len == y->len && !memcmp(x->str, y->str, x->len);
}

uint32_t atom_count(void) {
  pthread_mutex_lock(&atom_lock);
  uint32_t n = n_atoms;
  pthread_mutex_unlock(&atom_lock);
  return n;
}
