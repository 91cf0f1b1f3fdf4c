/* test_sched_pdb.c: the pure parts of PodDisruptionBudget handling
 * (sched/pdb.h): IntOrString scaling as intstr.GetScaledValueFromIntOrPercent
 * rounds it up, with upstream's error texts, and filterPodsWithPDBViolation's
 * walk: budgets of other namespaces, empty selectors, pods without labels
 * and pods already in disruptedPods take nothing; a budget breaks when
 * it goes below 0. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "api/codec.h"
#include "sched/pdb.h"

static int64_t scaled(const char *json, int64_t total, const char **err_out) {
  static char err_text[256];
  json_t *v = json_loads(json, JSON_DECODE_ANY, NULL);
  strbuf err = STRBUF_INIT;
  int64_t out = -999;
  bool ok = sched_int_or_percent(v, total, &out, &err);
  snprintf(err_text, sizeof err_text, "%s", err.len ? sb_str(&err) : "");
  *err_out = ok ? NULL : err_text;
  sb_free(&err);
  json_decref(v);
  return out;
}

static void test_int_or_percent(void **state) {
  (void)state;
  const char *err;
  assert_int_equal(scaled("1", 10, &err), 1);
  assert_null(err);
  assert_int_equal(scaled("\"50%\"", 3, &err), 2); /* 1.5 rounds up */
  assert_int_equal(scaled("\"50%\"", 4, &err), 2);
  assert_int_equal(scaled("\"1%\"", 0, &err), 0);
  assert_int_equal(scaled("\"100%\"", 7, &err), 7);
  assert_int_equal(scaled("\"-10%\"", 3, &err), 0); /* ceil(-0.3) */
  assert_int_equal(scaled("\"-150%\"", 3, &err), -4);
  scaled("\"5\"", 3, &err);
  assert_string_equal(err, "invalid value for IntOrString: invalid type: string is not a percentage");
  scaled("\"x%\"", 3, &err);
  assert_string_equal(err, "invalid value for IntOrString: invalid value \"x%\": strconv.Atoi: parsing \"x\": invalid syntax");
  scaled("\" 5%\"", 3, &err);
  assert_non_null(err);
  assert_int_equal(scaled("\"99999999999%\"", 3, &err), 3000000000); /* Go's int is 64 bits */
  scaled("\"99999999999999999999%\"", 3, &err);
  assert_string_equal(err, "invalid value for IntOrString: invalid value \"99999999999999999999%\": strconv.Atoi: "
                           "parsing \"99999999999999999999\": value out of range");
  scaled("true", 3, &err);
  assert_string_equal(err, "invalid value for IntOrString: invalid type: neither int nor percentage");
}

/* A budget in ns selecting app=<app> (NULL: an empty selector). */
static void budget(arena *a, sched_pdb *b, const char *ns, const char *app, int64_t allowed, const char *disrupted) {
  memset(b, 0, sizeof *b);
  object_meta *m = arena_calloc(a, 1, sizeof *m);
  m->namespace_ = arena_strdup(a, ns);
  m->name = arena_strdup(a, "b");
  b->meta = m;
  b->selector_valid = true;
  b->selector = arena_calloc(a, 1, sizeof *b->selector);
  json_t *sel = app ? json_pack("{s:{s:s}}", "matchLabels", "app", app) : json_object();
  fpath path = {STRBUF_INIT};
  errlist errs = {0};
  codec_decode(a, &label_selector_desc, sel, b->selector, &path, &errs);
  assert_int_equal(errs.n, 0);
  errlist_free(&errs);
  fp_free(&path);
  json_decref(sel);
  json_t *status = disrupted ? json_pack("{s:{s:s}}", "disruptedPods", disrupted, "2026-01-01T00:00:00Z") : json_object();
  arena_on_free(a, (void (*)(void *))json_decref, status);
  b->status = status;
  b->disruptions_allowed = allowed;
}

static pod *make_pod(arena *a, const char *ns, const char *name, const char *app) {
  pod *p = arena_calloc(a, 1, sizeof *p);
  p->metadata.namespace_ = arena_strdup(a, ns);
  p->metadata.name = arena_strdup(a, name);
  if (app) {
    p->metadata.labels.items = arena_calloc(a, 1, sizeof *p->metadata.labels.items);
    p->metadata.labels.items[0].key = atom_cstr("app");
    p->metadata.labels.items[0].value = arena_strdup(a, app);
    p->metadata.labels.n = 1;
    p->metadata.labels.set = true;
  }
  return p;
}

static void test_violations(void **state) {
  (void)state;
  arena *a = arena_new();
  sched_pdb v[4];
  budget(a, &v[0], "default", "web", 1, "web-3"); /* one disruption allowed; web-3 already disrupted */
  budget(a, &v[1], "other", "web", 0, NULL);      /* another namespace */
  budget(a, &v[2], "default", NULL, 0, NULL);     /* empty selector: matches nothing here */
  budget(a, &v[3], "default", "db", 0, NULL);     /* none allowed */
  sched_pdbs b = {.v = v, .n = 4};
  const pod *pods[] = {make_pod(a, "default", "web-1", "web"), make_pod(a, "default", "web-3", "web"),
                       make_pod(a, "default", "web-2", "web"), make_pod(a, "default", "plain", NULL),
                       make_pod(a, "default", "db-1", "db")};
  bool violating[5];
  sched_pdb_violations(&b, pods, 5, violating);
  assert_false(violating[0]); /* takes the one allowed */
  assert_false(violating[1]); /* in disruptedPods: takes nothing */
  assert_true(violating[2]);  /* the budget goes below 0 */
  assert_false(violating[3]); /* no labels */
  assert_true(violating[4]);
  arena_free(a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_int_or_percent),
      cmocka_unit_test(test_violations),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
