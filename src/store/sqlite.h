/* sqlite.h: the durable store backend (SQLite file, WAL, synchronous FULL,
 * group commit); see sqlite.c. */
#ifndef DRA_STORE_SQLITE_H
#define DRA_STORE_SQLITE_H
#include "store/store.h"
#include "util/strbuf.h"
#include <pthread.h>

/* Opens (creating if needed) the store file at path and restores its
 * objects. NULL with the reason in err. */
store *store_sqlite_open(const char *path, const store_options *opts, strbuf *err);
/* Serializes every in-memory mutation under lock (a recursive mutex the
 * caller also holds while it runs work that must not interleave with
 * writes, e.g. the control loop); the wait for the disk is outside it. */
void store_sqlite_set_write_lock(store *s, pthread_mutex_t *lock);
/* For the calling thread: writes return without waiting for the disk
 * (the control loop's own writes, which no client waits on). */
void store_sqlite_no_wait_on_this_thread(void);
/* SQLite's words for the last failed transaction (STORE_UNAVAILABLE). */
void store_sqlite_last_error(store *s, char *buf, size_t len);

#endif
