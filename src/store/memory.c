/* memory.c: the in-memory store backend. One recursive mutex guards
 * everything (watch callbacks may call back in); per kind a map from
 * "<namespace>\x1f<name>" to the current version, and per index a map from
 * key to the versions filed there. Reads are of the current state, or, for
 * the committed view (store_committed), of the state at the last commit:
 * the current one with the shadow's versions for keys changed since
 * (shadow.c; commits come from a durable backend, memory_commit.h, else
 * every change is committed when made). The server-set metadata rules are
 * meta.c's; events and history are watchers.c's. */
#include "store/index.h"
#include "store/memory_commit.h"
#include "store/memory_feed.h"
#include "store/memory_restore.h"
#include "store/meta.h"
#include "store/ordered.h"
#include "store/shadow.h"
#include "store/store_obj.h"
#include "store/strmap.h"
#include "store/watchers.h"
#include "util/die.h"
#include "util/strbuf.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Attempts at a free name from generateName before giving up with AlreadyExists. */
#define GENERATE_NAME_TRIES 8

typedef struct bucket {
  store_obj **items;
  size_t n, cap;
} bucket;

typedef struct memory_store {
  store base;
  pthread_mutex_t lock;
  store_options opts;
  _Atomic uint64_t rv; /* written under lock; read without it by mem_revision */
  strmap objects[KIND_COUNT];          /* key -> store_obj * */
  strmap indexes[STORE_INDEX_COUNT];   /* index key -> bucket * */
  strmap incarnations[KIND_COUNT];     /* key -> (uintptr_t) deletes so far, for uids */
  ordered sorted[KIND_COUNT][STORE_ORDER_COUNT]; /* every current version, for lists without an index */
  watchers events;
  bool deferred;                 /* commits come from store_memory_commit */
  _Atomic uint64_t committed_rv; /* what committed reads show; written under lock */
  _Atomic uint64_t published_rv; /* deferred: what committed watchers were shown; read without the lock */
  shadow shadow;                 /* deferred: committed versions of keys changed since */
  store view;                    /* deferred: the committed view, see store_committed */
  store *view_writes;            /* where the view's writes go: the durable backend */
  uint64_t fed_rv;               /* fed: the last revision fed, and the keys it changed */
  strmap fed_keys;               /* "<kind> <key>" -> (void *)1 */
  int64_t now_at;                /* now_text: the last time formatted, and its text */
  char now_text[21];
} memory_store;

static memory_store *from(store *s) { return (memory_store *)s; }

static void lock(memory_store *m) { pthread_mutex_lock(&m->lock); }
static void unlock(memory_store *m) { pthread_mutex_unlock(&m->lock); }

static int64_t system_clock(void *user) {
  (void)user;
  return (int64_t)time(NULL);
}

/* The clock's time as text; formatted once per second it reads (a load
 * creates thousands of objects in the same second). Under the lock. */
static void now_text(memory_store *m, char out[21]) {
  int64_t now = m->opts.clock(m->opts.clock_user);
  if (!m->now_text[0] || now != m->now_at) {
    meta_format_time(now, m->now_text);
    m->now_at = now;
  }
  memcpy(out, m->now_text, sizeof m->now_text);
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

/* A namespace and name, where a page starts after. */
typedef struct name_key {
  const char *namespace_, *name;
} name_key;

/* The bytes of "<namespace>/<name>" one by one from a point in the
 * namespace (-1 at the end). */
typedef struct key_bytes {
  const char *at;
  const char *name; /* NULL once the walk is in the name */
} key_bytes;

static int next_key_byte(key_bytes *k) {
  if (*k->at) return (unsigned char)*k->at++;
  if (!k->name) return -1;
  k->at = k->name;
  k->name = NULL;
  return '/';
}

/* Orders keys as the text "<namespace>/<name>" (a cluster-scoped object's
 * namespace is ""), the order of etcd's keys that kube-apiserver lists in:
 * "team-b/a" before "team/z", since '-' < '/'. A namespace's objects stay
 * together (every key with its prefix), its first after the key
 * (namespace, ""). Namespaces are compared as strcmp does, the end of one
 * standing for the '/' that follows it. */
static int cmp_keys(const name_key *a, const name_key *b) {
  const char *na = a->namespace_ ? a->namespace_ : "", *nb = b->namespace_ ? b->namespace_ : "";
  if (na != nb) { /* the objects of one namespace often share its text */
    const unsigned char *p = (const unsigned char *)na, *q = (const unsigned char *)nb;
    while (*p && *p == *q) p++, q++;
    if (*p != *q) { /* one namespace ended where the other goes on, or they differ */
      int x = *p ? *p : '/', y = *q ? *q : '/';
      if (x != y) return x - y;
      key_bytes ka = {(const char *)p, a->name ? a->name : ""}, kb = {(const char *)q, b->name ? b->name : ""};
      for (;;) { /* a '/' after the shorter namespace: only a start key the store did not make */
        int xb = next_key_byte(&ka), yb = next_key_byte(&kb);
        if (xb != yb || xb < 0) return xb - yb;
      }
    }
  }
  return strcmp_null(a->name, b->name);
}

static name_key key_of_obj(const store_obj *o) {
  const object_meta *m = store_obj_meta(o);
  return (name_key){m->namespace_, m->name};
}

static int cmp_name_key(const void *key, const store_obj *o) {
  name_key k = key_of_obj(o);
  return cmp_keys(key, &k);
}

static int cmp_by_name(const store_obj *a, const store_obj *b) {
  name_key k = key_of_obj(a);
  return cmp_name_key(&k, b);
}

/* Creates at one revision (an etcd transaction fed to a cache) go by name. */
static int cmp_by_creation(const store_obj *a, const store_obj *b) {
  if (a->created_rv != b->created_rv) return a->created_rv < b->created_rv ? -1 : 1;
  return cmp_by_name(a, b);
}

static const ordered_cmp comparators[STORE_ORDER_COUNT] = {
    [STORE_BY_NAME] = cmp_by_name,
    [STORE_BY_CREATION] = cmp_by_creation,
};

static int qsort_cmp_by_name(const void *x, const void *y) {
  return cmp_by_name(*(store_obj *const *)x, *(store_obj *const *)y);
}

static int qsort_cmp_by_creation(const void *x, const void *y) {
  return cmp_by_creation(*(store_obj *const *)x, *(store_obj *const *)y);
}

static int (*const qsort_comparators[STORE_ORDER_COUNT])(const void *, const void *) = {
    [STORE_BY_NAME] = qsort_cmp_by_name,
    [STORE_BY_CREATION] = qsort_cmp_by_creation,
};


static char *key_of(const api_object *o) {
  const object_meta *meta = api_object_meta(o);
  return meta_key(meta->namespace_, meta->name);
}

/* Makes o the current version under key (replacing old, if any). */
static void install(memory_store *m, const char *key, store_obj *old, store_obj *o) {
  ordered *sorted = m->sorted[o->object->info->kind];
  if (old) file_indexes(m, old, false);
  for (store_order ord = 0; ord < STORE_ORDER_COUNT; ord++) {
    if (!old) {
      ordered_insert(&sorted[ord], o);
    } else if (!comparators[ord](old, o)) { /* same namespace, name and created_rv */
      ordered_replace(&sorted[ord], o);
    } else {
      ordered_remove(&sorted[ord], old);
      ordered_insert(&sorted[ord], o);
    }
  }
  strmap_put(&m->objects[o->object->info->kind], key, o);
  file_indexes(m, o, true);
  store_obj_unref(old);
}

static void uninstall(memory_store *m, const char *key, store_obj *old) {
  api_kind kind = old->object->info->kind;
  file_indexes(m, old, false);
  strmap_remove(&m->objects[kind], key);
  for (store_order ord = 0; ord < STORE_ORDER_COUNT; ord++) ordered_remove(&m->sorted[kind][ord], old);
  uintptr_t deletes = (uintptr_t)strmap_get(&m->incarnations[kind], key);
  strmap_put(&m->incarnations[kind], key, (void *)(deletes + 1));
  store_obj_unref(old);
}

/* Every change goes out through here: to the committed view (at once, or
 * through the shadow until it is committed), then to the watchers. */
static void publish(memory_store *m, const char *key, store_event_type type, store_obj *o, uint64_t rv,
                    store_obj *prev) {
  if (m->deferred) {
    shadow_note(&m->shadow, o->object->info->kind, key, prev, rv);
  } else {
    atomic_store(&m->committed_rv, rv);
    watchers_commit(&m->events, rv);
  }
  watchers_emit(&m->events, type, o, rv, prev);
}

/* Stores the final state of a deleted object (a copy stamped with the
 * deletion's rv), emits DELETED and hands that state out. */
static void finish_delete(memory_store *m, const char *key, store_obj *cur, api_object *final, store_obj **out) {
  uint64_t rv = ++m->rv;
  meta_set_resource_version(final, rv);
  store_obj *gone = store_obj_new(final, rv, cur->created_rv);
  store_obj_ref(cur); /* uninstall drops the store's reference */
  uninstall(m, key, cur);
  publish(m, key, STORE_DELETED, gone, rv, cur);
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
  publish(m, key, STORE_MODIFIED, o, rv, cur);
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
  publish(m, key, STORE_ADDED, o, rv, NULL);
  free(key);
  hand_out(o, out);
  unlock(m);
  return STORE_OK;
}

/* The current version, or with committed, the one of the last commit: a
 * version newer than it, or a key without one, may be in the shadow. */
static store_status get_at(memory_store *m, api_kind kind, const char *namespace_, const char *name, bool committed,
                           store_obj **out) {
  if (kind >= KIND_COUNT || !name) return STORE_NOT_FOUND;
  char *key = meta_key(namespace_, name);
  lock(m);
  store_obj *o = strmap_get(&m->objects[kind], key);
  if (committed && (!o || o->rv > atomic_load(&m->committed_rv))) {
    const shadow_entry *e = shadow_get(&m->shadow, kind, key);
    if (e) o = e->committed;
  }
  store_status st = o ? hand_out(o, out) : STORE_NOT_FOUND;
  unlock(m);
  free(key);
  return st;
}

static store_status mem_get(store *s, api_kind kind, const char *namespace_, const char *name, store_obj **out) {
  return get_at(from(s), kind, namespace_, name, false, out);
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
  else if (!meta_preconditions_hold(cur->object, meta->uid, meta->resource_version)) st = STORE_CONFLICT;
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

/* A delete that keeps the object: marked (meta_marked_deleting), or, for
 * a graceful delete that would not bring it closer, handed out as it is. */
static void mark_deleting(memory_store *m, const char *key, store_obj *cur, int64_t grace, store_obj **out) {
  api_object *marked = meta_marked_deleting(cur->object, m->opts.clock(m->opts.clock_user), grace);
  if (marked) replace(m, key, cur, marked, out);
  else hand_out(cur, out);
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
  else if (pre && !meta_preconditions_hold(cur->object, pre->uid, pre->resource_version)) st = STORE_CONFLICT;
  else if (pre && pre->grace_period_seconds > 0) mark_deleting(m, key, cur, pre->grace_period_seconds, out);
  else if (!meta_pending_finalizers(cur->object)) finish_delete(m, key, cur, api_object_clone(cur->object), out);
  else if (!store_obj_meta(cur)->deletion_timestamp) mark_deleting(m, key, cur, 0, out);
  else hand_out(cur, out);
  unlock(m);
  free(key);
  return st;
}

/* ---- list ---- */

typedef struct collector {
  const store_query *q;
  store_list *out;
  size_t cap;
  const char *namespace_; /* NULL: any */
  uint64_t visible_rv;    /* newer versions are not collected (committed or earlier states) */
  const char *key;        /* the query's index key, for versions from the shadow */
  name_key after;         /* with q->after_name */
} collector;

static void add(collector *c, store_obj *o) {
  c->out->items = xgrow(c->out->items, c->out->n, &c->cap, sizeof *c->out->items, 16);
  c->out->items[c->out->n++] = store_obj_ref(o);
}

static bool page_full(const collector *c) { return c->q->limit && c->out->n >= c->q->limit; }

/* Whether a walk goes on: to fill the page, or to count what follows it. */
static bool wants_more(const collector *c) { return !page_full(c) || c->q->count_rest; }

/* Adds o to the page, or once the page is full counts it (count_rest). */
static void take(collector *c, store_obj *o) {
  if (!page_full(c)) add(c, o);
  else c->out->rest++;
}

/* o is visible, in the query's namespace and accepted by its match. The
 * page's start is the caller's. */
static bool fits(const collector *c, const store_obj *o) {
  const char *ns = store_obj_meta(o)->namespace_;
  if (o->rv > c->visible_rv) return false;
  if (c->namespace_ && (!ns || strcmp(ns, c->namespace_) != 0)) return false;
  return !c->q->match || c->q->match(c->q->match_user, o->object);
}

static bool after_start(const collector *c, const store_obj *o) {
  return !c->q->after_name || cmp_name_key(&c->after, o) < 0;
}

/* A committed version from the shadow, if it fits, starts after the
 * page's start and the query's index files it under the query's key. */
static void collect_committed(void *ctx, store_obj *o) {
  collector *c = ctx;
  bool filed = !c->key;
  if (!filed) {
    index_keys keys = {0};
    index_keys_of(c->q->index, o->object, &keys);
    for (size_t i = 0; i < keys.n && !filed; i++) filed = !strcmp(keys.items[i], c->key);
    index_keys_free(&keys);
  }
  if (filed && after_start(c, o) && fits(c, o)) add(c, o);
}

/* Cuts l to the query's limit (counting what it cuts with count_rest). */
static void cut_to_limit(const store_query *q, store_list *l) {
  if (q->count_rest && q->limit && l->n > q->limit) l->rest = l->n - q->limit;
  while (q->limit && l->n > q->limit) store_obj_unref(l->items[--l->n]);
}

/* Where a walk in namespace/name order starts (NULL: at the first
 * object): after the page's start, and not before the query's namespace
 * (no object has the name ""). */
static const name_key *walk_start(const collector *c, name_key *ns_start) {
  *ns_start = (name_key){c->namespace_, ""};
  if (!c->namespace_) return c->q->after_name ? &c->after : NULL;
  return c->q->after_name && cmp_keys(&c->after, ns_start) > 0 ? &c->after : ns_start;
}

/* The query without an index: a walk of the kind's objects in the query's
 * order from the page's start, merged with extra (the shadow's versions
 * that fit, in that order), until the page is full. */
static void walk(memory_store *m, collector *c, const store_list *extra) {
  bool by_name = c->q->order == STORE_BY_NAME;
  name_key ns_start;
  ordered_cursor cur = ordered_after(&m->sorted[c->q->kind][c->q->order], cmp_name_key,
                                     by_name ? walk_start(c, &ns_start) : NULL);
  ordered_cmp cmp = comparators[c->q->order];
  size_t e = 0;
  for (store_obj *o; wants_more(c) && (o = ordered_next(&cur));) {
    if (by_name && c->namespace_ && strcmp_null(store_obj_meta(o)->namespace_, c->namespace_)) break;
    if (!fits(c, o)) continue;
    while (e < extra->n && wants_more(c) && cmp(extra->items[e], o) < 0) take(c, extra->items[e++]);
    take(c, o);
  }
  while (e < extra->n && wants_more(c)) take(c, extra->items[e++]);
}

/* Finds each key's version at an earlier resourceVersion from the events
 * after it: the first change of a key names the version it replaced (none
 * for a create), and the collector takes those that fit. */
typedef struct replaced_walk {
  collector *c;
  strmap seen; /* keys whose first change was looked at */
} replaced_walk;

static void collect_replaced(void *user, const store_event *ev) {
  replaced_walk *rw = user;
  if (ev->obj->object->info->kind != rw->c->q->kind) return;
  char *key = key_of(ev->obj->object);
  if (!strmap_get(&rw->seen, key)) {
    strmap_put(&rw->seen, key, rw);
    if (ev->prev) collect_committed(rw->c, ev->prev);
  }
  free(key);
}

/* Into extra (through c's copy), the versions that the query's state
 * shows but the current one does not: with at_rv those current at at_rv
 * that changed since, for the committed view the shadow's; c then leaves
 * out the versions newer than that state. */
static store_status collect_older(memory_store *m, const store_query *q, bool committed, collector *c,
                                  store_list *extra) {
  collector older = *c;
  older.out = extra;
  older.cap = 0;
  if (q->at_rv && q->at_rv < c->out->rv) {
    if (!watchers_keeps_after(&m->events, q->at_rv)) return STORE_GONE;
    c->visible_rv = older.visible_rv = c->out->rv = q->at_rv;
    replaced_walk rw = {&older, {0}};
    watchers_each_after(&m->events, q->at_rv, collect_replaced, &rw);
    strmap_free(&rw.seen, NULL);
  } else if (committed) {
    c->visible_rv = older.visible_rv = c->out->rv;
    shadow_each(&m->shadow, q->kind, collect_committed, &older);
  }
  if (extra->n > 1) qsort(extra->items, extra->n, sizeof *extra->items, qsort_comparators[q->order]);
  return STORE_OK;
}

/* The query on the current state, with committed on the state of the last
 * commit, with at_rv on the state then: versions newer than it are left
 * out and the older versions of their keys (and of keys deleted since)
 * put in. */
static store_status list_at(memory_store *m, const store_query *q, bool committed, store_list *out) {
  *out = (store_list){0};
  if (q->kind >= KIND_COUNT || q->order >= STORE_ORDER_COUNT) return STORE_INVALID;
  if (q->index != STORE_INDEX_NONE && index_kind(q->index) != q->kind) return STORE_INVALID;
  if (q->after_name && q->order != STORE_BY_NAME) return STORE_INVALID;
  char *key = NULL;
  if (q->index != STORE_INDEX_NONE && !(key = index_query_key(q))) return STORE_INVALID;
  bool by_namespace = api_kind_info_of(q->kind)->namespaced && q->namespace_ && *q->namespace_;
  store_list extra = {0};
  collector c = {q, out, 0, by_namespace ? q->namespace_ : NULL, UINT64_MAX, key, {q->after_namespace, q->after_name}};
  lock(m);
  out->rv = committed ? atomic_load(&m->committed_rv) : m->rv;
  store_status st = q->at_rv > out->rv ? STORE_INVALID : collect_older(m, q, committed, &c, &extra);
  if (st == STORE_OK && !key) {
    walk(m, &c, &extra);
  } else if (st == STORE_OK) {
    bucket *b = strmap_get(&m->indexes[q->index], key);
    for (size_t i = 0; b && i < b->n; i++)
      if (after_start(&c, b->items[i]) && fits(&c, b->items[i])) add(&c, b->items[i]);
  }
  unlock(m);
  if (key && st == STORE_OK) {
    for (size_t i = 0; i < extra.n; i++) add(&c, extra.items[i]);
    if (out->n > 1) qsort(out->items, out->n, sizeof *out->items, qsort_comparators[q->order]);
    cut_to_limit(q, out);
  }
  store_list_free(&extra);
  free(key);
  if (st != STORE_OK) out->rv = 0;
  return st;
}

static store_status mem_list(store *s, const store_query *q, store_list *out) {
  return list_at(from(s), q, false, out);
}

/* ---- watch and lifetime ---- */

static store_status watch_as(memory_store *m, uint64_t since_rv, bool committed, store_watch_fn fn, void *user,
                             uint64_t *id) {
  lock(m);
  store_status st = watchers_add(&m->events, since_rv, m->rv, committed, fn, user, id);
  unlock(m);
  return st;
}

static store_status mem_watch(store *s, uint64_t since_rv, store_watch_fn fn, void *user, uint64_t *id) {
  return watch_as(from(s), since_rv, false, fn, user, id);
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
    for (store_order ord = 0; ord < STORE_ORDER_COUNT; ord++) ordered_free(&m->sorted[k][ord]);
  }
  for (size_t ix = 0; ix < STORE_INDEX_COUNT; ix++) strmap_free(&m->indexes[ix], bucket_free);
  strmap_free(&m->fed_keys, NULL);
  shadow_free(&m->shadow);
  pthread_mutex_destroy(&m->lock);
  free(m);
}

static store *mem_committed(store *s) {
  memory_store *m = from(s);
  return m->deferred ? &m->view : s;
}

static const store_backend memory_backend = {
    "memory", mem_create,   mem_get,   mem_update, mem_remove,   mem_list,
    mem_watch, mem_unwatch, mem_revision, mem_close, mem_committed, NULL, NULL, /* not durable */
};

/* ---- the committed view of a store whose commits are deferred ---- */

static memory_store *of_view(store *s) { return (memory_store *)((char *)s - offsetof(memory_store, view)); }

static store_status view_create(store *s, api_object *obj, store_obj **out) {
  return store_create(of_view(s)->view_writes, obj, out);
}

static store_status view_get(store *s, api_kind kind, const char *namespace_, const char *name, store_obj **out) {
  return get_at(of_view(s), kind, namespace_, name, true, out);
}

static store_status view_update(store *s, api_object *obj, store_obj **out) {
  return store_update(of_view(s)->view_writes, obj, out);
}

static store_status view_remove(store *s, api_kind kind, const char *namespace_, const char *name,
                                const store_preconditions *pre, store_obj **out) {
  return store_delete(of_view(s)->view_writes, kind, namespace_, name, pre, out);
}

static store_status view_list(store *s, const store_query *q, store_list *out) {
  return list_at(of_view(s), q, true, out);
}

static store_status view_watch(store *s, uint64_t since_rv, store_watch_fn fn, void *user, uint64_t *id) {
  return watch_as(of_view(s), since_rv, true, fn, user, id);
}

static void view_unwatch(store *s, uint64_t id) { mem_unwatch(&of_view(s)->base, id); }
static uint64_t view_revision(store *s) { return atomic_load(&of_view(s)->published_rv); }
static void view_close(store *s) { (void)s; }
static store *view_committed(store *s) { return s; }

static const store_backend view_backend = {
    "memory-committed", view_create, view_get,      view_update, view_remove,    view_list,
    view_watch,         view_unwatch, view_revision, view_close,  view_committed, NULL, NULL, /* not durable */
};

void store_memory_defer_commits(store *s, store *writes) {
  memory_store *m = from(s);
  m->deferred = true;
  m->view.backend = &view_backend;
  m->view_writes = writes ? writes : s;
}

static void commit_event(void *user, const store_event *ev) {
  memory_store *m = user;
  shadow_commit(&m->shadow, ev, atomic_load(&m->committed_rv));
}

void store_memory_commit(store *s, uint64_t rv) {
  memory_store *m = from(s);
  lock(m);
  uint64_t was = atomic_load(&m->committed_rv);
  if (rv > was) {
    atomic_store(&m->committed_rv, rv);
    watchers_each_kept(&m->events, was, rv, commit_event, m);
  }
  unlock(m);
}

void store_memory_publish(store *s, uint64_t rv) {
  memory_store *m = from(s);
  lock(m);
  uint64_t committed = atomic_load(&m->committed_rv);
  if (rv > committed) rv = committed;
  if (rv > atomic_load(&m->published_rv)) {
    watchers_commit(&m->events, rv);
    atomic_store(&m->published_rv, rv); /* after: every event up to it is with the watchers */
  }
  unlock(m);
}

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
  watchers_init(&m->events, &m->opts);
  for (size_t k = 0; k < KIND_COUNT; k++)
    for (store_order ord = 0; ord < STORE_ORDER_COUNT; ord++) ordered_init(&m->sorted[k][ord], comparators[ord]);
  return &m->base;
}

/* ---- restore (memory_restore.h), for durable backends ---- */

/* What is restored is on disk: committed. */
static void set_restored_revision(memory_store *m, uint64_t rv) {
  m->rv = rv;
  watchers_start_at(&m->events, rv);
  atomic_store(&m->committed_rv, rv);
  watchers_commit(&m->events, rv);
  atomic_store(&m->published_rv, rv);
}

void store_memory_restore(store *s, api_object *obj, uint64_t rv, uint64_t created_rv) {
  memory_store *m = from(s);
  lock(m);
  meta_set_resource_version(obj, rv);
  char *key = key_of(obj);
  store_obj *old = strmap_get(&m->objects[obj->info->kind], key);
  if (old && old->rv > rv) api_object_free(obj); /* the later version of the key came first */
  else install(m, key, old, store_obj_new(obj, rv, created_rv));
  free(key);
  if (rv > m->rv) set_restored_revision(m, rv);
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
  if (rv > m->rv) set_restored_revision(m, rv);
  unlock(m);
}

/* ---- feed (memory_feed.h), for a cache of an external store ---- */

void store_memory_feed(store *s, api_kind kind, const char *namespace_, const char *name, api_object *obj,
                       uint64_t rv, uint64_t created_rv) {
  memory_store *m = from(s);
  lock(m);
  char *key = meta_key(namespace_, name);
  /* One revision may change several keys (an etcd transaction, the keys
   * of a lease deleted when it expires): a change at the revision last fed
   * is new unless its key was fed at it already. */
  strbuf fed = STRBUF_INIT;
  sb_printf(&fed, "%d %s", (int)kind, key);
  if (rv < m->rv || (rv == m->rv && (rv != m->fed_rv || strmap_get(&m->fed_keys, fed.buf)))) { /* already here */
    sb_free(&fed);
    free(key);
    unlock(m);
    api_object_free(obj);
    return;
  }
  if (rv != m->fed_rv) strmap_free(&m->fed_keys, NULL);
  m->fed_rv = rv;
  strmap_put(&m->fed_keys, fed.buf, (void *)1);
  sb_free(&fed);
  store_obj *cur = strmap_get(&m->objects[kind], key);
  m->rv = rv - 1; /* replace and finish_delete hand out the next one: rv */
  if (!obj && cur) finish_delete(m, key, cur, api_object_clone(cur->object), NULL);
  else if (cur) replace(m, key, cur, obj, NULL);
  else if (!obj) m->rv = rv;
  else {
    m->rv = rv;
    meta_set_resource_version(obj, rv);
    store_obj *o = store_obj_new(obj, rv, created_rv);
    install(m, key, NULL, o);
    publish(m, key, STORE_ADDED, o, rv, NULL);
  }
  free(key);
  unlock(m);
}
