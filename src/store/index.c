/* index.c: index keys of objects and queries (index.h). A key joining two
 * names uses "\x1f", which no valid name contains. */
#include "store/index.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

static const api_kind index_kinds[STORE_INDEX_COUNT] = {
    [STORE_INDEX_NONE] = KIND_COUNT,
    [STORE_INDEX_SLICE_POOL] = KIND_RESOURCE_SLICE,
    [STORE_INDEX_SLICE_NODE] = KIND_RESOURCE_SLICE,
    [STORE_INDEX_CLAIM_OWNER] = KIND_RESOURCE_CLAIM,
    [STORE_INDEX_POD_NODE] = KIND_POD,
    [STORE_INDEX_POD_GROUP] = KIND_POD,
};

api_kind index_kind(store_index ix) { return ix < STORE_INDEX_COUNT ? index_kinds[ix] : KIND_COUNT; }

static char *join_key(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  char *key = xmalloc(la + lb + 2);
  memcpy(key, a, la);
  key[la] = '\x1f';
  memcpy(key + la + 1, b, lb + 1);
  return key;
}

static int cmp_str(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

/* Takes key (malloc'd); NULL and "" are skipped. Sorting is done at the end. */
static void add_key(index_keys *k, char *key) {
  if (!key || !*key) {
    free(key);
    return;
  }
  k->items = xgrow(k->items, k->n, &k->cap, sizeof *k->items, 4);
  k->items[k->n++] = key;
}

static void sort_distinct(index_keys *k) {
  if (k->n < 2) return;
  qsort(k->items, k->n, sizeof *k->items, cmp_str);
  size_t w = 0;
  for (size_t r = 0; r < k->n; r++) {
    if (w && strcmp(k->items[w - 1], k->items[r]) == 0) free(k->items[r]);
    else k->items[w++] = k->items[r];
  }
  k->n = w;
}

static char *dup_or_null(const char *s) { return s ? xstrdup(s) : NULL; }

void index_keys_of(store_index ix, const api_object *o, index_keys *out) {
  if (index_kind(ix) != o->info->kind) return;
  switch (ix) {
  case STORE_INDEX_SLICE_POOL: {
    const resource_slice *s = o->typed;
    if (s->spec.driver && s->spec.pool.name) add_key(out, join_key(s->spec.driver->str, s->spec.pool.name->str));
    break;
  }
  case STORE_INDEX_SLICE_NODE: {
    const resource_slice *s = o->typed;
    add_key(out, dup_or_null(s->spec.node_name));
    for (uint32_t i = 0; i < s->spec.devices.n; i++) add_key(out, dup_or_null(s->spec.devices.items[i].node_name));
    break;
  }
  case STORE_INDEX_CLAIM_OWNER: {
    const owner_reference_list *owners = &api_object_meta(o)->owner_references;
    for (uint32_t i = 0; i < owners->n; i++) add_key(out, dup_or_null(owners->items[i].uid));
    break;
  }
  case STORE_INDEX_POD_NODE: add_key(out, dup_or_null(((const pod *)o->typed)->spec.node_name)); break;
  case STORE_INDEX_POD_GROUP: {
    const pod *p = o->typed;
    const object_meta *m = api_object_meta(o);
    if (p->spec.scheduling_group && p->spec.scheduling_group->pod_group_name && m->namespace_)
      add_key(out, join_key(m->namespace_, p->spec.scheduling_group->pod_group_name->str));
    break;
  }
  case STORE_INDEX_NONE:
  case STORE_INDEX_COUNT: break;
  }
  sort_distinct(out);
}

char *index_query_key(const store_query *q) {
  switch (q->index) {
  case STORE_INDEX_SLICE_POOL: return q->key && q->key2 ? join_key(q->key, q->key2) : NULL;
  case STORE_INDEX_POD_GROUP:
    return q->key && q->namespace_ && *q->namespace_ ? join_key(q->namespace_, q->key) : NULL;
  case STORE_INDEX_SLICE_NODE:
  case STORE_INDEX_CLAIM_OWNER:
  case STORE_INDEX_POD_NODE: return dup_or_null(q->key);
  case STORE_INDEX_NONE:
  case STORE_INDEX_COUNT: break;
  }
  return NULL;
}

void index_keys_free(index_keys *k) {
  for (size_t i = 0; i < k->n; i++) free(k->items[i]);
  free(k->items);
  *k = (index_keys){0};
}
