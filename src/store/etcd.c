/* etcd.c: the etcd backend (etcd.h), shaped as kube-apiserver's etcd3
 * store with its cacher in front (k8s.io/apiserver pkg/storage/etcd3 and
 * pkg/storage/cacher):
 * - a memory store is the cache: on open it is filled from one paginated
 *   range read of /registry/ at one revision, then fed by one etcd watch
 *   from the next revision (memory_feed.h), so its resourceVersions are
 *   etcd's mod_revisions and it only ever holds what etcd acknowledged;
 *   every get, list and watch is answered from it;
 * - a write holds the write lock, computes the new version from the
 *   cached one with the metadata rules of meta.h, and commits it with a
 *   transaction that compares the key's mod_revision with the cached
 *   version's (create: create_revision 0). It then waits until the cache
 *   shows the transaction's revision, so a client reads its own write. A
 *   failed compare waits until the cache has etcd's version of the key and
 *   tries again (as GuaranteedUpdate); a precondition from the client then
 *   gives 409 Conflict;
 * - changes from the watch thread are queued and put into the cache by
 *   whoever holds the write lock: a waiting write, or the apply thread.
 *   The write lock is the control loop's lock in dra serve, and store
 *   watchers (the loop's) expect it held when they are called;
 * - Events go on a lease (--event-ttl), reused as kube-apiserver's lease
 *   manager does; a compactor compacts as kube-apiserver's compact.go.
 * docs/store.md "etcd backend". */
#include "store/etcd.h"
#include "store/etcd_layout.h"
#include "store/memory_feed.h"
#include "store/memory_restore.h"
#include "store/row_decoder.h"
#include "store/meta.h"
#include "store/store_obj.h"
#include "util/die.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GENERATE_NAME_TRIES 8
#define UPDATE_TRIES 5
#define CACHE_WAIT_SECONDS 10
#define RANGE_PAGE 1000
/* kube-apiserver's lease manager: a lease is reused for 5% of the TTL, at
 * most 60 s, and for at most 1000 objects. */
#define LEASE_REUSE_PERCENT 5
#define LEASE_REUSE_MAX_SECONDS 60
#define LEASE_MAX_OBJECTS 1000
/* compact.go's key: its version counts the compactions of all servers. */
#define COMPACT_REV_KEY "compact_rev_key"

/* A change the watch saw, decoded, waiting to go into the cache. */
typedef struct fed_change {
  api_kind kind;
  char *namespace_, *name;
  api_object *obj; /* NULL: deleted (or a value dra cannot read) */
  uint64_t rv, created_rv;
} fed_change;

typedef struct etcd_store {
  store base;
  store *cache;
  etcd_client *client;
  etcd_options opts;
  store_options store_opts;
  pthread_mutex_t own_write_lock;
  pthread_mutex_t *_Atomic write_lock; /* own_write_lock until store_set_write_lock */
  bool applying; /* under the write lock: the cache is being fed */
  pthread_mutex_t queue_lock;
  pthread_cond_t queue_grew; /* also: stop */
  pthread_cond_t stopping;
  fed_change *queue;
  size_t queue_n, queue_cap;
  uint64_t watched_rv; /* the watch thread's: the last revision it saw */
  atomic_bool stop;
  _Atomic uint64_t compacted_rv;
  pthread_t watch_thread, apply_thread, compact_thread;
  pthread_mutex_t lease_lock;
  int64_t lease_id, lease_expires, lease_objects;
  pthread_mutex_t error_lock;
  char error[256];
  /* fencing (store_etcd_fence_on): the key of the Lease whose
   * mod_revision the fenced thread's writes compare, that revision (0:
   * refuse them), until when it holds (monotonic seconds), and how many
   * writes were refused */
  char *fence_key;
  _Atomic uint64_t fence_rv;
  _Atomic double fence_deadline;
  _Atomic uint64_t fenced_writes;
  atomic_bool fence_renewing; /* the keeper's write of the fence key is in flight */
} etcd_store;

/* Whether this thread's writes are fenced (store_etcd_fence_this_thread). */
static _Thread_local bool fenced_thread;

static etcd_store *from(store *s) { return (etcd_store *)s; }

static int64_t now_seconds(etcd_store *e) { return e->store_opts.clock(e->store_opts.clock_user); }

static int64_t system_clock(void *user) {
  (void)user;
  return (int64_t)time(NULL);
}

static void note_error(etcd_store *e, const char *what) {
  pthread_mutex_lock(&e->error_lock);
  snprintf(e->error, sizeof e->error, "%s", what);
  pthread_mutex_unlock(&e->error_lock);
}

static json_t *key_json(const char *key) { return etcd_bytes_json(key, strlen(key)); }

static double monotonic_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Whether the fence no longer holds: lost, or past its deadline. */
static bool fence_gone(void *user) {
  etcd_store *e = user;
  return !atomic_load(&e->fence_rv) || monotonic_seconds() >= atomic_load(&e->fence_deadline);
}

/* An etcd call of this store; a fenced thread's gives up as soon as the
 * fence is gone, so an ex-leader blocked in etcd stops within its renew
 * deadline rather than at the call's timeout. */
static bool call(etcd_store *e, const char *path, json_t *body, etcd_reply *out, strbuf *err) {
  etcd_limit fence = {fence_gone, e};
  return etcd_call_limited(e->client, path, body, fenced_thread && e->fence_key ? &fence : NULL, out, err);
}

/* ---- feeding the cache ---- */

static void fed_change_free(fed_change *c) {
  api_object_free(c->obj);
  free(c->namespace_);
  free(c->name);
}

/* Puts one change into the cache. */
static void feed(etcd_store *e, fed_change *c) {
  store_memory_feed(e->cache, c->kind, c->namespace_, c->name, c->obj, c->rv, c->created_rv);
  c->obj = NULL;
  fed_change_free(c);
}

/* Feeds every queued change; with the write lock held. */
static void apply_pending(etcd_store *e) {
  if (e->applying) return; /* a watcher wrote while being fed: its change comes after */
  e->applying = true;
  for (;;) {
    pthread_mutex_lock(&e->queue_lock);
    fed_change *batch = e->queue;
    size_t n = e->queue_n;
    e->queue = NULL;
    e->queue_n = e->queue_cap = 0;
    pthread_mutex_unlock(&e->queue_lock);
    for (size_t i = 0; i < n; i++) feed(e, &batch[i]);
    free(batch);
    if (!n) break;
  }
  e->applying = false;
}

/* Takes the write lock (the one in force: it may change while we wait)
 * and feeds the cache what the watch brought. */
static void lock_writes(etcd_store *e) {
  for (;;) {
    pthread_mutex_t *lock = atomic_load(&e->write_lock);
    pthread_mutex_lock(lock);
    if (lock == atomic_load(&e->write_lock)) break;
    pthread_mutex_unlock(lock);
  }
  apply_pending(e);
}

static void unlock_writes(etcd_store *e) { pthread_mutex_unlock(atomic_load(&e->write_lock)); }

/* Feeds the cache until done() holds or CACHE_WAIT_SECONDS pass; with the
 * write lock held. False on timeout, or when called from inside a feed; on
 * a fenced thread also as soon as the fence is gone (looked at every
 * ETCD_GIVE_UP_POLL_MS): a cut-off leader's watch brings nothing, and it
 * must not hold the loop waiting for it. */
static bool wait_cache(etcd_store *e, bool (*done)(etcd_store *e, void *arg), void *arg) {
  bool fenced = fenced_thread && e->fence_key;
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += CACHE_WAIT_SECONDS;
  for (;;) {
    apply_pending(e);
    if (done(e, arg)) return true;
    if (e->applying || (fenced && fence_gone(e))) return false;
    struct timespec slice = until;
    if (fenced) {
      clock_gettime(CLOCK_REALTIME, &slice);
      slice.tv_nsec += ETCD_GIVE_UP_POLL_MS * 1000000L;
      if (slice.tv_nsec >= 1000000000L) slice.tv_sec++, slice.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&e->queue_lock);
    int rc = 0;
    while (!e->queue_n && !atomic_load(&e->stop) && rc == 0)
      rc = pthread_cond_timedwait(&e->queue_grew, &e->queue_lock, &slice);
    bool more = e->queue_n > 0, stopping = atomic_load(&e->stop);
    pthread_mutex_unlock(&e->queue_lock);
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    bool timed_out = now.tv_sec > until.tv_sec || (now.tv_sec == until.tv_sec && now.tv_nsec >= until.tv_nsec);
    if (!more && (stopping || timed_out)) return done(e, arg);
  }
}

static bool cache_reached(etcd_store *e, void *arg) { return store_revision(e->cache) >= *(uint64_t *)arg; }

/* The key as etcd has it after a failed compare: at mod_revision rv, or gone (0). */
typedef struct key_state {
  api_kind kind;
  const char *namespace_, *name;
  uint64_t rv;
} key_state;

static bool cache_has(etcd_store *e, void *arg) {
  key_state *k = arg;
  store_obj *o = NULL;
  bool present = store_get(e->cache, k->kind, k->namespace_, k->name, &o) == STORE_OK;
  bool same = k->rv ? present && o->rv >= k->rv : !present;
  store_obj_unref(o);
  return same;
}

/* ---- the watch thread ---- */

static bool on_watch_message(void *user, const etcd_reply *m) {
  etcd_store *e = user;
  if (m->canceled) {
    fprintf(stderr, "dra serve: the etcd watch was canceled%s%s; resuming\n", m->error ? ": " : "",
            m->error ? m->error : "");
    if (m->compact_revision) { /* the cache missed changes: it goes on from what etcd still has */
      fprintf(stderr, "dra serve: changes up to etcd revision %lld were compacted before the cache saw them; "
                      "restart dra serve to read them\n", (long long)m->compact_revision);
      e->watched_rv = (uint64_t)m->compact_revision - 1;
    }
    return false;
  }
  fed_change *batch = xcalloc(m->n_events + 1, sizeof *batch);
  size_t n = 0;
  for (size_t i = 0; i < m->n_events; i++) {
    const etcd_kv *kv = &m->events[i].kv;
    if ((uint64_t)kv->mod_revision > e->watched_rv) e->watched_rv = (uint64_t)kv->mod_revision;
    fed_change *c = &batch[n];
    if (!etcd_key_parse(kv->key, &c->kind, &c->namespace_, &c->name)) continue; /* not one of dra's kinds */
    c->rv = (uint64_t)kv->mod_revision;
    c->created_rv = (uint64_t)kv->create_revision;
    if (!m->events[i].deleted) {
      char why[128];
      c->obj = etcd_value_decode(kv->key, kv->value, kv->value_len, why, sizeof why);
      if (!c->obj) fprintf(stderr, "dra serve: etcd key %s: %s; not served\n", kv->key, why);
    }
    n++;
  }
  if (!n) { /* nothing of dra's: no news */
    free(batch);
    return !atomic_load(&e->stop);
  }
  pthread_mutex_lock(&e->queue_lock);
  /* one message may hold many events (a transaction's, or up to 1,000
   * revisions' when the watch catches up after a resume) */
  while (e->queue_cap < e->queue_n + n) e->queue = xgrow(e->queue, e->queue_cap, &e->queue_cap, sizeof *e->queue, 64);
  memcpy(e->queue + e->queue_n, batch, n * sizeof *batch);
  e->queue_n += n;
  pthread_cond_broadcast(&e->queue_grew);
  pthread_mutex_unlock(&e->queue_lock);
  free(batch);
  return !atomic_load(&e->stop);
}

/* Sleeps up to seconds, or until the store closes. */
static void nap(etcd_store *e, int64_t seconds) {
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += seconds;
  pthread_mutex_lock(&e->queue_lock);
  int rc = 0;
  while (!atomic_load(&e->stop) && rc == 0) rc = pthread_cond_timedwait(&e->stopping, &e->queue_lock, &until);
  pthread_mutex_unlock(&e->queue_lock);
}

static json_t *registry_range(void) {
  return json_pack("{s:o,s:o}", "key", key_json(ETCD_REGISTRY), "range_end", key_json(ETCD_REGISTRY_END));
}

static void *watch_main(void *arg) {
  etcd_store *e = arg;
  while (!atomic_load(&e->stop)) {
    json_t *req = registry_range();
    json_object_set_new(req, "start_revision", etcd_int64((int64_t)e->watched_rv + 1));
    strbuf err = STRBUF_INIT;
    if (!etcd_watch(e->client, req, on_watch_message, e, &e->stop, &err) && !atomic_load(&e->stop)) {
      fprintf(stderr, "dra serve: %s; watching again\n", sb_str(&err));
      nap(e, 1);
    }
    sb_free(&err);
  }
  return NULL;
}

/* Feeds changes that no write waits for (other servers', lease expiries). */
static void *apply_main(void *arg) {
  etcd_store *e = arg;
  for (;;) {
    pthread_mutex_lock(&e->queue_lock);
    while (!e->queue_n && !atomic_load(&e->stop)) pthread_cond_wait(&e->queue_grew, &e->queue_lock);
    bool stop = atomic_load(&e->stop);
    pthread_mutex_unlock(&e->queue_lock);
    if (stop) return NULL;
    lock_writes(e);
    unlock_writes(e);
  }
}

/* ---- compaction, as k8s.io/apiserver pkg/storage/etcd3 compact.go ---- */

/* One round: if no server compacted since our last round (the version of
 * compact_rev_key is still *epoch), claims this round by bumping it and
 * compacts etcd at *rev, the revision of our previous round; then *rev
 * is now. Another server's round sets *epoch to its count instead. */
static void compact_round(etcd_store *e, int64_t *epoch, int64_t *rev) {
  json_t *cmp = json_pack("{s:o,s:s,s:s,s:o}", "key", key_json(COMPACT_REV_KEY), "target", "VERSION", "result",
                          "EQUAL", "version", etcd_int64(*epoch));
  char revtext[24];
  snprintf(revtext, sizeof revtext, "%lld", (long long)*rev);
  json_t *put = json_pack("{s:{s:o,s:o}}", "request_put", "key", key_json(COMPACT_REV_KEY), "value",
                          etcd_bytes_json(revtext, strlen(revtext)));
  json_t *get = json_pack("{s:{s:o}}", "request_range", "key", key_json(COMPACT_REV_KEY));
  json_t *txn = json_pack("{s:[o],s:[o],s:[o]}", "compare", cmp, "success", put, "failure", get);
  etcd_reply r;
  strbuf err = STRBUF_INIT;
  if (!etcd_call(e->client, "/v3/kv/txn", txn, &r, &err)) {
    fprintf(stderr, "dra serve: etcd compaction: %s\n", sb_str(&err));
    sb_free(&err);
    return;
  }
  int64_t compact_at = *rev;
  if (!r.succeeded) {
    *epoch = r.n_kvs ? r.kvs[0].version : 0;
  } else {
    *epoch += 1;
    if (compact_at > 0) {
      etcd_reply c;
      if (etcd_call(e->client, "/v3/kv/compaction", json_pack("{s:o}", "revision", etcd_int64(compact_at)), &c,
                    &err)) {
        if ((uint64_t)compact_at > atomic_load(&e->compacted_rv)) atomic_store(&e->compacted_rv, (uint64_t)compact_at);
        etcd_reply_free(&c);
      } else {
        fprintf(stderr, "dra serve: etcd compaction at %lld: %s\n", (long long)compact_at, sb_str(&err));
      }
    }
  }
  *rev = r.revision;
  etcd_reply_free(&r);
  sb_free(&err);
}

static void *compact_main(void *arg) {
  etcd_store *e = arg;
  int64_t epoch = 0, rev = 0;
  for (;;) {
    nap(e, e->opts.compaction_seconds);
    if (atomic_load(&e->stop)) return NULL;
    compact_round(e, &epoch, &rev);
  }
}

/* ---- writes ---- */

/* The lease an Event goes on, as kube-apiserver's lease manager picks it:
 * the last one while it outlives the TTL by at most its reuse window,
 * else a new one of TTL + that window. 0 on error. */
static int64_t event_lease(etcd_store *e) {
  int64_t ttl = e->opts.event_ttl_seconds, now = now_seconds(e);
  int64_t reuse = ttl * LEASE_REUSE_PERCENT / 100;
  if (reuse > LEASE_REUSE_MAX_SECONDS) reuse = LEASE_REUSE_MAX_SECONDS;
  pthread_mutex_lock(&e->lease_lock);
  int64_t id = 0;
  bool valid = now + ttl < e->lease_expires, sufficient = now + ttl + reuse > e->lease_expires;
  if (e->lease_id && valid && sufficient && e->lease_objects < LEASE_MAX_OBJECTS) {
    e->lease_objects++;
    id = e->lease_id;
  } else {
    etcd_reply r;
    strbuf err = STRBUF_INIT;
    if (call(e, "/v3/lease/grant", json_pack("{s:o}", "TTL", etcd_int64(ttl + reuse)), &r, &err)) {
      id = e->lease_id = r.lease_id;
      e->lease_expires = now + ttl + reuse;
      e->lease_objects = 1;
      etcd_reply_free(&r);
    } else {
      note_error(e, sb_str(&err));
    }
    sb_free(&err);
  }
  pthread_mutex_unlock(&e->lease_lock);
  return id;
}

static bool is_event(api_kind k) { return k == KIND_EVENT; }

typedef enum { TXN_DONE, TXN_STALE, TXN_FAILED } txn_result;

/* The fence's compare for this thread's write, or NULL when it is not
 * fenced; *fence is the Lease revision compared (0: refuse the write: the
 * fence is gone). */
static json_t *fence_compare(etcd_store *e, uint64_t *fence) {
  *fence = 0;
  if (!fenced_thread || !e->fence_key) return NULL;
  *fence = fence_gone(e) ? 0 : atomic_load(&e->fence_rv);
  return json_pack("{s:o,s:s,s:s,s:o}", "key", key_json(e->fence_key), "target", "MOD", "result", "EQUAL",
                   "mod_revision", etcd_int64((int64_t)*fence));
}

/* The compare of a write over the key's version at mod_revision expect
 * (0: there is no key). */
static json_t *key_compare(const char *key, uint64_t expect) {
  return expect ? json_pack("{s:o,s:s,s:s,s:o}", "key", key_json(key), "target", "MOD", "result", "EQUAL",
                            "mod_revision", etcd_int64((int64_t)expect))
                : json_pack("{s:o,s:s,s:s,s:s}", "key", key_json(key), "target", "CREATE", "result", "EQUAL",
                            "create_revision", "0");
}

typedef enum { FENCE_HELD, FENCE_RENEWED, FENCE_BROKEN } fence_state;

/* After a failed transaction compared with fence: whether the Lease is
 * still there (the object changed), was renewed by this replica meanwhile
 * (at the fence now set: try again), or moved on (refuse the write). */
static fence_state fence_check(etcd_store *e, uint64_t fence) {
  etcd_reply r;
  strbuf err = STRBUF_INIT;
  json_t *range = json_pack("{s:o}", "key", key_json(e->fence_key));
  fence_state state = FENCE_BROKEN; /* unanswered: the lease can't be shown held */
  if (call(e, "/v3/kv/range", range, &r, &err)) {
    uint64_t at = r.n_kvs ? (uint64_t)r.kvs[0].mod_revision : 0;
    /* the keeper may have renewed and not yet heard back */
    while (at != fence && atomic_load(&e->fence_renewing)) nanosleep(&(struct timespec){0, 2000000}, NULL);
    state = at == fence ? FENCE_HELD : at && at == atomic_load(&e->fence_rv) ? FENCE_RENEWED : FENCE_BROKEN;
    etcd_reply_free(&r);
  }
  sb_free(&err);
  return state;
}

/* Refuses a fenced thread's write: the holder of the Lease changed since
 * it renewed at fence. */
static txn_result refuse_fenced(etcd_store *e, uint64_t fence) {
  atomic_fetch_add(&e->fenced_writes, 1);
  char why[128];
  snprintf(why, sizeof why, "controller write refused: the lease %s moved on from revision %llu", e->fence_key,
           (unsigned long long)fence);
  note_error(e, why);
  return TXN_FAILED;
}

/* Puts next at its key (NULL: deletes the key of kind/namespace/name) if
 * etcd's version of the key is at mod_revision expect (0: no key). *rv is
 * the transaction's revision; when stale, *actual is the key's
 * mod_revision in etcd (0: none). Called with the write lock held; lets
 * it go while etcd answers. */
static txn_result write_key(etcd_store *e, api_kind kind, const char *namespace_, const char *name,
                            const api_object *next, uint64_t expect, uint64_t *rv, uint64_t *actual) {
  char *key = etcd_key(kind, namespace_, name);
  json_t *cmp = key_compare(key, expect);
  json_t *op;
  if (next) {
    char *value = etcd_value(next);
    json_t *put = json_pack("{s:o,s:o}", "key", key_json(key), "value", etcd_bytes_json(value, strlen(value)));
    free(value);
    if (is_event(kind)) {
      int64_t lease = event_lease(e);
      if (!lease) {
        json_decref(put);
        json_decref(cmp);
        free(key);
        return TXN_FAILED;
      }
      json_object_set_new(put, "lease", etcd_int64(lease));
    }
    op = json_pack("{s:o}", "request_put", put);
  } else {
    op = json_pack("{s:{s:o}}", "request_delete_range", "key", key_json(key));
  }
  json_t *get = json_pack("{s:{s:o}}", "request_range", "key", key_json(key));
  json_t *txn = json_pack("{s:[o],s:[o],s:[o]}", "compare", cmp, "success", op, "failure", get);
  free(key);
  uint64_t fence;
  json_t *fence_cmp = fence_compare(e, &fence);
  if (fence_cmp && !fence) {
    json_decref(fence_cmp);
    json_decref(txn);
    return refuse_fenced(e, fence);
  }
  if (fence_cmp) json_array_append_new(json_object_get(txn, "compare"), fence_cmp);
  etcd_reply r;
  strbuf err = STRBUF_INIT;
  txn_result result = TXN_FAILED;
  /* etcd decides between concurrent writes (the compare): other writers may
   * go on meanwhile, unless this thread holds the lock further up (the
   * control loop does, for its whole slice) */
  unlock_writes(e);
  bool answered = call(e, "/v3/kv/txn", txn, &r, &err);
  lock_writes(e);
  if (answered) {
    *rv = (uint64_t)r.revision;
    *actual = r.n_kvs ? (uint64_t)r.kvs[0].mod_revision : 0;
    result = r.succeeded ? TXN_DONE : TXN_STALE;
    etcd_reply_free(&r);
    fence_state fs = result == TXN_STALE && fence_cmp ? fence_check(e, fence) : FENCE_HELD;
    if (fs == FENCE_RENEWED) result = write_key(e, kind, namespace_, name, next, expect, rv, actual);
    else if (fs == FENCE_BROKEN) result = refuse_fenced(e, fence);
  } else {
    note_error(e, sb_str(&err));
  }
  sb_free(&err);
  return result;
}

/* After a write at rv: the version to hand out. The cache's once it shows
 * the write; for a delete, or when the cache does not show it in time,
 * obj itself stamped with rv. Takes obj. */
static void hand_out(etcd_store *e, api_object *obj, bool deleted, uint64_t rv, uint64_t created_rv,
                     store_obj **out) {
  const object_meta *m = api_object_meta(obj);
  store_obj *o = NULL;
  bool shown = wait_cache(e, cache_reached, &rv);
  if (shown && !deleted && store_get(e->cache, obj->info->kind, m->namespace_, m->name, &o) == STORE_OK &&
      o->rv >= rv) {
    api_object_free(obj);
  } else {
    store_obj_unref(o);
    meta_set_resource_version(obj, rv);
    o = store_obj_new(obj, rv, created_rv);
  }
  if (out) *out = o;
  else store_obj_unref(o);
}

static store_status e_create(store *s, api_object *obj, store_obj **out) {
  etcd_store *e = from(s);
  if (!meta_key_ok(obj)) return STORE_INVALID;
  lock_writes(e);
  object_meta *meta = api_object_meta(obj);
  bool generated = !meta->name || !*meta->name, had_uid = meta->uid && *meta->uid;
  char now[21];
  meta_format_time(now_seconds(e), now);
  store_status st = STORE_ALREADY_EXISTS;
  uint64_t rv = 0, actual = 0, base = store_revision(e->cache);
  for (int attempt = 0; attempt < GENERATE_NAME_TRIES && st == STORE_ALREADY_EXISTS; attempt++) {
    if (generated) {
      meta->name = NULL;
      meta_generate_name(obj, base * GENERATE_NAME_TRIES + (uint64_t)attempt);
    }
    if (!had_uid) meta->uid = NULL;
    /* the revision makes a re-created name's uid new, across restarts and servers */
    meta_on_create(obj, now, (unsigned)base);
    txn_result r = write_key(e, obj->info->kind, meta->namespace_, meta->name, obj, 0, &rv, &actual);
    if (r == TXN_FAILED) st = STORE_UNAVAILABLE;
    else if (r == TXN_DONE) st = STORE_OK;
    else if (!generated) { /* answered once the cache shows what exists */
      key_state k = {obj->info->kind, meta->namespace_, meta->name, actual};
      wait_cache(e, cache_has, &k);
      break;
    }
  }
  if (st == STORE_OK) hand_out(e, obj, false, rv, rv, out);
  else if (st == STORE_UNAVAILABLE) api_object_free(obj);
  else if (generated) meta->name = NULL;
  unlock_writes(e);
  return st;
}

static store_status e_get(store *s, api_kind kind, const char *namespace_, const char *name, store_obj **out) {
  return store_get(from(s)->cache, kind, namespace_, name, out);
}

/* Writes next (NULL: deletes cur; taken) over cur, which the cache holds.
 * TXN_STALE: etcd had another version, which the cache now shows. */
static txn_result replace_version(etcd_store *e, store_obj *cur, api_object *next, bool deletes, store_obj **out) {
  const object_meta *m = store_obj_meta(cur);
  uint64_t rv = 0, actual = 0;
  txn_result r = write_key(e, cur->object->info->kind, m->namespace_, m->name, deletes ? NULL : next, cur->rv, &rv,
                           &actual);
  if (r == TXN_DONE) {
    hand_out(e, next, deletes, rv, cur->created_rv, out);
    return r;
  }
  api_object_free(next);
  if (r == TXN_STALE) {
    key_state k = {cur->object->info->kind, m->namespace_, m->name, actual};
    wait_cache(e, cache_has, &k);
  }
  return r;
}

static store_status e_update(store *s, api_object *obj, store_obj **out) {
  etcd_store *e = from(s);
  const object_meta *meta = api_object_meta(obj);
  if (!meta->name || !*meta->name || !meta_key_ok(obj)) return STORE_INVALID;
  lock_writes(e);
  store_status st = STORE_CONFLICT;
  for (int tries = 0; tries < UPDATE_TRIES && st == STORE_CONFLICT; tries++) {
    store_obj *cur = NULL;
    if (store_get(e->cache, obj->info->kind, meta->namespace_, meta->name, &cur) != STORE_OK) {
      st = STORE_NOT_FOUND;
      break;
    }
    if (!meta_preconditions_hold(cur->object, meta->uid, meta->resource_version)) {
      store_obj_unref(cur);
      break;
    }
    api_object *next = api_object_clone(obj);
    meta_on_update(next, cur->object);
    if (!meta_changed(next, cur->object)) {
      api_object_free(next);
      st = STORE_OK;
      if (out) *out = cur;
      else store_obj_unref(cur);
      break;
    }
    const object_meta *nm = api_object_meta(next);
    bool deletes = nm->deletion_timestamp && !meta_pending_finalizers(next);
    txn_result r = replace_version(e, cur, next, deletes, out);
    st = r == TXN_DONE ? STORE_OK : r == TXN_FAILED ? STORE_UNAVAILABLE : STORE_CONFLICT;
    store_obj_unref(cur);
  }
  if (st == STORE_OK || st == STORE_UNAVAILABLE) api_object_free(obj);
  unlock_writes(e);
  return st;
}

static store_status e_remove(store *s, api_kind kind, const char *namespace_, const char *name,
                             const store_preconditions *pre, store_obj **out) {
  etcd_store *e = from(s);
  if (kind >= KIND_COUNT || !name) return STORE_NOT_FOUND;
  lock_writes(e);
  store_status st = STORE_CONFLICT;
  for (int tries = 0; tries < UPDATE_TRIES && st == STORE_CONFLICT; tries++) {
    store_obj *cur = NULL;
    if (store_get(e->cache, kind, namespace_, name, &cur) != STORE_OK) {
      st = STORE_NOT_FOUND;
      break;
    }
    if (pre && !meta_preconditions_hold(cur->object, pre->uid, pre->resource_version)) {
      store_obj_unref(cur);
      break;
    }
    api_object *next = NULL;
    bool deletes = false;
    if (pre && pre->grace_period_seconds > 0) next = meta_marked_deleting(cur->object, now_seconds(e), pre->grace_period_seconds);
    else if (!meta_pending_finalizers(cur->object)) deletes = (next = api_object_clone(cur->object)) != NULL;
    else if (!store_obj_meta(cur)->deletion_timestamp) next = meta_marked_deleting(cur->object, now_seconds(e), 0);
    if (!next) { /* nothing to change */
      st = STORE_OK;
      if (out) *out = cur;
      else store_obj_unref(cur);
      break;
    }
    txn_result r = replace_version(e, cur, next, deletes, out);
    st = r == TXN_DONE ? STORE_OK : r == TXN_FAILED ? STORE_UNAVAILABLE : STORE_CONFLICT;
    store_obj_unref(cur);
  }
  unlock_writes(e);
  return st;
}

/* ---- reads, watches, lifetime ---- */

static store_status e_list(store *s, const store_query *q, store_list *out) {
  return store_list_query(from(s)->cache, q, out);
}

/* A watch from before the last compaction is 410 Gone, as etcd's own. */
static store_status e_watch(store *s, uint64_t since_rv, store_watch_fn fn, void *user, uint64_t *id) {
  etcd_store *e = from(s);
  uint64_t compacted = atomic_load(&e->compacted_rv);
  if (since_rv && since_rv < compacted) {
    if (id) *id = compacted; /* the oldest resourceVersion to watch from (store.h) */
    return STORE_GONE;
  }
  return store_watch(e->cache, since_rv, fn, user, id);
}

static void e_unwatch(store *s, uint64_t id) { store_unwatch(from(s)->cache, id); }
static uint64_t e_revision(store *s) { return store_revision(from(s)->cache); }
/* Everything in the cache is in etcd already. */
static store *e_committed(store *s) { return s; }

static void stop_threads(etcd_store *e, bool started_compactor) {
  atomic_store(&e->stop, true);
  pthread_mutex_lock(&e->queue_lock);
  pthread_cond_broadcast(&e->queue_grew);
  pthread_cond_broadcast(&e->stopping);
  pthread_mutex_unlock(&e->queue_lock);
  pthread_join(e->watch_thread, NULL);
  pthread_join(e->apply_thread, NULL);
  if (started_compactor) pthread_join(e->compact_thread, NULL);
}

static void free_store(etcd_store *e) {
  for (size_t i = 0; i < e->queue_n; i++) fed_change_free(&e->queue[i]);
  free(e->queue);
  store_close(e->cache);
  etcd_client_free(e->client);
  pthread_mutex_destroy(&e->own_write_lock);
  pthread_mutex_destroy(&e->queue_lock);
  pthread_cond_destroy(&e->queue_grew);
  pthread_cond_destroy(&e->stopping);
  pthread_mutex_destroy(&e->lease_lock);
  pthread_mutex_destroy(&e->error_lock);
  free(e->fence_key);
  free(e);
}

static void e_close(store *s) {
  etcd_store *e = from(s);
  stop_threads(e, e->opts.compaction_seconds > 0);
  free_store(e);
}

static void e_set_write_lock(store *s, pthread_mutex_t *lock);
static void e_last_error(store *s, char *buf, size_t len);

static const store_backend etcd_backend = {
    "etcd", e_create, e_get,   e_update,  e_remove,         e_list,       e_watch,
    e_unwatch, e_revision, e_close, e_committed, e_set_write_lock, e_last_error,
};

/* A row_decode_fn (row_decoder.h): a value as etcd_value_decode reads it
 * (through the JSON tree, which the memo does not serve). */
static api_object *decode_value(const char *key, const char *value, size_t len, tree_memo *memo, char *why,
                                size_t why_len) {
  (void)memo;
  return etcd_value_decode(key, value, len, why, why_len);
}

/* Tags of a value as pushed to the row decoder. */
enum { TAG_MOD_REVISION, TAG_CREATE_REVISION };

/* A row_take_fn: a value decoded goes into the cache, one that is not is
 * said and left out. */
static bool take_value(void *user, decoded_row *row) {
  etcd_store *e = user;
  if (row->obj) store_memory_restore(e->cache, row->obj, row->tags[TAG_MOD_REVISION], row->tags[TAG_CREATE_REVISION]);
  else fprintf(stderr, "dra serve: etcd key %s: %s; not served\n", row->key, row->why);
  return true;
}

/* Fills the cache with every object under /registry/ at one revision,
 * page by page; the watch starts after it. The values are decoded on the
 * row decoder's threads while the next page is fetched. */
static bool load(etcd_store *e, strbuf *err) {
  char *from_key = xstrdup(ETCD_REGISTRY);
  size_t from_len = strlen(from_key);
  int64_t at = 0;
  bool ok = true;
  row_decoder *rd = row_decoder_new(row_decoder_threads(), decode_value, take_value, e);
  for (bool more = true; more && ok;) {
    json_t *req = registry_range();
    json_object_set_new(req, "key", etcd_bytes_json(from_key, from_len));
    json_object_set_new(req, "limit", etcd_int64(RANGE_PAGE));
    if (at) json_object_set_new(req, "revision", etcd_int64(at));
    etcd_reply r;
    if (!(ok = etcd_call(e->client, "/v3/kv/range", req, &r, err))) break;
    if (!at) at = r.revision;
    for (size_t i = 0; i < r.n_kvs; i++) {
      api_kind kind;
      char *ns = NULL, *name = NULL;
      if (!etcd_key_parse(r.kvs[i].key, &kind, &ns, &name)) continue;
      free(ns);
      free(name);
      const uint64_t tags[4] = {[TAG_MOD_REVISION] = (uint64_t)r.kvs[i].mod_revision,
                                [TAG_CREATE_REVISION] = (uint64_t)r.kvs[i].create_revision};
      row_decoder_push(rd, r.kvs[i].key, r.kvs[i].value, r.kvs[i].value_len, tags);
    }
    more = r.more && r.n_kvs;
    if (more) { /* the next page starts just after the last key */
      free(from_key);
      from_len = strlen(r.kvs[r.n_kvs - 1].key) + 1;
      from_key = xcalloc(from_len + 1, 1);
      memcpy(from_key, r.kvs[r.n_kvs - 1].key, from_len - 1);
    }
    etcd_reply_free(&r);
  }
  row_decoder_finish(rd);
  free(from_key);
  if (ok) {
    store_memory_set_revision(e->cache, (uint64_t)at);
    e->watched_rv = (uint64_t)at;
  }
  return ok;
}

store *store_etcd_open(const etcd_options *eo, const store_options *opts, strbuf *err) {
  etcd_store *e = xcalloc(1, sizeof *e);
  e->base.backend = &etcd_backend;
  e->opts = *eo;
  if (!e->opts.event_ttl_seconds) e->opts.event_ttl_seconds = 3600;
  if (!e->opts.compaction_seconds) e->opts.compaction_seconds = 300;
  if (opts) e->store_opts = *opts;
  if (!e->store_opts.clock) e->store_opts.clock = system_clock;
  e->cache = store_memory_open(opts);
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&e->own_write_lock, &attr);
  pthread_mutexattr_destroy(&attr);
  e->write_lock = &e->own_write_lock;
  pthread_mutex_init(&e->queue_lock, NULL);
  pthread_cond_init(&e->queue_grew, NULL);
  pthread_cond_init(&e->stopping, NULL);
  pthread_mutex_init(&e->lease_lock, NULL);
  pthread_mutex_init(&e->error_lock, NULL);
  e->client = etcd_client_new(eo->servers, &eo->tls, err);
  if (!e->client || !load(e, err)) {
    free_store(e);
    return NULL;
  }
  pthread_create(&e->watch_thread, NULL, watch_main, e);
  pthread_create(&e->apply_thread, NULL, apply_main, e);
  if (e->opts.compaction_seconds > 0) pthread_create(&e->compact_thread, NULL, compact_main, e);
  return &e->base;
}

/* store_set_write_lock: every write holds lock from reading the cache to
 * the cache showing it, and changes from the watch go into the cache only
 * under it. Switched while holding the old lock, so no write runs under
 * either meanwhile. */
static void e_set_write_lock(store *s, pthread_mutex_t *lock) {
  etcd_store *e = from(s);
  pthread_mutex_t *old = atomic_load(&e->write_lock);
  pthread_mutex_lock(old);
  atomic_store(&e->write_lock, lock ? lock : &e->own_write_lock);
  pthread_mutex_unlock(old);
}

/* store_last_error: the last etcd error. */
static void e_last_error(store *s, char *buf, size_t len) {
  etcd_store *e = from(s);
  pthread_mutex_lock(&e->error_lock);
  snprintf(buf, len, "%s", e->error[0] ? e->error : "unknown error");
  pthread_mutex_unlock(&e->error_lock);
}

bool store_is_etcd(store *s) { return s->backend == &etcd_backend; }

void store_etcd_fence_on(store *s, api_kind kind, const char *namespace_, const char *name) {
  etcd_store *e = from(s);
  free(e->fence_key);
  e->fence_key = etcd_key(kind, namespace_, name);
}

/* A limit at a monotonic deadline. */
static bool past(void *deadline) { return monotonic_seconds() >= *(double *)deadline; }

store_status store_etcd_fence_get(store *s, double deadline, store_obj **out) {
  etcd_store *e = from(s);
  etcd_limit limit = {past, &deadline};
  etcd_reply r;
  strbuf err = STRBUF_INIT;
  store_status st = STORE_UNAVAILABLE;
  json_t *range = json_pack("{s:o}", "key", key_json(e->fence_key));
  if (etcd_call_limited(e->client, "/v3/kv/range", range, deadline ? &limit : NULL, &r, &err)) {
    api_object *o = NULL;
    char why[128] = "";
    if (r.n_kvs) o = etcd_value_decode(r.kvs[0].key, r.kvs[0].value, r.kvs[0].value_len, why, sizeof why);
    if (o) {
      meta_set_resource_version(o, (uint64_t)r.kvs[0].mod_revision);
      *out = store_obj_new(o, (uint64_t)r.kvs[0].mod_revision, (uint64_t)r.kvs[0].create_revision);
    }
    st = o ? STORE_OK : r.n_kvs ? STORE_UNAVAILABLE : STORE_NOT_FOUND;
    if (r.n_kvs && !o) sb_printf(&err, "etcd key %s: %s", e->fence_key, why);
    etcd_reply_free(&r);
  }
  if (err.len) note_error(e, sb_str(&err));
  sb_free(&err);
  return st;
}

store_status store_etcd_fence_put(store *s, const store_obj *cur, api_object *next, double deadline,
                                  double hold_until, store_obj **out) {
  etcd_store *e = from(s);
  if (cur) {
    meta_on_update(next, cur->object);
  } else {
    char now[21];
    meta_format_time(now_seconds(e), now);
    meta_on_create(next, now, (unsigned)store_revision(e->cache));
  }
  char *value = etcd_value(next);
  json_t *put = json_pack("{s:{s:o,s:o}}", "request_put", "key", key_json(e->fence_key), "value",
                          etcd_bytes_json(value, strlen(value)));
  free(value);
  json_t *txn = json_pack("{s:[o],s:[o]}", "compare", key_compare(e->fence_key, cur ? cur->rv : 0), "success", put);
  etcd_limit limit = {past, &deadline};
  etcd_reply r;
  strbuf err = STRBUF_INIT;
  atomic_store(&e->fence_renewing, true);
  bool answered = etcd_call_limited(e->client, "/v3/kv/txn", txn, deadline ? &limit : NULL, &r, &err);
  store_status st = !answered ? STORE_UNAVAILABLE : r.succeeded ? STORE_OK : STORE_CONFLICT;
  uint64_t rv = answered ? (uint64_t)r.revision : 0;
  if (st == STORE_OK) { /* the deadline first: a fenced write that sees the new revision sees it */
    atomic_store(&e->fence_deadline, hold_until);
    atomic_store(&e->fence_rv, rv);
  }
  atomic_store(&e->fence_renewing, false);
  if (answered) etcd_reply_free(&r);
  else note_error(e, sb_str(&err));
  sb_free(&err);
  if (st == STORE_OK) {
    meta_set_resource_version(next, rv);
    *out = store_obj_new(next, rv, cur ? cur->created_rv : rv);
  } else {
    api_object_free(next);
  }
  return st;
}

void store_etcd_fence_lost(store *s) { atomic_store(&from(s)->fence_rv, 0); }

void store_etcd_fence_this_thread(void) { fenced_thread = true; }

uint64_t store_etcd_fenced_writes(store *s) { return atomic_load(&from(s)->fenced_writes); }
