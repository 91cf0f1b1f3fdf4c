/* gc.c: see gc.h. Upstream: k8s.io/kubernetes pkg/controller/garbagecollector
 * (garbagecollector.go attemptToDeleteItem, classifyReferences,
 * processDeletingDependentsItem, orphanDependents). Instead of upstream's
 * graph, dependents are found by scanning the owner's namespace (every
 * namespace for a cluster-scoped owner), the claims through their owner
 * index; only the kinds that have an object naming the owner's uid are
 * scanned (counted from the store's events), so the deletion of an object
 * nothing names costs no scan. */
#include "server/gc.h"
#include "server/apply.h"
#include "server/deletion.h"
#include "server/resources.h"
#include "store/strmap.h"
#include "util/die.h"
#include "util/workqueue.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* An object to look at as an owner: gone (its dependents may go), or being
 * deleted with the orphan or foregroundDeletion finalizer. */
typedef struct gc_item {
  api_kind kind;
  char *ns, *name, *uid;
} gc_item;

/* How many ownerReferences of each kind's objects name one uid. */
typedef struct named_by {
  uint32_t total;
  uint32_t by_kind[KIND_COUNT];
} named_by;

struct garbage_collector {
  store *st;
  uint64_t watch_id;
  workqueue owners;      /* gc_item */
  pthread_mutex_t lock;  /* named: written in store callbacks, read by gc_collect */
  strmap named;          /* uid -> named_by */
};

static void push(garbage_collector *g, api_kind kind, const char *ns, const char *name, const char *uid) {
  gc_item it = {kind, xstrdup(ns ? ns : ""), xstrdup(name ? name : ""), xstrdup(uid)};
  wq_push(&g->owners, &it);
}

static bool has_finalizer(const object_meta *m, const char *f) {
  for (uint32_t i = 0; i < m->finalizers.n; i++)
    if (!strcmp(m->finalizers.items[i], f)) return true;
  return false;
}

static bool deleting_in_foreground(const object_meta *m) {
  return m->deletion_timestamp && has_finalizer(m, FINALIZER_FOREGROUND);
}

static bool same_owners(const object_meta *a, const object_meta *b) {
  if (a->owner_references.n != b->owner_references.n) return false;
  for (uint32_t i = 0; i < a->owner_references.n; i++) {
    const char *x = a->owner_references.items[i].uid, *y = b->owner_references.items[i].uid;
    if (strcmp(x ? x : "", y ? y : "")) return false;
  }
  return true;
}

/* The owners an object names, each queued: one of them may wait for it
 * (foreground) or be gone already. */
static void push_owners_of(garbage_collector *g, const object_meta *m) {
  for (uint32_t i = 0; i < m->owner_references.n; i++) {
    const owner_reference *o = &m->owner_references.items[i];
    bool version_ok = false;
    const api_kind_info *k = o->uid ? api_kind_lookup(o->api_version, o->kind, &version_ok) : NULL;
    if (k) push(g, k->kind, k->namespaced ? m->namespace_ : NULL, o->name, o->uid);
  }
}

/* Counts (delta +1) or uncounts (-1) the owners o names. Called with g->lock. */
static void count_owners(garbage_collector *g, const store_obj *o, int delta) {
  const object_meta *m = store_obj_meta(o);
  api_kind kind = o->object->info->kind;
  for (uint32_t i = 0; i < m->owner_references.n; i++) {
    const char *uid = m->owner_references.items[i].uid;
    if (!uid) continue;
    named_by *nb = strmap_get(&g->named, uid);
    if (!nb) {
      if (delta < 0) continue;
      nb = xcalloc(1, sizeof *nb);
      strmap_put(&g->named, uid, nb);
    }
    nb->by_kind[kind] += (uint32_t)delta;
    if (!(nb->total += (uint32_t)delta)) free(strmap_remove(&g->named, uid));
  }
}

static void track_owners(garbage_collector *g, const store_event *ev) {
  pthread_mutex_lock(&g->lock);
  if (ev->type == STORE_ADDED) count_owners(g, ev->obj, 1);
  else if (ev->type == STORE_DELETED) count_owners(g, ev->obj, -1);
  else if (ev->prev && !same_owners(store_obj_meta(ev->obj), store_obj_meta(ev->prev))) {
    count_owners(g, ev->prev, -1);
    count_owners(g, ev->obj, 1);
  }
  pthread_mutex_unlock(&g->lock);
}

static void on_change(void *user, const store_event *ev) {
  garbage_collector *g = user;
  track_owners(g, ev);
  const object_meta *m = store_obj_meta(ev->obj);
  if (!m->uid) return;
  api_kind kind = ev->obj->object->info->kind;
  bool gc_finalizer = has_finalizer(m, FINALIZER_ORPHAN) || has_finalizer(m, FINALIZER_FOREGROUND);
  if (ev->type == STORE_DELETED || (m->deletion_timestamp && gc_finalizer)) push(g, kind, m->namespace_, m->name, m->uid);
  if (ev->type == STORE_DELETED || (ev->prev && !same_owners(m, store_obj_meta(ev->prev)))) push_owners_of(g, m);
}

/* ---- dependents ---- */

typedef bool (*dependent_fn)(void *ctx, store_obj *dependent); /* false stops the walk */

static bool names_owner(const object_meta *m, const char *uid) {
  for (uint32_t r = 0; r < m->owner_references.n; r++) {
    const char *ou = m->owner_references.items[r].uid;
    if (ou && !strcmp(ou, uid)) return true;
  }
  return false;
}

/* Calls fn for each object whose ownerReferences name uid: in ns when the
 * owner is namespaced (ns non-empty), else anywhere. */
static void each_dependent(garbage_collector *g, const char *ns, const char *uid, dependent_fn fn, void *ctx) {
  named_by kinds = {0};
  pthread_mutex_lock(&g->lock);
  const named_by *nb = strmap_get(&g->named, uid);
  if (nb) kinds = *nb;
  pthread_mutex_unlock(&g->lock);
  store *st = g->st;
  bool go_on = kinds.total > 0;
  for (size_t i = 0; i < srv_n_resources && go_on; i++) {
    const srv_resource *res = &srv_resources[i];
    if ((ns && *ns && !res->namespaced) || !kinds.by_kind[res->api_kind] || !srv_resource_is_kinds_first(res))
      continue;
    store_query q = {.kind = (api_kind)res->api_kind, .namespace_ = ns, .order = STORE_BY_CREATION};
    if (q.kind == KIND_RESOURCE_CLAIM) {
      q.index = STORE_INDEX_CLAIM_OWNER;
      q.key = uid;
      q.namespace_ = NULL;
    }
    store_list l = {0};
    if (store_list_query(st, &q, &l) == STORE_OK)
      for (size_t j = 0; j < l.n && go_on; j++)
        if (names_owner(store_obj_meta(l.items[j]), uid)) go_on = fn(ctx, l.items[j]);
    store_list_free(&l);
  }
}

static bool found(void *ctx, store_obj *o) {
  (void)o;
  *(bool *)ctx = true;
  return false;
}

static bool has_dependents(garbage_collector *g, const object_meta *m) {
  bool any = false;
  each_dependent(g, m->namespace_, m->uid, found, &any);
  return any;
}

/* classifyReferences: each owner of m is solid (there, not waiting for its
 * dependents), dangling (gone) or waiting (being deleted in the
 * foreground). An owner of a kind dra does not store counts as solid, so
 * nothing is deleted on a guess. uids of the dangling and waiting ones go
 * to drop (room for every reference). */
typedef struct owners_class {
  size_t solid, waiting;
  const char **drop;
  size_t n_drop;
} owners_class;

static void classify(store *st, const object_meta *m, owners_class *c) {
  for (uint32_t r = 0; r < m->owner_references.n; r++) {
    const owner_reference *o = &m->owner_references.items[r];
    bool version_ok = false;
    const api_kind_info *k = api_kind_lookup(o->api_version, o->kind, &version_ok);
    if (!k || !o->uid) {
      c->solid++;
      continue;
    }
    store_obj *owner = NULL;
    bool there = store_get(st, k->kind, k->namespaced ? m->namespace_ : NULL, o->name ? o->name : "", &owner) ==
                 STORE_OK;
    const object_meta *om = there ? store_obj_meta(owner) : NULL;
    if (!there || !om->uid || strcmp(om->uid, o->uid)) c->drop[c->n_drop++] = o->uid;
    else if (deleting_in_foreground(om)) {
      c->waiting++;
      c->drop[c->n_drop++] = o->uid;
    } else c->solid++;
    store_obj_unref(owner);
  }
}

static bool in(const char *const *list, size_t n, const char *s) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(list[i], s)) return true;
  return false;
}

/* The ownerReferences of o less those whose uid is in uids. */
static void drop_owner_refs(store *st, const store_obj *o, const char *const *uids, size_t n) {
  api_object *next = api_object_clone(o->object);
  object_meta *m = api_object_meta(next);
  uint32_t k = 0;
  for (uint32_t r = 0; r < m->owner_references.n; r++)
    if (!in(uids, n, m->owner_references.items[r].uid ? m->owner_references.items[r].uid : ""))
      m->owner_references.items[k++] = m->owner_references.items[r];
  m->owner_references.n = k;
  m->owner_references.set = k > 0;
  srv_track_controller_write(next, o->object, "");
  store_status written = store_update(st, next, NULL);
  if (written != STORE_OK && written != STORE_UNAVAILABLE) api_object_free(next);
}

static void delete_with(store *st, const object_meta *m, api_kind kind, propagation_policy policy) {
  delete_options o = {.propagation = policy, .precondition_uid = m->uid};
  deletion_outcome out;
  srv_delete_object(st, kind, m->namespace_, m->name, &o, &out);
  deletion_outcome_free(&out);
}

/* attemptToDeleteItem for one dependent whose owner went or waits. */
static bool attempt_to_delete(void *ctx, store_obj *d) {
  garbage_collector *g = ctx;
  const object_meta *m = store_obj_meta(d);
  if (m->deletion_timestamp) return true; /* being deleted already (a foreground one is an owner of its own) */
  const char **drop = xcalloc(m->owner_references.n + 1, sizeof *drop);
  owners_class c = {.drop = drop};
  classify(g->st, m, &c);
  api_kind kind = d->object->info->kind;
  if (c.solid) {
    if (c.n_drop) drop_owner_refs(g->st, d, drop, c.n_drop);
  } else if (c.waiting && has_dependents(g, m)) {
    delete_with(g->st, m, kind, PROPAGATION_FOREGROUND);
  } else {
    propagation_policy p = has_finalizer(m, FINALIZER_ORPHAN)       ? PROPAGATION_ORPHAN
                           : has_finalizer(m, FINALIZER_FOREGROUND) ? PROPAGATION_FOREGROUND
                                                                    : PROPAGATION_BACKGROUND;
    delete_with(g->st, m, kind, p);
  }
  free(drop);
  return true;
}

typedef struct orphaning {
  store *st;
  const char *uid;
} orphaning;

/* orphanDependents: the owner's reference goes from the dependent. */
static bool orphan(void *ctx, store_obj *d) {
  const orphaning *o = ctx;
  drop_owner_refs(o->st, d, &o->uid, 1);
  return true;
}

typedef struct blocking {
  const char *uid;
  bool any;
} blocking;

/* A dependent that keeps a foreground owner: its reference says
 * blockOwnerDeletion. */
static bool blocks(void *ctx, store_obj *d) {
  blocking *b = ctx;
  const object_meta *m = store_obj_meta(d);
  for (uint32_t r = 0; r < m->owner_references.n && !b->any; r++) {
    const owner_reference *o = &m->owner_references.items[r];
    b->any = o->uid && !strcmp(o->uid, b->uid) && o->block_owner_deletion;
  }
  return !b->any;
}

static void remove_finalizer(store *st, const store_obj *o, const char *f) {
  api_object *next = api_object_clone(o->object);
  object_meta *m = api_object_meta(next);
  uint32_t k = 0;
  for (uint32_t i = 0; i < m->finalizers.n; i++)
    if (strcmp(m->finalizers.items[i], f)) m->finalizers.items[k++] = m->finalizers.items[i];
  m->finalizers.n = k;
  m->finalizers.set = k > 0;
  srv_track_controller_write(next, o->object, "");
  store_status written = store_update(st, next, NULL); /* the last finalizer: it goes */
  if (written != STORE_OK && written != STORE_UNAVAILABLE) api_object_free(next);
}

/* One owner: gone, its dependents are attempted; orphaning, they lose the
 * reference, then the owner its finalizer; in the foreground, they are
 * deleted, and the owner loses its finalizer once none blocks it. */
static size_t process_owner(garbage_collector *g, const gc_item *it) {
  store_obj *owner = NULL;
  const char *ns = *it->ns ? it->ns : NULL;
  bool there = store_get(g->st, it->kind, ns, it->name, &owner) == STORE_OK;
  const object_meta *m = there ? store_obj_meta(owner) : NULL;
  size_t before = store_revision(g->st);
  if (!there || !m->uid || strcmp(m->uid, it->uid)) {
    each_dependent(g, ns, it->uid, attempt_to_delete, g);
  } else if (m->deletion_timestamp && has_finalizer(m, FINALIZER_ORPHAN)) {
    orphaning o = {g->st, it->uid};
    each_dependent(g, ns, it->uid, orphan, &o);
    store_obj *now = NULL;
    if (store_get(g->st, it->kind, ns, it->name, &now) == STORE_OK) remove_finalizer(g->st, now, FINALIZER_ORPHAN);
    store_obj_unref(now);
  } else if (deleting_in_foreground(m)) {
    each_dependent(g, ns, it->uid, attempt_to_delete, g);
    blocking b = {it->uid, false};
    each_dependent(g, ns, it->uid, blocks, &b);
    store_obj *now = NULL;
    if (!b.any && store_get(g->st, it->kind, ns, it->name, &now) == STORE_OK)
      remove_finalizer(g->st, now, FINALIZER_FOREGROUND);
    store_obj_unref(now);
  }
  store_obj_unref(owner);
  return store_revision(g->st) - before;
}

static void free_item(void *item) {
  gc_item *it = item;
  free(it->ns);
  free(it->name);
  free(it->uid);
}

static int by_uid(const void *a, const void *b) { return strcmp(((const gc_item *)a)->uid, ((const gc_item *)b)->uid); }

/* The owners the stored objects name, counted once; the watch from the
 * listed revision counts what changes afterwards. Returns that revision. */
static uint64_t count_stored_owners(garbage_collector *g) {
  uint64_t rv = store_revision(g->st);
  for (size_t i = 0; i < srv_n_resources; i++) {
    if (!srv_resource_is_kinds_first(&srv_resources[i])) continue;
    store_query q = {.kind = (api_kind)srv_resources[i].api_kind};
    store_list l = {0};
    if (store_list_query(g->st, &q, &l) != STORE_OK) continue;
    if (l.rv < rv) rv = l.rv;
    for (size_t j = 0; j < l.n; j++) count_owners(g, l.items[j], 1);
    store_list_free(&l);
  }
  return rv;
}

garbage_collector *gc_new(store *s) {
  garbage_collector *g = xcalloc(1, sizeof *g);
  g->st = s;
  wq_init(&g->owners, sizeof(gc_item));
  pthread_mutex_init(&g->lock, NULL);
  store_watch(s, count_stored_owners(g), on_change, g, &g->watch_id);
  return g;
}

size_t gc_collect(garbage_collector *g) {
  size_t n;
  gc_item *items = wq_take(&g->owners, &n);
  if (!n) return 0;
  qsort(items, n, sizeof *items, by_uid);
  size_t writes = 0;
  for (size_t i = 0; i < n; i++)
    if (!i || strcmp(items[i].uid, items[i - 1].uid)) writes += process_owner(g, &items[i]);
  wq_free_batch(items, n, sizeof *items, free_item);
  return writes;
}

void gc_free(garbage_collector *g) {
  if (!g) return;
  store_unwatch(g->st, g->watch_id);
  wq_destroy(&g->owners, free_item);
  strmap_free(&g->named, free);
  pthread_mutex_destroy(&g->lock);
  free(g);
}
