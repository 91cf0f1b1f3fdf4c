/* watchers.c: subscriber list, resumable event history and ordered
 * delivery, live and committed, for store backends (watchers.h). */
#include "store/watchers.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

/* The defaults of store_options: 1,024 events, and more while they are
 * younger than kube-apiserver's eventFreshDuration (watch_cache.go, 75 s),
 * up to 8 times as many. */
#define DEFAULT_HISTORY 1024
#define DEFAULT_HISTORY_SECONDS 75
#define DEFAULT_HISTORY_CAP (8 * DEFAULT_HISTORY)

static store_event *queue_at(event_queue *q, size_t i) { return &q->items[(q->head + i) % q->cap].ev; }

/* When the item at i was queued (the store's clock, in seconds). */
static int64_t queue_time(event_queue *q, size_t i) { return q->items[(q->head + i) % q->cap].at; }

static void queue_push(event_queue *q, store_event ev, int64_t at) {
  if (q->n == q->cap) {
    size_t cap = q->cap ? q->cap * 2 : 16;
    queued_event *items = xmalloc(cap * sizeof *items);
    for (size_t i = 0; i < q->n; i++) items[i] = q->items[(q->head + i) % q->cap];
    free(q->items);
    q->items = items;
    q->cap = cap;
    q->head = 0;
  }
  q->items[(q->head + q->n++) % q->cap] = (queued_event){ev, at};
}

static store_event queue_pop(event_queue *q) {
  store_event ev = q->items[q->head].ev;
  q->head = (q->head + 1) % q->cap;
  q->n--;
  return ev;
}

static void event_unref(store_event ev) {
  store_obj_unref(ev.obj);
  store_obj_unref(ev.prev);
}

static void queue_free(event_queue *q) {
  while (q->n) event_unref(queue_pop(q));
  free(q->items);
  *q = (event_queue){0};
}

void watchers_init(watchers *w, const store_options *opts) {
  memset(w, 0, sizeof *w);
  w->history_max = opts->history ? opts->history : DEFAULT_HISTORY;
  w->history_seconds = opts->history ? opts->history_seconds : DEFAULT_HISTORY_SECONDS;
  w->history_cap = opts->history ? opts->history_cap : DEFAULT_HISTORY_CAP;
  w->clock = opts->clock;
  w->clock_user = opts->clock_user;
  w->next_id = 1;
}

/* Drops a kept event, and the versions' JSON if no other kept event holds them. */
static void forget(store_event ev) {
  store_obj_set_recent(ev.obj, false);
  if (ev.prev) store_obj_set_recent(ev.prev, false);
  event_unref(ev);
}

void watchers_free(watchers *w) {
  while (w->history.n) forget(queue_pop(&w->history));
  queue_free(&w->history);
  queue_free(&w->pending);
  free(w->subs);
  memset(w, 0, sizeof *w);
}

/* Whether the oldest kept event may go to make room: beyond history_max
 * once it is history_seconds old, always beyond history_cap. */
static bool oldest_may_go(watchers *w, int64_t now) {
  if (w->history.n < w->history_max) return false;
  if (w->history.n >= w->history_cap) return true;
  return !w->history_seconds || now - queue_time(&w->history, 0) >= (int64_t)w->history_seconds;
}

/* Keeps ev; drops the oldest kept events that may go (oldest_may_go), but
 * never one that is not committed yet (committed subscribers still need it). */
static void remember(watchers *w, store_event ev) {
  int64_t now = w->history_seconds ? w->clock(w->clock_user) : 0; /* kept by count only: no clock */
  while (oldest_may_go(w, now) && queue_at(&w->history, 0)->rv <= w->committed_rv) {
    store_event dropped = queue_pop(&w->history);
    w->kept_after = dropped.rv;
    forget(dropped);
  }
  store_obj_set_recent(store_obj_ref(ev.obj), true);
  if (ev.prev) store_obj_set_recent(store_obj_ref(ev.prev), true);
  queue_push(&w->history, ev, now);
}

/* Drops subscribers removed while a delivery ran. */
static void compact(watchers *w) {
  size_t kept = 0;
  for (size_t i = 0; i < w->n_subs; i++)
    if (w->subs[i].fn) w->subs[kept++] = w->subs[i];
  w->n_subs = kept;
}

/* The index of the first kept event after rv (history.n if none). */
static size_t first_kept_after(watchers *w, uint64_t rv) {
  size_t lo = 0, hi = w->history.n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (queue_at(&w->history, mid)->rv <= rv) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* Subscriber i (by index: a callback may add subscribers, which moves the
 * array) gets ev unless it is committed and ev is not, or it saw ev. */
static void deliver_to(watchers *w, size_t i, const store_event *ev) {
  if (!w->subs[i].fn) return;
  if (w->subs[i].committed) {
    if (ev->rv > w->committed_rv || ev->rv <= w->subs[i].seen_rv) return;
    w->subs[i].seen_rv = ev->rv;
  }
  w->subs[i].fn(w->subs[i].user, ev);
}

/* Shows each committed subscriber the kept, committed events it has not
 * seen. The ring does not change meanwhile: events raised by callbacks
 * wait in pending. */
static void catch_up(watchers *w) {
  size_t n = w->n_subs;
  for (size_t i = 0; i < n; i++) {
    if (!w->subs[i].committed || w->subs[i].seen_rv >= w->committed_rv) continue;
    for (size_t at = first_kept_after(w, w->subs[i].seen_rv); at < w->history.n; at++) {
      store_event ev = *queue_at(&w->history, at);
      if (ev.rv > w->committed_rv) break;
      deliver_to(w, i, &ev);
    }
  }
}

/* Delivers pending events to every subscriber in order, then committed
 * ones their backlog, until callbacks raise nothing more. */
static void deliver(watchers *w) {
  w->delivering = true;
  do {
    while (w->pending.n) {
      store_event ev = queue_pop(&w->pending);
      remember(w, ev);
      /* Subscribers added by a callback get this event from the history replay. */
      size_t n = w->n_subs;
      for (size_t i = 0; i < n; i++) deliver_to(w, i, &ev);
      event_unref(ev);
    }
    catch_up(w);
  } while (w->pending.n);
  w->delivering = false;
  compact(w);
}

void watchers_emit(watchers *w, store_event_type type, store_obj *obj, uint64_t rv, store_obj *prev) {
  queue_push(&w->pending, (store_event){type, store_obj_ref(obj), rv, prev ? store_obj_ref(prev) : NULL}, 0);
  if (!w->delivering) deliver(w);
}

void watchers_commit(watchers *w, uint64_t rv) {
  if (rv <= w->committed_rv) return;
  w->committed_rv = rv;
  if (!w->delivering) deliver(w);
}

void watchers_each_kept(watchers *w, uint64_t after, uint64_t upto, void (*fn)(void *user, const store_event *ev),
                        void *user) {
  for (size_t at = first_kept_after(w, after); at < w->history.n; at++) {
    const store_event *ev = queue_at(&w->history, at);
    if (ev->rv > upto) break;
    fn(user, ev);
  }
}

bool watchers_keeps_after(const watchers *w, uint64_t rv) { return w->kept_after <= rv; }

void watchers_each_after(watchers *w, uint64_t rv, void (*fn)(void *user, const store_event *ev), void *user) {
  watchers_each_kept(w, rv, UINT64_MAX, fn, user);
  for (size_t at = 0; at < w->pending.n; at++) {
    const store_event *ev = queue_at(&w->pending, at);
    if (ev->rv > rv) fn(user, ev);
  }
}

store_status watchers_add(watchers *w, uint64_t since_rv, uint64_t current_rv, bool committed, store_watch_fn fn,
                          void *user, uint64_t *id) {
  uint64_t upto = committed ? w->committed_rv : current_rv;
  /* Every event after since_rv must still be kept. */
  if (since_rv && since_rv < upto && since_rv < w->kept_after) {
    if (id) *id = w->kept_after; /* the oldest resourceVersion to watch from (store.h) */
    return STORE_GONE;
  }
  if (since_rv)
    for (size_t at = first_kept_after(w, since_rv); at < w->history.n; at++) {
      store_event *ev = queue_at(&w->history, at);
      if (ev->rv > upto) break;
      fn(user, ev);
    }
  if (w->n_subs == w->cap_subs) {
    w->cap_subs = w->cap_subs ? w->cap_subs * 2 : 4;
    w->subs = xrealloc(w->subs, w->cap_subs * sizeof *w->subs);
  }
  uint64_t new_id = w->next_id++;
  w->subs[w->n_subs++] = (watcher){new_id, fn, user, committed, since_rv > upto ? since_rv : upto};
  if (id) *id = new_id;
  return STORE_OK;
}

void watchers_remove(watchers *w, uint64_t id) {
  for (size_t i = 0; i < w->n_subs; i++)
    if (w->subs[i].id == id) w->subs[i].fn = NULL;
  if (!w->delivering) compact(w);
}

void watchers_start_at(watchers *w, uint64_t rv) {
  if (rv > w->kept_after) w->kept_after = rv;
}
