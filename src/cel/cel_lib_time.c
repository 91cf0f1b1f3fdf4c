/* cel_lib_time.c: google.protobuf.Timestamp and Duration as cel-go has them:
 * RFC 3339 and Go duration parsing and printing, arithmetic with range
 * checks, and the calendar accessors (UTC or a fixed "+hh:mm" offset).
 * A timestamp keeps Unix seconds in `i` and nanoseconds in `len`; a
 * duration keeps nanoseconds in `i`. */
#include "cel/cel_internal.h"
#include "util/civil_date.h"
#include "util/go_duration.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FN(name) static cel_val name(cel_eval *ev, const cel_val *a, uint32_t n)
#define UNUSED (void)ev

#define MIN_UNIX (-62135596800LL) /* 0001-01-01T00:00:00Z */
#define MAX_UNIX 253402300799LL   /* 9999-12-31T23:59:59Z */

static cel_val ts(int64_t sec, int64_t nanos) {
  while (nanos < 0) nanos += 1000000000, sec--;
  while (nanos >= 1000000000) nanos -= 1000000000, sec++;
  if (sec < MIN_UNIX || sec > MAX_UNIX) return cel_err("timestamp out of range");
  cel_val v = {.kind = V_TIMESTAMP, .len = (uint32_t)nanos};
  v.i = sec;
  return v;
}

static cel_val dur(int64_t nanos) {
  cel_val v = {.kind = V_DURATION};
  v.i = nanos;
  return v;
}

static bool digits(const char *s, size_t n, int64_t *out) {
  int64_t v = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (s[i] - '0');
  }
  *out = v;
  return true;
}

/* RFC 3339: 2006-01-02T15:04:05[.frac](Z|+hh:mm|-hh:mm). */
bool cel_parse_rfc3339(const char *s, size_t n, int64_t *sec, int64_t *nanos) {
  int64_t y, mo, d, h, mi, se;
  if (n < 20 || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != 't') || s[13] != ':' || s[16] != ':')
    return false;
  if (!digits(s, 4, &y) || !digits(s + 5, 2, &mo) || !digits(s + 8, 2, &d) || !digits(s + 11, 2, &h) ||
      !digits(s + 14, 2, &mi) || !digits(s + 17, 2, &se))
    return false;
  static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || (mo == 2 && d == 29 && !leap) || h > 23 || mi > 59 || se > 59)
    return false;
  size_t i = 19;
  *nanos = 0;
  if (i < n && s[i] == '.') {
    size_t st = ++i;
    int64_t f = 0, scale = 1000000000;
    while (i < n && s[i] >= '0' && s[i] <= '9') {
      if (i - st < 9) f = f * 10 + (s[i] - '0'), scale /= 10;
      i++;
    }
    if (i == st) return false;
    *nanos = f * scale;
  }
  int64_t off = 0;
  if (i < n && (s[i] == 'Z' || s[i] == 'z')) {
    i++;
  } else if (i + 6 == n && (s[i] == '+' || s[i] == '-') && s[i + 3] == ':') {
    int64_t oh, om;
    if (!digits(s + i + 1, 2, &oh) || !digits(s + i + 4, 2, &om) || oh > 23 || om > 59) return false;
    off = (oh * 3600 + om * 60) * (s[i] == '-' ? -1 : 1);
    i += 6;
  } else {
    return false;
  }
  if (i != n) return false;
  *sec = days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 + h * 3600 + mi * 60 + se - off;
  return true;
}

FN(f_timestamp) {
  UNUSED, (void)n;
  if (a[0].kind == V_TIMESTAMP) return a[0];
  if (a[0].kind == V_INT) return ts(a[0].i, 0);
  int64_t sec, nanos;
  if (!cel_parse_rfc3339(a[0].s, a[0].len, &sec, &nanos))
    return cel_err("timestamp conversion error: parsing time \"%.*s\" as RFC 3339", (int)a[0].len, a[0].s);
  return ts(sec, nanos);
}

FN(f_duration) {
  UNUSED, (void)n;
  if (a[0].kind == V_DURATION) return a[0];
  int64_t d;
  if (!go_parse_duration(a[0].s, a[0].len, &d, NULL)) return cel_err("invalid duration: time: invalid duration \"%.*s\"", (int)a[0].len, a[0].s);
  return dur(d);
}

/* Seconds east of UTC for the optional time-zone argument. */
static bool zone_offset(const cel_val *tz, int64_t *off) {
  *off = 0;
  if (!tz) return true;
  const char *s = tz->s;
  size_t n = tz->len;
  if (n == 3 && !memcmp(s, "UTC", 3)) return true;
  int64_t h, m;
  if (n == 6 && (s[0] == '+' || s[0] == '-') && s[3] == ':' && digits(s + 1, 2, &h) && digits(s + 4, 2, &m)) {
    *off = (h * 3600 + m * 60) * (s[0] == '-' ? -1 : 1);
    return true;
  }
  if (n == 5 && digits(s, 2, &h) && s[2] == ':' && digits(s + 3, 2, &m)) {
    *off = h * 3600 + m * 60;
    return true;
  }
  return false;
}

typedef enum { A_YEAR, A_MONTH, A_DAY_OF_YEAR, A_DAY_OF_MONTH, A_DATE, A_DAY_OF_WEEK, A_HOURS, A_MINUTES, A_SECONDS, A_MILLIS } accessor;

static cel_val ts_get(const cel_val *a, uint32_t n, accessor what) {
  int64_t off;
  if (!zone_offset(n == 2 ? &a[1] : NULL, &off)) return cel_err("unknown time zone %.*s", (int)a[1].len, a[1].s);
  int64_t t = a[0].i + off, days = t >= 0 ? t / 86400 : -((-t + 86399) / 86400), secs = t - days * 86400;
  int64_t y;
  unsigned m, d;
  civil_from_days(days, &y, &m, &d);
  switch (what) {
  case A_YEAR: return cel_int(y);
  case A_MONTH: return cel_int(m - 1);
  case A_DAY_OF_YEAR: return cel_int(days - days_from_civil(y, 1, 1));
  case A_DAY_OF_MONTH: return cel_int(d - 1);
  case A_DATE: return cel_int(d);
  case A_DAY_OF_WEEK: return cel_int(((days % 7) + 11) % 7); /* 1970-01-01 was a Thursday */
  case A_HOURS: return cel_int(secs / 3600);
  case A_MINUTES: return cel_int(secs % 3600 / 60);
  case A_SECONDS: return cel_int(secs % 60);
  case A_MILLIS: return cel_int(a[0].len / 1000000);
  }
  return cel_no_overload();
}

#define GETTER(fn, what)                                                                                        \
  FN(fn) {                                                                                                      \
    UNUSED;                                                                                                     \
    if (a[0].kind == V_DURATION) return dur_get(&a[0], what);                                                   \
    return ts_get(a, n, what);                                                                                  \
  }

static cel_val dur_get(const cel_val *d, accessor what) {
  switch (what) {
  case A_HOURS: return cel_int(d->i / 3600000000000LL);
  case A_MINUTES: return cel_int(d->i / 60000000000LL);
  case A_SECONDS: return cel_int(d->i / 1000000000);
  default: return cel_int(d->i / 1000000 % 1000);
  }
}

GETTER(f_year, A_YEAR)
GETTER(f_month, A_MONTH)
GETTER(f_day_of_year, A_DAY_OF_YEAR)
GETTER(f_day_of_month, A_DAY_OF_MONTH)
GETTER(f_date, A_DATE)
GETTER(f_day_of_week, A_DAY_OF_WEEK)
GETTER(f_hours, A_HOURS)
GETTER(f_minutes, A_MINUTES)
GETTER(f_seconds, A_SECONDS)
GETTER(f_millis, A_MILLIS)

FN(f_add) {
  UNUSED, (void)n;
  if (a[0].kind == V_DURATION && a[1].kind == V_DURATION) {
    int64_t r;
    return __builtin_add_overflow(a[0].i, a[1].i, &r) ? cel_err("integer overflow") : dur(r);
  }
  const cel_val *t = a[0].kind == V_TIMESTAMP ? &a[0] : &a[1], *d = a[0].kind == V_TIMESTAMP ? &a[1] : &a[0];
  return ts(t->i + d->i / 1000000000, (int64_t)t->len + d->i % 1000000000);
}

FN(f_sub) {
  UNUSED, (void)n;
  if (a[0].kind == V_DURATION) {
    int64_t r;
    return __builtin_sub_overflow(a[0].i, a[1].i, &r) ? cel_err("integer overflow") : dur(r);
  }
  if (a[1].kind == V_DURATION) return ts(a[0].i - a[1].i / 1000000000, (int64_t)a[0].len - a[1].i % 1000000000);
  __int128 d = ((__int128)a[0].i - a[1].i) * 1000000000 + ((int64_t)a[0].len - (int64_t)a[1].len);
  if (d > INT64_MAX || d < INT64_MIN) return cel_err("integer overflow");
  return dur((int64_t)d);
}

size_t cel_format_double(double d, char *buf, size_t n);

FN(f_to_int) {
  UNUSED, (void)n;
  return cel_int(a[0].i);
}

static cel_val order(const cel_val *a, int lo, int hi) {
  bool ok;
  int c = cel_compare(&a[0], &a[1], &ok);
  return ok ? cel_bool(c >= lo && c <= hi) : cel_no_overload();
}
FN(f_lt) { UNUSED, (void)n; return order(a, -1, -1); }
FN(f_le) { UNUSED, (void)n; return order(a, -1, 0); }
FN(f_gt) { UNUSED, (void)n; return order(a, 1, 1); }
FN(f_ge) { UNUSED, (void)n; return order(a, 0, 1); }

/* string(duration): cel-go's strconv.FormatFloat(d.Seconds(), 'f', -1, 64)
 * + "s" (common/types/duration.go): the shortest digits that read back to
 * the same double, written without an exponent. Seconds() adds the whole
 * seconds and the nanoseconds / 1e9 as Go's time.Duration does. */
size_t cel_duration_text(int64_t nanos, char *buf, size_t n) {
  double v = (double)(nanos / 1000000000) + (double)(nanos % 1000000000) / 1e9;
  char e[40];
  for (int p = 1; p <= 17; p++) {
    snprintf(e, sizeof e, "%.*e", p - 1, v);
    if (strtod(e, NULL) == v) break;
  }
  /* e is "[-]d.ddde[+-]xx": collect the digits and the exponent */
  char digs[24];
  int nd = 0, exp = 0;
  bool neg = e[0] == '-';
  const char *q = e + neg;
  for (; *q && *q != 'e'; q++)
    if (*q >= '0' && *q <= '9') digs[nd++] = *q;
  if (*q == 'e') exp = atoi(q + 1);
  while (nd > 1 && digs[nd - 1] == '0') nd--;
  strbuf sb = STRBUF_INIT;
  if (neg && v != 0) sb_putc(&sb, '-');
  if (v == 0) sb_putc(&sb, '0');
  else if (exp >= 0) {
    for (int i = 0; i <= exp; i++) sb_putc(&sb, i < nd ? digs[i] : '0');
    if (nd > exp + 1) {
      sb_putc(&sb, '.');
      sb_add(&sb, digs + exp + 1, (size_t)(nd - exp - 1));
    }
  } else {
    sb_puts(&sb, "0.");
    for (int i = 0; i < -exp - 1; i++) sb_putc(&sb, '0');
    sb_add(&sb, digs, (size_t)nd);
  }
  sb_putc(&sb, 's');
  size_t len = (size_t)snprintf(buf, n, "%s", sb_str(&sb));
  sb_free(&sb);
  return len;
}

/* string(timestamp): RFC 3339 in UTC with the fraction's trailing zeros cut,
 * as Go's time.Format(time.RFC3339Nano) writes it. */
size_t cel_timestamp_text(int64_t sec, uint32_t nanos, char *buf, size_t n) {
  int64_t days = sec >= 0 ? sec / 86400 : -((-sec + 86399) / 86400), secs = sec - days * 86400, y;
  unsigned m, d;
  civil_from_days(days, &y, &m, &d);
  int len = snprintf(buf, n, "%04lld-%02u-%02uT%02lld:%02lld:%02lld", (long long)y, m, d, (long long)(secs / 3600),
                     (long long)(secs % 3600 / 60), (long long)(secs % 60));
  if (nanos) {
    char frac[16];
    snprintf(frac, sizeof frac, ".%09u", nanos);
    size_t fl = strlen(frac);
    while (fl > 1 && frac[fl - 1] == '0') fl--; /* nanos > 0: a digit other than 0 stops it first */
    frac[fl] = 0;
    len += snprintf(buf + len, n - (size_t)len, "%s", frac);
  }
  len += snprintf(buf + len, n - (size_t)len, "Z");
  return (size_t)len;
}

FN(f_string) {
  UNUSED, (void)n;
  char buf[64];
  if (a[0].kind == V_DURATION) {
    size_t l = cel_duration_text(a[0].i, buf, sizeof buf);
    return cel_string_dup(buf, l);
  }
  size_t l = cel_timestamp_text(a[0].i, a[0].len, buf, sizeof buf);
  return cel_string_dup(buf, l);
}

#define O(id, sig, fn) {id, sig, fn, K_ONE, 0, 0, 0, {0}, 0, 0}
#define TS "google.protobuf.Timestamp"
#define DU "google.protobuf.Duration"
#define ACCESSOR(name, fn)                                                                                       \
  O("timestamp_to_" name, TS "." name "() -> int", fn), O("timestamp_to_" name "_with_tz", TS "." name "(string) -> int", fn)
static cel_overload time_ovs[] = {
    O("string_to_timestamp", "timestamp(string) -> " TS, f_timestamp),
    O("int64_to_timestamp", "timestamp(int) -> " TS, f_timestamp),
    O("timestamp_to_timestamp", "timestamp(" TS ") -> " TS, f_timestamp),
    O("string_to_duration", "duration(string) -> " DU, f_duration),
    O("duration_to_duration", "duration(" DU ") -> " DU, f_duration),
    O("timestamp_to_string", "string(" TS ") -> string", f_string),
    O("duration_to_string", "string(" DU ") -> string", f_string),
    O("timestamp_to_int64", "int(" TS ") -> int", f_to_int),
    O("less_timestamp", "_<_(" TS ", " TS ") -> bool", f_lt),
    O("less_equals_timestamp", "_<=_(" TS ", " TS ") -> bool", f_le),
    O("greater_timestamp", "_>_(" TS ", " TS ") -> bool", f_gt),
    O("greater_equals_timestamp", "_>=_(" TS ", " TS ") -> bool", f_ge),
    O("less_duration", "_<_(" DU ", " DU ") -> bool", f_lt),
    O("less_equals_duration", "_<=_(" DU ", " DU ") -> bool", f_le),
    O("greater_duration", "_>_(" DU ", " DU ") -> bool", f_gt),
    O("greater_equals_duration", "_>=_(" DU ", " DU ") -> bool", f_ge),
    O("add_timestamp_duration", "_+_(" TS ", " DU ") -> " TS, f_add),
    O("add_duration_timestamp", "_+_(" DU ", " TS ") -> " TS, f_add),
    O("add_duration_duration", "_+_(" DU ", " DU ") -> " DU, f_add),
    O("subtract_timestamp_timestamp", "_-_(" TS ", " TS ") -> " DU, f_sub),
    O("subtract_timestamp_duration", "_-_(" TS ", " DU ") -> " TS, f_sub),
    O("subtract_duration_duration", "_-_(" DU ", " DU ") -> " DU, f_sub),
    ACCESSOR("getFullYear", f_year),
    ACCESSOR("getMonth", f_month),
    ACCESSOR("getDayOfYear", f_day_of_year),
    ACCESSOR("getDayOfMonth", f_day_of_month),
    ACCESSOR("getDate", f_date),
    ACCESSOR("getDayOfWeek", f_day_of_week),
    ACCESSOR("getHours", f_hours),
    ACCESSOR("getMinutes", f_minutes),
    ACCESSOR("getSeconds", f_seconds),
    ACCESSOR("getMilliseconds", f_millis),
    O("duration_to_hours", DU ".getHours() -> int", f_hours),
    O("duration_to_minutes", DU ".getMinutes() -> int", f_minutes),
    O("duration_to_seconds", DU ".getSeconds() -> int", f_seconds),
    O("duration_to_milliseconds", DU ".getMilliseconds() -> int", f_millis),
};

cel_lib cel_lib_time = {"time", time_ovs, sizeof time_ovs / sizeof *time_ovs};
