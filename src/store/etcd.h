/* etcd.h: the etcd v3 store backend (`dra serve --etcd-servers`): objects
 * live in etcd as kube-apiserver lays them out; a memory store fed by one
 * etcd watch caches them and answers reads, lists and watches with etcd's
 * revisions. See etcd.c and docs/store.md "etcd backend". */
#ifndef DRA_STORE_ETCD_H
#define DRA_STORE_ETCD_H
#include "store/etcd_client.h"
#include "store/store.h"
#include "util/strbuf.h"
#include <pthread.h>

typedef struct etcd_options {
  const char *servers; /* "URL[,URL...]" */
  etcd_tls tls;
  int64_t event_ttl_seconds;     /* Events are put on a lease of this TTL; 0: 3600 */
  int64_t compaction_seconds;    /* compaction interval; 0: 300; < 0: never */
} etcd_options;

/* Connects, lists every object of dra's kinds and starts the watch that
 * feeds the cache. NULL with the reason in err. */
store *store_etcd_open(const etcd_options *eo, const store_options *opts, strbuf *err);
/* Deletes every key of dra's kinds from the etcd (before a store is
 * opened on it: `dra migrate --force`); *deleted counts them. False with
 * the reason in err. etcd_empty.c. */
bool store_etcd_empty(const etcd_options *eo, size_t *deleted, strbuf *err);
/* Whether s is an etcd store. */
bool store_is_etcd(store *s);

/* Fencing (docs/store.md "Fencing"): once store_etcd_fence_this_thread
 * was called on a thread, each of its writes is a transaction that also
 * compares the mod_revision of the key of kind/namespace_/name (the fence
 * key, set once, before such writes) with the fence: the revision of the
 * keeper's (the leader elector's) last store_etcd_fence_put, which holds
 * until the hold_until given there. A write when the fence is gone (lost
 * or past its deadline) or a transaction etcd refuses for it gives
 * STORE_UNAVAILABLE and is counted; a fenced thread's etcd call in flight
 * gives up as soon as the fence is gone. */
void store_etcd_fence_on(store *s, api_kind kind, const char *namespace_, const char *name);
void store_etcd_fence_lost(store *s);
void store_etcd_fence_this_thread(void);
uint64_t store_etcd_fenced_writes(store *s);
/* The keeper's reads and writes of the fence key go straight to etcd:
 * they wait neither for the write lock (the control loop's, which a long
 * scheduling slice holds) nor for the cache, so renewals go on whatever
 * the loop does. Each gives up at deadline (CLOCK_MONOTONIC seconds; 0:
 * the usual timeout) with STORE_UNAVAILABLE. fence_get: the key's version
 * in etcd, or STORE_NOT_FOUND. fence_put: next (taken) over cur (NULL:
 * creates it) if etcd still has cur (else STORE_CONFLICT), with the
 * metadata rules of meta.h; once etcd applied it the fence is its
 * revision, held until hold_until, before *out is set. */
store_status store_etcd_fence_get(store *s, double deadline, store_obj **out);
store_status store_etcd_fence_put(store *s, const store_obj *cur, api_object *next, double deadline,
                                  double hold_until, store_obj **out);

#endif
