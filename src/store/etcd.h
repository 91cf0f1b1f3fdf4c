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
 * compares the mod_revision of the key of kind/namespace_/name (set once,
 * before such writes) with lease_rv from store_etcd_fence (0: refuse
 * them). A refused write gives STORE_UNAVAILABLE and is counted. */
void store_etcd_fence_on(store *s, api_kind kind, const char *namespace_, const char *name);
void store_etcd_fence(store *s, uint64_t lease_rv);
void store_etcd_fence_this_thread(void);
/* The fence's keeper (the leader elector's thread): each of its writes of
 * the fence key that etcd applies sets the fence to its revision, before
 * the keeper hears back, so fenced writes never see a renewal as a loss. */
void store_etcd_keep_fence_this_thread(void);
uint64_t store_etcd_fenced_writes(store *s);

#endif
