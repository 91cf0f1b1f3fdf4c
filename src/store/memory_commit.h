/* memory_commit.h: how a durable backend keeps the in-memory store's
 * committed view (store_committed) at what is on disk: changes are
 * visible to its reads only once the backend says they are committed, and
 * to its watchers once the backend publishes them (on another thread, so
 * that delivering to watchers and the next fsync run side by side). */
#ifndef DRA_STORE_MEMORY_COMMIT_H
#define DRA_STORE_MEMORY_COMMIT_H
#include "store/store.h"

/* From now on, store_committed(s) shows a change only once
 * store_memory_commit covers it (without this, every change is committed
 * when made); writes through store_committed(s) go to writes (the durable
 * backend wrapping s; NULL: s). Call before the first write. */
void store_memory_defer_commits(store *s, store *writes);
/* Every change up to rv is on disk: committed reads (get, list) show it
 * from now on. Cheap: the caller may release the writes waiting on it. */
void store_memory_commit(store *s, uint64_t rv);
/* Delivers the committed events up to rv to committed watchers, on the
 * calling thread; store_committed(s)'s revision then is rv (bookmarks). */
void store_memory_publish(store *s, uint64_t rv);

#endif
