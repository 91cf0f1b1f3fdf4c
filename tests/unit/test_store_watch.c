/* test_store_watch.c: the store's event stream: every change in order with
 * its resourceVersion, resuming from a resourceVersion, Expired when the
 * history no longer reaches back, unwatch, writes from inside a callback,
 * and monotonic versions under concurrent writers. */
#include "test_store.h"
#include <pthread.h>
#include <stdatomic.h>

typedef struct recorder {
  char text[1024];
  store *s;
  bool write_once; /* create a claim when the first event arrives */
} recorder;

static const char *type_word(store_event_type t) {
  return t == STORE_ADDED ? "ADDED" : t == STORE_MODIFIED ? "MODIFIED" : "DELETED";
}

static void record(void *user, const store_event *ev) {
  recorder *r = user;
  char line[128];
  snprintf(line, sizeof line, "%s%s %s %llu/%s", r->text[0] ? "," : "", type_word(ev->type),
           store_obj_meta(ev->obj)->name, (unsigned long long)ev->rv, store_obj_meta(ev->obj)->resource_version);
  strncat(r->text, line, sizeof r->text - strlen(r->text) - 1);
  if (r->write_once) {
    r->write_once = false;
    assert_int_equal(store_create(r->s, test_obj(CLAIM("default", "from-callback")), NULL), STORE_OK);
  }
}

/* c1 added, labelled (modified), deleted; then c2 added: rv 1..4. */
static void four_changes(store *s) {
  assert_int_equal(store_create(s, test_obj(CLAIM("default", "c1")), NULL), STORE_OK);
  assert_int_equal(store_update(s, test_obj(CLAIM_FINALIZED("default", "c1", "[\"f\"]")), NULL), STORE_OK);
  assert_int_equal(store_update(s, test_obj(CLAIM("default", "c1")), NULL), STORE_OK);
  assert_int_equal(store_create(s, test_obj(CLAIM("default", "c2")), NULL), STORE_OK);
}

static void events_in_order(void **state) {
  (void)state;
  store *s = test_store_open(16);
  recorder a = {.s = s}, b = {.s = s};
  uint64_t ida, idb;
  assert_int_equal(store_watch(s, 0, record, &a, &ida), STORE_OK);
  assert_int_equal(store_watch(s, 0, record, &b, &idb), STORE_OK);
  four_changes(s);
  assert_int_equal(store_delete(s, KIND_RESOURCE_CLAIM, "default", "c2", NULL, NULL), STORE_OK);
  const char *want = "ADDED c1 1/1,MODIFIED c1 2/2,MODIFIED c1 3/3,ADDED c2 4/4,DELETED c2 5/5";
  assert_string_equal(a.text, want);
  assert_string_equal(b.text, want);

  /* After unwatch nothing more arrives; a failed write emits nothing. */
  store_unwatch(s, ida);
  api_object *dup = test_obj(CLAIM("default", "c1"));
  assert_int_equal(store_create(s, dup, NULL), STORE_ALREADY_EXISTS);
  api_object_free(dup);
  assert_int_equal(store_delete(s, KIND_RESOURCE_CLAIM, "default", "c1", NULL, NULL), STORE_OK);
  assert_string_equal(a.text, want);
  assert_string_equal(b.text, "ADDED c1 1/1,MODIFIED c1 2/2,MODIFIED c1 3/3,ADDED c2 4/4,DELETED c2 5/5,"
                              "DELETED c1 6/6");
  store_close(s);
}

static void resume_from_a_resource_version(void **state) {
  (void)state;
  store *s = test_store_open(3);
  four_changes(s);
  recorder late = {.s = s};
  /* Kept: rv 2..4; from 1 on everything after 1 is still there. */
  assert_int_equal(store_watch(s, 1, record, &late, NULL), STORE_OK);
  assert_string_equal(late.text, "MODIFIED c1 2/2,MODIFIED c1 3/3,ADDED c2 4/4");
  recorder current = {.s = s};
  assert_int_equal(store_watch(s, 4, record, &current, NULL), STORE_OK);
  assert_string_equal(current.text, "");
  recorder from_now = {.s = s};
  assert_int_equal(store_watch(s, 0, record, &from_now, NULL), STORE_OK);
  assert_string_equal(from_now.text, "");
  /* Kept: rv 4 only; events 3 and 4 are needed to resume from 2. */
  store *short_memory = test_store_open(1);
  four_changes(short_memory);
  recorder too_old = {.s = short_memory};
  uint64_t oldest = 0;
  assert_int_equal(store_watch(short_memory, 2, record, &too_old, &oldest), STORE_GONE);
  assert_string_equal(too_old.text, "");
  /* what a watch may still start from: after 3, the newest dropped event */
  assert_int_equal(oldest, 3);
  store_close(short_memory);
  store_close(s);
}

static int64_t moving_clock(void *user) { return *(int64_t *)user; }

/* Whether a watch from rv may start (the events after it are kept). */
static bool resumes_from(store *s, uint64_t rv) {
  recorder r = {.s = s};
  uint64_t id = 0;
  store_status st = store_watch(s, rv, record, &r, &id);
  if (st == STORE_OK) store_unwatch(s, id);
  return st == STORE_OK;
}

/* Beyond `history` events, the young ones stay (up to history_cap): a
 * watch or an earlier list of the last seconds still finds them. */
static void young_events_stay_up_to_the_cap(void **state) {
  (void)state;
  int64_t now = TEST_NOW;
  store_options opts = {.clock = moving_clock, .clock_user = &now, .history = 2, .history_seconds = 10,
                        .history_cap = 6};
  store *s = store_memory_open(&opts);
  char text[256];
  for (unsigned i = 0; i < 8; i++) { /* rv 1..8, all young */
    snprintf(text, sizeof text, CLAIM("default", "c%u"), i);
    assert_int_equal(store_create(s, test_obj(text), NULL), STORE_OK);
    if (i == 3) assert_true(resumes_from(s, 1)); /* four kept: more than history, fewer than the cap */
  }
  /* the cap keeps six: rv 3..8 */
  assert_false(resumes_from(s, 1));
  assert_true(resumes_from(s, 2));
  now += 10; /* all of them old now: the next change leaves `history` of them */
  assert_int_equal(store_create(s, test_obj(CLAIM("default", "c9")), NULL), STORE_OK);
  assert_false(resumes_from(s, 6));
  assert_true(resumes_from(s, 7));
  store_close(s);
}

static void writes_from_a_callback_keep_the_order(void **state) {
  (void)state;
  store *s = test_store_open(16);
  recorder writer = {.s = s, .write_once = true}, reader = {.s = s};
  assert_int_equal(store_watch(s, 0, record, &writer, NULL), STORE_OK);
  assert_int_equal(store_watch(s, 0, record, &reader, NULL), STORE_OK);
  assert_int_equal(store_create(s, test_obj(CLAIM("default", "c1")), NULL), STORE_OK);
  /* The reader sees c1 before the claim the writer created while seeing it. */
  assert_string_equal(reader.text, "ADDED c1 1/1,ADDED from-callback 2/2");
  assert_string_equal(writer.text, "ADDED c1 1/1,ADDED from-callback 2/2");
  store_close(s);
}

#define WRITERS 4
#define CREATES_PER_WRITER 200 /* each followed by an update */

typedef struct writer_arg {
  store *s;
  int id;
} writer_arg;

static void *write_claims(void *p) {
  writer_arg *w = p;
  for (int i = 0; i < CREATES_PER_WRITER; i++) {
    char text[256];
    snprintf(text, sizeof text, CLAIM("w%d", "c%d"), i, w->id); /* name comes first */
    if (store_create(w->s, test_obj(text), NULL) != STORE_OK) abort();
    /* A new version of c0 each time: readers may still hold the old one. */
    snprintf(text, sizeof text, CLAIM_FINALIZED("w%d", "c0", "[\"f%d\"]"), w->id, i);
    if (store_update(w->s, test_obj(text), NULL) != STORE_OK) abort();
  }
  return NULL;
}

typedef struct reader_arg {
  store *s;
  atomic_bool stop;
  size_t reads;
} reader_arg;

/* Reads and drops versions while writers replace them (at least once, even
 * when the writers finish before this thread gets to run). */
static void *read_claims(void *p) {
  reader_arg *r = p;
  do {
    store_obj *o = NULL;
    if (store_get(r->s, KIND_RESOURCE_CLAIM, "w0", "c0", &o) == STORE_OK) {
      if (strcmp(store_obj_meta(o)->name, "c0") != 0) abort();
      store_obj_unref(o);
    }
    store_list l;
    store_query q = {.kind = KIND_RESOURCE_CLAIM, .namespace_ = "w1"};
    if (store_list_query(r->s, &q, &l) != STORE_OK) abort();
    store_list_free(&l);
    r->reads++;
  } while (!atomic_load(&r->stop));
  return NULL;
}

typedef struct order_check {
  uint64_t last, count;
  bool in_order;
} order_check;

static void check_order(void *user, const store_event *ev) {
  order_check *c = user;
  if (ev->rv != c->last + 1) c->in_order = false;
  c->last = ev->rv;
  c->count++;
}

static void concurrent_writers(void **state) {
  (void)state;
  store *s = test_store_open(16);
  order_check check = {0, 0, true};
  assert_int_equal(store_watch(s, 0, check_order, &check, NULL), STORE_OK);
  pthread_t threads[WRITERS], reader;
  writer_arg args[WRITERS];
  reader_arg reads = {.s = s};
  atomic_init(&reads.stop, false);
  assert_int_equal(pthread_create(&reader, NULL, read_claims, &reads), 0);
  for (int i = 0; i < WRITERS; i++) {
    args[i] = (writer_arg){s, i};
    assert_int_equal(pthread_create(&threads[i], NULL, write_claims, &args[i]), 0);
  }
  for (int i = 0; i < WRITERS; i++) pthread_join(threads[i], NULL);
  atomic_store(&reads.stop, true);
  pthread_join(reader, NULL);
  assert_true(reads.reads > 0);
  assert_int_equal(store_revision(s), 2 * WRITERS * CREATES_PER_WRITER);
  assert_true(check.in_order);
  assert_int_equal(check.count, 2 * WRITERS * CREATES_PER_WRITER);
  store_list l;
  store_query q = {.kind = KIND_RESOURCE_CLAIM, .namespace_ = "w2", .order = STORE_BY_CREATION};
  assert_int_equal(store_list_query(s, &q, &l), STORE_OK);
  assert_int_equal(l.n, CREATES_PER_WRITER);
  for (size_t i = 1; i < l.n; i++) assert_true(l.items[i - 1]->created_rv < l.items[i]->created_rv);
  store_list_free(&l);
  store_close(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(events_in_order),
      cmocka_unit_test(resume_from_a_resource_version),
      cmocka_unit_test(young_events_stay_up_to_the_cap),
      cmocka_unit_test(writes_from_a_callback_keep_the_order),
      cmocka_unit_test(concurrent_writers),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
