/* validate_map.h: walking API maps (types.h *_map) in validation: entries in
 * sorted key order, so errors come out deterministically (Go's map order is
 * random), and map keys in paths shortened as kube-apiserver shortens them. */
#ifndef DRA_VALIDATE_MAP_H
#define DRA_VALIDATE_MAP_H
#include "api/schema.h"
#include "util/fielderr.h"

/* Indexes 0..n-1 of the entries of m (entries of entry_size bytes, each
 * starting with its key atom), sorted by key. malloc'd; NULL when empty. */
uint32_t *map_sorted_order(const void *items, uint32_t n, size_t entry_size);
#define MAP_SORTED_ORDER(m) map_sorted_order((m)->items, (m)->n, sizeof *(m)->items)

/* Pushes "[key]", the key cut in the middle to "<head>...<tail>" when longer
 * than max_len (at least 16), as validateMap's truncateIfTooLong does. */
size_t fp_key_truncated(fpath *p, const char *key, size_t max_len);

#endif
