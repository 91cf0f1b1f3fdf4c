/* memory_commit.h: how a durable backend keeps the in-memory store's
 * committed view (store_committed) at what is on disk: changes are
 * visible to it only once the backend says they are committed. */
#ifndef DRA_STORE_MEMORY_COMMIT_H
#define DRA_STORE_MEMORY_COMMIT_H
#include "store/store.h"

/* From now on, store_committed(s) shows a change only once
 * store_memory_commit covers it (without this, every change is committed
 * when made); writes through store_committed(s) go to writes (the durable
 * backend wrapping s; NULL: s). Call before the first write. */
void store_memory_defer_commits(store *s, store *writes);
/* Every change up to rv is on disk: shows it to committed readers and
 * delivers it to committed watchers, on the calling thread. */
void store_memory_commit(store *s, uint64_t rv);

#endif
