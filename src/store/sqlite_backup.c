/* sqlite_backup.c: sqlite_backup.h. sqlite3_backup_step(-1) copies every
 * page inside one read transaction of the source connection: in WAL mode
 * (dra serve's store, sqlite.c) that is a snapshot as of the last commit,
 * and the server's writer goes on committing meanwhile (readers do not
 * block the writer). The writer commits each batch of changes together
 * with the revision counter, so a copy holds exactly the changes up to the
 * revision it records. */
#include "store/sqlite_backup.h"
#include "store/sqlite.h"
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Copies every page of from into to; false with SQLite's words in err. */
static bool copy_db(sqlite3 *from, sqlite3 *to, strbuf *err) {
  sqlite3_backup *b = sqlite3_backup_init(to, "main", from, "main");
  if (!b) {
    sb_printf(err, "%s", sqlite3_errmsg(to));
    return false;
  }
  int rc;
  while ((rc = sqlite3_backup_step(b, -1)) == SQLITE_BUSY || rc == SQLITE_LOCKED) sqlite3_sleep(10);
  sqlite3_backup_finish(b);
  if (rc != SQLITE_DONE) sb_printf(err, "%s", sqlite3_errstr(rc));
  return rc == SQLITE_DONE;
}

/* One integer from a query; false when it has no row or fails. */
static bool query_int(sqlite3 *db, const char *sql, sqlite3_int64 *out) {
  sqlite3_stmt *st = NULL;
  bool ok = sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW;
  if (ok) *out = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  return ok;
}

/* Whether db is sound (integrity_check) and a dra store: its counts into info. */
static bool check_store(sqlite3 *db, const char *name, sqlite_backup_info *info, strbuf *err) {
  sqlite3_stmt *st = NULL;
  bool sound = sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL) == SQLITE_OK &&
               sqlite3_step(st) == SQLITE_ROW && !strcmp((const char *)sqlite3_column_text(st, 0), "ok");
  sqlite3_finalize(st);
  if (!sound) {
    sb_printf(err, "%s fails SQLite's integrity check", name);
    return false;
  }
  sqlite3_int64 revision, objects;
  if (!query_int(db, "SELECT rv FROM revision WHERE id=0", &revision) ||
      !query_int(db, "SELECT count(*) FROM objects", &objects)) {
    sb_printf(err, "%s is not a dra store (no revision or objects table)", name);
    return false;
  }
  info->revision = (uint64_t)revision;
  info->objects = (size_t)objects;
  return true;
}

static bool sync_file(const char *path, strbuf *err) {
  FILE *f = fopen(path, "rb+");
  bool ok = f && fsync(fileno(f)) == 0;
  if (!ok) sb_printf(err, "cannot sync %s: %s", path, strerror(errno));
  if (f) fclose(f);
  return ok;
}

bool store_sqlite_backup(const char *db_path, const char *path, sqlite_backup_info *info, strbuf *err) {
  memset(info, 0, sizeof *info);
  if (access(db_path, R_OK)) {
    sb_printf(err, "no store to back up at %s: %s", db_path, strerror(errno));
    return false;
  }
  strbuf part = STRBUF_INIT;
  sb_printf(&part, "%s.part", path);
  unlink(sb_str(&part));
  sqlite3 *from = NULL, *to = NULL;
  bool ok = sqlite3_open_v2(db_path, &from, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK;
  if (!ok) sb_printf(err, "cannot open %s: %s", db_path, sqlite3_errmsg(from));
  if (ok && !(ok = sqlite3_open(sb_str(&part), &to) == SQLITE_OK))
    sb_printf(err, "cannot write %s: %s", sb_str(&part), sqlite3_errmsg(to));
  if (ok) sqlite3_busy_timeout(from, 5000);
  ok = ok && copy_db(from, to, err);
  /* the copy keeps the source's WAL mode in its header: one file is handier to keep */
  ok = ok && sqlite3_exec(to, "PRAGMA journal_mode=DELETE", NULL, NULL, NULL) == SQLITE_OK;
  ok = ok && check_store(to, db_path, info, err);
  sqlite3_close(from);
  sqlite3_close(to);
  ok = ok && sync_file(sb_str(&part), err);
  if (ok && rename(sb_str(&part), path)) {
    sb_printf(err, "cannot rename %s to %s: %s", sb_str(&part), path, strerror(errno));
    ok = false;
  }
  if (!ok) unlink(sb_str(&part));
  sb_free(&part);
  return ok;
}

/* Opens the restored file as dra serve would: every object must decode. */
static bool servable(const char *db_path, strbuf *err) {
  store *s = store_sqlite_open(db_path, NULL, err);
  store_close(s);
  return s != NULL;
}

bool store_sqlite_restore(const char *path, const char *db_path, uint64_t bump, sqlite_backup_info *info,
                          strbuf *err) {
  memset(info, 0, sizeof *info);
  if (access(db_path, F_OK) == 0) {
    sb_printf(err, "%s exists already", db_path);
    return false;
  }
  sqlite3 *from = NULL, *to = NULL;
  bool ok = sqlite3_open_v2(path, &from, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK;
  if (!ok) sb_printf(err, "cannot open %s: %s", path, sqlite3_errmsg(from));
  sqlite_backup_info ignored;
  ok = ok && check_store(from, path, &ignored, err);
  if (ok && !(ok = sqlite3_open(db_path, &to) == SQLITE_OK))
    sb_printf(err, "cannot write %s: %s", db_path, sqlite3_errmsg(to));
  ok = ok && copy_db(from, to, err);
  ok = ok && sqlite3_exec(to, "PRAGMA journal_mode=WAL", NULL, NULL, NULL) == SQLITE_OK;
  if (ok && bump) {
    sqlite3_stmt *st = NULL;
    ok = sqlite3_prepare_v2(to, "UPDATE revision SET rv = rv + ? WHERE id=0", -1, &st, NULL) == SQLITE_OK &&
         sqlite3_bind_int64(st, 1, (sqlite3_int64)bump) == SQLITE_OK && sqlite3_step(st) == SQLITE_DONE;
    sqlite3_finalize(st);
    if (!ok) sb_printf(err, "cannot raise the revision of %s: %s", db_path, sqlite3_errmsg(to));
  }
  ok = ok && check_store(to, db_path, info, err);
  sqlite3_close(from);
  sqlite3_close(to);
  ok = ok && servable(db_path, err);
  if (!ok) {
    strbuf side = STRBUF_INIT;
    unlink(db_path);
    sb_printf(&side, "%s-wal", db_path);
    unlink(sb_str(&side));
    sb_truncate(&side, 0);
    sb_printf(&side, "%s-shm", db_path);
    unlink(sb_str(&side));
    sb_free(&side);
  }
  return ok;
}
