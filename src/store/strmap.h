/* strmap.h: a string-keyed hash map (chained, keys copied, values borrowed)
 * for the store's tables and indexes. Not thread-safe: the store locks. */
#ifndef DRA_STRMAP_H
#define DRA_STRMAP_H
#include <stddef.h>

typedef struct strmap_node strmap_node;
typedef struct strmap {
  strmap_node **buckets;
  size_t n_buckets; /* power of two, 0 before the first insert */
  size_t n;
} strmap;

void *strmap_get(const strmap *m, const char *key);
/* Sets key to value; returns the previous value or NULL. */
void *strmap_put(strmap *m, const char *key, void *value);
/* Removes key; returns its value or NULL. */
void *strmap_remove(strmap *m, const char *key);
/* Calls fn on every value, in no particular order (callers sort). */
void strmap_each(const strmap *m, void (*fn)(void *ctx, void *value), void *ctx);
/* The same with each value's key (owned by the map). */
void strmap_each_entry(const strmap *m, void (*fn)(void *ctx, const char *key, void *value), void *ctx);
/* Frees the map; free_value (may be NULL) is called on every value. */
void strmap_free(strmap *m, void (*free_value)(void *value));

#endif
