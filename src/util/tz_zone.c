/* tz_zone.c: see tz_zone.h. The zone before the first transition is
 * chosen as Go's lookupFirstZone chooses it; the footer is read as Go's
 * tzsetName, tzsetOffset, tzsetRule read it and applied as tzset and
 * tzruleTime apply it (time/zoneinfo.go). */
#include "util/tz_zone.h"
#include "util/civil_date.h"
#include "util/die.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define ZONEINFO "/usr/share/zoneinfo/"
#define MAX_TZIF (1u << 20)

typedef struct reader {
  const unsigned char *p, *end;
} reader;

static bool take(reader *r, size_t n, const unsigned char **at) {
  if ((size_t)(r->end - r->p) < n) return false;
  *at = r->p;
  r->p += n;
  return true;
}

static uint32_t be32(const unsigned char *b) {
  return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static int64_t be64(const unsigned char *b) { return (int64_t)((uint64_t)be32(b) << 32 | be32(b + 4)); }

typedef struct header {
  uint32_t isut, isstd, leap, time, type, chars;
  char version;
} header;

static bool read_header(reader *r, header *h) {
  const unsigned char *b;
  if (!take(r, 44, &b) || memcmp(b, "TZif", 4)) return false;
  h->version = (char)b[4];
  h->isut = be32(b + 20);
  h->isstd = be32(b + 24);
  h->leap = be32(b + 28);
  h->time = be32(b + 32);
  h->type = be32(b + 36);
  h->chars = be32(b + 40);
  /* RFC 8536: at least one type; the indicator counts are 0 or typecnt */
  return h->type >= 1 && h->type <= MAX_TZIF && h->isut <= MAX_TZIF && h->isstd <= MAX_TZIF && h->time <= MAX_TZIF &&
         h->leap <= MAX_TZIF && h->chars <= MAX_TZIF;
}

/* The data block after h, its times tsize bytes wide. */
static bool read_block(reader *r, const header *h, size_t tsize, tz_zone *z) {
  const unsigned char *times, *idx, *types, *skip;
  if (!take(r, (size_t)h->time * tsize, &times) || !take(r, h->time, &idx) || !take(r, (size_t)h->type * 6, &types) ||
      !take(r, h->chars, &skip) || !take(r, (size_t)h->leap * (tsize + 4), &skip) || !take(r, h->isstd, &skip) ||
      !take(r, h->isut, &skip))
    return false;
  z->n = h->time;
  z->n_types = h->type;
  z->when = xcalloc(z->n + 1, sizeof *z->when);
  z->to = xcalloc(z->n + 1, sizeof *z->to);
  z->offset = xcalloc(z->n_types, sizeof *z->offset);
  z->dst = xcalloc(z->n_types, sizeof *z->dst);
  for (size_t i = 0; i < z->n; i++) {
    z->when[i] = tsize == 8 ? be64(times + 8 * i) : (int32_t)be32(times + 4 * i);
    z->to[i] = idx[i];
    if (idx[i] >= h->type || (i && z->when[i] <= z->when[i - 1])) return false;
  }
  for (size_t i = 0; i < z->n_types; i++) {
    z->offset[i] = (int32_t)be32(types + 6 * i);
    z->dst[i] = types[6 * i + 4] != 0;
    if (types[6 * i + 5] >= h->chars) return false; /* the abbreviation is past the list */
    /* no real zone is a week off UTC: kept out so that sums cannot overflow */
    if (z->offset[i] < -86400 * 7 || z->offset[i] > 86400 * 7) return false;
  }
  return true;
}

/* ---- the footer: a POSIX TZ string ---- */

typedef struct text {
  const char *p, *end;
} text;

/* tzsetName: "<...>" or at least three characters up to a digit, ',', '-' or '+'. */
static bool rule_name(text *t) {
  if (t->p == t->end) return false;
  if (*t->p == '<') {
    const char *close = memchr(t->p, '>', (size_t)(t->end - t->p));
    if (!close) return false;
    t->p = close + 1;
    return true;
  }
  const char *q = t->p;
  while (q < t->end && !strchr("0123456789,-+", *q)) q++;
  if (q - t->p < 3) return false;
  t->p = q;
  return true;
}

/* tzsetNum: digits in [min, max]. */
static bool rule_num(text *t, int min, int max, int *out) {
  const char *q = t->p;
  int n = 0;
  for (; q < t->end && *q >= '0' && *q <= '9'; q++) {
    n = n * 10 + (*q - '0');
    if (n > max) return false;
  }
  if (q == t->p || n < min) return false;
  t->p = q;
  *out = n;
  return true;
}

/* tzsetOffset: [+-]hh[:mm[:ss]], hours up to a week. */
static bool rule_offset(text *t, int32_t *out) {
  if (t->p == t->end) return false;
  bool neg = *t->p == '-';
  if (*t->p == '+' || *t->p == '-') t->p++;
  int part, off = 0;
  if (!rule_num(t, 0, 24 * 7, &part)) return false;
  off = part * 3600;
  static const int scale[] = {60, 1}; /* :mm, then :ss */
  for (int i = 0; i < 2 && t->p < t->end && *t->p == ':'; i++) {
    t->p++;
    if (!rule_num(t, 0, 59, &part)) return false;
    off += part * scale[i];
  }
  *out = neg ? -off : off;
  return true;
}

/* tzsetRule: Jn, n or Mm.w.d, then /time (2:00 by default). */
static bool rule_day(text *t, tz_rule_day *r) {
  *r = (tz_rule_day){0};
  if (t->p == t->end) return false;
  if (*t->p == 'J') {
    t->p++;
    r->kind = 'J';
    if (!rule_num(t, 1, 365, &r->day)) return false;
  } else if (*t->p == 'M') {
    t->p++;
    r->kind = 'M';
    if (!rule_num(t, 1, 12, &r->month) || t->p == t->end || *t->p++ != '.' || !rule_num(t, 1, 5, &r->week) ||
        t->p == t->end || *t->p++ != '.' || !rule_num(t, 0, 6, &r->day))
      return false;
  } else {
    r->kind = 'D';
    if (!rule_num(t, 0, 365, &r->day)) return false;
  }
  r->time = 2 * 3600;
  if (t->p == t->end || *t->p != '/') return true;
  t->p++;
  return rule_offset(t, &r->time);
}

static void parse_rule(const char *s, size_t n, tz_rule *r) {
  text t = {s, s + n};
  *r = (tz_rule){0};
  if (!rule_name(&t) || !rule_offset(&t, &r->std_offset)) return;
  r->std_offset = -r->std_offset; /* POSIX offsets are west of UTC */
  if (t.p == t.end || *t.p == ',') {
    r->valid = true;
    return;
  }
  if (!rule_name(&t)) return;
  r->has_dst = true;
  if (t.p == t.end || *t.p == ',') r->dst_offset = r->std_offset + 3600;
  else if (rule_offset(&t, &r->dst_offset)) r->dst_offset = -r->dst_offset;
  else return;
  static const char us_rule[] = ",M3.2.0,M11.1.0"; /* tzcode's default */
  if (t.p == t.end) t = (text){us_rule, us_rule + sizeof us_rule - 1};
  if (*t.p != ',' && *t.p != ';') return;
  t.p++;
  if (!rule_day(&t, &r->start) || t.p == t.end || *t.p++ != ',' || !rule_day(&t, &r->end) || t.p != t.end) return;
  r->valid = true;
}

static bool leap(int64_t y) { return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0); }

/* tzruleTime: seconds from the start of the year to the change, in UTC
 * for a zone at offset off. */
static int64_t rule_time(int64_t year, const tz_rule_day *r, int32_t off) {
  static const int before[] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365};
  int64_t d = 0;
  if (r->kind == 'J') d = r->day - 1 + (leap(year) && r->day >= 60);
  else if (r->kind == 'D') d = r->day;
  else {
    int64_t first = days_from_civil(year, (unsigned)r->month, 1);
    int dow = (int)(((first + 4) % 7 + 7) % 7); /* weekday of the month's first day */
    int64_t day = r->day - dow;
    if (day < 0) day += 7;
    int in_month = before[r->month] - before[r->month - 1] + (r->month == 2 && leap(year));
    for (int i = 1; i < r->week && day + 7 < in_month; i++) day += 7;
    d = day + before[r->month - 1] + (leap(year) && r->month > 2);
  }
  return d * 86400 + r->time - off;
}

/* tzset: the offset at t by the rule, and its span. */
static int32_t rule_lookup(const tz_rule *r, int64_t last_tx, int64_t t, int64_t *start, int64_t *end) {
  if (!r->has_dst) {
    *start = last_tx;
    *end = INT64_MAX;
    return r->std_offset;
  }
  int64_t days = t / 86400 - (t % 86400 < 0), year;
  unsigned m, d;
  civil_from_days(days, &year, &m, &d);
  int64_t ysec = (days - days_from_civil(year, 1, 1)) * 86400 + t % 86400, ystart = t - ysec;
  int64_t s = rule_time(year, &r->start, r->std_offset), e = rule_time(year, &r->end, r->dst_offset);
  int32_t std = r->std_offset, dst = r->dst_offset;
  if (e < s) { /* southern hemisphere: the names swap, the spans do not */
    int64_t x = s;
    s = e;
    e = x;
    int32_t o = std;
    std = dst;
    dst = o;
  }
  if (ysec < s) {
    *start = ystart;
    *end = ystart + s;
    return std;
  }
  if (ysec >= e) {
    *start = ystart + e;
    *end = ystart + 365 * 86400;
    return std;
  }
  *start = ystart + s;
  *end = ystart + e;
  return dst;
}

bool tz_zone_parse(const unsigned char *data, size_t n, tz_zone *out) {
  reader r = {data, data + n};
  header h;
  *out = (tz_zone){0};
  if (!read_header(&r, &h)) return false;
  bool ok;
  if (h.version >= '2') {
    tz_zone v1 = {0};
    ok = read_block(&r, &h, 4, &v1) && read_header(&r, &h) && read_block(&r, &h, 8, out);
    tz_zone_free(&v1);
    size_t rest = (size_t)(r.end - r.p);
    if (ok && rest > 2 && r.p[0] == '\n' && r.end[-1] == '\n') parse_rule((const char *)r.p + 1, rest - 2, &out->rule);
  } else ok = read_block(&r, &h, 4, out);
  if (!ok) tz_zone_free(out);
  return ok;
}

static bool fail(strbuf *err, const char *a, const char *b) {
  sb_puts(err, a);
  sb_puts(err, b);
  return false;
}

bool tz_zone_load(const char *name, tz_zone *out, strbuf *err) {
  *out = (tz_zone){0};
  if (!*name || !strcmp(name, "UTC") || !strcmp(name, "Local")) return true;
  if (strstr(name, "..") || *name == '/' || *name == '\\') return fail(err, "time: invalid location name", "");
  char *path = xmalloc(strlen(ZONEINFO) + strlen(name) + 1);
  strcpy(path, ZONEINFO);
  strcat(path, name);
  FILE *f = fopen(path, "rb");
  free(path);
  if (!f) return fail(err, "unknown time zone ", name);
  /* the size it says (a directory's is no guide), up to the limit */
  struct stat st;
  size_t cap = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size < MAX_TZIF ? (size_t)st.st_size + 1 : MAX_TZIF;
  unsigned char *buf = xmalloc(cap);
  size_t n = fread(buf, 1, cap, f);
  int read_errno = ferror(f) ? errno : 0;
  fclose(f);
  bool ok = !read_errno && tz_zone_parse(buf, n, out);
  free(buf);
  if (read_errno == EISDIR) return fail(err, "is a directory", "");
  if (!ok) return fail(err, read_errno ? "unknown time zone " : "malformed time zone information", read_errno ? name : "");
  return true;
}

/* lookupFirstZone: the type in force before the first transition. */
static size_t first_type(const tz_zone *z) {
  bool used = false;
  for (size_t i = 0; i < z->n && !used; i++) used = z->to[i] == 0;
  if (!used) return 0;
  if (z->n && z->dst[z->to[0]])
    for (size_t t = z->to[0]; t-- > 0;)
      if (!z->dst[t]) return t;
  for (size_t t = 0; t < z->n_types; t++)
    if (!z->dst[t]) return t;
  return 0;
}

int32_t tz_zone_lookup(const tz_zone *z, int64_t t, int64_t *start, int64_t *end) {
  *start = INT64_MIN;
  *end = INT64_MAX;
  if (!z->n_types) return 0;
  if (z->n && t < z->when[0]) {
    *end = z->when[0];
    return z->offset[first_type(z)];
  }
  /* the last transition at or before t; without any, Go's one at the dawn of time to type 0 */
  size_t lo = 0, hi = z->n;
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (z->when[mid] <= t) lo = mid;
    else hi = mid;
  }
  if (z->n) *start = z->when[lo];
  if (lo + 1 < z->n) *end = z->when[lo + 1];
  else if (z->rule.valid) return rule_lookup(&z->rule, *start, t, start, end);
  return z->offset[z->n ? z->to[lo] : 0];
}

void tz_zone_free(tz_zone *z) {
  free(z->when);
  free(z->to);
  free(z->offset);
  free(z->dst);
  *z = (tz_zone){0};
}
