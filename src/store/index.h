/* index.h: what each store_index (store.h) files an object under: its keys
 * as strings, and the key a query looks up. Backends keep the maps. */
#ifndef DRA_STORE_INDEX_H
#define DRA_STORE_INDEX_H
#include "store/store.h"

typedef struct index_keys {
  char **items; /* sorted, distinct, malloc'd */
  size_t n, cap;
} index_keys;

/* The kind an index files. */
api_kind index_kind(store_index ix);
/* Adds the keys of o under ix to out (none when o's kind is not ix's kind
 * or the fields are unset); out is then sorted and distinct. */
void index_keys_of(store_index ix, const api_object *o, index_keys *out);
/* The key q looks up, malloc'd; NULL when q lacks a key it needs. */
char *index_query_key(const store_query *q);
void index_keys_free(index_keys *k);

#endif
