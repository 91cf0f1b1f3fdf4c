/* test_store_sqlite.c: the durable store across restarts: an object deleted
 * and created again gets a new uid even when the store was closed and
 * reopened in between (the delete counts are kept in the file), for a
 * namespaced and a cluster-scoped kind, and for a deletion that waited for
 * its finalizers. The file is locked while open: a second open fails
 * until the first closes. store_migrate (migrate.h) into and out of a
 * SQLite store keeps everything but resourceVersion, and creation order;
 * it refuses a destination with objects; an emptied open drops the
 * objects but not the revision counter. */
#include "test_store.h"
#include "store/migrate.h"
#include "store/sqlite.h"
#include <unistd.h>

static char dir[] = "/tmp/dra-store-XXXXXX";
static char path[64];

static store *reopen(store *s) {
  if (s) store_close(s);
  strbuf err = STRBUF_INIT;
  store *d = store_sqlite_open(path, NULL, &err);
  if (!d) fail_msg("store_sqlite_open: %s", sb_str(&err));
  sb_free(&err);
  return d;
}

/* Creates text's object; its uid into uid (37 bytes). */
static void create(store *s, const char *text, char *uid) {
  store_obj *o = NULL;
  assert_int_equal(store_create(s, test_obj(text), &o), STORE_OK);
  snprintf(uid, 37, "%s", store_obj_meta(o)->uid);
  store_obj_unref(o);
}

static void uids_differ_after_delete_and_restart(void **state) {
  (void)state;
  char uids[4][37], cls[3][37];
  store *s = reopen(NULL);
  create(s, CLAIM("default", "c1"), uids[0]);
  create(s, CLASS("gpu", "true"), cls[0]);
  assert_int_equal(store_delete(s, KIND_RESOURCE_CLAIM, "default", "c1", NULL, NULL), STORE_OK);
  assert_int_equal(store_delete(s, KIND_DEVICE_CLASS, NULL, "gpu", NULL, NULL), STORE_OK);
  s = reopen(s);
  create(s, CLAIM("default", "c1"), uids[1]);
  create(s, CLASS("gpu", "true"), cls[1]);
  assert_string_not_equal(uids[1], uids[0]);
  assert_string_not_equal(cls[1], cls[0]);
  /* the same as a store that was never restarted gives */
  char want[37];
  store_object_uid(api_kind_info_of(KIND_RESOURCE_CLAIM), "default", "c1", 1, want);
  assert_string_equal(uids[1], want);
  assert_int_equal(store_delete(s, KIND_RESOURCE_CLAIM, "default", "c1", NULL, NULL), STORE_OK);
  assert_int_equal(store_delete(s, KIND_DEVICE_CLASS, NULL, "gpu", NULL, NULL), STORE_OK);
  s = reopen(s);
  create(s, CLAIM("default", "c1"), uids[2]);
  create(s, CLASS("gpu", "true"), cls[2]);
  assert_string_not_equal(uids[2], uids[0]);
  assert_string_not_equal(uids[2], uids[1]);
  assert_string_not_equal(cls[2], cls[0]);
  assert_string_not_equal(cls[2], cls[1]);
  /* deleted once its finalizer goes */
  assert_int_equal(store_delete(s, KIND_RESOURCE_CLAIM, "default", "c1", NULL, NULL), STORE_OK);
  create(s, CLAIM_FINALIZED("default", "c2", "[\"f\"]"), uids[3]);
  assert_int_equal(store_delete(s, KIND_RESOURCE_CLAIM, "default", "c2", NULL, NULL), STORE_OK);
  assert_int_equal(store_update(s, test_obj(CLAIM("default", "c2")), NULL), STORE_OK);
  s = reopen(s);
  char again[37];
  create(s, CLAIM("default", "c2"), again);
  assert_string_not_equal(again, uids[3]);
  create(s, CLAIM("default", "c1"), again);
  for (int i = 0; i < 3; i++) assert_string_not_equal(again, uids[i]);
  store_close(s);
}

static void second_open_fails_while_locked(void **state) {
  (void)state;
  store *s = reopen(NULL);
  strbuf err = STRBUF_INIT;
  assert_null(store_sqlite_open(path, NULL, &err));
  assert_non_null(strstr(sb_str(&err), "in use by another process"));
  sb_free(&err);
  s = reopen(s); /* closed, then opened again: the lock went with the close */
  store_close(s);
}

/* The object's uid, creationTimestamp and resourceVersion (37, 21, 21 bytes). */
static void facts(store *s, api_kind kind, const char *ns, const char *name, char *uid, char *created, char *rv) {
  store_obj *o = NULL;
  assert_int_equal(store_get(s, kind, ns, name, &o), STORE_OK);
  snprintf(uid, 37, "%s", store_obj_meta(o)->uid);
  snprintf(created, 21, "%s", store_obj_meta(o)->creation_timestamp);
  snprintf(rv, 21, "%s", store_obj_meta(o)->resource_version);
  store_obj_unref(o);
}

static void migrate_keeps_all_but_resource_version(void **state) {
  (void)state;
  store *mem = store_memory_open(NULL);
  char uid[37];
  create(mem, CLASS("gpu", "true"), uid);
  create(mem, CLAIM("default", "c1"), uid);
  assert_int_equal(store_delete(mem, KIND_RESOURCE_CLAIM, "default", "c1", NULL, NULL), STORE_OK);
  create(mem, CLAIM("default", "c1"), uid); /* its second life: uid #1, created last */
  create(mem, CLAIM("default", "c0"), uid);
  snprintf(path, sizeof path, "%s/migrated.db", dir); /* a file of its own */
  store *s = reopen(NULL);
  store_migration m;
  strbuf err = STRBUF_INIT;
  assert_true(store_migrate(mem, s, &m, &err));
  assert_int_equal(m.objects, 3);
  assert_int_equal(m.source_rv, 5);
  assert_int_equal(m.first_rv, 1);
  assert_int_equal(m.last_rv, 3);
  s = reopen(s);
  char u1[37], c1[21], r1[21], u2[37], c2[21], r2[21];
  facts(mem, KIND_RESOURCE_CLAIM, "default", "c1", u1, c1, r1);
  facts(s, KIND_RESOURCE_CLAIM, "default", "c1", u2, c2, r2);
  assert_string_equal(u1, u2);
  assert_string_equal(c1, c2);
  assert_string_equal(r1, "4");
  assert_string_equal(r2, "2"); /* created before c0, after the class */
  /* lists in creation order are the source's */
  store_list l = {0};
  store_query q = {.kind = KIND_RESOURCE_CLAIM, .order = STORE_BY_CREATION};
  assert_int_equal(store_list_query(s, &q, &l), STORE_OK);
  assert_int_equal(l.n, 2);
  assert_string_equal(store_obj_meta(l.items[0])->name, "c1");
  store_list_free(&l);
  /* a destination with objects is refused; back into memory works */
  assert_false(store_migrate(mem, s, &m, &err));
  assert_non_null(strstr(sb_str(&err), "already holds objects"));
  store *back = store_memory_open(NULL);
  assert_true(store_migrate(s, back, &m, &err));
  facts(back, KIND_RESOURCE_CLAIM, "default", "c1", u1, c1, r1);
  assert_string_equal(u1, u2);
  store_close(back);
  store_close(s);
  /* emptied: no object, the revision counter stays */
  strbuf open_err = STRBUF_INIT;
  s = store_sqlite_open_emptied(path, NULL, &open_err);
  assert_non_null(s);
  assert_true(store_is_empty(s));
  assert_int_equal(store_revision(s), 3);
  store_close(s);
  sb_free(&open_err);
  sb_free(&err);
  store_close(mem);
}

static int setup(void **state) {
  (void)state;
  if (!mkdtemp(dir)) return -1;
  snprintf(path, sizeof path, "%s/dra.db", dir);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  return system(cmd) == 0 ? 0 : -1;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(uids_differ_after_delete_and_restart),
      cmocka_unit_test(second_open_fails_while_locked),
      cmocka_unit_test(migrate_keeps_all_but_resource_version),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
