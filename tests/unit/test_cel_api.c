/* test_cel_api.c: the public CEL API: error texts (syntax with caret,
 * undeclared names, result types), validation limits, the program cache,
 * derived attributes, runtime errors never being false, cost limits and
 * cancellation, thread sharing, and no heap allocation per evaluation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "cel/cel.h"
#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static cel_device_attr attrs[3];
static semver fw;
static cel_device_capacity caps[1];
static const int64_t ids[3] = {1, 2, 3};
static cel_device dev;

static const cel_device *device(void) {
  const atom *d = atom_cstr("dra.example.com");
  attrs[0] = (cel_device_attr){d, atom_cstr("model"), {.kind = CEL_ATTR_STRING, .str = {"a100", 4}}};
  attrs[1] = (cel_device_attr){d, atom_cstr("ids"), {.kind = CEL_ATTR_INTS, .n = 3, .ints = ids}};
  semver_parse("1.2.3", 5, &fw);
  attrs[2] = (cel_device_attr){d, atom_cstr("fw"), {.kind = CEL_ATTR_VERSION, .ver = &fw}};
  caps[0] = (cel_device_capacity){d, atom_cstr("memory"), {0}};
  quantity_parse("40Gi", 4, &caps[0].value, NULL);
  dev = (cel_device){.driver = d, .attrs = attrs, .n_attrs = 3, .caps = caps, .n_caps = 1};
  return &dev;
}

static char *compile_error(const char *expr, const cel_options *o) {
  cel_compile_result res;
  cel_program *p = cel_compile(expr, strlen(expr), o, &res);
  assert_null(p);
  return res.error;
}

static void syntax_error_has_position_and_caret(void **state) {
  (void)state;
  char *e = compile_error("device.driver ==", NULL);
  assert_non_null(strstr(e, "compilation failed: ERROR: <input>:1:17: Syntax error: "));
  assert_non_null(strstr(e, "\n | device.driver ==\n | ................^"));
  free(e);
}

/* Found by validdiff: cel-go reports column 0 and no snippet for an empty expression. */
static void empty_expression_has_column_zero_and_no_snippet(void **state) {
  (void)state;
  char *e = compile_error("", NULL);
  assert_string_equal(e, "compilation failed: ERROR: <input>:1:0: Syntax error: mismatched input '<EOF>' expecting "
                         "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, "
                         "STRING, BYTES, IDENTIFIER}");
  free(e);
}

static void checker_errors_use_cel_go_texts(void **state) {
  (void)state;
  char *e = compile_error("x == 1", NULL);
  assert_string_equal(e, "compilation failed: ERROR: <input>:1:1: undeclared reference to 'x' (in container '')\n | x == 1\n | ^");
  free(e);
  e = compile_error("device.foo", NULL);
  assert_non_null(strstr(e, "undefined field 'foo'"));
  free(e);
  e = compile_error("device.attributes[true]", NULL);
  assert_non_null(strstr(e, "found no matching overload for '_[_]' applied to '(map(string, map(string, dyn)), bool)'"));
  free(e);
  e = compile_error("device.driver", NULL);
  assert_string_equal(e, "must evaluate to bool or the unknown type, not string");
  free(e);
  e = compile_error("[1, 'a'].size() > 0", NULL);
  assert_non_null(strstr(e, "expected type 'int' but found 'string'"));
  free(e);
  e = compile_error("device.driver.matches('[')", NULL);
  assert_non_null(strstr(e, "invalid matches argument"));
  free(e);
  e = compile_error("int('x') == 1", NULL);
  assert_non_null(strstr(e, "program instantiation failed"));
  free(e);
}

static void validation_limits(void **state) {
  (void)state;
  cel_options v = {.env = CEL_ENV_NEW_EXPRESSIONS, .validate = true};
  char *big = malloc(CEL_MAX_EXPRESSION_BYTES + 2);
  memset(big, ' ', CEL_MAX_EXPRESSION_BYTES + 1);
  memcpy(big, "true", 4);
  big[CEL_MAX_EXPRESSION_BYTES + 1] = 0;
  char *e = compile_error(big, &v);
  assert_string_equal(e, "Too long: may not be more than 10240 bytes");
  free(e);
  free(big);
  const char *l = "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]";
  char expr[1024];
  snprintf(expr, sizeof expr, "%s.all(x, %s.all(y, %s.all(z, %s.all(w, %s.all(v, %s.all(u, x < 100))))))", l, l, l, l, l, l);
  e = compile_error(expr, &v);
  assert_string_equal(e, "too complex, exceeds cost limit");
  free(e);
}

static void cache_shares_programs(void **state) {
  (void)state;
  const char *s = "device.driver == 'dra.example.com'";
  const cel_program *a = cel_cache_get(s, strlen(s), NULL, NULL), *b = cel_cache_get(s, strlen(s), NULL, NULL);
  assert_non_null(a);
  assert_ptr_equal(a, b);
  cel_options other = {.env = CEL_ENV_NEW_EXPRESSIONS};
  assert_ptr_not_equal(a, cel_cache_get(s, strlen(s), &other, NULL));
  cel_error err;
  assert_int_equal(cel_eval_selector(a, device(), NULL, &err), 1);
  cel_cache_clear();
}

/* Held programs are never evicted; of the released ones at most
 * CEL_CACHE_IDLE_MAX stay, the most recently released first. */
static void cache_is_bounded(void **state) {
  (void)state;
  cel_cache_clear();
  const char *s = "device.driver == 'held.example.com'";
  const cel_program *held = cel_cache_get(s, strlen(s), NULL, NULL);
  assert_non_null(held);
  char expr[64];
  for (int i = 0; i < CEL_CACHE_IDLE_MAX + 500; i++) {
    int n = snprintf(expr, sizeof expr, "device.driver == 'd%d.example.com'", i);
    const cel_program *p = cel_cache_get(expr, (size_t)n, NULL, NULL);
    assert_non_null(p);
    cel_cache_release(p);
  }
  assert_int_equal(cel_cache_size(), CEL_CACHE_IDLE_MAX + 1);
  assert_ptr_equal(held, cel_cache_get(s, strlen(s), NULL, NULL)); /* still the same program */
  cel_error err;
  assert_int_equal(cel_eval_selector(held, device(), NULL, &err), 0);
  /* the most recently released is still there: no new compilation */
  int n = snprintf(expr, sizeof expr, "device.driver == 'd%d.example.com'", CEL_CACHE_IDLE_MAX + 499);
  const cel_program *recent = cel_cache_get(expr, (size_t)n, NULL, NULL);
  assert_int_equal(cel_cache_size(), CEL_CACHE_IDLE_MAX + 1);
  /* the oldest was evicted: getting it again compiles it anew */
  n = snprintf(expr, sizeof expr, "device.driver == 'd%d.example.com'", 0);
  const cel_program *old = cel_cache_get(expr, (size_t)n, NULL, NULL);
  assert_int_equal(cel_cache_size(), CEL_CACHE_IDLE_MAX + 2);
  cel_cache_release(old);
  cel_cache_release(recent);
  cel_cache_release(held);
  cel_cache_release(held);
  cel_cache_release(NULL);
  cel_cache_clear();
  assert_int_equal(cel_cache_size(), 0);
}

static int eval(const char *expr, cel_error *err) {
  cel_program *p = cel_compile(expr, strlen(expr), NULL, NULL);
  assert_non_null(p);
  int r = cel_eval_selector(p, device(), NULL, err);
  cel_program_free(p);
  return r;
}

static void errors_are_never_false(void **state) {
  (void)state;
  cel_error err;
  assert_int_equal(eval("device.attributes['dra.example.com'].missing == 'x'", &err), -1);
  assert_string_equal(err.msg, "no such key: missing");
  assert_int_equal(eval("device.attributes['dra.example.com'].missing == 'x' || true", &err), 1);
  assert_int_equal(eval("device.attributes['dra.example.com'].ids", &err), -1);
  assert_non_null(strstr(err.msg, "CEL result of type list could not be converted to bool"));
  assert_int_equal(eval("device.attributes['dra.example.com'].fw == '1.2.3'", &err), -1);
  assert_string_equal(err.msg, "no such overload");
  assert_int_equal(eval("device.attributes['dra.example.com'].fw.isLessThan(semver('1.10.0'))", &err), 1);
  assert_int_equal(eval("device.capacity['dra.example.com'].memory.compareTo(quantity('40Gi')) == 0", &err), 1);
  assert_int_equal(eval("2 in device.attributes['dra.example.com'].ids", &err), 1);
}

static void time_url_and_formats(void **state) {
  (void)state;
  cel_error err;
  static const char *const truths[] = {
      "timestamp('2023-03-01T10:20:30.5Z').getHours() == 10",
      "string(timestamp('2023-03-01T10:20:30.500Z')) == '2023-03-01T10:20:30.5Z'",
      "timestamp('2024-02-29T00:00:00Z').getDayOfYear() == 59 && timestamp('2024-02-29T00:00:00Z').getDayOfWeek() == 4",
      "duration('1h30m') == duration('90m') && duration('1ms') < duration('1s')",
      "string(duration('1.5s')) == '1.5s'",
      "timestamp('2023-01-01T00:00:00Z') - timestamp('2022-12-31T00:00:00Z') == duration('24h')",
      "timestamp('2023-01-01T00:00:00+01:00').getHours('UTC') == 23",
      "'%s has %d, %.2f%% %x'.format([device.driver, 3, 45.678, 255]) == 'dra.example.com has 3, 45.68% ff'",
      /* list elements are written as CEL literals (cel-go's ext/formatting.go quoteForCEL) */
      "'%s'.format([[1, 'a']]) == '[1, \"a\"]'",
      "'%.2f|%e'.format([1234.5, 2.5]) == '1,234.50|2.500000×10⁰⁰'",
      "string(duration('1000000s')) == '1000000s'",
      "url('https://u@example.com:8443/a/b?x=1&x=2#f').getHost() == 'example.com:8443'",
      "url('https://[::1]:80/').getHostname() == '::1' && url('https://e.com:8443/').getPort() == '8443'",
      "url('https://e.com/a/b?x=1&x=2&y=%20z').getQuery() == {'x': ['1', '2'], 'y': [' z']}",
      "isURL('/absolute') && !isURL('relative') && !isURL('')",
      "!format.dns1123Label().validate('my-name').hasValue()",
      "format.dns1123Label().validate('My_Name').value()[0].startsWith('a lowercase RFC 1123 label')",
      "!format.named('uuid').value().validate('550e8400-e29b-41d4-a716-446655440000').hasValue()",
      "!format.named('nope').hasValue() && !format.dns1123LabelPrefix().validate('my-prefix-').hasValue()",
      "format.qualifiedName().validate('a/b/c').hasValue() && !format.qualifiedName().validate('example.com/MyName').hasValue()",
      "format.date().validate('2023-02-30').value() == ['invalid date']",
  };
  for (size_t i = 0; i < sizeof truths / sizeof *truths; i++) {
    int r = eval(truths[i], &err);
    if (r != 1) fail_msg("%s: %d %s", truths[i], r, r < 0 ? err.msg : "");
  }
  char *e = compile_error("timestamp('yesterday') < timestamp('2023-01-01T00:00:00Z')", NULL);
  assert_non_null(strstr(e, "invalid timestamp argument"));
  free(e);
}

static void derived_attributes(void **state) {
  (void)state;
  cel_options o = {.env = CEL_ENV_STORED_EXPRESSIONS, .derived = true, .derived_name = "dra.example.com/x"};
  const char *e = "device.attributes['dra.example.com'].ids.size() * 2";
  cel_program *p = cel_compile(e, strlen(e), &o, NULL);
  assert_non_null(p);
  cel_attr_value v;
  cel_error err;
  assert_true(cel_eval_device(p, device(), NULL, &v, &err));
  assert_int_equal(v.kind, CEL_ATTR_INT);
  assert_int_equal(v.i, 6);
  cel_program_free(p);
  char *msg = compile_error("{'a': 1}", &o);
  assert_string_equal(msg, "derived attribute dra.example.com/x: must evaluate to int, bool, string or semver, not map(string, int)");
  free(msg);
  msg = compile_error("[1, 2]", &o);
  assert_non_null(strstr(msg, "not list(int)"));
  free(msg);
  o.list_type_attributes = true;
  p = cel_compile("[1, 2]", 6, &o, NULL);
  assert_non_null(p);
  assert_true(cel_eval_device(p, device(), NULL, &v, &err));
  assert_int_equal(v.kind, CEL_ATTR_INTS);
  assert_int_equal(v.n, 2);
  assert_int_equal(v.ints[1], 2);
  cel_program_free(p);
}

static void cost_limit_and_cancellation(void **state) {
  (void)state;
  const char *e = "device.attributes['dra.example.com'].ids.all(x, x > 0)";
  cel_program *p = cel_compile(e, strlen(e), NULL, NULL);
  cel_error err;
  cel_eval_opts tight = {.cost_limit = 5};
  assert_int_equal(cel_eval_selector(p, device(), &tight, &err), -1);
  assert_string_equal(err.msg, "operation cancelled: actual cost limit exceeded");
  assert_true(err.cost_exceeded);
  cel_program_free(p);
  e = "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(x, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(y, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z, z > 0)))";
  p = cel_compile(e, strlen(e), NULL, NULL);
  atomic_bool cancel = true;
  cel_eval_opts o = {.cancel = &cancel, .cancel_cause = "context canceled"};
  assert_int_equal(cel_eval_selector(p, device(), &o, &err), -1);
  assert_string_equal(err.msg, "operation interrupted: context canceled");
  cel_program_free(p);
}

static const cel_program *shared;

static void *worker(void *arg) {
  (void)arg;
  cel_error err;
  long ok = 0;
  for (int i = 0; i < 2000; i++) ok += cel_eval_selector(shared, &dev, NULL, &err) == 1;
  cel_thread_release();
  return (void *)ok;
}

static void programs_are_shared_between_threads(void **state) {
  (void)state;
  device();
  const char *e = "device.attributes['dra.example.com'].ids.exists(x, x == 3) && device.driver.startsWith('dra')";
  cel_program *p = cel_compile(e, strlen(e), NULL, NULL);
  shared = p;
  pthread_t t[2];
  for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, worker, NULL);
  for (int i = 0; i < 2; i++) {
    void *r;
    pthread_join(t[i], &r);
    assert_int_equal((long)r, 2000);
  }
  cel_program_free(p);
}

/* A thread that compiled regexes and exits without cel_thread_release
 * leaves nothing behind (LeakSanitizer, under make asan, would say). */
static void *regex_worker(void *arg) {
  (void)arg;
  cel_error err;
  long ok = 0;
  for (int i = 0; i < 100; i++) ok += cel_eval_selector(shared, &dev, NULL, &err) == 1;
  return (void *)ok;
}

static void thread_caches_are_freed_at_exit(void **state) {
  (void)state;
  device();
  const char *e = "device.driver.matches('^dra[.]') && device.driver.matches('com$')";
  cel_program *p = cel_compile(e, strlen(e), NULL, NULL);
  assert_non_null(p);
  shared = p;
  for (int i = 0; i < 8; i++) {
    pthread_t t;
    void *r;
    pthread_create(&t, NULL, regex_worker, NULL);
    pthread_join(t, &r);
    assert_int_equal((long)r, 100);
  }
  cel_program_free(p);
}

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif

static void evaluation_does_not_allocate(void **state) {
  (void)state;
#ifndef SANITIZED
  const char *e = "device.driver == 'dra.example.com' && device.attributes['dra.example.com'].model == 'a100' && "
                  "device.attributes['dra.example.com'].ids.exists(x, x == 2)";
  cel_program *p = cel_compile(e, strlen(e), NULL, NULL);
  cel_error err;
  cel_eval_selector(p, device(), NULL, &err);
  struct mallinfo2 before = mallinfo2();
  for (int i = 0; i < 1000; i++) assert_int_equal(cel_eval_selector(p, &dev, NULL, &err), 1);
  struct mallinfo2 after = mallinfo2();
  assert_int_equal(before.uordblks, after.uordblks);
  cel_program_free(p);
#endif
}

/* Attribute lookups try the position the previous device had the name at:
 * devices with other orders, missing names and (unflagged) duplicate names
 * still see what a full scan finds, the first match. */
static void attribute_lookup_position_hint(void **state) {
  (void)state;
  const atom *d = atom_cstr("dra.example.com"), *model = atom_cstr("model"), *other = atom_cstr("other");
  cel_device_attr first[2] = {{d, model, {.kind = CEL_ATTR_STRING, .str = {"a100", 4}}},
                              {d, other, {.kind = CEL_ATTR_INT, .i = 1}}};
  cel_device_attr swapped[2] = {{d, other, {.kind = CEL_ATTR_INT, .i = 1}},
                                {d, model, {.kind = CEL_ATTR_STRING, .str = {"h100", 4}}}};
  cel_device_attr missing[1] = {{d, other, {.kind = CEL_ATTR_INT, .i = 1}}};
  /* "model" and "dra.example.com/model" both split to (dra.example.com, model) */
  cel_device_attr dup[3] = {{d, other, {.kind = CEL_ATTR_INT, .i = 1}},
                            {d, model, {.kind = CEL_ATTR_STRING, .str = {"a100", 4}}},
                            {d, model, {.kind = CEL_ATTR_STRING, .str = {"h100", 4}}}};
  assert_true(cel_attr_names_unique(first, 2));
  assert_false(cel_attr_names_unique(dup, 3));
  cel_device devs[4] = {{.driver = d, .attrs = first, .n_attrs = 2, .names_unique = true},
                        {.driver = d, .attrs = swapped, .n_attrs = 2, .names_unique = true},
                        {.driver = d, .attrs = missing, .n_attrs = 1, .names_unique = true},
                        {.driver = d, .attrs = dup, .n_attrs = 3, .names_unique = false}};
  const char *fused = "device.driver == \"dra.example.com\" && device.attributes[\"dra.example.com\"].model == \"a100\"";
  const char *general = "device.attributes[\"dra.example.com\"].model.startsWith(\"a\")";
  const char *exprs[2] = {fused, general};
  const int want[4] = {1, 0, -1, 1};
  for (int e = 0; e < 2; e++) {
    cel_program *p = cel_compile(exprs[e], strlen(exprs[e]), NULL, NULL);
    assert_non_null(p);
    cel_error err;
    for (int round = 0; round < 2; round++) /* each device twice: the second lookup finds it at the hint */
      for (int i = 0; i < 8; i++) assert_int_equal(cel_eval_selector(p, &devs[i / 2], NULL, &err), want[i / 2]);
    assert_string_equal(err.msg, "no such key: model");
    cel_program_free(p);
  }
}

/* A selector of device comparisons runs without cost accounting only when it
 * cannot exceed the limit; under a smaller limit it is charged as usual. */
static void fused_selector_obeys_cost_limit(void **state) {
  (void)state;
  const char *expr = "device.driver == \"dra.example.com\" && device.attributes[\"dra.example.com\"].model == \"a100\"";
  cel_program *p = cel_compile(expr, strlen(expr), NULL, NULL);
  assert_non_null(p);
  cel_error err;
  assert_int_equal(cel_eval_selector(p, device(), NULL, &err), 1);
  cel_eval_opts tight = {.cost_limit = 3};
  assert_int_equal(cel_eval_selector(p, device(), &tight, &err), -1);
  assert_true(err.cost_exceeded);
  cel_program_free(p);
}

/* "lit" in a list attribute: found, not found, a non-string list and a
 * missing attribute, and the cost of the unfused nodes (lookup 4, then one per
 * element). */
static void membership_in_list_attribute(void **state) {
  (void)state;
  const atom *d = atom_cstr("dra.example.com"), *feats = atom_cstr("features");
  static const cel_str names[3] = {{"mig", 3}, {"nvlink", 6}, {"ecc", 3}};
  static const int64_t nums[2] = {1, 2};
  cel_device_attr strs[1] = {{d, feats, {.kind = CEL_ATTR_STRINGS, .n = 3, .strs = names}}};
  cel_device_attr ints[1] = {{d, feats, {.kind = CEL_ATTR_INTS, .n = 2, .ints = nums}}};
  cel_device with_strs = {.driver = d, .attrs = strs, .n_attrs = 1, .names_unique = true};
  cel_device with_ints = {.driver = d, .attrs = ints, .n_attrs = 1, .names_unique = true};
  cel_device without = {.driver = d};
  const char *yes = "\"nvlink\" in device.attributes[\"dra.example.com\"].features";
  const char *no = "\"sriov\" in device.attributes[\"dra.example.com\"].features";
  cel_program *p = cel_compile(yes, strlen(yes), NULL, NULL), *q = cel_compile(no, strlen(no), NULL, NULL);
  assert_non_null(p);
  assert_non_null(q);
  cel_error err;
  assert_int_equal(cel_eval_selector(p, &with_strs, NULL, &err), 1);
  assert_int_equal(cel_eval_selector(q, &with_strs, NULL, &err), 0);
  assert_int_equal(cel_eval_selector(p, &with_ints, NULL, &err), 0);
  assert_int_equal(cel_eval_selector(p, &without, NULL, &err), -1);
  assert_string_equal(err.msg, "no such key: features");
  /* the lookup 4, then `in` 1: the attribute is dyn, so the checker leaves
   * several overloads and cel-go charges its default 1, not the list size */
  cel_eval_opts fits = {.cost_limit = 5}, over = {.cost_limit = 4};
  assert_int_equal(cel_eval_selector(q, &with_strs, &fits, &err), 0);
  assert_int_equal(cel_eval_selector(q, &with_strs, &over, &err), -1);
  assert_true(err.cost_exceeded);
  cel_program_free(p);
  cel_program_free(q);
}

/* includes() on a list attribute: found, not found, and past 48 elements the
 * general path's refusal; costs as unfused (lookup 4, the call its
 * traversal: a tenth of each string's bytes, 0 for "mig"). */
static void includes_on_list_attribute(void **state) {
  (void)state;
  const atom *d = atom_cstr("dra.example.com"), *feats = atom_cstr("features");
  static cel_str many[49];
  for (int i = 0; i < 49; i++) many[i] = (cel_str){"mig", 3};
  cel_device_attr short_list[1] = {{d, feats, {.kind = CEL_ATTR_STRINGS, .n = 2, .strs = many}}};
  cel_device_attr long_list[1] = {{d, feats, {.kind = CEL_ATTR_STRINGS, .n = 49, .strs = many}}};
  cel_device small = {.driver = d, .attrs = short_list, .n_attrs = 1, .names_unique = true};
  cel_device big = {.driver = d, .attrs = long_list, .n_attrs = 1, .names_unique = true};
  const char *yes = "device.attributes[\"dra.example.com\"].features.includes(\"mig\")";
  const char *no = "device.attributes[\"dra.example.com\"].features.includes(\"ecc\")";
  cel_program *p = cel_compile(yes, strlen(yes), NULL, NULL), *q = cel_compile(no, strlen(no), NULL, NULL);
  assert_non_null(p);
  assert_non_null(q);
  cel_error err;
  assert_int_equal(cel_eval_selector(p, &small, NULL, &err), 1);
  assert_int_equal(cel_eval_selector(q, &small, NULL, &err), 0);
  assert_int_equal(cel_eval_selector(p, &big, NULL, &err), 1);
  assert_int_equal(cel_eval_selector(q, &big, NULL, &err), -1);
  assert_string_equal(err.msg, "'includes' function cannot be applied to lists longer than 48 values");
  cel_eval_opts fits = {.cost_limit = 4}, over = {.cost_limit = 3};
  assert_int_equal(cel_eval_selector(q, &small, &fits, &err), 0);
  assert_int_equal(cel_eval_selector(q, &small, &over, &err), -1);
  assert_true(err.cost_exceeded);
  cel_program_free(p);
  cel_program_free(q);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(syntax_error_has_position_and_caret),
      cmocka_unit_test(empty_expression_has_column_zero_and_no_snippet), cmocka_unit_test(checker_errors_use_cel_go_texts),
      cmocka_unit_test(validation_limits), cmocka_unit_test(cache_shares_programs),
      cmocka_unit_test(cache_is_bounded),
      cmocka_unit_test(errors_are_never_false), cmocka_unit_test(time_url_and_formats),
      cmocka_unit_test(derived_attributes),
      cmocka_unit_test(attribute_lookup_position_hint), cmocka_unit_test(fused_selector_obeys_cost_limit),
      cmocka_unit_test(membership_in_list_attribute), cmocka_unit_test(includes_on_list_attribute),
      cmocka_unit_test(cost_limit_and_cancellation), cmocka_unit_test(programs_are_shared_between_threads),
      cmocka_unit_test(thread_caches_are_freed_at_exit),
      cmocka_unit_test(evaluation_does_not_allocate),
  };
  int r = cmocka_run_group_tests(tests, NULL, NULL);
  cel_thread_release();
  return r;
}
