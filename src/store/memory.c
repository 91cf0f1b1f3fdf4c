/* memory.c: the in-memory store backend. One recursive mutex guards
 * everything (watch callbacks may call back in); per kind a map from
 * "<namespace>\x1f<name>" to the current version, and per index a map from
 * key to the versions filed there. The server-set metadata rules are
 * meta.c's; events and history are watchers.c's. */
#include "store/index.h"
#include "store/memory_restore.h"
#include "store/meta.h"
#include "store/store_obj.h"
#include "store/strmap.h"
#include "store/watchers.h"
#include "util/die.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Attempts at a free name from generateName before giving up with AlreadyExists. */
#define GENERATE_NAME_TRIES 8

typedef struct bucket {
  store_obj **items;
  size_t n, cap;
} bucket;

/* Every current version of one kind in one store_order, for lists without
 * an index. Borrowed pointers (the table holds the references); rebuilt on
 * the next list after a create or delete, patched in place by updates. */
typedef struct sorted_kind {
  store_obj **items;
  size_t n, cap;
  bool valid;
} sorted_kind;


typedef struct memory_store {
  store base;
  pthread_mutex_t lock;
  store_options opts;
  _Atomic uint64_t rv; /* written under lock; read without it by mem_revision */
  strmap objects[KIND_COUNT];          /* key -> store_obj * */
  strmap indexes[STORE_INDEX_COUNT];   /* index key -> bucket * */
  strmap incarnations[KIND_COUNT];     /* key -> (uintptr_t) deletes so far, for uids */
  sorted_kind sorted[KIND_COUNT][STORE_ORDER_COUNT];
  watchers events;
} memory_store;

static memory_store *from(store *s) { return (memory_store *)s; }

static void lock(memory_store *m) { pthread_mutex_lock(&m->lock); }
static void unlock(memory_store *m) { pthread_mutex_unlock(&m->lock); }

static int64_t system_clock(void *user) {
  (void)user;
  return (int64_t)time(NULL);
}

static void now_text(memory_store *m, char out[21]) {
  meta_format_time(m->opts.clock(m->opts.clock_user), out);
}

static store_status hand_out(store_obj *o, store_obj **out) {
  if (out) *out = store_obj_ref(o);
  return STORE_OK;
}

/* ---- indexes ---- */

static void bucket_add(bucket *b, store_obj *o) {
  b->items = xgrow(b->items, b->n, &b->cap, sizeof *b->items, 4);
  b->items[b->n++] = o;
}

static void bucket_remove(bucket *b, const store_obj *o) {
  for (size_t i = 0; i < b->n; i++)
    if (b->items[i] == o) {
      b->items[i] = b->items[--b->n];
      return;
    }
}

static void bucket_free(void *p) {
  bucket *b = p;
  free(b->items);
  free(b);
}

/* Files o under every index of its kind (add) or takes it out (!add). */
static void file_indexes(memory_store *m, store_obj *o, bool add) {
  for (store_index ix = STORE_INDEX_NONE + 1; ix < STORE_INDEX_COUNT; ix++) {
    if (index_kind(ix) != o->object->info->kind) continue;
    index_keys keys = {0};
    index_keys_of(ix, o->object, &keys);
    for (size_t i = 0; i < keys.n; i++) {
      bucket *b = strmap_get(&m->indexes[ix], keys.items[i]);
      if (add) {
        if (!b) {
          b = xcalloc(1, sizeof *b);
          strmap_put(&m->indexes[ix], keys.items[i], b);
        }
        bucket_add(b, o);
      } else if (b) {
        bucket_remove(b, o);
        if (!b->n) bucket_free(strmap_remove(&m->indexes[ix], keys.items[i]));
      }
    }
    index_keys_free(&keys);
  }
}

/* ---- the table of current versions ---- */

static int strcmp_null(const char *a, const char *b) { return strcmp(a ? a : "", b ? b : ""); }

static int cmp_by_name(const void *x, const void *y) {
  const object_meta *a = store_obj_meta(*(store_obj *const *)x), *b = store_obj_meta(*(store_obj *const *)y);
  int c = strcmp_null(a->namespace_, b->namespace_);
  return c ? c : strcmp_null(a->name, b->name);
}

static int cmp_by_creation(const void *x, const void *y) {
  uint64_t a = (*(store_obj *const *)x)->created_rv, b = (*(store_obj *const *)y)->created_rv;
  return (a > b) - (a < b);
}

static int (*const comparators[STORE_ORDER_COUNT])(const void *, const void *) = {
    [STORE_BY_NAME] = cmp_by_name,
    [STORE_BY_CREATION] = cmp_by_creation,
};


static char *key_of(const api_object *o) {
  const object_meta *meta = api_object_meta(o);
  return meta_key(meta->namespace_, meta->name);
}

/* Makes o the current version under key (replacing old, if any). */
static void install(memory_store *m, const char *key, store_obj *old, store_obj *o) {
  sorted_kind *sorted = m->sorted[o->object->info->kind];
  if (old) file_indexes(m, old, false);
  for (store_order ord = 0; ord < STORE_ORDER_COUNT; ord++) {
    if (!old || !sorted[ord].valid || old->created_rv != o->created_rv) {
      sorted[ord].valid = false;
      continue;
    }
    /* o sorts where old did: same namespace, name and created_rv. */
    store_obj **slot = bsearch(&o, sorted[ord].items, sorted[ord].n, sizeof *sorted[ord].items, comparators[ord]);
    if (!slot) die_bug("store: sorted list lost an object");
    *slot = o;
  }
  strmap_put(&m->objects[o->object->info->kind], key, o);
  file_indexes(m, o, true);
  store_obj_unref(old);
}

static void uninstall(memory_store *m, const char *key, store_obj *old) {
  api_kind kind = old->object->info->kind;
  file_indexes(m, old, false);
  strmap_remove(&m->objects[kind], key);
  for (store_order ord = 0; ord < STORE_ORDER_COUNT; ord++) m->sorted[kind][ord].valid = false;
  uintptr_t deletes = (uintptr_t)strmap_get(&m->incarnations[kind], key);
  strmap_put(&m->incarnations[kind], key, (void *)(deletes + 1));
  store_obj_unref(old);
}

static bool preconditions_hold(const store_obj *cur, const char *uid, const char *rv) {
  const object_meta *meta = store_obj_meta(cur);
  if (uid && *uid && (!meta->uid || strcmp(uid, meta->uid) != 0)) return false;
  if (rv && *rv && (!meta->resource_version || strcmp(rv, meta->resource_version) != 0)) return false;
  return true;
}

/* Stores the final state of a deleted object (a copy stamped with the
 * deletion's rv), emits DELETED and hands that state out. */
static void finish_delete(memory_store *m, const char *key, store_obj *cur, api_object *final, store_obj **out) {
  uint64_t rv = ++m->rv;
  meta_set_resource_version(final, rv);
  store_obj *gone = store_obj_new(final, rv, cur->created_rv);
  store_obj_ref(cur); /* uninstall drops the store's reference */
  uninstall(m, key, cur);
  watchers_emit(&m->events, STORE_DELETED, gone, rv, cur);
  store_obj_unref(cur);
  if (out) *out = gone;
  else store_obj_unref(gone);
}

/* Stores next (owned from now on) as the new version of cur, emits MODIFIED
 * and hands the new version out. */
static void replace(memory_store *m, const char *key, store_obj *cur, api_object *next, store_obj **out) {
  uint64_t rv = ++m->rv;
  meta_set_resource_version(next, rv);
  store_obj *o = store_obj_new(next, rv, cur->created_rv);
  store_obj_ref(cur); /* install drops the store's reference */
  install(m, key, cur, o);
  watchers_emit(&m->events, STORE_MODIFIED, o, rv, cur);
  store_obj_unref(cur);
  hand_out(o, out);
}

/* ---- backend operations ---- */

static store_status mem_create(store *s, api_object *obj, store_obj **out) {
  memory_store *m = from(s);
  if (!meta_key_ok(obj)) return STORE_INVALID;
  lock(m);
  strmap *table = &m->objects[obj->info->kind];
  object_meta *meta = api_object_meta(obj);
  bool generated = !meta->name || !*meta->name;
  char *key = NULL;
  for (int attempt = 0; attempt < GENERATE_NAME_TRIES; attempt++) {
    if (generated) {
      meta->name = NULL;
      meta_generate_name(obj, m->rv * GENERATE_NAME_TRIES + (uint64_t)attempt);
    }
    free(key);
    key = key_of(obj);
    if (!generated || !strmap_get(table, key)) break;
  }
  if (strmap_get(table, key)) {
    if (generated) meta->name = NULL;
    free(key);
    unlock(m);
    return STORE_ALREADY_EXISTS;
  }
  char now[21];
  now_text(m, now);
  uint64_t rv = ++m->rv;
  meta_on_create(obj, now, (unsigned)(uintptr_t)strmap_get(&m->incarnations[obj->info->kind], key));
  meta_set_resource_version(obj, rv);
  store_obj *o = store_obj_new(obj, rv, rv);
  install(m, key, NULL, o);
  free(key);
  watchers_emit(&m->events, STORE_ADDED, o, rv, NULL);
  hand_out(o, out);
  unlock(m);
  return STORE_OK;
}

static store_status mem_get(store *s, api_kind kind, const char *namespace_, const char *name, store_obj **out) {
  memory_store *m = from(s);
  if (kind >= KIND_COUNT || !name) return STORE_NOT_FOUND;
  char *key = meta_key(namespace_, name);
  lock(m);
  store_obj *o = strmap_get(&m->objects[kind], key);
  store_status st = o ? hand_out(o, out) : STORE_NOT_FOUND;
  unlock(m);
  free(key);
  return st;
}

static store_status mem_update(store *s, api_object *obj, store_obj **out) {
  memory_store *m = from(s);
  const object_meta *meta = api_object_meta(obj);
  if (!meta->name || !*meta->name || !meta_key_ok(obj)) return STORE_INVALID;
  char *key = key_of(obj);
  lock(m);
  store_status st = STORE_OK;
  store_obj *cur = strmap_get(&m->objects[obj->info->kind], key);
  if (!cur) st = STORE_NOT_FOUND;
  else if (!preconditions_hold(cur, meta->uid, meta->resource_version)) st = STORE_CONFLICT;
  if (st != STORE_OK) goto done;
  meta_on_update(obj, cur->object);
  if (!meta_changed(obj, cur->object)) {
    api_object_free(obj);
    hand_out(cur, out);
  } else if (meta->deletion_timestamp && !meta_pending_finalizers(obj)) {
    finish_delete(m, key, cur, obj, out);
  } else {
    replace(m, key, cur, obj, out);
  }
done:
  unlock(m);
  free(key);
  return st;
}

/* A delete of an object with finalizers: a new version with
 * deletionTimestamp = now and deletionGracePeriodSeconds = 0. */
static void mark_deleting(memory_store *m, const char *key, store_obj *cur, store_obj **out) {
  api_object *copy = api_object_clone(cur->object);
  object_meta *meta = api_object_meta(copy);
  char now[21];
  now_text(m, now);
  meta->deletion_timestamp = arena_strdup(copy->arena, now);
  meta->deletion_grace_period_seconds = 0;
  meta->deletion_grace_period_seconds_set = true;
  replace(m, key, cur, copy, out);
}

static store_status mem_remove(store *s, api_kind kind, const char *namespace_, const char *name,
                               const store_preconditions *pre, store_obj **out) {
  memory_store *m = from(s);
  if (kind >= KIND_COUNT || !name) return STORE_NOT_FOUND;
  char *key = meta_key(namespace_, name);
  lock(m);
  store_status st = STORE_OK;
  store_obj *cur = strmap_get(&m->objects[kind], key);
  if (!cur) st = STORE_NOT_FOUND;
  else if (pre && !preconditions_hold(cur, pre->uid, pre->resource_version)) st = STORE_CONFLICT;
  else if (!meta_pending_finalizers(cur->object)) finish_delete(m, key, cur, api_object_clone(cur->object), out);
  else if (!store_obj_meta(cur)->deletion_timestamp) mark_deleting(m, key, cur, out);
  else hand_out(cur, out);
  unlock(m);
  free(key);
  return st;
}

/* ---- list ---- */

typedef struct collector {
  store_list *out;
  size_t cap;
  const char *namespace_; /* NULL: any */
} collector;

static void collect(void *ctx, void *value) {
  collector *c = ctx;
  store_obj *o = value;
  const char *ns = store_obj_meta(o)->namespace_;
  if (c->namespace_ && (!ns || strcmp(ns, c->namespace_) != 0)) return;
  c->out->items = xgrow(c->out->items, c->out->n, &c->cap, sizeof *c->out->items, 16);
  c->out->items[c->out->n++] = store_obj_ref(o);
}

static void add_borrowed(void *ctx, void *value) {
  sorted_kind *order = ctx;
  order->items = xgrow(order->items, order->n, &order->cap, sizeof *order->items, 64);
  order->items[order->n++] = value;
}

static const sorted_kind *sorted_list(memory_store *m, api_kind kind, store_order ord) {
  sorted_kind *order = &m->sorted[kind][ord];
  if (order->valid) return order;
  order->n = 0;
  strmap_each(&m->objects[kind], add_borrowed, order);
  if (order->n > 1) qsort(order->items, order->n, sizeof *order->items, comparators[ord]);
  order->valid = true;
  return order;
}

static store_status mem_list(store *s, const store_query *q, store_list *out) {
  memory_store *m = from(s);
  *out = (store_list){0};
  if (q->kind >= KIND_COUNT || q->order >= STORE_ORDER_COUNT) return STORE_INVALID;
  if (q->index != STORE_INDEX_NONE && index_kind(q->index) != q->kind) return STORE_INVALID;
  char *key = NULL;
  if (q->index != STORE_INDEX_NONE && !(key = index_query_key(q))) return STORE_INVALID;
  bool by_namespace = api_kind_info_of(q->kind)->namespaced && q->namespace_ && *q->namespace_;
  collector c = {out, 0, by_namespace ? q->namespace_ : NULL};
  lock(m);
  out->rv = m->rv;
  if (!key) {
    const sorted_kind *order = sorted_list(m, q->kind, q->order);
    for (size_t i = 0; i < order->n; i++) collect(&c, order->items[i]);
  } else {
    bucket *b = strmap_get(&m->indexes[q->index], key);
    for (size_t i = 0; b && i < b->n; i++) collect(&c, b->items[i]);
  }
  unlock(m);
  if (key && out->n > 1) qsort(out->items, out->n, sizeof *out->items, comparators[q->order]);
  free(key);
  return STORE_OK;
}

/* ---- watch and lifetime ---- */

static store_status mem_watch(store *s, uint64_t since_rv, store_watch_fn fn, void *user, uint64_t *id) {
  memory_store *m = from(s);
  lock(m);
  store_status st = watchers_add(&m->events, since_rv, m->rv, fn, user, id);
  unlock(m);
  return st;
}

static void mem_unwatch(store *s, uint64_t id) {
  memory_store *m = from(s);
  lock(m);
  watchers_remove(&m->events, id);
  unlock(m);
}

static uint64_t mem_revision(store *s) { return atomic_load(&from(s)->rv); }

static void unref_value(void *p) { store_obj_unref(p); }

static void mem_close(store *s) {
  memory_store *m = from(s);
  watchers_free(&m->events);
  for (size_t k = 0; k < KIND_COUNT; k++) {
    strmap_free(&m->objects[k], unref_value);
    strmap_free(&m->incarnations[k], NULL);
    for (store_order ord = 0; ord < STORE_ORDER_COUNT; ord++) free(m->sorted[k][ord].items);
  }
  for (size_t ix = 0; ix < STORE_INDEX_COUNT; ix++) strmap_free(&m->indexes[ix], bucket_free);
  pthread_mutex_destroy(&m->lock);
  free(m);
}

static const store_backend memory_backend = {
    "memory", mem_create, mem_get, mem_update, mem_remove, mem_list, mem_watch, mem_unwatch, mem_revision, mem_close,
};

store *store_memory_open(const store_options *opts) {
  memory_store *m = xcalloc(1, sizeof *m);
  m->base.backend = &memory_backend;
  if (opts) m->opts = *opts;
  if (!m->opts.clock) m->opts.clock = system_clock;
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&m->lock, &attr);
  pthread_mutexattr_destroy(&attr);
  watchers_init(&m->events, m->opts.history);
  return &m->base;
}

/* ---- restore (memory_restore.h), for durable backends ---- */

void store_memory_restore(store *s, api_object *obj, uint64_t rv, uint64_t created_rv) {
  memory_store *m = from(s);
  lock(m);
  meta_set_resource_version(obj, rv);
  char *key = key_of(obj);
  store_obj *old = strmap_get(&m->objects[obj->info->kind], key);
  install(m, key, old, store_obj_new(obj, rv, created_rv));
  free(key);
  if (rv > m->rv) m->rv = rv;
  unlock(m);
}

unsigned store_memory_deletes(store *s, api_kind kind, const char *namespace_, const char *name) {
  memory_store *m = from(s);
  char *key = meta_key(namespace_, name);
  lock(m);
  unsigned n = (unsigned)(uintptr_t)strmap_get(&m->incarnations[kind], key);
  unlock(m);
  free(key);
  return n;
}

void store_memory_set_deletes(store *s, api_kind kind, const char *namespace_, const char *name, unsigned n) {
  memory_store *m = from(s);
  char *key = meta_key(namespace_, name);
  lock(m);
  strmap_put(&m->incarnations[kind], key, (void *)(uintptr_t)n);
  unlock(m);
  free(key);
}

void store_memory_set_revision(store *s, uint64_t rv) {
  memory_store *m = from(s);
  lock(m);
  if (rv > m->rv) m->rv = rv;
  unlock(m);
}
