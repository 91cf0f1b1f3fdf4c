/* gc.c: see gc.h. */
#include "server/gc.h"
#include "util/die.h"
#include "util/workqueue.h"
#include <stdlib.h>
#include <string.h>

struct garbage_collector {
  store *st;
  uint64_t watch_id;
  workqueue uids;      /* char *: owners deleted, not yet collected */
  workqueue workloads; /* char *: deleted workloads (pods, ReplicaSets depend on them) */
};

/* The kinds whose dependents are pods or ReplicaSets. */
static bool owns_workloads(api_kind k) {
  return k == KIND_DEPLOYMENT || k == KIND_REPLICA_SET || k == KIND_STATEFUL_SET || k == KIND_DAEMON_SET ||
         k == KIND_JOB || k == KIND_REPLICATION_CONTROLLER;
}

static void on_change(void *user, const store_event *ev) {
  if (ev->type != STORE_DELETED) return;
  const object_meta *m = store_obj_meta(ev->obj);
  if (!m->uid) return;
  garbage_collector *g = user;
  char *uid = xstrdup(m->uid);
  wq_push(&g->uids, &uid);
  if (!owns_workloads(ev->obj->object->info->kind)) return;
  uid = xstrdup(m->uid);
  wq_push(&g->workloads, &uid);
}

/* Whether an owner of m other than the one deleted (gone_uid) still
 * exists: kube-controller-manager's garbage collector deletes a dependent
 * only once all its owners are gone. An owner is there when an object of
 * its kind, name and uid is stored (in m's namespace for a namespaced kind);
 * an owner of a kind dra does not store is taken to be there, so nothing
 * is deleted on a guess. */
static bool other_owner_exists(store *st, const object_meta *m, const char *gone_uid) {
  for (uint32_t r = 0; r < m->owner_references.n; r++) {
    const owner_reference *o = &m->owner_references.items[r];
    if (!o->uid || !strcmp(o->uid, gone_uid)) continue;
    bool version_ok = false;
    const api_kind_info *k = api_kind_lookup(o->api_version, o->kind, &version_ok);
    if (!k) return true;
    store_obj *found = NULL;
    if (store_get(st, k->kind, k->namespaced ? m->namespace_ : NULL, o->name ? o->name : "", &found) != STORE_OK)
      continue;
    const char *uid = store_obj_meta(found)->uid;
    bool same = uid && !strcmp(uid, o->uid);
    store_obj_unref(found);
    if (same) return true;
  }
  return false;
}

/* Deletes the objects of kind k whose ownerReferences name uid (a scan:
 * only workload deletions ask for it). */
static size_t delete_owned(store *st, api_kind k, const char *uid) {
  store_query q = {.kind = k, .order = STORE_BY_CREATION};
  store_list l = {0};
  size_t deleted = 0;
  if (store_list_query(st, &q, &l) == STORE_OK)
    for (size_t j = 0; j < l.n; j++) {
      const object_meta *m = store_obj_meta(l.items[j]);
      bool owned = false;
      for (uint32_t r = 0; r < m->owner_references.n && !owned; r++) {
        const char *ou = m->owner_references.items[r].uid;
        owned = ou && !strcmp(ou, uid);
      }
      if (!owned || m->deletion_timestamp || other_owner_exists(st, m, uid)) continue;
      store_delete(st, k, m->namespace_, m->name, NULL, NULL);
      deleted++;
    }
  store_list_free(&l);
  return deleted;
}

static void free_uid(void *item) { free(*(char **)item); }

garbage_collector *gc_new(store *s) {
  garbage_collector *g = xcalloc(1, sizeof *g);
  g->st = s;
  wq_init(&g->uids, sizeof(char *));
  wq_init(&g->workloads, sizeof(char *));
  store_watch(s, 0, on_change, g, &g->watch_id);
  return g;
}

size_t gc_collect(garbage_collector *g) {
  size_t n;
  char **uids = wq_take(&g->uids, &n);
  size_t deleted = 0;
  for (size_t i = 0; i < n; i++) {
    store_query q = {.kind = KIND_RESOURCE_CLAIM, .index = STORE_INDEX_CLAIM_OWNER, .key = uids[i]};
    store_list l = {0};
    if (store_list_query(g->st, &q, &l) == STORE_OK)
      for (size_t j = 0; j < l.n; j++) {
        const object_meta *m = store_obj_meta(l.items[j]);
        if (m->deletion_timestamp || other_owner_exists(g->st, m, uids[i])) continue;
        store_delete(g->st, KIND_RESOURCE_CLAIM, m->namespace_, m->name, NULL, NULL);
        deleted++;
      }
    store_list_free(&l);
  }
  wq_free_batch(uids, n, sizeof *uids, free_uid);
  uids = wq_take(&g->workloads, &n);
  for (size_t i = 0; i < n; i++) deleted += delete_owned(g->st, KIND_REPLICA_SET, uids[i]) + delete_owned(g->st, KIND_POD, uids[i]);
  wq_free_batch(uids, n, sizeof *uids, free_uid);
  return deleted;
}

void gc_free(garbage_collector *g) {
  if (!g) return;
  store_unwatch(g->st, g->watch_id);
  wq_destroy(&g->uids, free_uid);
  wq_destroy(&g->workloads, free_uid);
  free(g);
}
