/* gc.c: see gc.h. */
#include "server/gc.h"
#include "util/die.h"
#include <pthread.h>
#include <stdlib.h>

struct garbage_collector {
  store *st;
  uint64_t watch_id;
  pthread_mutex_t lock;
  char **uids; /* owners deleted, not yet collected */
  size_t n, cap;
};

static void on_change(void *user, const store_event *ev) {
  if (ev->type != STORE_DELETED) return;
  const object_meta *m = store_obj_meta(ev->obj);
  if (!m->uid) return;
  garbage_collector *g = user;
  pthread_mutex_lock(&g->lock);
  if (g->n == g->cap) {
    g->cap = g->cap ? g->cap * 2 : 16;
    g->uids = xrealloc(g->uids, g->cap * sizeof *g->uids);
  }
  g->uids[g->n++] = xstrdup(m->uid);
  pthread_mutex_unlock(&g->lock);
}

garbage_collector *gc_new(store *s) {
  garbage_collector *g = xcalloc(1, sizeof *g);
  g->st = s;
  pthread_mutex_init(&g->lock, NULL);
  store_watch(s, 0, on_change, g, &g->watch_id);
  return g;
}

size_t gc_collect(garbage_collector *g) {
  pthread_mutex_lock(&g->lock);
  char **uids = g->uids;
  size_t n = g->n;
  g->uids = NULL;
  g->n = g->cap = 0;
  pthread_mutex_unlock(&g->lock);
  size_t deleted = 0;
  for (size_t i = 0; i < n; i++) {
    store_query q = {.kind = KIND_RESOURCE_CLAIM, .index = STORE_INDEX_CLAIM_OWNER, .key = uids[i]};
    store_list l = {0};
    if (store_list_query(g->st, &q, &l) == STORE_OK)
      for (size_t j = 0; j < l.n; j++) {
        const object_meta *m = store_obj_meta(l.items[j]);
        if (m->deletion_timestamp) continue;
        store_delete(g->st, KIND_RESOURCE_CLAIM, m->namespace_, m->name, NULL, NULL);
        deleted++;
      }
    store_list_free(&l);
    free(uids[i]);
  }
  free(uids);
  return deleted;
}

void gc_free(garbage_collector *g) {
  if (!g) return;
  store_unwatch(g->st, g->watch_id);
  for (size_t i = 0; i < g->n; i++) free(g->uids[i]);
  free(g->uids);
  pthread_mutex_destroy(&g->lock);
  free(g);
}
