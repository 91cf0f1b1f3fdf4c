/* sqlite_backup.h: copies of a SQLite store file (`dra backup` and `dra
 * restore` of a data dir), taken with SQLite's online backup API while
 * dra serve keeps writing. See docs/store.md "Backup and restore". */
#ifndef DRA_STORE_SQLITE_BACKUP_H
#define DRA_STORE_SQLITE_BACKUP_H
#include "util/strbuf.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct sqlite_backup_info {
  size_t objects;
  uint64_t revision; /* the store's resourceVersion counter in the copy */
} sqlite_backup_info;

/* Copies the store file db_path (served or not) into path, one
 * self-contained file (journal mode DELETE), as of one committed
 * transaction: every write dra serve acknowledged before the copy began is
 * in it, and nothing of a transaction that came after. Written as
 * path.part, checked (PRAGMA integrity_check), synced, then renamed. False
 * with the reason in err. */
bool store_sqlite_backup(const char *db_path, const char *path, sqlite_backup_info *info, strbuf *err);
/* Writes the backup at path into a new store file db_path (which must not
 * exist), in WAL mode, with its revision counter raised by bump, and
 * checks that dra serve can read it (store_sqlite_open). False with the
 * reason in err; db_path is removed then. */
bool store_sqlite_restore(const char *path, const char *db_path, uint64_t bump, sqlite_backup_info *info,
                          strbuf *err);

#endif
