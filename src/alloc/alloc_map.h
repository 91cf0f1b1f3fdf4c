/* alloc_map.h: the allocator's one hash map: keys are up to three pointers
 * (atoms, devices, programs), values a pointer. Open addressing, memory from
 * an arena, no deletion (the allocator's maps only grow while built). */
#ifndef DRA_ALLOC_MAP_H
#define DRA_ALLOC_MAP_H
#include "util/arena.h"
#include <stdint.h>

typedef struct alloc_map_slot {
  const void *k[3];
  void *v;
} alloc_map_slot;

typedef struct alloc_map {
  arena *a;
  alloc_map_slot *slots;
  uint32_t n, cap; /* cap is a power of two */
} alloc_map;

void alloc_map_init(alloc_map *m, arena *a);
void *alloc_map_get(const alloc_map *m, const void *k0, const void *k1, const void *k2);
/* Sets the value (NULL values are not stored distinctly from absence). */
void alloc_map_put(alloc_map *m, const void *k0, const void *k1, const void *k2, void *v);

#endif
