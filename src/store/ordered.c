/* ordered.c: the ordered sets of ordered.h. Blocks are never empty, and
 * two neighbours together hold more than half a block (a remove merges
 * them otherwise), so the blocks stay at least a quarter full on average.
 * Appending after the last item starts a new block instead of splitting
 * a full one, so sets filled in order (creation order, numbered names)
 * keep their blocks full. */
#include "store/ordered.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

#define ORDERED_BLOCK 256

struct ordered_block {
  size_t n;
  store_obj *items[ORDERED_BLOCK];
};

/* What a search compares items with: an item of the set's order, or a key. */
typedef struct probe {
  ordered_cmp by_item;
  const store_obj *item;
  ordered_key_cmp by_key;
  const void *key;
} probe;

static int probe_cmp(const probe *p, const store_obj *o) {
  return p->by_key ? p->by_key(p->key, o) : p->by_item(p->item, o);
}

/* Whether o is where a search stops: not before the probe, or with
 * strict, after it. */
static bool stops_at(const probe *p, const store_obj *o, bool strict) {
  int c = probe_cmp(p, o);
  return strict ? c < 0 : c <= 0;
}

/* The first block whose last item is a stop; n_blocks if none. */
static size_t find_block(const ordered *set, const probe *p, bool strict) {
  size_t lo = 0, hi = set->n_blocks;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const ordered_block *b = set->blocks[mid];
    if (stops_at(p, b->items[b->n - 1], strict)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/* The first item of b that is a stop; b->n if none. */
static size_t find_in(const ordered_block *b, const probe *p, bool strict) {
  size_t lo = 0, hi = b->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (stops_at(p, b->items[mid], strict)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

static ordered_block *add_block(ordered *set, size_t at) {
  set->blocks = xgrow(set->blocks, set->n_blocks, &set->cap, sizeof *set->blocks, 8);
  memmove(set->blocks + at + 1, set->blocks + at, (set->n_blocks - at) * sizeof *set->blocks);
  set->n_blocks++;
  return set->blocks[at] = xcalloc(1, sizeof **set->blocks);
}

static void drop_block(ordered *set, size_t at) {
  free(set->blocks[at]);
  set->n_blocks--;
  memmove(set->blocks + at, set->blocks + at + 1, (set->n_blocks - at) * sizeof *set->blocks);
}

/* Blocks i and i + 1 become one when together they fill at most half. */
static void merge_if_sparse(ordered *set, size_t i) {
  ordered_block *a = set->blocks[i], *b = set->blocks[i + 1];
  if (a->n + b->n > ORDERED_BLOCK / 2) return;
  memcpy(a->items + a->n, b->items, b->n * sizeof *b->items);
  a->n += b->n;
  drop_block(set, i + 1);
}

/* The block and place of the item equal to o. */
static void locate(const ordered *set, const store_obj *o, size_t *block, size_t *at) {
  probe p = {.by_item = set->cmp, .item = o};
  *block = find_block(set, &p, false);
  if (*block < set->n_blocks) {
    const ordered_block *b = set->blocks[*block];
    *at = find_in(b, &p, false);
    if (*at < b->n && !set->cmp(o, b->items[*at])) return;
  }
  die_bug("store: an ordered list lost an object");
}

void ordered_init(ordered *set, ordered_cmp cmp) { *set = (ordered){.cmp = cmp}; }

void ordered_free(ordered *set) {
  for (size_t i = 0; i < set->n_blocks; i++) free(set->blocks[i]);
  free(set->blocks);
  set->blocks = NULL;
  set->n_blocks = set->cap = 0;
}

void ordered_insert(ordered *set, store_obj *o) {
  probe p = {.by_item = set->cmp, .item = o};
  size_t bi = find_block(set, &p, false), at;
  ordered_block *b;
  if (bi == set->n_blocks) { /* after every item */
    b = bi && set->blocks[bi - 1]->n < ORDERED_BLOCK ? set->blocks[bi - 1] : add_block(set, bi);
    at = b->n;
  } else {
    b = set->blocks[bi];
    at = find_in(b, &p, false);
    if (!set->cmp(o, b->items[at])) die_bug("store: an ordered list got an object twice");
    if (b->n == ORDERED_BLOCK) {
      ordered_block *upper = add_block(set, bi + 1);
      upper->n = ORDERED_BLOCK / 2;
      memcpy(upper->items, b->items + ORDERED_BLOCK / 2, upper->n * sizeof *b->items);
      b->n = ORDERED_BLOCK / 2;
      if (at > b->n) {
        at -= b->n;
        b = upper;
      }
    }
  }
  memmove(b->items + at + 1, b->items + at, (b->n - at) * sizeof *b->items);
  b->items[at] = o;
  b->n++;
}

void ordered_remove(ordered *set, const store_obj *o) {
  size_t bi, at;
  locate(set, o, &bi, &at);
  ordered_block *b = set->blocks[bi];
  b->n--;
  memmove(b->items + at, b->items + at + 1, (b->n - at) * sizeof *b->items);
  if (!b->n) {
    drop_block(set, bi);
    return;
  }
  if (bi + 1 < set->n_blocks) merge_if_sparse(set, bi);
  if (bi > 0) merge_if_sparse(set, bi - 1);
}

void ordered_replace(ordered *set, store_obj *o) {
  size_t bi, at;
  locate(set, o, &bi, &at);
  set->blocks[bi]->items[at] = o;
}

ordered_cursor ordered_after(const ordered *set, ordered_key_cmp cmp, const void *key) {
  ordered_cursor c = {set, 0, 0};
  if (!key) return c;
  probe p = {.by_key = cmp, .key = key};
  c.block = find_block(set, &p, true);
  if (c.block < set->n_blocks) c.at = find_in(set->blocks[c.block], &p, true);
  return c;
}

store_obj *ordered_next(ordered_cursor *c) {
  if (c->block >= c->set->n_blocks) return NULL;
  const ordered_block *b = c->set->blocks[c->block];
  store_obj *o = b->items[c->at++];
  if (c->at == b->n) {
    c->block++;
    c->at = 0;
  }
  return o;
}
