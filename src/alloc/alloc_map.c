/* alloc_map.c: open-addressing map keyed by pointer triples (see alloc_map.h). */
#include "alloc/alloc_map.h"
#include <string.h>

void alloc_map_init(alloc_map *m, arena *a) {
  memset(m, 0, sizeof *m);
  m->a = a;
}

static uint32_t hash3(const void *k0, const void *k1, const void *k2) {
  uint64_t h = (uint64_t)(uintptr_t)k0 * 0x9E3779B97F4A7C15ull;
  h ^= (uint64_t)(uintptr_t)k1 * 0xC2B2AE3D27D4EB4Full + (h >> 29);
  h ^= (uint64_t)(uintptr_t)k2 * 0x165667B19E3779F9ull + (h >> 31);
  h ^= h >> 33;
  return (uint32_t)h;
}

static alloc_map_slot *find(const alloc_map *m, const void *k0, const void *k1, const void *k2) {
  uint32_t mask = m->cap - 1;
  for (uint32_t i = hash3(k0, k1, k2) & mask;; i = (i + 1) & mask) {
    alloc_map_slot *s = &m->slots[i];
    if (!s->v || (s->k[0] == k0 && s->k[1] == k1 && s->k[2] == k2)) return s;
  }
}

void *alloc_map_get(const alloc_map *m, const void *k0, const void *k1, const void *k2) {
  if (!m->cap) return NULL;
  return find(m, k0, k1, k2)->v;
}

void alloc_map_put(alloc_map *m, const void *k0, const void *k1, const void *k2, void *v) {
  if ((m->n + 1) * 4 > m->cap * 3) {
    alloc_map old = *m;
    m->cap = old.cap ? old.cap * 2 : 16;
    m->slots = arena_calloc(m->a, m->cap, sizeof *m->slots);
    m->n = 0;
    for (uint32_t i = 0; i < old.cap; i++)
      if (old.slots[i].v) alloc_map_put(m, old.slots[i].k[0], old.slots[i].k[1], old.slots[i].k[2], old.slots[i].v);
  }
  alloc_map_slot *s = find(m, k0, k1, k2);
  if (!s->v) {
    m->n++;
    s->k[0] = k0, s->k[1] = k1, s->k[2] = k2;
  }
  s->v = v;
}
