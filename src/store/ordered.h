/* ordered.h: the versions of one kind kept in one total order (a
 * store_order's comparator), so a list can start anywhere in it: a page
 * after a key is found by binary search and walked item by item, without
 * sorting or visiting the objects before it. Sorted blocks of at most
 * ORDERED_BLOCK pointers, found by binary search over each block's last
 * item: insert, remove and seek cost O(log n + ORDERED_BLOCK), a step of a
 * walk O(1). Borrowed pointers (the store's table holds the references).
 * Not locked itself: the memory backend calls it under its lock. */
#ifndef DRA_STORE_ORDERED_H
#define DRA_STORE_ORDERED_H
#include "store/store.h"

/* <0, 0, >0 as a sorts before, with, after b; 0 only for the same key. */
typedef int (*ordered_cmp)(const store_obj *a, const store_obj *b);
/* The same for a key (whatever the caller seeks by) against an item. */
typedef int (*ordered_key_cmp)(const void *key, const store_obj *o);

typedef struct ordered_block ordered_block;
typedef struct ordered {
  ordered_block **blocks;
  size_t n_blocks, cap;
  ordered_cmp cmp;
} ordered;

typedef struct ordered_cursor {
  const ordered *set;
  size_t block, at;
} ordered_cursor;

void ordered_init(ordered *set, ordered_cmp cmp);
void ordered_free(ordered *set);
/* o must not be in the set (no item compares equal to it). */
void ordered_insert(ordered *set, store_obj *o);
/* Takes out the item that compares equal to o; it must be there. */
void ordered_remove(ordered *set, const store_obj *o);
/* Puts o where the item equal to it is (it must be there). */
void ordered_replace(ordered *set, store_obj *o);
/* A walk from the first item after key (cmp(key, item) < 0); key NULL:
 * from the first item. */
ordered_cursor ordered_after(const ordered *set, ordered_key_cmp cmp, const void *key);
/* The cursor's item, moving it on; NULL at the end. The set must not
 * change during a walk. */
store_obj *ordered_next(ordered_cursor *c);

#endif
