/* watchers.h: the event side of a store, shared by backends: subscribers,
 * the ring of recent events a watch can resume from, and in-order
 * delivery (an event raised while one is being delivered waits its turn).
 * Not locked itself: the backend calls it under its (recursive) lock. */
#ifndef DRA_STORE_WATCHERS_H
#define DRA_STORE_WATCHERS_H
#include "store/store.h"

typedef struct watcher {
  uint64_t id;
  store_watch_fn fn; /* NULL once removed during a delivery */
  void *user;
} watcher;

typedef struct event_queue {
  store_event *items;
  size_t head, n, cap; /* a ring: items[(head + i) % cap] */
} event_queue;

typedef struct watchers {
  watcher *subs;
  size_t n_subs, cap_subs;
  uint64_t next_id;
  event_queue history; /* the last `history_max` events, oldest first */
  size_t history_max;
  event_queue pending; /* raised, not yet delivered */
  bool delivering;
} watchers;

void watchers_init(watchers *w, size_t history_max);
void watchers_free(watchers *w);
/* Raises an event (takes a reference to obj) and delivers every pending
 * event unless a delivery is already running further up the stack. */
void watchers_emit(watchers *w, store_event_type type, store_obj *obj, uint64_t rv, store_obj *prev);
/* Subscribes, first replaying kept events after since_rv (0: none).
 * STORE_GONE when events after since_rv were already dropped. */
store_status watchers_add(watchers *w, uint64_t since_rv, uint64_t current_rv, store_watch_fn fn, void *user,
                          uint64_t *id);
void watchers_remove(watchers *w, uint64_t id);

#endif
