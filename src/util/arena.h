/* arena.h: bump allocator owning the memory of one object set or one request.
 * Everything allocated from an arena is freed at once by arena_free(); cleanup
 * hooks release foreign resources (jansson values) tied to the arena. An
 * arena may keep another alive (arena_keep), so a new version of an object
 * can point at the unchanged parts of the old one instead of copying them. */
#ifndef DRA_ARENA_H
#define DRA_ARENA_H
#include <stdbool.h>
#include <stddef.h>

typedef struct arena arena;

arena *arena_new(void);
/* The same, with a first chunk of first_chunk bytes (at most 16 KiB) for
 * an owner that knows about how much it will hold: one chunk then holds
 * it all, with no room left over from the doubling chunks. That chunk is
 * part of the arena's own allocation (one malloc and one free where
 * arena_new takes two). Later chunks grow as arena_new's do. */
arena *arena_new_sized(size_t first_chunk);
/* Frees a's memory, or only drops a's own hold on it while arenas that
 * arena_keep it still live (then the last of them frees it). Thread-safe
 * against those other arenas' frees. */
void arena_free(arena *a);
/* a keeps other's memory (and cleanups) alive until a itself is freed:
 * what a hands out may then point into other. */
void arena_keep(arena *a, arena *other);
/* How many arenas deep a's chain of kept arenas goes: 0 when it keeps none,
 * else one more than the deepest it keeps. */
unsigned arena_keep_depth(const arena *a);
/* Zeroed, 16-byte aligned memory; aborts on out-of-memory. */
void *arena_alloc(arena *a, size_t size);
void *arena_calloc(arena *a, size_t n, size_t size);
/* Strings are not aligned: they take their bytes, with no padding. */
char *arena_strdup(arena *a, const char *s);
char *arena_strndup(arena *a, const char *s, size_t n);
char *arena_printf(arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The strings up to the NULL, joined: arena_printf("%s%s", ...) without the
 * formatting, for texts built in a loop. */
char *arena_cat(arena *a, ...) __attribute__((sentinel));
/* Grows an array allocated from the arena (old contents copied). */
void *arena_grow(arena *a, void *old, size_t old_size, size_t new_size);
/* Runs fn(p) when the arena is freed, in reverse order of registration. */
void arena_on_free(arena *a, void (*fn)(void *), void *p);
/* Whether a cleanup registered on a itself (not on an arena it keeps)
 * runs on p. */
bool arena_has_cleanup(const arena *a, const void *p);
/* The first cleanup registered on a itself for p that is not fn already
 * is fn(with) instead; false when there is none. */
bool arena_swap_cleanup(arena *a, const void *p, void (*fn)(void *), void *with);
/* The first cleanup registered on a itself for p runs now, and not again
 * when a is freed; false when there is none. */
bool arena_run_cleanup(arena *a, const void *p);
/* The slot where util/atom.c keeps the set of interned atoms a holds
 * (atom.h); NULL until a holds one. */
void **arena_atom_holds(arena *a);
/* Bytes handed out so far (for memory figures in benchmarks, and the size
 * hint of api/object.c). */
size_t arena_used(const arena *a);

#endif
