/* validate_map.c: sorted map iteration and truncated key paths. */
#include "api/validate_map.h"
#include "util/atom.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *items;
  size_t entry_size;
} sort_ctx;

static int cmp_keys(const void *x, const void *y, void *arg) {
  const sort_ctx *c = arg;
  const atom *a = *(const atom *const *)(c->items + *(const uint32_t *)x * c->entry_size);
  const atom *b = *(const atom *const *)(c->items + *(const uint32_t *)y * c->entry_size);
  return strcmp(a->str, b->str);
}

uint32_t *map_sorted_order(const void *items, uint32_t n, size_t entry_size) {
  if (n == 0) return NULL;
  uint32_t *order = xmalloc(n * sizeof *order);
  for (uint32_t i = 0; i < n; i++) order[i] = i;
  sort_ctx c = {items, entry_size};
  qsort_r(order, n, sizeof *order, cmp_keys, &c);
  return order;
}

size_t fp_key_truncated(fpath *p, const char *key, size_t max_len) {
  if (max_len < 16) max_len = 16;
  size_t len = strlen(key);
  if (len <= max_len) return fp_key(p, key);
  size_t remaining = max_len - 3;
  size_t head = (remaining + 1) / 2, tail = remaining / 2;
  char *cut = xmalloc(head + 3 + tail + 1);
  memcpy(cut, key, head);
  memcpy(cut + head, "...", 3);
  memcpy(cut + head + 3, key + len - tail, tail);
  cut[head + 3 + tail] = '\0';
  size_t mark = fp_key(p, cut);
  free(cut);
  return mark;
}
