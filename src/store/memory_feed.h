/* memory_feed.h: how a backend whose data lives elsewhere (etcd) keeps a
 * memory store as its cache: it feeds it every change in the order the
 * other store made them, with that store's resourceVersions, and the
 * memory store raises the events its watchers see. */
#ifndef DRA_STORE_MEMORY_FEED_H
#define DRA_STORE_MEMORY_FEED_H
#include "store/store.h"

/* The object (kind, namespace, name) is obj from resourceVersion rv on
 * (created at created_rv), or, with obj NULL, deleted at rv. obj is taken,
 * stored as given (no metadata rules) with metadata.resourceVersion rv;
 * ADDED, MODIFIED or DELETED goes to the watchers. A change below the
 * store's revision is already there and is dropped; so is one at it,
 * unless it is another key of the revision fed last (one etcd revision may
 * change several keys: a transaction, a lease's keys when it expires). rv
 * may skip numbers: watches resume across the gap. */
void store_memory_feed(store *s, api_kind kind, const char *namespace_, const char *name, api_object *obj,
                       uint64_t rv, uint64_t created_rv);

#endif
