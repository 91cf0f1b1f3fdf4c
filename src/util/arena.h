/* arena.h: bump allocator owning the memory of one object set or one request.
 * Everything allocated from an arena is freed at once by arena_free(); cleanup
 * hooks release foreign resources (jansson values) tied to the arena. */
#ifndef DRA_ARENA_H
#define DRA_ARENA_H
#include <stddef.h>

typedef struct arena arena;

arena *arena_new(void);
void arena_free(arena *a);
/* Zeroed, 16-byte aligned memory; aborts on out-of-memory. */
void *arena_alloc(arena *a, size_t size);
void *arena_calloc(arena *a, size_t n, size_t size);
char *arena_strdup(arena *a, const char *s);
char *arena_strndup(arena *a, const char *s, size_t n);
char *arena_printf(arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Grows an array allocated from the arena (old contents copied). */
void *arena_grow(arena *a, void *old, size_t old_size, size_t new_size);
/* Runs fn(p) when the arena is freed, in reverse order of registration. */
void arena_on_free(arena *a, void (*fn)(void *), void *p);
/* Bytes handed out so far (for memory figures in benchmarks). */
size_t arena_used(const arena *a);

#endif
