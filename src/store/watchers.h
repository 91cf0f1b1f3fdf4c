/* watchers.h: the event side of a store, shared by backends: subscribers,
 * the ring of recent events a watch can resume from, and in-order
 * delivery (an event raised while one is being delivered waits its turn).
 * A subscriber is live (every event as it happens) or committed (an event
 * only once watchers_commit says it is on disk; see docs/store.md "Commit
 * before visible"). Not locked itself: the backend calls it under its
 * (recursive) lock. */
#ifndef DRA_STORE_WATCHERS_H
#define DRA_STORE_WATCHERS_H
#include "store/store.h"

typedef struct watcher {
  uint64_t id;
  store_watch_fn fn; /* NULL once removed during a delivery */
  void *user;
  bool committed;   /* sees an event only once it is committed */
  uint64_t seen_rv; /* committed: the last event shown to it, or where it started */
} watcher;

typedef struct queued_event {
  store_event ev;
  int64_t at; /* kept events: when it was kept (the store's clock) */
} queued_event;

typedef struct event_queue {
  queued_event *items;
  size_t head, n, cap; /* a ring: items[(head + i) % cap] */
} event_queue;

typedef struct watchers {
  watcher *subs;
  size_t n_subs, cap_subs;
  uint64_t next_id;
  event_queue history; /* the last `history_max` committed events, more while they are younger than
                          history_seconds (up to history_cap), and every uncommitted one, oldest first */
  size_t history_max, history_cap;
  unsigned history_seconds; /* 0: none kept for their age */
  store_clock_fn clock;
  void *clock_user;
  uint64_t committed_rv; /* events up to here are committed */
  uint64_t kept_after;   /* every event after this resourceVersion is kept: the newest dropped one, or
                            where a restored store starts (resourceVersions may have gaps, as etcd's) */
  event_queue pending; /* raised, not yet delivered */
  bool delivering;
} watchers;

/* The history's bounds and clock from opts (its clock set). */
void watchers_init(watchers *w, const store_options *opts);
void watchers_free(watchers *w);
/* Raises an event (takes a reference to obj) and delivers every pending
 * event unless a delivery is already running further up the stack. */
void watchers_emit(watchers *w, store_event_type type, store_obj *obj, uint64_t rv, store_obj *prev);
/* Events up to rv are committed: shows committed subscribers the kept
 * events they have not seen yet (unless a delivery is already running
 * further up the stack, which does it when it ends). */
void watchers_commit(watchers *w, uint64_t rv);
/* Subscribes, first replaying kept events after since_rv (0: none) up to
 * current_rv, or up to the committed resourceVersion for a committed
 * subscriber, which then sees nothing at or below since_rv.
 * STORE_GONE when events after since_rv were already dropped. */
store_status watchers_add(watchers *w, uint64_t since_rv, uint64_t current_rv, bool committed, store_watch_fn fn,
                          void *user, uint64_t *id);
/* Calls fn on every kept event with after < rv <= upto, oldest first. fn
 * must not raise events. */
void watchers_each_kept(watchers *w, uint64_t after, uint64_t upto, void (*fn)(void *user, const store_event *ev),
                        void *user);
/* Whether every event after rv is still kept (or waits to be delivered). */
bool watchers_keeps_after(const watchers *w, uint64_t rv);
/* Calls fn on every event after rv, kept or waiting to be delivered,
 * oldest first. fn must not raise events. */
void watchers_each_after(watchers *w, uint64_t rv, void (*fn)(void *user, const store_event *ev), void *user);
void watchers_remove(watchers *w, uint64_t id);
/* A restored store starts at rv: events up to it are not kept. */
void watchers_start_at(watchers *w, uint64_t rv);

#endif
