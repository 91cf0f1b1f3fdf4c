/* test_store_committed.c: commit before visible (docs/store.md). On a
 * memory store whose commits are deferred (as the SQLite backend runs it)
 * the committed view's get, list and watch show a change only once
 * store_memory_commit covers it, while the store itself (the control
 * loop's view) shows it at once: versions between two commits, deletes,
 * index lists, creation order, a watch from a resourceVersion not yet
 * committed, watchers that follow the publisher (not the commit), and
 * uncommitted events kept beyond the history size. Then the
 * SQLite backend with its writer held up by a lock on the file: a write of
 * the loop (no wait) and of a client stay invisible until the transaction
 * commits. */
#include "test_store.h"
#include "store/memory_commit.h"
#include "store/sqlite.h"
#include <pthread.h>
#include <sqlite3.h>
#include <time.h>
#include <unistd.h>

#define POD(ns, name, node)                                                                                  \
  "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" name "\",\"namespace\":\"" ns "\"}," \
  "\"spec\":{\"nodeName\":\"" node "\"}}"

static store *deferred_store(size_t history) {
  store *s = test_store_open(history);
  store_memory_defer_commits(s, NULL);
  return s;
}

/* What the SQLite writer and its publisher do once a transaction is on disk. */
static void commit(store *s, uint64_t rv) {
  store_memory_commit(s, rv);
  store_memory_publish(s, rv);
}

/* The resourceVersion s shows for the claim, 0 when it shows none. */
static uint64_t claim_rv(store *s, const char *name) {
  store_obj *o = NULL;
  if (store_get(s, KIND_RESOURCE_CLAIM, "default", name, &o) != STORE_OK) return 0;
  uint64_t rv = o->rv;
  store_obj_unref(o);
  return rv;
}

/* "name@rv,..." of a list, and its list rv in *rv. */
static void list_text(store *s, const store_query *q, char *out, size_t len, uint64_t *rv) {
  store_list l = {0};
  assert_int_equal(store_list_query(s, q, &l), STORE_OK);
  out[0] = 0;
  for (size_t i = 0; i < l.n; i++)
    snprintf(out + strlen(out), len - strlen(out), "%s%s@%llu", i ? "," : "", store_obj_meta(l.items[i])->name,
             (unsigned long long)l.items[i]->rv);
  if (rv) *rv = l.rv;
  store_list_free(&l);
}

static void a_plain_memory_store_commits_at_once(void **state) {
  (void)state;
  store *s = test_store_open(16);
  assert_ptr_equal(store_committed(s), s);
  assert_int_equal(store_create(s, test_obj(CLAIM("default", "c1")), NULL), STORE_OK);
  assert_int_equal(claim_rv(store_committed(s), "c1"), 1);
  store_close(s);
}

static void get_shows_the_committed_version(void **state) {
  (void)state;
  store *s = deferred_store(16);
  store *view = store_committed(s);
  assert_ptr_not_equal(view, s);
  assert_int_equal(store_create(s, test_obj(CLAIM("default", "c1")), NULL), STORE_OK);
  assert_int_equal(claim_rv(s, "c1"), 1);
  assert_int_equal(claim_rv(view, "c1"), 0);
  assert_int_equal(store_revision(s), 1);
  assert_int_equal(store_revision(view), 0);
  commit(s, 1);
  assert_int_equal(claim_rv(view, "c1"), 1);
  assert_int_equal(store_revision(view), 1);
  /* two versions after the commit; the commit of the first shows the first */
  assert_int_equal(store_update(s, test_obj(CLAIM_FINALIZED("default", "c1", "[\"f\"]")), NULL), STORE_OK);
  assert_int_equal(store_update(s, test_obj(CLAIM("default", "c1")), NULL), STORE_OK);
  assert_int_equal(claim_rv(s, "c1"), 3);
  assert_int_equal(claim_rv(view, "c1"), 1);
  commit(s, 2);
  assert_int_equal(claim_rv(view, "c1"), 2);
  commit(s, 3);
  assert_int_equal(claim_rv(view, "c1"), 3);
  /* a delete: gone for the loop, still there for clients until committed */
  assert_int_equal(store_delete(s, KIND_RESOURCE_CLAIM, "default", "c1", NULL, NULL), STORE_OK);
  assert_int_equal(claim_rv(s, "c1"), 0);
  assert_int_equal(claim_rv(view, "c1"), 3);
  /* created again: the committed view still has the old object */
  assert_int_equal(store_create(s, test_obj(CLAIM("default", "c1")), NULL), STORE_OK);
  assert_int_equal(claim_rv(view, "c1"), 3);
  commit(s, 4);
  assert_int_equal(claim_rv(view, "c1"), 0);
  commit(s, 5);
  assert_int_equal(claim_rv(view, "c1"), 5);
  /* a commit never goes back */
  commit(s, 2);
  assert_int_equal(store_revision(view), 5);
  assert_int_equal(claim_rv(view, "c1"), 5);
  store_close(s);
}

static void lists_are_at_the_committed_revision(void **state) {
  (void)state;
  store *s = deferred_store(16);
  store *view = store_committed(s);
  char text[256];
  uint64_t rv;
  assert_int_equal(store_create(s, test_obj(POD("default", "p1", "")), NULL), STORE_OK);
  assert_int_equal(store_create(s, test_obj(POD("default", "p2", "n1")), NULL), STORE_OK);
  assert_int_equal(store_create(s, test_obj(POD("default", "p3", "n1")), NULL), STORE_OK);
  commit(s, 3);
  /* p1 bound to n1, p2 deleted, p3 deleted and created again, p0 new */
  assert_int_equal(store_update(s, test_obj(POD("default", "p1", "n1")), NULL), STORE_OK);
  assert_int_equal(store_delete(s, KIND_POD, "default", "p2", NULL, NULL), STORE_OK);
  assert_int_equal(store_delete(s, KIND_POD, "default", "p3", NULL, NULL), STORE_OK);
  assert_int_equal(store_create(s, test_obj(POD("default", "p3", "n1")), NULL), STORE_OK);
  assert_int_equal(store_create(s, test_obj(POD("default", "p0", "n1")), NULL), STORE_OK);

  store_query by_name = {.kind = KIND_POD, .order = STORE_BY_NAME};
  list_text(s, &by_name, text, sizeof text, &rv);
  assert_string_equal(text, "p0@8,p1@4,p3@7");
  assert_int_equal(rv, 8);
  list_text(view, &by_name, text, sizeof text, &rv);
  assert_string_equal(text, "p1@1,p2@2,p3@3");
  assert_int_equal(rv, 3);
  store_query by_creation = {.kind = KIND_POD, .order = STORE_BY_CREATION};
  list_text(view, &by_creation, text, sizeof text, NULL);
  assert_string_equal(text, "p1@1,p2@2,p3@3");
  store_query on_n1 = {.kind = KIND_POD, .index = STORE_INDEX_POD_NODE, .key = "n1", .order = STORE_BY_NAME};
  list_text(s, &on_n1, text, sizeof text, NULL);
  assert_string_equal(text, "p0@8,p1@4,p3@7");
  list_text(view, &on_n1, text, sizeof text, NULL);
  assert_string_equal(text, "p2@2,p3@3");
  store_query other_ns = {.kind = KIND_POD, .namespace_ = "other", .order = STORE_BY_NAME};
  list_text(view, &other_ns, text, sizeof text, NULL);
  assert_string_equal(text, "");

  commit(s, 5); /* p1 bound, p2 gone */
  list_text(view, &by_name, text, sizeof text, &rv);
  assert_string_equal(text, "p1@4,p3@3");
  assert_int_equal(rv, 5);
  list_text(view, &on_n1, text, sizeof text, NULL);
  assert_string_equal(text, "p1@4,p3@3");
  commit(s, 8);
  list_text(view, &by_creation, text, sizeof text, NULL);
  assert_string_equal(text, "p1@4,p3@7,p0@8");
  list_text(view, &on_n1, text, sizeof text, NULL);
  assert_string_equal(text, "p0@8,p1@4,p3@7");
  store_close(s);
}

typedef struct recorder {
  char text[512];
} recorder;

static void record(void *user, const store_event *ev) {
  recorder *r = user;
  const char *type = ev->type == STORE_ADDED ? "ADDED" : ev->type == STORE_MODIFIED ? "MODIFIED" : "DELETED";
  snprintf(r->text + strlen(r->text), sizeof r->text - strlen(r->text), "%s%s %s@%llu", r->text[0] ? "," : "", type,
           store_obj_meta(ev->obj)->name, (unsigned long long)ev->rv);
}

static void watches_get_events_once_committed(void **state) {
  (void)state;
  store *s = deferred_store(16);
  store *view = store_committed(s);
  recorder live = {0}, client = {0}, future = {0}, resumed = {0};
  uint64_t id_live, id_client, id_future, id_resumed;
  assert_int_equal(store_watch(s, 0, record, &live, &id_live), STORE_OK);
  assert_int_equal(store_watch(view, 0, record, &client, &id_client), STORE_OK);
  assert_int_equal(store_create(s, test_obj(CLAIM("default", "c1")), NULL), STORE_OK);
  assert_int_equal(store_update(s, test_obj(CLAIM_FINALIZED("default", "c1", "[\"f\"]")), NULL), STORE_OK);
  assert_int_equal(store_create(s, test_obj(CLAIM("default", "c2")), NULL), STORE_OK);
  assert_string_equal(live.text, "ADDED c1@1,MODIFIED c1@2,ADDED c2@3");
  assert_string_equal(client.text, "");
  /* from a resourceVersion not committed yet: waits for it, then follows */
  assert_int_equal(store_watch(view, 2, record, &future, &id_future), STORE_OK);
  commit(s, 2);
  assert_string_equal(client.text, "ADDED c1@1,MODIFIED c1@2");
  assert_string_equal(future.text, "");
  /* resuming replays what is committed, not more */
  assert_int_equal(store_watch(view, 1, record, &resumed, &id_resumed), STORE_OK);
  assert_string_equal(resumed.text, "MODIFIED c1@2");
  assert_int_equal(store_delete(s, KIND_RESOURCE_CLAIM, "default", "c2", NULL, NULL), STORE_OK);
  commit(s, 4);
  assert_string_equal(client.text, "ADDED c1@1,MODIFIED c1@2,ADDED c2@3,DELETED c2@4");
  assert_string_equal(future.text, "ADDED c2@3,DELETED c2@4");
  assert_string_equal(resumed.text, "MODIFIED c1@2,ADDED c2@3,DELETED c2@4");
  store_unwatch(view, id_client);
  assert_int_equal(store_create(s, test_obj(CLAIM("default", "c3")), NULL), STORE_OK);
  commit(s, 5);
  assert_string_equal(client.text, "ADDED c1@1,MODIFIED c1@2,ADDED c2@3,DELETED c2@4");
  assert_string_equal(resumed.text, "MODIFIED c1@2,ADDED c2@3,DELETED c2@4,ADDED c3@5");
  store_close(s);
}

/* Reads show a commit at once; watchers get it when it is published, and
 * the view's revision (what bookmarks say) follows them. */
static void watchers_follow_the_publisher(void **state) {
  (void)state;
  store *s = deferred_store(16);
  store *view = store_committed(s);
  recorder client = {0}, late = {0};
  uint64_t id;
  assert_int_equal(store_watch(view, 0, record, &client, &id), STORE_OK);
  assert_int_equal(store_create(s, test_obj(CLAIM("default", "c1")), NULL), STORE_OK);
  assert_int_equal(store_create(s, test_obj(CLAIM("default", "c2")), NULL), STORE_OK);
  store_memory_commit(s, 2);
  assert_int_equal(claim_rv(view, "c2"), 2);
  store_query q = {.kind = KIND_RESOURCE_CLAIM, .order = STORE_BY_NAME};
  char text[64];
  uint64_t rv;
  list_text(view, &q, text, sizeof text, &rv);
  assert_int_equal(rv, 2);
  assert_string_equal(client.text, "");
  assert_int_equal(store_revision(view), 0);
  /* a watch from the list's resourceVersion misses nothing and repeats nothing */
  assert_int_equal(store_watch(view, rv, record, &late, NULL), STORE_OK);
  store_memory_publish(s, 1);
  assert_string_equal(client.text, "ADDED c1@1");
  assert_int_equal(store_revision(view), 1);
  store_memory_publish(s, 9); /* no further than committed */
  assert_string_equal(client.text, "ADDED c1@1,ADDED c2@2");
  assert_int_equal(store_revision(view), 2);
  assert_int_equal(store_create(s, test_obj(CLAIM("default", "c3")), NULL), STORE_OK);
  commit(s, 3);
  assert_string_equal(late.text, "ADDED c3@3");
  store_close(s);
}

/* The history keeps every uncommitted event, however many: a committed
 * watcher gets them all; once committed, the usual limit applies again. */
static void uncommitted_events_outlive_the_history_limit(void **state) {
  (void)state;
  store *s = deferred_store(4);
  store *view = store_committed(s);
  recorder client = {0}, late = {0};
  uint64_t id;
  assert_int_equal(store_watch(view, 0, record, &client, &id), STORE_OK);
  char name[16];
  for (int i = 1; i <= 10; i++) {
    snprintf(name, sizeof name, "c%d", i);
    api_object *o = test_obj(CLAIM("default", "x"));
    api_object_meta(o)->name = arena_strdup(o->arena, name);
    assert_int_equal(store_create(s, o, NULL), STORE_OK);
  }
  assert_int_equal(store_watch(view, 0, record, &late, NULL), STORE_OK);
  assert_int_equal(store_watch(view, 1, record, &late, NULL), STORE_OK); /* nothing committed: nothing to resume */
  commit(s, 10);
  assert_string_equal(client.text, "ADDED c1@1,ADDED c2@2,ADDED c3@3,ADDED c4@4,ADDED c5@5,ADDED c6@6,ADDED c7@7,"
                                    "ADDED c8@8,ADDED c9@9,ADDED c10@10");
  assert_int_equal(store_create(s, test_obj(CLAIM("default", "c11")), NULL), STORE_OK);
  commit(s, 11);
  assert_int_equal(store_watch(view, 1, record, &late, NULL), STORE_GONE);
  assert_int_equal(store_watch(view, 7, record, &late, NULL), STORE_OK);
  store_close(s);
}

/* ---- the SQLite backend, its writer held up by a write lock on the file ---- */

typedef struct client_write {
  store *s;
  store_status st;
  atomic_bool done;
} client_write;

static void *client_create(void *arg) {
  client_write *w = arg;
  w->st = store_create(w->s, test_obj(CLAIM("default", "client")), NULL);
  atomic_store(&w->done, true);
  return NULL;
}

typedef struct event_count {
  atomic_int events;
} event_count;

static void count(void *user, const store_event *ev) {
  (void)ev;
  atomic_fetch_add(&((event_count *)user)->events, 1);
}

static void sleep_ms(long ms) { nanosleep(&(struct timespec){ms / 1000, (ms % 1000) * 1000000}, NULL); }

/* Polls (up to 5 s) until the committed view shows the claim. */
static bool shows_within_5s(store *view, const char *name) {
  for (int i = 0; i < 500; i++) {
    if (claim_rv(view, name)) return true;
    sleep_ms(10);
  }
  return false;
}

static void sqlite_shows_a_write_once_it_is_on_disk(void **state) {
  (void)state;
  char dir[] = "/tmp/dra-committed-XXXXXX", path[64];
  assert_non_null(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/dra.db", dir);
  strbuf err = STRBUF_INIT;
  store *s = store_sqlite_open(path, NULL, &err);
  if (!s) fail_msg("store_sqlite_open: %s", sb_str(&err));
  sb_free(&err);
  store *view = store_committed(s);
  assert_int_equal(store_create(s, test_obj(CLAIM("default", "first")), NULL), STORE_OK); /* waits for the disk */
  assert_int_not_equal(claim_rv(view, "first"), 0);
  event_count seen = {0};
  uint64_t id;
  assert_int_equal(store_watch(view, claim_rv(view, "first"), count, &seen, &id), STORE_OK);

  /* another connection holds the write lock: the writer's BEGIN IMMEDIATE waits */
  sqlite3 *blocker = NULL;
  assert_int_equal(sqlite3_open(path, &blocker), SQLITE_OK);
  assert_int_equal(sqlite3_exec(blocker, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
  client_write client = {.s = s};
  pthread_t t;
  pthread_create(&t, NULL, client_create, &client);
  sleep_ms(50);
  store_sqlite_no_wait_on_this_thread(); /* as the control loop writes */
  assert_int_equal(store_create(s, test_obj(CLAIM("default", "loop")), NULL), STORE_OK);
  sleep_ms(200);
  assert_int_not_equal(claim_rv(s, "loop"), 0);    /* the loop sees its write */
  assert_int_not_equal(claim_rv(s, "client"), 0);  /* and the client's, applied in memory */
  assert_int_equal(claim_rv(view, "loop"), 0);     /* clients see neither */
  assert_int_equal(claim_rv(view, "client"), 0);
  assert_false(atomic_load(&client.done));         /* nor is the client answered */
  assert_int_equal(atomic_load(&seen.events), 0); /* nor do watches show them */
  store_query q = {.kind = KIND_RESOURCE_CLAIM, .order = STORE_BY_NAME};
  char text[256];
  uint64_t rv;
  list_text(view, &q, text, sizeof text, &rv);
  assert_string_equal(text, "first@1");
  assert_int_equal(rv, 1);

  assert_int_equal(sqlite3_exec(blocker, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);
  sqlite3_close(blocker);
  assert_true(shows_within_5s(view, "loop"));
  pthread_join(t, NULL);
  assert_int_equal(client.st, STORE_OK);
  assert_int_not_equal(claim_rv(view, "client"), 0); /* answered, so visible */
  for (int i = 0; i < 500 && atomic_load(&seen.events) < 2; i++) sleep_ms(10);
  assert_int_equal(atomic_load(&seen.events), 2);
  store_unwatch(view, id);
  store_close(s);
  for (const char *ext = ""; ext; ext = !*ext ? "-wal" : !strcmp(ext, "-wal") ? "-shm" : NULL) {
    char file[80];
    snprintf(file, sizeof file, "%s%s", path, ext);
    unlink(file);
  }
  assert_int_equal(rmdir(dir), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_plain_memory_store_commits_at_once),
      cmocka_unit_test(get_shows_the_committed_version),
      cmocka_unit_test(lists_are_at_the_committed_revision),
      cmocka_unit_test(watches_get_events_once_committed),
      cmocka_unit_test(watchers_follow_the_publisher),
      cmocka_unit_test(uncommitted_events_outlive_the_history_limit),
      cmocka_unit_test(sqlite_shows_a_write_once_it_is_on_disk),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
