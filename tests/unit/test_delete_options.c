/* test_delete_options.c: DeleteOptions as kube-apiserver 1.37 reads and
 * checks them (server/delete_options.h), with the texts its JSON decoder,
 * query conversion and ValidateDeleteOptions give for the same inputs
 * (taken from k8s.io/apiserver's DeleteResource path run on them), and the
 * garbage collector's finalizers a delete asks for (server/deletion.h:
 * deletionFinalizersForGarbageCollection and the namespace registry's). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "server/deletion.h"
#include <stdlib.h>
#include <string.h>

/* Parses body (or, when NULL, the query "k=v&k=v"); returns the result and
 * the 400 message or the errors' aggregate in text. */
static delete_options_result parse(const char *body, const char *query, delete_options *o, char **text) {
  http_query_param *q = NULL;
  size_t n = 0;
  if (query) http_parse_query(query, &q, &n);
  strbuf msg = STRBUF_INIT;
  errlist errs = {0};
  delete_options_result r = delete_options_parse(body, body ? strlen(body) : 0, q, n, o, &msg, &errs);
  *text = errs.n ? errlist_aggregate(&errs) : sb_detach(&msg);
  sb_free(&msg);
  errlist_free(&errs);
  http_free_query(q, n);
  return r;
}

static void expect(const char *body, const char *query, delete_options_result want, const char *text) {
  delete_options o;
  char *got = NULL;
  delete_options_result r = parse(body, query, &o, &got);
  if (r != want || strcmp(got, text)) fail_msg("%s%s: got %d %s, want %d %s", body ? body : "?", query ? query : "", r, got, want, text);
  free(got);
  delete_options_free(&o);
}

static void test_body_errors(void **state) {
  (void)state;
  const delete_options_result bad = DELETE_OPTIONS_BAD_REQUEST;
  expect("{", NULL, bad, "couldn't get version/kind; json parse error: unexpected end of JSON input");
  expect("x", NULL, bad, "couldn't get version/kind; json parse error: invalid character 'x' looking for beginning of value");
  expect("{\"gracePeriodSeconds\":\"x\"}", NULL, bad,
         "json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64");
  expect("{\"gracePeriodSeconds\":1.5}", NULL, bad,
         "json: cannot unmarshal number 1.5 into Go struct field DeleteOptions.gracePeriodSeconds of type int64");
  expect("{\"propagationPolicy\":5}", NULL, bad,
         "json: cannot unmarshal number into Go struct field DeleteOptions.propagationPolicy of type v1.DeletionPropagation");
  expect("{\"preconditions\":{\"uid\":5}}", NULL, bad,
         "json: cannot unmarshal number into Go struct field Preconditions.preconditions.uid of type types.UID");
  expect("{\"preconditions\":5}", NULL, bad,
         "json: cannot unmarshal number into Go struct field DeleteOptions.preconditions of type v1.Preconditions");
  expect("{\"dryRun\":\"All\"}", NULL, bad,
         "json: cannot unmarshal string into Go struct field DeleteOptions.dryRun of type []string");
  expect("{\"dryRun\":[5]}", NULL, bad, "json: cannot unmarshal number into Go struct field DeleteOptions.dryRun of type string");
  expect("{\"orphanDependents\":\"yes\"}", NULL, bad,
         "json: cannot unmarshal string into Go struct field DeleteOptions.orphanDependents of type bool");
  expect("{\"kind\":\"Foo\",\"apiVersion\":\"v1\"}", NULL, bad,
         "no kind \"Foo\" is registered for version \"v1\" in scheme \"pkg/runtime/scheme.go:111\"");
  expect("{\"kind\":\"ListOptions\",\"apiVersion\":\"meta.k8s.io/v1\"}", NULL, bad,
         "converting (v1.ListOptions) to (v1.DeleteOptions): unknown conversion");
  expect("[]", NULL, bad,
         "couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { "
         "APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string \"json:\\\"kind,omitempty\\\"\" }");
  expect("{\"kind\":5}", NULL, bad,
         "couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string");
}

static void test_body_accepted(void **state) {
  (void)state;
  const char *ok[] = {"{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\"}", "{\"kind\":\"DeleteOptions\"}",
                      "{\"apiVersion\":\"v1\"}", "{\"unknown\":1}", "{\"PropagationPolicy\":\"Sideways\"}", "null"};
  for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) expect(ok[i], NULL, DELETE_OPTIONS_OK, "");
  delete_options o;
  char *text;
  assert_int_equal(parse("{\"gracePeriodSeconds\":-5,\"propagationPolicy\":\"Foreground\",\"dryRun\":[\"All\"],"
                         "\"preconditions\":{\"uid\":\"u\",\"resourceVersion\":\"7\"}}",
                         "propagationPolicy=Orphan", &o, &text),
                   DELETE_OPTIONS_OK);
  free(text);
  assert_true(o.has_grace_period);
  assert_int_equal(o.grace_period_seconds, -5);
  assert_int_equal(o.propagation, PROPAGATION_FOREGROUND); /* a body wins: the query is not read */
  assert_true(o.dry_run);
  assert_string_equal(o.precondition_uid, "u");
  assert_string_equal(o.precondition_resource_version, "7");
  delete_options_free(&o);
}

static void test_query(void **state) {
  (void)state;
  expect(NULL, "gracePeriodSeconds=abc", DELETE_OPTIONS_BAD_REQUEST, "strconv.ParseInt: parsing \"abc\": invalid syntax");
  expect(NULL, "gracePeriodSeconds=", DELETE_OPTIONS_BAD_REQUEST, "strconv.ParseInt: parsing \"\": invalid syntax");
  expect(NULL, "gracePeriodSeconds=1&gracePeriodSeconds=x", DELETE_OPTIONS_OK, "");
  expect(NULL, "propagationPolicy=", DELETE_OPTIONS_INVALID,
         "propagationPolicy: Unsupported value: \"\": supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\"");
  expect(NULL, "dryRun=All&dryRun=x", DELETE_OPTIONS_INVALID, "dryRun: Unsupported value: [\"All\",\"x\"]: supported values: \"All\"");
  expect(NULL, "dryRun=", DELETE_OPTIONS_INVALID, "dryRun: Unsupported value: [\"\"]: supported values: \"All\"");
  expect(NULL, "orphanDependents=false&propagationPolicy=Orphan", DELETE_OPTIONS_INVALID,
         "propagationPolicy: Invalid value: \"Orphan\": orphanDependents and deletionPropagation cannot be both set");
  expect("{\"propagationPolicy\":\"Bogus\",\"orphanDependents\":true}", NULL, DELETE_OPTIONS_INVALID,
         "[propagationPolicy: Invalid value: \"Bogus\": orphanDependents and deletionPropagation cannot be both set, "
         "propagationPolicy: Unsupported value: \"Bogus\": supported values: \"Foreground\", \"Background\", "
         "\"Orphan\", \"nil\"]");
  expect(NULL, "ignoreStoreReadErrorWithClusterBreakingPotential=true&gracePeriodSeconds=0&uid=u", DELETE_OPTIONS_INVALID,
         "[ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: cannot be set together with "
         ".gracePeriodSeconds, ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: cannot be set "
         "together with .preconditions]");
  delete_options o;
  char *text;
  assert_int_equal(parse(NULL, "orphanDependents=abc&uid=u1&resourceVersion=5", &o, &text), DELETE_OPTIONS_OK);
  free(text);
  assert_true(o.has_orphan_dependents && o.orphan_dependents); /* anything but 0 and false is true */
  assert_string_equal(o.precondition_uid, "u1");
  assert_string_equal(o.precondition_resource_version, "5");
  delete_options_free(&o);
}

/* The finalizers a delete of kind with options o leaves on an object that
 * had cur, joined with ",", and whether they changed. */
static void finalizers(api_kind kind, const delete_options *o, const char *const *cur, size_t n, bool changed,
                       const char *want) {
  const char *out[8];
  size_t k = 0;
  assert_int_equal(deletion_finalizers(kind, o, cur, n, out, &k), changed);
  strbuf sb = STRBUF_INIT;
  for (size_t i = 0; i < k; i++) sb_printf(&sb, "%s%s", i ? "," : "", out[i]);
  assert_string_equal(sb_str(&sb), want);
  sb_free(&sb);
}

static void test_gc_finalizers(void **state) {
  (void)state;
  delete_options none = {0}, orphan = {.propagation = PROPAGATION_ORPHAN},
                 fg = {.propagation = PROPAGATION_FOREGROUND}, bg = {.propagation = PROPAGATION_BACKGROUND},
                 keep = {.has_orphan_dependents = true, .orphan_dependents = true},
                 cascade = {.has_orphan_dependents = true, .orphan_dependents = false};
  const char *hold[] = {"example.com/hold"}, *both[] = {"foregroundDeletion", "example.com/hold", "orphan"};
  finalizers(KIND_DEPLOYMENT, &none, NULL, 0, false, "");
  finalizers(KIND_DEPLOYMENT, &orphan, hold, 1, true, "example.com/hold,orphan");
  finalizers(KIND_DEPLOYMENT, &fg, hold, 1, true, "example.com/hold,foregroundDeletion");
  finalizers(KIND_DEPLOYMENT, &keep, NULL, 0, true, "orphan");
  finalizers(KIND_DEPLOYMENT, &cascade, NULL, 0, false, "");
  /* without options the first GC finalizer decides */
  finalizers(KIND_DEPLOYMENT, &none, both, 3, true, "example.com/hold,foregroundDeletion");
  finalizers(KIND_DEPLOYMENT, &bg, both, 3, true, "example.com/hold");
  /* batch/v1 Jobs and v1 ReplicationControllers orphan by default; Events never take one */
  finalizers(KIND_JOB, &none, NULL, 0, true, "orphan");
  finalizers(KIND_REPLICATION_CONTROLLER, &bg, NULL, 0, false, "");
  finalizers(KIND_EVENT, &orphan, hold, 1, false, "example.com/hold");
  /* a namespace keeps what it had unless options say */
  const char *out[4];
  size_t k = 0;
  const char *had[] = {"orphan"};
  assert_false(deletion_namespace_finalizers(&none, had, 1, out, &k));
  assert_true(deletion_namespace_finalizers(&fg, had, 1, out, &k));
  assert_int_equal(k, 1);
  assert_string_equal(out[0], "foregroundDeletion");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_body_errors),
      cmocka_unit_test(test_body_accepted),
      cmocka_unit_test(test_query),
      cmocka_unit_test(test_gc_finalizers),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
