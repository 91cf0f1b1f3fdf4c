/* test_semver.c: strict SemVer 2.0.0 parsing and precedence. Valid/invalid
 * lists from semver.org's regular-expression examples and blang/semver v4
 * tests; precedence from spec items 9 and 11; blang's messages as its
 * Parse words them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "value/semver.h"

static semver parse_ok(const char *s) {
  semver v;
  if (!semver_parse(s, strlen(s), &v))
    fail_msg("%s: did not parse", s);
  return v;
}

static const char *const valid[] = {
    "0.0.4", "1.2.3", "10.20.30", "1.1.2-prerelease+meta", "1.1.2+meta", "1.1.2+meta-valid", "1.0.0-alpha",
    "1.0.0-beta", "1.0.0-alpha.beta", "1.0.0-alpha.beta.1", "1.0.0-alpha.1", "1.0.0-alpha0.valid",
    "1.0.0-alpha.0valid", "1.0.0-alpha-a.b-c-somethinglong+build.1-aef.1-its-okay", "1.0.0-rc.1+build.1",
    "2.0.0-rc.1+build.123", "1.2.3-beta", "10.2.3-DEV-SNAPSHOT", "1.2.3-SNAPSHOT-123", "1.0.0", "2.0.0", "1.1.7",
    "2.0.0+build.1848", "2.0.1-alpha.1227", "1.0.0-alpha+beta", "1.2.3----RC-SNAPSHOT.12.9.1--.12+788",
    "1.2.3----R-S.12.9.1--.12+meta", "1.2.3----RC-SNAPSHOT.12.9.1--.12", "1.0.0+0.build.1-rc.10000aaa-kk-0.1",
    "1.0.0-0A.is.legal",
    /* spec examples; build ids may have leading zeros */
    "1.0.0-alpha+001", "1.0.0+20130313144700", "1.0.0-beta+exp.sha.5114f85", "1.0.0+21AF26D3----117B344092BD",
    "1.0.0-x.7.z.92", "1.0.0-0.3.7",
    /* blang/semver v4 formatTests */
    "0.0.1-alpha.preview+123.456", "1.2.3-alpha.1+123.456", "1.2.3-alpha.1", "1.2.3+123.456",
    "1.2.3-alpha.b-eta+123.b-uild", "1.2.3+123.b-uild", "1.2.3-alpha.b-eta", "32.2.1-alpha",
    /* edges */
    "0.0.0", "1.0.0--", "1.0.0-0", "1.0.0-a-", "18446744073709551615.18446744073709551615.18446744073709551615",
    /* semver.org allows numeric pre-release ids of any size (blang refuses this one) */
    "1.1.1-20000000000000000000",
};

static const char *const invalid[] = {
    /* the task's own examples */
    "v1.0.0", "1.0", "01.0.0", "1.0.0-01",
    /* semver.org's invalid examples */
    "1", "1.2", "1.2.3-0123", "1.2.3-0123.0123", "1.1.2+.123", "+invalid", "-invalid", "-invalid+invalid",
    "-invalid.01", "alpha", "alpha.beta", "alpha.beta.1", "alpha.1", "alpha+beta", "alpha_beta", "alpha.",
    "alpha..", "beta", "1.0.0-alpha_beta", "-alpha.", "1.0.0-alpha..", "1.0.0-alpha..1", "1.0.0-alpha...1",
    "1.0.0-alpha....1", "1.0.0-alpha.....1", "1.0.0-alpha......1", "1.0.0-alpha.......1", "01.1.1", "1.01.1",
    "1.1.01", "1.2.3.DEV", "1.2-SNAPSHOT", "1.2.31.2.3----RC-SNAPSHOT.12.09.1--..12+788", "1.2-RC-SNAPSHOT",
    "-1.0.3-gamma+b7718", "+justmeta", "9.8.7+meta+meta", "9.8.7-whatever+meta+meta",
    "99999999999999999999999.999999999999999999.99999999999999999----RC-SNAPSHOT.12.09.1--------------------------------..12",
    /* blang/semver v4 wrongformatTests */
    "", ".", "1.", ".1", "a.b.c", "1.a.b", "1.1.a", "1.a.1", "a.1.1", "..", "1..", "1.1.", "1..1", "1.1.+123",
    "1.1.-beta", "-1.1.1", "1.-1.1", "1.1.-1", "20000000000000000000.1.1", "1.20000000000000000000.1",
    "1.1.20000000000000000000", "001.1.1", "1.001.1", "1.1.001", "1.1.1-01", "1.1.1-001", "1.1.1-beta.01",
    "1.1.1-beta.001", "0.0.0-!", "0.0.0+!", "0.0.0-.alpha", "0.0.0-alpha+", "0.0.0-alpha+test.",
    /* more */
    " 1.0.0", "1.0.0 ", "1.0.0-", "1.0.0+", "1.0.0-a.", "1.0.0+a..b", "1.0.0-\xc3\xa9", "1.0.0.0", "1.0.0-a+b+c",
    "18446744073709551616.0.0", "1.0.0-rc.1+", "V1.0.0", "=1.0.0",
};

static void test_valid(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof valid / sizeof valid[0]; i++)
    parse_ok(valid[i]);
}

static void test_invalid(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++) {
    semver v = {.major = 42};
    if (semver_parse(invalid[i], strlen(invalid[i]), &v))
      fail_msg("%s parsed unexpectedly", invalid[i]);
    assert_int_equal(v.major, 42); /* untouched */
  }
  semver v;
  assert_false(semver_parse("1.0.0\0", 6, &v));
  assert_false(semver_parse("1.0\0.0", 6, &v));
  assert_true(semver_parse("1.0.0-rc", 5, &v)); /* only len bytes count */
  assert_null(v.pre);
}

static void test_fields(void **state) {
  (void)state;
  semver v = parse_ok("1.22.333-alpha.1+build.7");
  assert_int_equal(v.major, 1);
  assert_int_equal(v.minor, 22);
  assert_int_equal(v.patch, 333);
  assert_int_equal(v.pre_len, 7);
  assert_memory_equal(v.pre, "alpha.1", 7);
  assert_int_equal(v.build_len, 7);
  assert_memory_equal(v.build, "build.7", 7);
  v = parse_ok("1.0.0+only");
  assert_null(v.pre);
  assert_int_equal(v.pre_len, 0);
  assert_memory_equal(v.build, "only", 4);
  v = parse_ok("18446744073709551615.0.1");
  assert_true(v.major == UINT64_MAX);
  assert_null(v.build);
}

/* Each entry has strictly lower precedence than the next. */
static const char *const ascending[] = {
    "0.0.0-0", "0.0.0", "0.0.1", "0.1.0", "1.0.0-0", "1.0.0-1", "1.0.0-2", "1.0.0-10",
    "1.0.0-99999999999999999999", "1.0.0-100000000000000000000", "1.0.0--", "1.0.0-A", "1.0.0-Z", "1.0.0-a",
    "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.1.1", "1.0.0-alpha.beta", "1.0.0-alpha0", "1.0.0-beta",
    "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "1.0.1", "1.1.0", "2.0.0", "2.1.0", "2.1.1",
    "18446744073709551615.0.0",
};

static void test_precedence(void **state) {
  (void)state;
  size_t n = sizeof ascending / sizeof ascending[0];
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++) {
      semver a = parse_ok(ascending[i]), b = parse_ok(ascending[j]);
      int want = (i > j) - (i < j), got = semver_cmp(&a, &b);
      if ((got > 0) - (got < 0) != want)
        fail_msg("cmp(%s, %s) = %d, want %d", ascending[i], ascending[j], got, want);
    }
}

static void test_build_ignored(void **state) {
  (void)state;
  static const char *const equal[][2] = {
      {"1.0.0+a", "1.0.0+b"}, {"1.0.0+1.2.3", "1.0.0"}, {"1.0.0-rc.1+x", "1.0.0-rc.1"},
      {"1.0.0-rc.1+x", "1.0.0-rc.1+y.z"},
  };
  for (size_t i = 0; i < sizeof equal / sizeof equal[0]; i++) {
    semver a = parse_ok(equal[i][0]), b = parse_ok(equal[i][1]);
    assert_int_equal(semver_cmp(&a, &b), 0);
    assert_int_equal(semver_cmp(&b, &a), 0);
  }
}

static void test_blang(void **state) {
  (void)state;
  static const struct {
    const char *input, *message;
  } table[] = {
      {"", "Version string empty"},
      {"1.2", "No Major.Minor.Patch elements found"},
      {"v1.0.0", "Invalid character(s) found in major number \"v1\""},
      {" 1.0.0", "Invalid character(s) found in major number \" 1\""},
      {"01.0.0", "Major number must not contain leading zeroes \"01\""},
      {"1.01.0", "Minor number must not contain leading zeroes \"01\""},
      {"1.0.01", "Patch number must not contain leading zeroes \"01\""},
      {"1..0", "strconv.ParseUint: parsing \"\": invalid syntax"},
      {"1.0.0-01", "Numeric PreRelease version must not contain leading zeroes \"01\""},
      {"1.1.1-20000000000000000000", "strconv.ParseUint: parsing \"20000000000000000000\": value out of range"},
      {"20000000000000000000.1.1", "strconv.ParseUint: parsing \"20000000000000000000\": value out of range"},
      {"0.0.0-!", "Invalid character(s) found in prerelease \"!\""},
      {"0.0.0+!", "Invalid character(s) found in build meta data \"!\""},
      {"0.0.0-.alpha", "Prerelease is empty"},
      {"0.0.0-alpha+", "Build meta data is empty"},
      {"1.0.0-", "Prerelease is empty"},
      {"1.2.3.4", "Invalid character(s) found in patch number \"3.4\""},
      {"1.0.0-a\tb", "Invalid character(s) found in prerelease \"a\\tb\""},
      {"1.0.0-rc.1+b+c", "Invalid character(s) found in build meta data \"b+c\""},
      {"1.0.0-\xc3\xa9", "Invalid character(s) found in prerelease \"\xc3\xa9\""},
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    semver v;
    strbuf err = STRBUF_INIT;
    if (semver_parse_blang(table[i].input, strlen(table[i].input), &v, &err))
      fail_msg("%s parsed unexpectedly", table[i].input);
    assert_string_equal(sb_str(&err), table[i].message);
    sb_free(&err);
  }
  /* everything valid parses the same way, except huge numeric pre-release ids */
  for (size_t i = 0; i < sizeof valid / sizeof valid[0]; i++) {
    semver strict = parse_ok(valid[i]), v;
    bool huge = strcmp(valid[i], "1.1.1-20000000000000000000") == 0;
    assert_int_equal(semver_parse_blang(valid[i], strlen(valid[i]), &v, NULL), !huge);
    if (!huge)
      assert_int_equal(semver_cmp(&strict, &v), 0);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_valid),      cmocka_unit_test(test_invalid),       cmocka_unit_test(test_fields),
      cmocka_unit_test(test_precedence), cmocka_unit_test(test_build_ignored), cmocka_unit_test(test_blang),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
