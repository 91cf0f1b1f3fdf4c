/* test_store_sqlite.c: the durable store across restarts: an object deleted
 * and created again gets a new uid even when the store was closed and
 * reopened in between (the delete counts are kept in the file), for a
 * namespaced and a cluster-scoped kind, and for a deletion that waited for
 * its finalizers. */
#include "test_store.h"
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
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
