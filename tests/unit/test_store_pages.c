/* test_store_pages.c: pages of a list (store_query after_name, match,
 * limit), as `dra serve` answers ?limit=&continue=. 1,500 claims in five
 * namespaces, created in a scrambled order so the store's ordered blocks
 * split, then changed at random between pages (creates, updates, deletes,
 * two thirds of them at once so blocks merge), on the store and on its
 * committed view (versions from the shadow). Every page must be the first
 * limit objects after its start of the whole list at that moment (and
 * count the objects that follow, when asked), the
 * whole list must be what the test's model says, and a walk over pages
 * must show every object that lived through it exactly once. */
#include "test_store.h"
#include "api/label_selector.h"
#include "store/memory_commit.h"

#define N_NS 5
#define N_NAMES 300

static const char *const namespaces[N_NS] = {"a", "team", "team-b", "b", "b-c"};

typedef struct model {
  bool alive[N_NS][N_NAMES];
  char label[N_NS][N_NAMES]; /* the first letter of label v while alive */
} model;

static unsigned next_random(unsigned *seed) {
  *seed = *seed * 1103515245u + 12345u;
  return (*seed >> 16) & 0x7fff;
}

static api_object *claim(unsigned ns, unsigned i, const char *label) {
  char text[512];
  snprintf(text, sizeof text,
           "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":{\"name\":\"c%04u\","
           "\"namespace\":\"%s\",\"labels\":{\"v\":\"%s\"}}}",
           i, namespaces[ns], label);
  return test_obj(text);
}

static void set(store *s, model *m, unsigned ns, unsigned i, bool alive, const char *label) {
  char name[16];
  snprintf(name, sizeof name, "c%04u", i);
  if (!alive && m->alive[ns][i])
    assert_int_equal(store_delete(s, KIND_RESOURCE_CLAIM, namespaces[ns], name, NULL, NULL), STORE_OK);
  else if (alive && m->alive[ns][i]) assert_int_equal(store_update(s, claim(ns, i, label), NULL), STORE_OK);
  else if (alive) assert_int_equal(store_create(s, claim(ns, i, label), NULL), STORE_OK);
  m->alive[ns][i] = alive;
  m->label[ns][i] = *label;
}

/* The store's order: the text "<namespace>/<name>", as etcd's keys. */
static int cmp_key(const char *ns_a, const char *name_a, const char *ns_b, const char *name_b) {
  char a[128], b[128];
  snprintf(a, sizeof a, "%s/%s", ns_a, name_a);
  snprintf(b, sizeof b, "%s/%s", ns_b, name_b);
  return strcmp(a, b);
}

static unsigned number_of(const api_object *o) { return (unsigned)atoi(api_object_meta(o)->name + 1); }

static bool every_third(void *user, const api_object *o) {
  (void)user;
  return number_of(o) % 3 == 0;
}

/* The whole list of q's kind and namespace is m, in namespace/name order. */
static void expect_model(store *s, const store_query *q, const model *m) {
  store_query all = {.kind = q->kind, .namespace_ = q->namespace_, .order = STORE_BY_NAME};
  store_list l;
  assert_int_equal(store_list_query(s, &all, &l), STORE_OK);
  size_t want = 0;
  for (unsigned ns = 0; ns < N_NS; ns++)
    for (unsigned i = 0; i < N_NAMES; i++)
      want += m->alive[ns][i] && (!q->namespace_ || !strcmp(q->namespace_, namespaces[ns]));
  assert_int_equal(l.n, want);
  for (size_t k = 0; k < l.n; k++) {
    const object_meta *om = store_obj_meta(l.items[k]);
    unsigned ns = 0;
    while (ns < N_NS && strcmp(namespaces[ns], om->namespace_)) ns++;
    assert_true(ns < N_NS && m->alive[ns][number_of(l.items[k]->object)]);
    if (k) {
      const object_meta *prev = store_obj_meta(l.items[k - 1]);
      assert_true(cmp_key(prev->namespace_, prev->name, om->namespace_, om->name) < 0);
    }
  }
  store_list_free(&l);
}

/* The page q asks for is the first q->limit objects after its start that
 * q->match accepts, of the whole list at this moment. */
static void expect_page(store *s, const store_query *q, const store_list *page) {
  store_query all = {.kind = q->kind, .namespace_ = q->namespace_, .order = STORE_BY_NAME};
  store_list l;
  assert_int_equal(store_list_query(s, &all, &l), STORE_OK);
  assert_int_equal(page->rv, l.rv);
  size_t n = 0, rest = 0;
  for (size_t k = 0; k < l.n; k++) {
    const object_meta *om = store_obj_meta(l.items[k]);
    if (q->after_name && cmp_key(q->after_namespace, q->after_name, om->namespace_, om->name) >= 0) continue;
    if (q->match && !q->match(q->match_user, l.items[k]->object)) continue;
    if (n == q->limit) {
      rest++;
      continue;
    }
    assert_true(n < page->n);
    assert_ptr_equal(page->items[n], l.items[k]);
    n++;
  }
  assert_int_equal(page->n, n);
  assert_int_equal(page->rest, q->count_rest ? rest : 0);
  store_list_free(&l);
}

/* A few random changes to the claims through s (the view's writes go to
 * the store): creates, updates and deletes. */
static void churn(store *s, model *m, unsigned *seed, unsigned changes) {
  for (unsigned c = 0; c < changes; c++) {
    unsigned ns = next_random(seed) % N_NS, i = next_random(seed) % N_NAMES;
    bool alive = next_random(seed) % 2;
    set(s, m, ns, i, alive, c % 2 ? "x" : "y");
  }
}

/* Walks q's list in pages of limit through reader (the store or its
 * view), changing the store between pages, and checks each page; every
 * object alive in the reader's state for the whole walk is seen once. */
static void walk_pages(store *s, store *reader, model *m, model *committed, unsigned *seed, store_query q,
                       size_t limit) {
  bool seen[N_NS][N_NAMES] = {{false}}, lived[N_NS][N_NAMES];
  const model *shown = reader == s ? m : committed;
  memcpy(lived, shown->alive, sizeof lived);
  char after_ns[64] = "", after_name[64] = "";
  q.limit = limit;
  q.count_rest = limit % 2; /* half the walks count what follows each page */
  for (int pages = 0;; pages++) {
    assert_true(pages < 2 * N_NS * N_NAMES);
    store_list page;
    assert_int_equal(store_list_query(reader, &q, &page), STORE_OK);
    expect_page(reader, &q, &page);
    for (size_t k = 0; k < page.n; k++) {
      const object_meta *om = store_obj_meta(page.items[k]);
      unsigned ns = 0;
      while (strcmp(namespaces[ns], om->namespace_)) ns++;
      unsigned i = number_of(page.items[k]->object);
      assert_false(seen[ns][i]);
      seen[ns][i] = true;
    }
    bool last = page.n < limit;
    if (page.n) {
      const object_meta *om = store_obj_meta(page.items[page.n - 1]);
      snprintf(after_ns, sizeof after_ns, "%s", om->namespace_);
      snprintf(after_name, sizeof after_name, "%s", om->name);
      q.after_namespace = after_ns;
      q.after_name = after_name;
    }
    store_list_free(&page);
    if (last) break;
    churn(s, m, seed, 4);
    if (next_random(seed) % 3 == 0) { /* a commit: the view shows what the store has */
      store_memory_commit(s, store_revision(s));
      store_memory_publish(s, store_revision(s));
      *committed = *m;
    }
    for (unsigned ns = 0; ns < N_NS; ns++)
      for (unsigned i = 0; i < N_NAMES; i++) lived[ns][i] &= shown->alive[ns][i];
  }
  for (unsigned ns = 0; ns < N_NS; ns++)
    for (unsigned i = 0; i < N_NAMES; i++) {
      bool in_scope = (!q.namespace_ || !strcmp(q.namespace_, namespaces[ns])) && (!q.match || i % 3 == 0);
      if (lived[ns][i] && in_scope) assert_true(seen[ns][i]);
    }
}

static void pages_stay_complete_across_changes(void **state) {
  (void)state;
  store *s = test_store_open(4096);
  store_memory_defer_commits(s, NULL);
  store *view = store_committed(s);
  model m = {0}, committed = {0};
  unsigned seed = 7;
  for (unsigned k = 0; k < N_NS * N_NAMES; k++) { /* every claim once, in a scrambled order */
    unsigned slot = (k * 7919u) % (N_NS * N_NAMES);
    set(s, &m, slot % N_NS, slot / N_NS, true, "x");
  }
  expect_model(s, &(store_query){.kind = KIND_RESOURCE_CLAIM}, &m);
  expect_model(view, &(store_query){.kind = KIND_RESOURCE_CLAIM}, &committed); /* nothing committed yet */
  store_memory_commit(s, store_revision(s));
  store_memory_publish(s, store_revision(s));
  committed = m;
  expect_model(view, &(store_query){.kind = KIND_RESOURCE_CLAIM}, &committed);

  store_query all = {.kind = KIND_RESOURCE_CLAIM, .order = STORE_BY_NAME};
  store_query team = {.kind = KIND_RESOURCE_CLAIM, .namespace_ = "team", .order = STORE_BY_NAME};
  store_query thirds = {.kind = KIND_RESOURCE_CLAIM, .order = STORE_BY_NAME, .match = every_third};
  store *readers[] = {s, view};
  for (int pass = 0; pass < 2; pass++) {
    for (size_t r = 0; r < 2; r++) {
      walk_pages(s, readers[r], &m, &committed, &seed, all, 37);
      walk_pages(s, readers[r], &m, &committed, &seed, team, 11);
      walk_pages(s, readers[r], &m, &committed, &seed, thirds, 51);
      walk_pages(s, readers[r], &m, &committed, &seed, all, 1);
      walk_pages(s, readers[r], &m, &committed, &seed, all, 10000);
    }
    expect_model(s, &all, &m);
    expect_model(s, &team, &m);
    expect_model(view, &all, &committed);
    /* two thirds at once: the blocks empty and merge */
    for (unsigned ns = 0; ns < N_NS; ns++)
      for (unsigned i = 0; i < N_NAMES; i++)
        if (i % 3 != 1) set(s, &m, ns, i, false, "x");
    expect_model(s, &all, &m);
  }
  store_close(s);
}

static void a_start_after_every_object_or_before_its_namespace(void **state) {
  (void)state;
  store *s = test_store_open(16);
  model m = {0};
  for (unsigned i = 0; i < 3; i++) set(s, &m, 1, i, true, "x"); /* team/c0000..c0002 */
  for (unsigned i = 0; i < 3; i++) set(s, &m, 2, i, true, "x"); /* team-b/... */
  store_list l;
  /* "team-b/..." sorts before "team/...", as the text: '-' < '/' */
  store_query q = {.kind = KIND_RESOURCE_CLAIM, .order = STORE_BY_NAME, .after_namespace = "team-b",
                   .after_name = "c0002", .limit = 2};
  assert_int_equal(store_list_query(s, &q, &l), STORE_OK);
  assert_int_equal(l.n, 2);
  assert_string_equal(store_obj_meta(l.items[0])->namespace_, "team");
  assert_string_equal(store_obj_meta(l.items[0])->name, "c0000");
  store_list_free(&l);
  q.after_namespace = "team";
  assert_int_equal(store_list_query(s, &q, &l), STORE_OK);
  assert_int_equal(l.n, 0); /* team/c0002 is the last key */
  store_list_free(&l);
  /* a start before the query's namespace: the namespace's first object */
  q.namespace_ = "team-b";
  q.after_namespace = "a";
  assert_int_equal(store_list_query(s, &q, &l), STORE_OK);
  assert_int_equal(l.n, 2);
  assert_string_equal(store_obj_meta(l.items[0])->name, "c0000");
  store_list_free(&l);
  /* past its namespace, and past everything: nothing */
  q.after_namespace = "z";
  assert_int_equal(store_list_query(s, &q, &l), STORE_OK);
  assert_int_equal(l.n, 0);
  store_list_free(&l);
  q.namespace_ = NULL;
  assert_int_equal(store_list_query(s, &q, &l), STORE_OK);
  assert_int_equal(l.n, 0);
  store_list_free(&l);
  /* a start only in namespace/name order */
  q.order = STORE_BY_CREATION;
  assert_int_equal(store_list_query(s, &q, &l), STORE_INVALID);
  /* creation order takes a limit */
  q.after_name = NULL;
  assert_int_equal(store_list_query(s, &q, &l), STORE_OK);
  assert_int_equal(l.n, 2);
  assert_string_equal(store_obj_meta(l.items[0])->namespace_, "team");
  assert_string_equal(store_obj_meta(l.items[1])->name, "c0001");
  store_list_free(&l);
  store_close(s);
}

static unsigned namespace_of(const object_meta *om) {
  unsigned ns = 0;
  while (ns < N_NS && strcmp(namespaces[ns], om->namespace_)) ns++;
  assert_true(ns < N_NS);
  return ns;
}

/* The claims at rv, read through reader in pages of limit while `changes`
 * random changes (model m) are made between pages, are those of then, each
 * with its label then, in namespace/name order, and every page says rv
 * and counts the objects of then that follow it. */
static void expect_state_at(store *s, store *reader, model *m, uint64_t rv, const model *then, size_t limit,
                            unsigned *seed, unsigned changes) {
  store_query q = {.kind = KIND_RESOURCE_CLAIM, .order = STORE_BY_NAME, .limit = limit, .at_rv = rv, .count_rest = true};
  char after_ns[64], after_name[64];
  size_t seen = 0, want = 0;
  for (unsigned ns = 0; ns < N_NS; ns++)
    for (unsigned i = 0; i < N_NAMES; i++) want += then->alive[ns][i];
  for (;;) {
    store_list page;
    assert_int_equal(store_list_query(reader, &q, &page), STORE_OK);
    assert_int_equal(page.rv, rv);
    for (size_t k = 0; k < page.n; k++) {
      const object_meta *om = store_obj_meta(page.items[k]);
      unsigned ns = namespace_of(om), i = number_of(page.items[k]->object);
      assert_true(then->alive[ns][i]);
      assert_true(page.items[k]->rv <= rv);
      assert_int_equal(*label_get(&om->labels, "v"), then->label[ns][i]);
      if (seen++) assert_true(cmp_key(after_ns, after_name, om->namespace_, om->name) < 0);
      snprintf(after_ns, sizeof after_ns, "%s", om->namespace_);
      snprintf(after_name, sizeof after_name, "%s", om->name);
    }
    assert_int_equal(page.rest, want - seen); /* what follows the page, then */
    bool last = page.n < limit;
    store_list_free(&page);
    if (last) break;
    q.after_namespace = after_ns;
    q.after_name = after_name;
    churn(s, m, seed, changes);
  }
  assert_int_equal(seen, want);
}

/* A list at an earlier resourceVersion shows the state then, whatever
 * changed since (updates, deletes, creates, a key deleted and created
 * again), on the store and on its committed view, in pages while the
 * store keeps changing; once the events after it are dropped it is
 * STORE_GONE, and a resourceVersion ahead of the state read is refused. */
static void a_list_at_a_revision_shows_the_state_then(void **state) {
  (void)state;
  store *s = test_store_open(4096);
  store_memory_defer_commits(s, NULL);
  store *view = store_committed(s);
  model m = {0};
  unsigned seed = 11;
  for (unsigned k = 0; k < N_NS * N_NAMES; k += 2) set(s, &m, k % N_NS, k / N_NS, true, "x");
  uint64_t rv0 = store_revision(s);
  model at0 = m;
  churn(s, &m, &seed, 400);
  set(s, &m, 1, 7, false, "x"); /* team/c0007 gone, then back with another label */
  set(s, &m, 1, 7, true, "y");
  uint64_t rv1 = store_revision(s);
  model at1 = m;
  churn(s, &m, &seed, 400);
  store_memory_commit(s, rv1 + 100);
  store_memory_publish(s, rv1 + 100);
  for (size_t limit = 1; limit <= 10000; limit *= 37) {
    unsigned changes = limit > 1 ? 2 : 0; /* pages of one would outrun the history */
    expect_state_at(s, s, &m, rv0, &at0, limit, &seed, changes);
    expect_state_at(s, s, &m, rv1, &at1, limit, &seed, changes);
    expect_state_at(s, view, &m, rv0, &at0, limit, &seed, changes);
    expect_state_at(s, view, &m, rv1, &at1, limit, &seed, changes);
  }
  store_list l;
  store_query q = {.kind = KIND_RESOURCE_CLAIM, .order = STORE_BY_NAME, .at_rv = rv1 + 101};
  assert_int_equal(store_list_query(view, &q, &l), STORE_INVALID); /* past the commit */
  assert_int_equal(l.n, 0);
  q.at_rv = store_revision(s) + 1;
  assert_int_equal(store_list_query(s, &q, &l), STORE_INVALID);
  store_close(s);

  s = test_store_open(64);
  m = (model){0};
  for (unsigned i = 0; i < 10; i++) set(s, &m, 0, i, true, "x");
  rv0 = store_revision(s);
  at0 = m;
  for (unsigned i = 0; i < 60; i++) set(s, &m, 0, i % 10, true, i / 10 % 2 ? "x" : "y");
  expect_state_at(s, s, &m, rv0, &at0, 3, &seed, 0); /* 60 events after it: all kept */
  for (unsigned i = 0; i < 10; i++) set(s, &m, 0, i, true, "z");
  q.at_rv = rv0;
  assert_int_equal(store_list_query(s, &q, &l), STORE_GONE);
  assert_int_equal(l.n, 0);
  store_close(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_list_at_a_revision_shows_the_state_then),
      cmocka_unit_test(pages_stay_complete_across_changes),
      cmocka_unit_test(a_start_after_every_object_or_before_its_namespace),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
