/* validate_cases.h: table-driven admission tests shared by the validation
 * test programs. A case is a base object (JSON) with an RFC 7386 merge patch
 * applied, optionally an old object for updates and gates turned off; it
 * runs through admit_object and compares every rendered field error, in
 * order, and every warning, with the expected lines. */
#ifndef DRA_TEST_VALIDATE_CASES_H
#define DRA_TEST_VALIDATE_CASES_H
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "api/admission.h"
#include "api/object.h"
#include "util/strbuf.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINES 16

typedef struct validate_case {
  const char *name;
  admit_op op;
  const char *patch;     /* merge patch onto the base object */
  const char *old_patch; /* merge patch onto the base for the old object; NULL = no old object */
  const char *gates;     /* "--feature-gates" text, e.g. "DRADeviceTaints=false" */
  const char *errors[MAX_LINES];   /* expected field-error texts, in order */
  const char *warnings[MAX_LINES]; /* expected warning lines, in order */
} validate_case;

static void merge_patch(json_t *target, const json_t *patch) {
  const char *key;
  json_t *value;
  json_object_foreach((json_t *)patch, key, value) {
    json_t *cur = json_object_get(target, key);
    if (json_is_null(value)) json_object_del(target, key);
    else if (json_is_object(value) && json_is_object(cur)) merge_patch(cur, value);
    else json_object_set(target, key, value);
  }
}

/* JSON written with ' for " (the tables stay readable in C). */
static json_t *load_quoted(const char *text, json_error_t *err) {
  char *s = strdup(text);
  for (char *c = s; *c; c++)
    if (*c == '\'') *c = '"';
  json_t *v = json_loads(s, 0, err);
  free(s);
  return v;
}

static json_t *patched(const char *base, const char *patch) {
  json_error_t err;
  json_t *doc = load_quoted(base, &err);
  if (!doc) fail_msg("base JSON: %s", err.text);
  if (patch) {
    json_t *p = load_quoted(patch, &err);
    if (!p) fail_msg("patch JSON %s: %s", patch, err.text);
    merge_patch(doc, p);
    json_decref(p);
  }
  return doc;
}

static inline api_object *decode_or_fail(const char *base, const char *patch) {
  json_t *doc = patched(base, patch);
  errlist errs = {0};
  api_object *o = api_object_decode(doc, NULL, 0, &errs);
  json_decref(doc);
  if (!o || errs.n) fail_msg("decode of %s failed: %s", patch ? patch : "base", errs.n ? errs.items[0].body : "?");
  errlist_free(&errs);
  return o;
}

typedef struct {
  char *lines[MAX_LINES + 1];
  int n;
} warning_sink;

static void collect_warning(void *user, const char *line) {
  warning_sink *w = user;
  if (w->n <= MAX_LINES) w->lines[w->n++] = strdup(line);
}

static inline void run_validate_case(const char *base, const validate_case *c) {
  admission_ctx ctx = {0};
  gates_default(&ctx.gates);
  char err[256];
  if (c->gates && !gates_parse(&ctx.gates, c->gates, err, sizeof err)) fail_msg("%s: %s", c->name, err);
  ctx.now = "2026-11-30T01:00:00Z";
  warning_sink warnings = {0};
  ctx.warn = collect_warning;
  ctx.user = &warnings;
  api_object *obj = decode_or_fail(base, c->patch);
  api_object *old = c->old_patch ? decode_or_fail(base, c->old_patch) : NULL;
  errlist errs = {0};
  bool ok = admit_object(&ctx, c->op, obj, old, &errs);
  int want = 0;
  while (want < MAX_LINES && c->errors[want]) want++;
  for (size_t i = 0; i < errs.n || (int)i < want; i++) {
    char *got = i < errs.n ? field_error_text(&errs.items[i]) : NULL;
    const char *exp = (int)i < want ? c->errors[i] : NULL;
    if (!got || !exp || strcmp(got, exp) != 0) {
      for (size_t k = 0; k < errs.n; k++) {
        char *t = field_error_text(&errs.items[k]);
        print_message("  got[%zu]: %s\n", k, t);
        free(t);
      }
      fail_msg("%s: error %zu:\n  want: %s\n  got:  %s", c->name, i, exp ? exp : "(none)", got ? got : "(none)");
    }
    free(got);
  }
  assert_int_equal(ok, want == 0);
  int want_w = 0;
  while (want_w < MAX_LINES && c->warnings[want_w]) want_w++;
  for (int i = 0; i < warnings.n || i < want_w; i++) {
    const char *got = i < warnings.n ? warnings.lines[i] : NULL, *exp = i < want_w ? c->warnings[i] : NULL;
    if (!got || !exp || strcmp(got, exp) != 0)
      fail_msg("%s: warning %d:\n  want: %s\n  got:  %s", c->name, i, exp ? exp : "(none)", got ? got : "(none)");
  }
  for (int i = 0; i < warnings.n; i++) free(warnings.lines[i]);
  errlist_free(&errs);
  api_object_free(obj);
  api_object_free(old);
}

static inline void run_validate_cases(const char *base, const validate_case *cases, size_t n) {
  for (size_t i = 0; i < n; i++) run_validate_case(base, &cases[i]);
}

#endif

/* Runs each case as its own cmocka test, named after the case. */
static const char *validate_cases_base;

static void run_case_state(void **state) { run_validate_case(validate_cases_base, *state); }

static inline int run_validate_group(const char *group, const char *base, const validate_case *cases, size_t n) {
  validate_cases_base = base;
  struct CMUnitTest *tests = calloc(n, sizeof *tests);
  for (size_t i = 0; i < n; i++) {
    tests[i].name = cases[i].name;
    tests[i].test_func = run_case_state;
    tests[i].initial_state = (void *)&cases[i];
  }
  int failed = _cmocka_run_group_tests(group, tests, n, NULL, NULL);
  free(tests);
  return failed;
}

/* apimachinery's name-format messages the cases expect. */
#define MSG_LABEL                                                                                               \
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and "  \
  "end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "           \
  "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
#define MSG_SUBDOMAIN                                                                                           \
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "   \
  "start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "            \
  "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
#define MSG_C_IDENTIFIER                                                                                        \
  "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric "    \
  "characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is "              \
  "'[A-Za-z_][A-Za-z0-9_]*')"
#define MSG_LABEL_NAME_PART                                                                                     \
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "        \
  "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "          \
  "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
#define MSG_LABEL_VALUE                                                                                         \
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must "    \
  "start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for " \
  "validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
#define MSG_SEMVER "must be a string compatible with semver.org spec 2.0.0"
