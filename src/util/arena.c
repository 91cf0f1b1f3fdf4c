/* arena.c: chunked bump allocator; see arena.h. Owns no knowledge of objects. */
#include "util/arena.h"
#include "util/die.h"
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Chunks grow from ARENA_FIRST_CHUNK, doubling up to ARENA_MAX_CHUNK, so a
 * small object (a DeviceClass is a few hundred bytes) does not pin 8 KiB,
 * while a large one still needs few mallocs. */
#define ARENA_FIRST_CHUNK 512
#define ARENA_MAX_CHUNK 16384
#define ARENA_ALIGN 16

/* A chunk fills from both ends: aligned blocks from the bottom (used),
 * strings, which need no alignment, from the top down (top), so a string
 * costs its bytes and no padding to 16. */
typedef struct chunk {
  struct chunk *next;
  size_t size, used, top;
  _Alignas(16) unsigned char data[];
} chunk;

typedef struct cleanup {
  struct cleanup *next;
  void (*fn)(void *);
  void *p;
} cleanup;

struct arena {
  atomic_uint holds; /* the arena's own, plus one per arena keeping it */
  chunk *head;
  cleanup *cleanups;
  size_t total;
  size_t next_chunk;  /* the size of the next ordinary chunk */
  bool inline_first;  /* arena_new_sized: the first chunk is in the arena's block */
  void *atom_holds;   /* arena_atom_holds */
  unsigned depth;     /* arena_keep_depth */
};

arena *arena_new(void) {
  arena *a = calloc(1, sizeof *a);
  if (!a) die_oom();
  atomic_init(&a->holds, 1);
  a->next_chunk = ARENA_FIRST_CHUNK;
  return a;
}

/* arena_new_sized's first chunk sits in the arena's own block, after the
 * struct (rounded up to the chunks' alignment): one malloc, and one free,
 * for an object that fits it. */
#define INLINE_CHUNK_AT ((sizeof(arena) + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1))

static chunk *inline_chunk(const arena *a) { return (chunk *)((char *)a + INLINE_CHUNK_AT); }

arena *arena_new_sized(size_t first_chunk) {
  size_t cap = first_chunk > ARENA_MAX_CHUNK ? ARENA_MAX_CHUNK : first_chunk;
  cap = (cap + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
  /* not calloc: the chunk's bytes are zeroed as they are handed out */
  arena *a = malloc(INLINE_CHUNK_AT + sizeof(chunk) + cap);
  if (!a) die_oom();
  *a = (arena){.next_chunk = ARENA_FIRST_CHUNK, .inline_first = true};
  atomic_init(&a->holds, 1);
  chunk *c = inline_chunk(a);
  *c = (chunk){.next = NULL, .size = cap, .used = 0, .top = cap};
  a->head = c;
  return a;
}

void arena_free(arena *a) {
  if (!a || atomic_fetch_sub(&a->holds, 1) != 1) return;
  for (cleanup *c = a->cleanups; c; c = c->next) c->fn(c->p);
  chunk *c = a->head, *own = a->inline_first ? inline_chunk(a) : NULL;
  while (c) {
    chunk *next = c->next;
    if (c != own) free(c);
    c = next;
  }
  free(a);
}

/* A new chunk with size bytes free (room's slow path). */
static chunk *new_chunk(arena *a, size_t size) {
  chunk *c = a->head;
  bool big = size > a->next_chunk / 2;
  size_t cap = big ? size : a->next_chunk;
  if (!big && a->next_chunk < ARENA_MAX_CHUNK) a->next_chunk *= 2;
  chunk *n = malloc(sizeof *n + cap);
  if (!n) die_oom();
  n->size = n->top = cap;
  n->used = 0;
  if (c && big) {
    /* big block: keep the current chunk as head so its free space stays usable */
    n->next = c->next;
    c->next = n;
  } else {
    n->next = c;
    a->head = n;
  }
  return n;
}

/* A chunk with size bytes free: the head (inline: every allocation asks),
 * or a new one. */
static inline chunk *room(arena *a, size_t size) {
  chunk *c = a->head;
  return c && c->top - c->used >= size ? c : new_chunk(a, size);
}

void *arena_alloc(arena *a, size_t size) {
  size = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
  if (size == 0) size = ARENA_ALIGN;
  chunk *c = room(a, size);
  void *p = c->data + c->used;
  c->used += size;
  a->total += size;
  memset(p, 0, size);
  return p;
}

/* n bytes with no alignment, from the top of a chunk (not zeroed: the
 * caller writes them all). */
static char *take_bytes(arena *a, size_t n) {
  chunk *c = room(a, n);
  c->top -= n;
  a->total += n;
  return (char *)c->data + c->top;
}

void *arena_calloc(arena *a, size_t n, size_t size) {
  if (size && n > (size_t)-1 / size) die_oom();
  return arena_alloc(a, n * size);
}

char *arena_strndup(arena *a, const char *s, size_t n) {
  char *p = take_bytes(a, n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

char *arena_strdup(arena *a, const char *s) { return arena_strndup(a, s, strlen(s)); }

char *arena_printf(arena *a, const char *fmt, ...) {
  char small[256]; /* most texts fit: formatted once, then copied */
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  char *p = take_bytes(a, (size_t)n + 1);
  if ((size_t)n < sizeof small) return memcpy(p, small, (size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(p, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return p;
}

char *arena_cat(arena *a, ...) {
  va_list ap;
  size_t n = 0;
  va_start(ap, a);
  for (const char *s; (s = va_arg(ap, const char *));) n += strlen(s);
  va_end(ap);
  char *p = take_bytes(a, n + 1), *at = p;
  va_start(ap, a);
  for (const char *s; (s = va_arg(ap, const char *));) {
    size_t len = strlen(s);
    memcpy(at, s, len);
    at += len;
  }
  va_end(ap);
  *at = '\0';
  return p;
}

void *arena_grow(arena *a, void *old, size_t old_size, size_t new_size) {
  void *p = arena_alloc(a, new_size);
  if (old && old_size) memcpy(p, old, old_size < new_size ? old_size : new_size);
  return p;
}

void arena_on_free(arena *a, void (*fn)(void *), void *p) {
  cleanup *c = arena_alloc(a, sizeof *c);
  c->fn = fn;
  c->p = p;
  c->next = a->cleanups;
  a->cleanups = c;
}

bool arena_has_cleanup(const arena *a, const void *p) {
  for (const cleanup *c = a->cleanups; c; c = c->next)
    if (c->p == p) return true;
  return false;
}

bool arena_swap_cleanup(arena *a, const void *p, void (*fn)(void *), void *with) {
  for (cleanup *c = a->cleanups; c; c = c->next)
    if (c->p == p && c->fn != fn) {
      c->fn = fn;
      c->p = with;
      return true;
    }
  return false;
}

bool arena_run_cleanup(arena *a, const void *p) {
  for (cleanup **at = &a->cleanups; *at; at = &(*at)->next)
    if ((*at)->p == p) {
      cleanup *c = *at;
      *at = c->next; /* its bytes stay in the arena */
      c->fn(c->p);
      return true;
    }
  return false;
}

static void release_kept(void *kept) { arena_free(kept); }

void arena_keep(arena *a, arena *other) {
  atomic_fetch_add(&other->holds, 1);
  arena_on_free(a, release_kept, other);
  if (other->depth + 1 > a->depth) a->depth = other->depth + 1;
}

unsigned arena_keep_depth(const arena *a) { return a->depth; }

size_t arena_used(const arena *a) { return a->total; }

void **arena_atom_holds(arena *a) { return &a->atom_holds; }
