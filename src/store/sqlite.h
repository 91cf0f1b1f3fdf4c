/* sqlite.h: the durable store backend (SQLite file, WAL, synchronous FULL,
 * group commit); see sqlite.c. */
#ifndef DRA_STORE_SQLITE_H
#define DRA_STORE_SQLITE_H
#include "store/store.h"
#include "util/strbuf.h"

/* Opens (creating if needed) the store file at path and restores its
 * objects. NULL with the reason in err. */
store *store_sqlite_open(const char *path, const store_options *opts, strbuf *err);

#endif
