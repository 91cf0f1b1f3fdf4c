/* sqlite.c: the durable store backend: the in-memory store for reads,
 * indexes and watches, with every change written to a SQLite file (WAL,
 * synchronous=FULL) before the write that made it is acknowledged. Changes
 * that arrive together are committed in one transaction by a writer thread
 * (group commit): a write waits only until the transaction holding its
 * resourceVersion is on disk. On open, the file's objects are restored with
 * their resourceVersions, so no resourceVersion ever goes backwards.
 * A change is visible to the committed view (store_committed: what clients
 * read) only once its transaction is committed, and reaches its watchers
 * after that, from a publisher thread (so the next transaction need not
 * wait for the delivery); the process itself reads the in-memory store at
 * once.
 * A transaction that fails (disk full, I/O error) is kept and retried every
 * RETRY_MS, with whatever came since, until it commits: the writes waiting
 * on it get STORE_UNAVAILABLE, and client writes are refused with it, not
 * applied, while the store cannot write; reads and watches go on.
 * The file is locked (flock) while open, so no two processes serve it. */
#include "store/sqlite.h"
#include "api/codec.h"
#include "store/memory_commit.h"
#include "codec/doc_tokens.h"
#include "store/memory_restore.h"
#include "store/row_decoder.h"
#include "util/die.h"
#include "util/workqueue.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

/* How often a failed transaction is tried again. */
#define RETRY_MS 500

/* One change to write: the version (referenced, immutable) is encoded to
 * JSON by the writer thread, off the store's lock. */
typedef struct pending_row {
  bool deleted;
  unsigned deletes; /* deleted: the object's delete count, kept for its next uid */
  store_obj *obj;
  uint64_t rv;
} pending_row;

typedef struct durable_store {
  store base;
  store *mem;
  sqlite3 *db;
  sqlite3_stmt *upsert, *remove, *revision, *count_delete; /* prepared once, reset after each use */
  pthread_t writer, publisher;
  workqueue rows; /* pending_row, in resourceVersion order */
  pthread_mutex_t lock; /* guards committed_rv, published_rv, closing, failing, failed_rv, error */
  pthread_cond_t committed;
  uint64_t committed_rv;
  uint64_t published_rv; /* shown to committed watchers (publisher_main) */
  bool closing;          /* the writer is done: the publisher ends once it caught up */
  bool failing;       /* the last transaction failed; it is being retried */
  uint64_t failed_rv; /* the last resourceVersion of the failed transaction */
  char error[256];    /* SQLite's words for the failure */
  uint64_t watch_id;
  pthread_mutex_t *write_lock; /* optional, see store_set_write_lock */
  int lock_fd; /* holds the flock on the file; closed after the connection (store_sqlite_open) */
} durable_store;

static _Thread_local bool no_wait;

void store_sqlite_no_wait_on_this_thread(void) { no_wait = true; }

static durable_store *from(store *s) { return (durable_store *)s; }

static const char *const schema_sql =
    "PRAGMA journal_mode=WAL;"
    "PRAGMA synchronous=FULL;"
    "CREATE TABLE IF NOT EXISTS objects (kind INTEGER NOT NULL, namespace TEXT NOT NULL, name TEXT NOT NULL,"
    " rv INTEGER NOT NULL, created_rv INTEGER NOT NULL, json TEXT NOT NULL, PRIMARY KEY (kind, namespace, name));"
    "CREATE TABLE IF NOT EXISTS revision (id INTEGER PRIMARY KEY CHECK (id = 0), rv INTEGER NOT NULL);"
    "INSERT OR IGNORE INTO revision (id, rv) VALUES (0, 0);"
    /* how often each name was deleted: a re-created object's uid differs
       from the deleted one's (uid.h), across restarts too */
    "CREATE TABLE IF NOT EXISTS deletes (kind INTEGER NOT NULL, namespace TEXT NOT NULL, name TEXT NOT NULL,"
    " n INTEGER NOT NULL, PRIMARY KEY (kind, namespace, name));";

static const char *const upsert_sql =
    "INSERT OR REPLACE INTO objects (kind, namespace, name, rv, created_rv, json) VALUES (?,?,?,?,?,?)";
static const char *const remove_sql = "DELETE FROM objects WHERE kind=? AND namespace=? AND name=?";
static const char *const revision_sql = "UPDATE revision SET rv=? WHERE id=0";
static const char *const count_delete_sql = "INSERT OR REPLACE INTO deletes (kind, namespace, name, n) VALUES (?,?,?,?)";

/* Called by the memory store for every change, in order, under its lock,
 * so the queue holds the changes in resourceVersion order. */
static void on_change(void *user, const store_event *ev) {
  durable_store *d = user;
  pending_row row = {.deleted = ev->type == STORE_DELETED, .obj = store_obj_ref(ev->obj), .rv = ev->rv};
  if (row.deleted) {
    const object_meta *m = store_obj_meta(ev->obj);
    row.deletes = store_memory_deletes(d->mem, ev->obj->object->info->kind, m->namespace_, m->name);
  }
  wq_push(&d->rows, &row);
}

/* Runs a prepared statement with its bound values, then resets it for the
 * next use (the bindings point into the batch, which is freed after it). */
static bool step_done(sqlite3_stmt *st) {
  bool ok = sqlite3_step(st) == SQLITE_DONE;
  sqlite3_reset(st);
  sqlite3_clear_bindings(st);
  return ok;
}

/* Writes the rows in one transaction; on failure, SQLite's message in err. */
static bool write_batch(durable_store *d, const pending_row *rows, size_t n, char *err, size_t err_len) {
  bool ok = sqlite3_exec(d->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK;
  strbuf json = STRBUF_INIT; /* a row's JSON, bound until the row is written */
  for (size_t i = 0; ok && i < n; i++) {
    const store_obj *o = rows[i].obj;
    const object_meta *m = store_obj_meta(o);
    sqlite3_stmt *st = rows[i].deleted ? d->remove : d->upsert;
    sqlite3_bind_int(st, 1, o->object->info->kind);
    sqlite3_bind_text(st, 2, m->namespace_ ? m->namespace_ : "", -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, m->name ? m->name : "", -1, SQLITE_STATIC);
    if (!rows[i].deleted) {
      sqlite3_bind_int64(st, 4, (sqlite3_int64)rows[i].rv);
      sqlite3_bind_int64(st, 5, (sqlite3_int64)o->created_rv);
      sb_truncate(&json, 0);
      store_obj_put_json(rows[i].obj, &json);
      sqlite3_bind_text(st, 6, sb_str(&json), (int)json.len, SQLITE_STATIC);
    }
    ok = step_done(st);
    if (ok && rows[i].deleted) {
      sqlite3_bind_int(d->count_delete, 1, o->object->info->kind);
      sqlite3_bind_text(d->count_delete, 2, m->namespace_ ? m->namespace_ : "", -1, SQLITE_STATIC);
      sqlite3_bind_text(d->count_delete, 3, m->name ? m->name : "", -1, SQLITE_STATIC);
      sqlite3_bind_int64(d->count_delete, 4, rows[i].deletes);
      ok = step_done(d->count_delete);
    }
  }
  if (ok && n) {
    sqlite3_bind_int64(d->revision, 1, (sqlite3_int64)rows[n - 1].rv);
    ok = step_done(d->revision);
  }
  sb_free(&json);
  ok = ok && sqlite3_exec(d->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK;
  if (!ok) {
    snprintf(err, err_len, "%s", sqlite3_errmsg(d->db));
    sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
  }
  return ok;
}

static void unref_row(void *item) { store_obj_unref(((pending_row *)item)->obj); }

/* Everything queued since the last transaction goes into the next one
 * (group commit); the writes waiting on it are released when it is on disk.
 * A batch that fails stays, and is tried again with what came since. */
static void *writer_main(void *arg) {
  durable_store *d = arg;
  pending_row *batch = NULL;
  size_t n = 0;
  for (;;) {
    size_t m = 0;
    pending_row *more = n ? wq_wait_take_for(&d->rows, &m, RETRY_MS) : wq_wait_take(&d->rows, &m);
    if (m) {
      batch = xrealloc(batch, (n + m) * sizeof *batch);
      memcpy(batch + n, more, m * sizeof *batch);
      n += m;
    }
    free(more);
    if (!n) break; /* closed, and everything is on disk */
    bool closing = wq_closed(&d->rows);
    char err[256] = "";
    bool ok = write_batch(d, batch, n, err, sizeof err);
    uint64_t rv = batch[n - 1].rv;
    /* visible before acknowledged: a client that got its answer reads its write */
    if (ok) store_memory_commit(d->mem, rv);
    pthread_mutex_lock(&d->lock);
    if (ok) {
      if (d->failing) fputs("dra serve: the store can write to disk again; writes are accepted\n", stderr);
      d->committed_rv = rv;
      d->failing = false;
    } else {
      if (!d->failing) fprintf(stderr, "dra serve: the store cannot write to disk: %s; refusing writes until it can\n", err);
      d->failing = true;
      d->failed_rv = rv;
      snprintf(d->error, sizeof d->error, "%s", err);
    }
    pthread_cond_broadcast(&d->committed); /* the waiting writes, and the publisher */
    pthread_mutex_unlock(&d->lock);
    if (ok || closing) {
      if (!ok) fprintf(stderr, "dra serve: closing with %zu changes not written (none was acknowledged)\n", n);
      wq_free_batch(batch, n, sizeof *batch, unref_row);
      batch = NULL;
      n = 0;
      if (closing && !ok) break;
    }
  }
  return NULL;
}

/* Shows committed watchers each commit, off the writer thread: the writer
 * goes on to the next transaction while this one delivers. */
static void *publisher_main(void *arg) {
  durable_store *d = arg;
  pthread_mutex_lock(&d->lock);
  for (;;) {
    while (d->published_rv == d->committed_rv && !d->closing) pthread_cond_wait(&d->committed, &d->lock);
    if (d->published_rv == d->committed_rv) break; /* closing, and caught up */
    uint64_t rv = d->committed_rv;
    pthread_mutex_unlock(&d->lock);
    store_memory_publish(d->mem, rv);
    pthread_mutex_lock(&d->lock);
    d->published_rv = rv;
  }
  pthread_mutex_unlock(&d->lock);
  return NULL;
}

/* Blocks until everything up to rv is on disk; false if the transaction
 * holding rv failed (it is retried, but this write is not acknowledged). */
static bool wait_durable(durable_store *d, uint64_t rv) {
  pthread_mutex_lock(&d->lock);
  while (d->committed_rv < rv && !(d->failing && d->failed_rv >= rv)) pthread_cond_wait(&d->committed, &d->lock);
  bool ok = d->committed_rv >= rv;
  pthread_mutex_unlock(&d->lock);
  return ok;
}

static bool store_failing(durable_store *d) {
  pthread_mutex_lock(&d->lock);
  bool failing = d->failing;
  pthread_mutex_unlock(&d->lock);
  return failing;
}

/* Starts a write: takes the optional write lock around the in-memory part. */
static durable_store *begin_write(store *s) {
  durable_store *d = from(s);
  if (d->write_lock) pthread_mutex_lock(d->write_lock);
  return d;
}

/* Ends the in-memory part of a write, waits until it is on disk, then hands
 * out (or drops) the version it produced. A refusal (NotFound, Conflict,
 * AlreadyExists) may rest on changes not yet on disk: it is answered once
 * they are, so a client is never told of one that a crash would undo. */
static store_status end_write(durable_store *d, store_status st, store_obj *o, store_obj **out) {
  if (d->write_lock) pthread_mutex_unlock(d->write_lock);
  if (st != STORE_OK && !no_wait) wait_durable(d, store_revision(d->mem));
  if (st == STORE_OK && !no_wait) {
    uint64_t rv = o ? o->rv : store_revision(d->mem);
    if (!wait_durable(d, rv)) {
      store_obj_unref(o);
      return STORE_UNAVAILABLE; /* obj is the memory store's: applied, not acknowledged */
    }
  }
  if (out) *out = o;
  else store_obj_unref(o);
  return st;
}

/* A client write while the disk cannot be written is refused, not applied.
 * The control loop's writes go on: they are written once the disk is back. */
static bool refuse_write(durable_store *d) { return !no_wait && store_failing(d); }

static store_status d_create(store *s, api_object *obj, store_obj **out) {
  if (refuse_write(from(s))) {
    api_object_free(obj);
    return STORE_UNAVAILABLE;
  }
  durable_store *d = begin_write(s);
  store_obj *o = NULL;
  store_status st = store_create(d->mem, obj, &o);
  return end_write(d, st, o, out);
}

static store_status d_update(store *s, api_object *obj, store_obj **out) {
  if (refuse_write(from(s))) {
    api_object_free(obj);
    return STORE_UNAVAILABLE;
  }
  durable_store *d = begin_write(s);
  store_obj *o = NULL;
  store_status st = store_update(d->mem, obj, &o);
  return end_write(d, st, o, out);
}

static store_status d_remove(store *s, api_kind kind, const char *namespace_, const char *name,
                             const store_preconditions *pre, store_obj **out) {
  if (refuse_write(from(s))) return STORE_UNAVAILABLE;
  durable_store *d = begin_write(s);
  store_obj *o = NULL;
  store_status st = store_delete(d->mem, kind, namespace_, name, pre, &o);
  return end_write(d, st, o, out);
}

static store_status d_get(store *s, api_kind kind, const char *namespace_, const char *name, store_obj **out) {
  return store_get(from(s)->mem, kind, namespace_, name, out);
}

static store_status d_list(store *s, const store_query *q, store_list *out) {
  return store_list_query(from(s)->mem, q, out);
}

static store_status d_watch(store *s, uint64_t since_rv, store_watch_fn fn, void *user, uint64_t *id) {
  return store_watch(from(s)->mem, since_rv, fn, user, id);
}

static void d_unwatch(store *s, uint64_t id) { store_unwatch(from(s)->mem, id); }
static uint64_t d_revision(store *s) { return store_revision(from(s)->mem); }
static store *d_committed(store *s) { return store_committed(from(s)->mem); }

static void close_db(durable_store *d) {
  sqlite3_finalize(d->upsert);
  sqlite3_finalize(d->remove);
  sqlite3_finalize(d->revision);
  sqlite3_finalize(d->count_delete);
  sqlite3_close(d->db);
  if (d->lock_fd >= 0) close(d->lock_fd); /* after SQLite's own descriptors: closing one drops its fcntl locks */
}

/* Frees what store_sqlite_open set up before the writer thread started. */
static void free_unstarted(durable_store *d) {
  close_db(d);
  store_close(d->mem);
  wq_destroy(&d->rows, unref_row);
  pthread_mutex_destroy(&d->lock);
  pthread_cond_destroy(&d->committed);
  free(d);
}

static void d_close(store *s) {
  durable_store *d = from(s);
  if (d->watch_id) store_unwatch(d->mem, d->watch_id);
  wq_close(&d->rows);
  pthread_join(d->writer, NULL);
  pthread_mutex_lock(&d->lock);
  d->closing = true;
  pthread_cond_broadcast(&d->committed);
  pthread_mutex_unlock(&d->lock);
  pthread_join(d->publisher, NULL);
  free_unstarted(d);
}

/* store_set_write_lock: every in-memory mutation runs under lock; the wait
 * for the disk is outside it. */
static void d_set_write_lock(store *s, pthread_mutex_t *lock) { from(s)->write_lock = lock; }

void store_sqlite_group_begin(void) { no_wait = true; }

bool store_sqlite_group_end(store *s) {
  no_wait = false;
  durable_store *d = from(s);
  return wait_durable(d, store_revision(d->mem));
}

/* store_last_error: SQLite's words for the last failed transaction. */
static void d_last_error(store *s, char *buf, size_t len) {
  durable_store *d = from(s);
  pthread_mutex_lock(&d->lock);
  snprintf(buf, len, "the store cannot write to disk: %s", d->error[0] ? d->error : "unknown error");
  pthread_mutex_unlock(&d->lock);
}

static const store_backend sqlite_backend = {
    "sqlite", d_create, d_get,   d_update,  d_remove,         d_list,       d_watch,
    d_unwatch, d_revision, d_close, d_committed, d_set_write_lock, d_last_error,
};

bool store_is_sqlite(store *s) { return s->backend == &sqlite_backend; }

/* A stored object from its JSON: straight from the text (the clean case,
 * which every row the writer wrote is), else through the tree. The values
 * it keeps as JSON (unknown and raw fields) are looked up in memo by their
 * text first: the rows of pods made from one template repeat most of them.
 * A row_decode_fn (row_decoder.h): on the restore's decoder threads. */
static void take_row_object(void *user, api_object *o) { *(api_object **)user = o; }

static api_object *decode_row(const char *key, const char *text, size_t len, tree_memo *memo, char *why,
                              size_t why_len) {
  (void)key, (void)why, (void)why_len; /* the caller names the row by its resourceVersion */
  tk_source *src = json_tokens_open(text, len);
  tk t;
  int line;
  api_object *obj = NULL;
  if (src) src->memo = memo;
  if (src && src->next_doc(src, &t, &line) && !api_objects_decode_tokens(src, false, 0, take_row_object, &obj)) {
    api_object_free(obj);
    obj = NULL;
  }
  if (src) src->close(src);
  if (obj) return obj;
  json_error_t jerr;
  json_t *j = json_loadb(text, len, 0, &jerr);
  errlist errs = {0};
  obj = j ? api_object_decode(j, NULL, 0, &errs) : NULL;
  json_decref(j);
  if (errs.n) {
    api_object_free(obj);
    obj = NULL;
  }
  errlist_free(&errs);
  return obj;
}

/* A row whose kind column is not its object's kind: written before a kind
 * number changed (the events.k8s.io Event, once a kind of its own, is the
 * core Event since; the kinds after it moved down by one). */
typedef struct renumbered_row {
  sqlite3_int64 rowid;
  int kind;
} renumbered_row;

/* Gives the rows their kind's current number. Of two rows that then have
 * one key (an Event of each group, once two kinds) the later
 * resourceVersion stays, as it does in memory after the restore. */
static bool renumber_rows(durable_store *d, const renumbered_row *rows, size_t n, strbuf *err) {
  static const char *const steps[] = {
      ("DELETE FROM objects WHERE rowid IN (SELECT o.rowid FROM objects o, objects r WHERE r.rowid=?2 AND o.kind=?1"
       " AND o.namespace=r.namespace AND o.name=r.name AND o.rv < r.rv)"),
      "UPDATE OR IGNORE objects SET kind=?1 WHERE rowid=?2",
      "DELETE FROM objects WHERE rowid=?2 AND kind<>?1"};
  bool ok = true;
  for (size_t s = 0; ok && n && s < sizeof steps / sizeof *steps; s++) {
    sqlite3_stmt *st = NULL;
    ok = sqlite3_prepare_v2(d->db, steps[s], -1, &st, NULL) == SQLITE_OK;
    for (size_t i = 0; ok && i < n; i++) {
      sqlite3_bind_int(st, 1, rows[i].kind);
      sqlite3_bind_int64(st, 2, rows[i].rowid);
      ok = step_done(st);
    }
    sqlite3_finalize(st);
  }
  if (!ok) sb_printf(err, "renumbering the store's kinds: %s", sqlite3_errmsg(d->db));
  return ok;
}

/* The restore's state while the rows are taken (take_row). */
typedef struct restoring {
  durable_store *d;
  renumbered_row *renumber;
  size_t n_renumber, cap_renumber;
  strbuf *err;
} restoring;

/* Tags of a row as pushed to the row decoder. */
enum { TAG_RV, TAG_CREATED_RV, TAG_KIND, TAG_ROWID };

static bool take_row(void *user, decoded_row *row) {
  restoring *r = user;
  if (!row->obj) {
    sb_printf(r->err, "the store holds an object dra cannot read back (rv %lld)", (long long)row->tags[TAG_RV]);
    return false;
  }
  if ((int)row->tags[TAG_KIND] != (int)row->obj->info->kind) {
    r->renumber = xgrow(r->renumber, r->n_renumber, &r->cap_renumber, sizeof *r->renumber, 8);
    r->renumber[r->n_renumber++] = (renumbered_row){(sqlite3_int64)row->tags[TAG_ROWID], (int)row->obj->info->kind};
  }
  store_memory_restore(r->d->mem, row->obj, row->tags[TAG_RV], row->tags[TAG_CREATED_RV]);
  return true;
}

/* Loads every stored object into the memory store with its resourceVersion.
 * The table is read in its own order: store_memory_restore keeps the later
 * resourceVersion of a key whichever comes first, and ORDER BY rv made
 * SQLite sort the whole table, JSON and all, in a temporary B-tree (for
 * 20,000 pods and their Events, 190 MB: 5 s on a loaded machine). The rows
 * are decoded on the row decoder's threads while this one reads the next
 * and installs the decoded ones in the table's order. */
static bool restore(durable_store *d, strbuf *err) {
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(d->db, "SELECT json, rv, created_rv, kind, rowid FROM objects", -1, &st, NULL) != SQLITE_OK) {
    sb_printf(err, "reading the store: %s", sqlite3_errmsg(d->db));
    return false;
  }
  restoring r = {.d = d, .err = err};
  row_decoder *rd = row_decoder_new(row_decoder_threads(), decode_row, take_row, &r);
  bool ok = true;
  while (ok && sqlite3_step(st) == SQLITE_ROW) {
    const uint64_t tags[4] = {[TAG_RV] = (uint64_t)sqlite3_column_int64(st, 1),
                              [TAG_CREATED_RV] = (uint64_t)sqlite3_column_int64(st, 2),
                              [TAG_KIND] = (uint64_t)sqlite3_column_int(st, 3),
                              [TAG_ROWID] = (uint64_t)sqlite3_column_int64(st, 4)};
    const char *text = (const char *)sqlite3_column_text(st, 0);
    ok = row_decoder_push(rd, NULL, text, (size_t)sqlite3_column_bytes(st, 0), tags);
  }
  ok = row_decoder_finish(rd) && ok;
  sqlite3_finalize(st);
  ok = ok && renumber_rows(d, r.renumber, r.n_renumber, err);
  free(r.renumber);
  if (ok && sqlite3_prepare_v2(d->db, "SELECT kind, namespace, name, n FROM deletes", -1, &st, NULL) == SQLITE_OK) {
    while (sqlite3_step(st) == SQLITE_ROW) {
      int kind = sqlite3_column_int(st, 0);
      if (kind < 0 || kind >= KIND_COUNT) continue;
      store_memory_set_deletes(d->mem, (api_kind)kind, (const char *)sqlite3_column_text(st, 1),
                               (const char *)sqlite3_column_text(st, 2), (unsigned)sqlite3_column_int64(st, 3));
    }
    sqlite3_finalize(st);
  }
  if (ok && sqlite3_prepare_v2(d->db, "SELECT rv FROM revision WHERE id=0", -1, &st, NULL) == SQLITE_OK) {
    if (sqlite3_step(st) == SQLITE_ROW) {
      uint64_t rv = (uint64_t)sqlite3_column_int64(st, 0);
      store_memory_set_revision(d->mem, rv);
      d->committed_rv = rv;
      d->published_rv = rv;
    }
    sqlite3_finalize(st);
  }
  return ok;
}

/* An exclusive flock on the store file, held until close: a second dra
 * serve, or a migration, on the same data dir is refused. flock, not
 * fcntl: SQLite's fcntl locks would be dropped when this descriptor closes
 * (POSIX), flock's are not; it is closed after SQLite's anyway. */
static bool lock_file(durable_store *d, const char *path, strbuf *err) {
  d->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (d->lock_fd < 0) {
    sb_printf(err, "cannot open the store %s: %s", path, strerror(errno));
    return false;
  }
  if (flock(d->lock_fd, LOCK_EX | LOCK_NB) == 0) return true;
  if (errno == EWOULDBLOCK) sb_printf(err, "the store %s is in use by another process (a dra serve on this data dir?)", path);
  else sb_printf(err, "cannot lock the store %s: %s", path, strerror(errno));
  return false;
}

static store *open_store(const char *path, const store_options *opts, bool emptied, strbuf *err) {
  durable_store *d = xcalloc(1, sizeof *d);
  d->lock_fd = -1;
  d->base.backend = &sqlite_backend;
  d->mem = store_memory_open(opts);
  store_memory_defer_commits(d->mem, &d->base);
  wq_init(&d->rows, sizeof(pending_row));
  pthread_mutex_init(&d->lock, NULL);
  pthread_cond_init(&d->committed, NULL);
  if (!lock_file(d, path, err)) {
    free_unstarted(d);
    return NULL;
  }
  char *msg = NULL;
  if (sqlite3_open(path, &d->db) != SQLITE_OK || sqlite3_exec(d->db, schema_sql, NULL, NULL, &msg) != SQLITE_OK ||
      sqlite3_prepare_v2(d->db, upsert_sql, -1, &d->upsert, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2(d->db, remove_sql, -1, &d->remove, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2(d->db, revision_sql, -1, &d->revision, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2(d->db, count_delete_sql, -1, &d->count_delete, NULL) != SQLITE_OK) {
    sb_printf(err, "cannot open the store %s: %s", path, msg ? msg : sqlite3_errmsg(d->db));
    sqlite3_free(msg);
    free_unstarted(d);
    return NULL;
  }
  sqlite3_busy_timeout(d->db, 5000);
  /* the revision and delete counts stay: resourceVersions and uids are never handed out twice */
  if (emptied && sqlite3_exec(d->db, "DELETE FROM objects", NULL, NULL, &msg) != SQLITE_OK) {
    sb_printf(err, "cannot empty the store %s: %s", path, msg ? msg : sqlite3_errmsg(d->db));
    sqlite3_free(msg);
    free_unstarted(d);
    return NULL;
  }
  if (!restore(d, err)) {
    free_unstarted(d);
    return NULL;
  }
  store_watch(d->mem, 0, on_change, d, &d->watch_id);
  pthread_create(&d->writer, NULL, writer_main, d);
  pthread_create(&d->publisher, NULL, publisher_main, d);
  return &d->base;
}

store *store_sqlite_open(const char *path, const store_options *opts, strbuf *err) {
  return open_store(path, opts, false, err);
}

store *store_sqlite_open_emptied(const char *path, const store_options *opts, strbuf *err) {
  return open_store(path, opts, true, err);
}
