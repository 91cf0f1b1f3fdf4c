/* sqlite.h: the durable store backend (SQLite file, WAL, synchronous FULL,
 * group commit); see sqlite.c. */
#ifndef DRA_STORE_SQLITE_H
#define DRA_STORE_SQLITE_H
#include "store/store.h"
#include "util/strbuf.h"
#include <pthread.h>

/* Opens (creating if needed) the store file at path and restores its
 * objects. The file stays locked (flock) until store_close: a second open,
 * by any process, fails. NULL with the reason in err. */
store *store_sqlite_open(const char *path, const store_options *opts, strbuf *err);
/* The same, after deleting every object in the file (its revision counter
 * and delete counts stay): `dra migrate --force` into a data dir. */
store *store_sqlite_open_emptied(const char *path, const store_options *opts, strbuf *err);
/* Whether s is a SQLite store. */
bool store_is_sqlite(store *s);
/* For the calling thread: writes return without waiting for the disk
 * (the control loop's own writes, which no client waits on). */
void store_sqlite_no_wait_on_this_thread(void);
/* For the calling thread, until store_sqlite_group_end: writes return
 * without waiting for the disk, so that a run of them shares a few
 * transactions instead of one fsync each (dra serve's bootstrap). */
void store_sqlite_group_begin(void);
/* Ends the group: waits until every write so far is on disk; false if the
 * transaction holding them failed (it is retried). */
bool store_sqlite_group_end(store *s);

#endif
