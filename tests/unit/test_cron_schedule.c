/* test_cron_schedule.c: CronJob schedules (api/cron_schedule.h) against
 * what github.com/robfig/cron/v3 gives for them: tests/data/cron/next.tsv
 * holds, for each line of tests/data/cron/schedules.txt, the parse error or
 * the next three activations after 2026-03-07T10:30:00Z, as written by
 * tests/upstream/cmd/cronnext (go build ./cmd/cronnext in tests/upstream,
 * then cronnext < schedules.txt > next.tsv); next_2040.tsv the same for
 * schedules_2040.txt from 2040-03-01T00:00:00Z (cronnext -from ...), past
 * the zone files' transitions, where their footer rules hold. Also: Go's
 * time.ParseDuration texts (util/go_duration.h) and the TZif reader. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/cron_schedule.h"
#include "store/meta.h"
#include "util/go_duration.h"
#include "util/tz_zone.h"

#define FROM 1772879400 /* 2026-03-07T10:30:00Z */
#define FROM_2040 2214172800 /* 2040-03-01T00:00:00Z */

/* What dra makes of spec from that time, in cronnext's words. */
static void describe(const char *spec, int64_t from, strbuf *out) {
  cron_schedule s;
  strbuf err = STRBUF_INIT;
  if (!cron_schedule_parse(spec, &s, &err)) sb_printf(out, "error %s", sb_str(&err));
  else {
    int64_t t = from;
    for (int i = 0; i < 3; i++) {
      if (i) sb_putc(out, ' ');
      if (!cron_schedule_next(&s, t, &t)) {
        sb_puts(out, "none");
        break;
      }
      char text[32];
      meta_format_time(t, text);
      sb_puts(out, text);
    }
  }
  cron_schedule_free(&s);
  sb_free(&err);
}

/* Every line of the file; returns how many there were. */
static int compare_file(const char *path, int64_t from) {
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  char line[1024];
  int n = 0;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    char *tab = strchr(line, '\t');
    assert_non_null(tab);
    *tab = 0;
    assert_true(line[0] == '"' && tab[-1] == '"'); /* %q of plain ASCII: no escapes in the file */
    tab[-1] = 0;
    strbuf got = STRBUF_INIT;
    describe(line + 1, from, &got);
    if (strcmp(sb_str(&got), tab + 1)) fail_msg("%s:\n  robfig: %s\n  dra:    %s", line + 1, tab + 1, sb_str(&got));
    sb_free(&got);
    n++;
  }
  fclose(f);
  return n;
}

static void test_against_robfig(void **state) {
  (void)state;
  assert_true(compare_file("tests/data/cron/next.tsv", FROM) >= 60);
}

static void test_zone_rules_against_robfig(void **state) {
  (void)state;
  FILE *f = fopen("/usr/share/zoneinfo/America/New_York", "rb");
  if (!f) skip(); /* the expected times come from this machine's zone files */
  fclose(f);
  assert_true(compare_file("tests/data/cron/next_2040.tsv", FROM_2040) >= 15);
}

static void test_fields_and_star_bit(void **state) {
  (void)state;
  cron_schedule s;
  strbuf err = STRBUF_INIT;
  assert_true(cron_schedule_parse("*/20 1-3 ? JAN,dec sun", &s, &err));
  assert_int_equal(s.minute, 1ULL << 0 | 1ULL << 20 | 1ULL << 40); /* a step > 1 drops the star bit */
  assert_int_equal(s.hour, 0xeULL);
  assert_int_equal(s.dom, 0xfffffffeULL | CRON_STAR_BIT);
  assert_int_equal(s.month, 1ULL << 1 | 1ULL << 12);
  assert_int_equal(s.dow, 1ULL);
  assert_false(s.every);
  cron_schedule_free(&s);
  assert_true(cron_schedule_parse("@every 2m30.9s", &s, &err));
  assert_true(s.every);
  assert_int_equal(s.delay, 150);
  cron_schedule_free(&s);
  sb_free(&err);
}

static void test_go_duration(void **state) {
  (void)state;
  static const struct {
    const char *text;
    int64_t ns;
    const char *err;
  } cases[] = {
      {"1h2m3.5s", 3723500000000, NULL},
      {"-1.5h", -5400000000000, NULL},
      {"+0", 0, NULL},
      {".5us", 500, NULL},
      {"1\xc2\xb5s", 1000, NULL},
      {"9223372036854775807ns", INT64_MAX, NULL},
      {"-9223372036854775808ns", INT64_MIN, NULL},
      {"9223372036854775808ns", 0, "time: invalid duration \"9223372036854775808ns\""},
      {"", 0, "time: invalid duration \"\""},
      {".s", 0, "time: invalid duration \".s\""},
      {"3", 0, "time: missing unit in duration \"3\""},
      {"3d", 0, "time: unknown unit \"d\" in duration \"3d\""},
      {"1\xe2\x82\xac", 0, "time: unknown unit \"\\xe2\\x82\\xac\" in duration \"1\\xe2\\x82\\xac\""},
      {"1\"s", 0, "time: unknown unit \"\\\"s\" in duration \"1\\\"s\""},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int64_t ns = 0;
    strbuf err = STRBUF_INIT;
    bool ok = go_parse_duration(cases[i].text, strlen(cases[i].text), &ns, &err);
    if (cases[i].err) {
      assert_false(ok);
      assert_string_equal(sb_str(&err), cases[i].err);
    } else {
      if (!ok) fail_msg("%s: %s", cases[i].text, sb_str(&err));
      assert_int_equal(ns, cases[i].ns);
    }
    sb_free(&err);
  }
}

static void test_tzif(void **state) {
  (void)state;
  tz_zone z;
  strbuf err = STRBUF_INIT;
  assert_false(tz_zone_parse((const unsigned char *)"TZif2", 5, &z));
  assert_true(tz_zone_load("UTC", &z, &err));
  int64_t start, end;
  assert_int_equal(tz_zone_lookup(&z, FROM, &start, &end), 0);
  tz_zone_free(&z);
  assert_false(tz_zone_load("No/Such_Zone", &z, &err));
  assert_string_equal(sb_str(&err), "unknown time zone No/Such_Zone");
  FILE *f = fopen("/usr/share/zoneinfo/America/New_York", "rb");
  if (f) {
    fclose(f);
    assert_true(tz_zone_load("America/New_York", &z, &err));
    assert_int_equal(tz_zone_lookup(&z, FROM, &start, &end), -5 * 3600);
    assert_int_equal(end, 1772953200); /* 2026-03-08T07:00:00Z: daylight saving time */
    assert_int_equal(tz_zone_lookup(&z, end, &start, &end), -4 * 3600);
    tz_zone_free(&z);
  }
  sb_free(&err);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_against_robfig),
      cmocka_unit_test(test_zone_rules_against_robfig),
      cmocka_unit_test(test_fields_and_star_bit),
      cmocka_unit_test(test_go_duration),
      cmocka_unit_test(test_tzif),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
