/* cron_schedule.c: see cron_schedule.h. Parsing follows robfig/cron v3's
 * parser.go (fields split on Go's Unicode white space, a field split on
 * ',' with empty parts skipped, each part "<range>[/<step>]" with numbers
 * read by Go's strconv.Atoi); Next follows spec.go's walk from month down
 * to second, in the schedule's zone, with Go's time.Date normalisation
 * (a civil time in a DST gap or overlap takes the offset Go picks). */
#include "api/cron_schedule.h"
#include "util/civil_date.h"
#include "util/die.h"
#include "util/go_duration.h"
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct bounds {
  unsigned min, max;
  const char *const *names; /* NULL or max - min + 1 names from min on */
} bounds;

static const char *const month_names[] = {"jan", "feb", "mar", "apr", "may", "jun",
                                          "jul", "aug", "sep", "oct", "nov", "dec"};
static const char *const dow_names[] = {"sun", "mon", "tue", "wed", "thu", "fri", "sat"};
static const bounds minutes = {0, 59, NULL}, hours = {0, 23, NULL}, dom = {1, 31, NULL},
                    months = {1, 12, month_names}, dow = {0, 6, dow_names};

/* ---- Go's white space and strings.Fields ---- */

/* The length of the Unicode white space rune (unicode.IsSpace) at p, or 0. */
static size_t space_at(const unsigned char *p, const unsigned char *end) {
  if (p >= end) return 0;
  if (*p == ' ' || (*p >= '\t' && *p <= '\r')) return 1;
  if (end - p >= 2 && p[0] == 0xc2 && (p[1] == 0x85 || p[1] == 0xa0)) return 2;
  if (end - p < 3) return 0;
  unsigned cp = (unsigned)(p[0] & 0x0f) << 12 | (unsigned)(p[1] & 0x3f) << 6 | (p[2] & 0x3f);
  if ((p[0] & 0xf0) != 0xe0 || (p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80) return 0;
  bool space = cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200a) || cp == 0x2028 || cp == 0x2029 || cp == 0x202f ||
               cp == 0x205f || cp == 0x3000;
  return space ? 3 : 0;
}

typedef struct span {
  const char *p;
  size_t n;
} span;

/* Splits [p, end) into at most max fields; returns how many there are. */
static size_t fields(const char *p, const char *end, span *out, size_t max) {
  const unsigned char *u = (const unsigned char *)p, *e = (const unsigned char *)end;
  size_t n = 0;
  while (u < e) {
    size_t sp = space_at(u, e);
    if (sp) {
      u += sp;
      continue;
    }
    const unsigned char *start = u;
    while (u < e && !space_at(u, e)) u++;
    if (n < max) out[n] = (span){(const char *)start, (size_t)(u - start)};
    n++;
  }
  return n;
}

/* ---- numbers ---- */

enum { ATOI_OK, ATOI_SYNTAX, ATOI_RANGE };

/* strconv.Atoi on a 64-bit platform. */
static int go_atoi(const char *s, size_t n, int64_t *out) {
  bool neg = n && s[0] == '-', sign = n && (s[0] == '-' || s[0] == '+');
  if (n > 0 && n < 19) { /* the fast path: no overflow possible */
    if (sign && n == 1) return ATOI_SYNTAX;
    int64_t v = 0;
    for (size_t i = sign; i < n; i++) {
      if (s[i] < '0' || s[i] > '9') return ATOI_SYNTAX;
      v = v * 10 + (s[i] - '0');
    }
    *out = neg ? -v : v;
    return ATOI_OK;
  }
  if (!n || (sign && n == 1)) return ATOI_SYNTAX;
  /* ParseInt(s, 10, 0): ParseUint stops at the first bad byte or overflow */
  uint64_t v = 0;
  bool range = false;
  for (size_t i = sign; i < n && !range; i++) {
    if (s[i] < '0' || s[i] > '9') return ATOI_SYNTAX;
    unsigned d = (unsigned)(s[i] - '0');
    if (v >= UINT64_MAX / 10 + 1 || v * 10 + d < v * 10) range = true;
    else v = v * 10 + d;
  }
  if (range || (!neg && v >= 1ULL << 63) || (neg && v > 1ULL << 63)) return ATOI_RANGE;
  *out = neg ? (int64_t)(0 - v) : (int64_t)v;
  return ATOI_OK;
}

static void put_span(strbuf *sb, span s) { sb_printf(sb, "%.*s", (int)s.n, s.p); }

/* mustParseInt. */
static bool parse_int(span s, uint64_t *out, strbuf *err) {
  int64_t v = 0;
  int r = go_atoi(s.p, s.n, &v);
  if (r != ATOI_OK) {
    sb_puts(err, "failed to parse int from ");
    put_span(err, s);
    sb_puts(err, ": strconv.Atoi: parsing ");
    char *copy = xstrndup(s.p, s.n);
    sb_go_quote(err, copy);
    free(copy);
    sb_puts(err, r == ATOI_SYNTAX ? ": invalid syntax" : ": value out of range");
    return false;
  }
  if (v < 0) {
    sb_printf(err, "negative number (%lld) not allowed: ", (long long)v);
    put_span(err, s);
    return false;
  }
  *out = (uint64_t)v;
  return true;
}

/* parseIntOrName: a name in any case, or a number. */
static bool parse_value(span s, const bounds *b, uint64_t *out, strbuf *err) {
  for (unsigned i = 0; b->names && i <= b->max - b->min; i++)
    if (s.n == 3 && !strncasecmp(s.p, b->names[i], 3)) {
      *out = b->min + i;
      return true;
    }
  return parse_int(s, out, err);
}

/* ---- fields ---- */

static uint64_t bits(uint64_t start, uint64_t end, uint64_t step) {
  uint64_t v = 0;
  for (uint64_t i = start; i <= end; i += step) v |= 1ULL << i;
  return v;
}

/* Splits s at each sep: the number of parts, the first two in out. */
static size_t split(span s, char sep, span out[2]) {
  size_t parts = 0;
  const char *p = s.p, *end = s.p + s.n;
  for (;;) {
    const char *at = memchr(p, sep, (size_t)(end - p));
    const char *stop = at ? at : end;
    if (parts < 2) out[parts] = (span){p, (size_t)(stop - p)};
    parts++;
    if (!at) return parts;
    p = at + 1;
  }
}

static bool is(span s, const char *text) { return s.n == strlen(text) && !memcmp(s.p, text, s.n); }

/* getRange. */
static bool parse_range(span expr, const bounds *b, uint64_t *out, strbuf *err) {
  span range_step[2], low_high[2];
  size_t n_rs = split(expr, '/', range_step), n_lh = split(range_step[0], '-', low_high);
  uint64_t start, end, step = 1, extra = 0;
  if (is(low_high[0], "*") || is(low_high[0], "?")) {
    start = b->min;
    end = b->max;
    extra = CRON_STAR_BIT;
  } else {
    if (!parse_value(low_high[0], b, &start, err)) return false;
    if (n_lh == 1) end = start;
    else if (n_lh == 2) {
      if (!parse_value(low_high[1], b, &end, err)) return false;
    } else {
      sb_puts(err, "too many hyphens: ");
      put_span(err, expr);
      return false;
    }
  }
  if (n_rs == 2) {
    if (!parse_int(range_step[1], &step, err)) return false;
    if (n_lh == 1) end = b->max;
    if (step > 1) extra = 0;
  } else if (n_rs > 2) {
    sb_puts(err, "too many slashes: ");
    put_span(err, expr);
    return false;
  }
  if (start < b->min) sb_printf(err, "beginning of range (%llu) below minimum (%u): ", (unsigned long long)start, b->min);
  else if (end > b->max) sb_printf(err, "end of range (%llu) above maximum (%u): ", (unsigned long long)end, b->max);
  else if (start > end)
    sb_printf(err, "beginning of range (%llu) beyond end of range (%llu): ", (unsigned long long)start,
              (unsigned long long)end);
  else if (step == 0) sb_puts(err, "step of range should be a positive number: ");
  else {
    *out = bits(start, end, step) | extra;
    return true;
  }
  put_span(err, expr);
  return false;
}

/* getField: the ranges between commas (empty ones skipped), or'd. */
static bool parse_field(span f, const bounds *b, uint64_t *out, strbuf *err) {
  *out = 0;
  const char *p = f.p, *end = f.p + f.n;
  while (p < end) {
    const char *comma = memchr(p, ',', (size_t)(end - p));
    const char *stop = comma ? comma : end;
    uint64_t v;
    if (stop > p) {
      if (!parse_range((span){p, (size_t)(stop - p)}, b, &v, err)) return false;
      *out |= v;
    }
    p = stop + (comma != NULL);
  }
  return true;
}

/* ---- descriptors ---- */

static uint64_t all(const bounds *b) { return bits(b->min, b->max, 1) | CRON_STAR_BIT; }

static bool parse_descriptor(const char *d, cron_schedule *s, strbuf *err) {
  static const char every[] = "@every ";
  s->second = 1;
  s->minute = 1ULL << minutes.min;
  s->hour = 1ULL << hours.min;
  s->dom = 1ULL << dom.min;
  s->month = 1ULL << months.min;
  s->dow = all(&dow);
  if (!strcmp(d, "@yearly") || !strcmp(d, "@annually")) return true;
  s->month = all(&months);
  if (!strcmp(d, "@monthly")) return true;
  s->dom = all(&dom);
  if (!strcmp(d, "@weekly")) {
    s->dow = 1ULL << dow.min;
    return true;
  }
  if (!strcmp(d, "@daily") || !strcmp(d, "@midnight")) return true;
  s->hour = all(&hours);
  if (!strcmp(d, "@hourly")) return true;
  if (!strncmp(d, every, sizeof every - 1)) {
    const char *text = d + sizeof every - 1;
    int64_t ns;
    strbuf why = STRBUF_INIT;
    bool ok = go_parse_duration(text, strlen(text), &ns, &why);
    if (ok) {
      /* Every(): at least a second, whole seconds */
      s->every = true;
      s->delay = ns < 1000000000 ? 1 : ns / 1000000000;
    } else sb_printf(err, "failed to parse duration %s: %s", d, sb_str(&why));
    sb_free(&why);
    return ok;
  }
  sb_printf(err, "unrecognized descriptor: %s", d);
  return false;
}

/* ---- Parse ---- */

static bool parse_zone(const char **spec, cron_schedule *s, strbuf *err) {
  const char *text = *spec;
  const char *space = strchr(text, ' '), *eq = strchr(text, '=');
  if (!space) { /* spec[eq+1:i] with i = -1: the panic the parsers package recovers */
    sb_puts(err, "invalid schedule format: runtime error: slice bounds out of range [:-1]");
    return false;
  }
  char *name = xstrndup(eq + 1, (size_t)(space - eq - 1));
  strbuf why = STRBUF_INIT;
  bool ok = tz_zone_load(name, &s->zone, &why);
  if (!ok) sb_printf(err, "provided bad location %s: %s", name, sb_str(&why));
  sb_free(&why);
  free(name);
  *spec = space;
  return ok;
}

bool cron_schedule_parse(const char *spec, cron_schedule *s, strbuf *err) {
  *s = (cron_schedule){0};
  if (!*spec) {
    sb_puts(err, "empty spec string");
    return false;
  }
  const char *end = spec + strlen(spec);
  if (!strncmp(spec, "TZ=", 3) || !strncmp(spec, "CRON_TZ=", 8)) {
    if (!parse_zone(&spec, s, err)) return false;
    /* strings.TrimSpace */
    for (size_t n; (n = space_at((const unsigned char *)spec, (const unsigned char *)end));) spec += n;
    for (bool trimmed = true; trimmed && end > spec;) {
      trimmed = false;
      for (size_t back = 1; back <= 3 && back <= (size_t)(end - spec) && !trimmed; back++)
        if (space_at((const unsigned char *)end - back, (const unsigned char *)end) == back) {
          end -= back;
          trimmed = true;
        }
    }
  }
  if (spec < end && *spec == '@') {
    char *d = xstrndup(spec, (size_t)(end - spec));
    bool ok = parse_descriptor(d, s, err);
    free(d);
    return ok;
  }
  span f[5];
  size_t n = fields(spec, end, f, 5);
  if (n != 5) {
    span *all_fields = xcalloc(n + 1, sizeof *all_fields);
    fields(spec, end, all_fields, n);
    sb_printf(err, "expected exactly 5 fields, found %zu: [", n);
    for (size_t i = 0; i < n; i++) {
      if (i) sb_putc(err, ' ');
      put_span(err, all_fields[i]);
    }
    sb_putc(err, ']');
    free(all_fields);
    return false;
  }
  s->second = 1;
  return parse_field(f[0], &minutes, &s->minute, err) && parse_field(f[1], &hours, &s->hour, err) &&
         parse_field(f[2], &dom, &s->dom, err) && parse_field(f[3], &months, &s->month, err) &&
         parse_field(f[4], &dow, &s->dow, err);
}

void cron_schedule_free(cron_schedule *s) { tz_zone_free(&s->zone); }

/* ---- Next ---- */

typedef struct civil {
  int64_t year;
  unsigned month, day, hour, minute, second, weekday;
} civil;

static int64_t floor_div(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

static civil civil_of(const tz_zone *z, int64_t t) {
  int64_t start, end;
  int64_t local = t + tz_zone_lookup(z, t, &start, &end);
  int64_t days = floor_div(local, 86400), secs = local - days * 86400;
  civil c;
  civil_from_days(days, &c.year, &c.month, &c.day);
  c.hour = (unsigned)(secs / 3600);
  c.minute = (unsigned)(secs / 60 % 60);
  c.second = (unsigned)(secs % 60);
  c.weekday = (unsigned)(days + 4 - floor_div(days + 4, 7) * 7); /* 1970-01-01 was a Thursday */
  return c;
}

/* time.Date(year, month, day, hour, minute, second, 0, zone): month and day
 * may run over. A civil time the zone skips or repeats gets the offset Go's
 * lookup gives. */
static int64_t date(const tz_zone *z, int64_t year, int64_t month, int64_t day, int64_t hour, int64_t minute,
                    int64_t second) {
  year += floor_div(month - 1, 12);
  month = month - 1 - floor_div(month - 1, 12) * 12 + 1;
  int64_t unix = (days_from_civil(year, (unsigned)month, 1) + day - 1) * 86400 + hour * 3600 + minute * 60 + second;
  int64_t start, end;
  int32_t offset = tz_zone_lookup(z, unix, &start, &end);
  if (offset) {
    int64_t utc = unix - offset;
    if (utc < start || utc >= end) offset = tz_zone_lookup(z, utc, &start, &end);
    unix -= offset;
  }
  return unix;
}

static bool day_matches(const cron_schedule *s, const civil *c) {
  bool dom_match = s->dom >> c->day & 1, dow_match = s->dow >> c->weekday & 1;
  if ((s->dom | s->dow) & CRON_STAR_BIT) return dom_match && dow_match;
  return dom_match || dow_match;
}

bool cron_schedule_next(const cron_schedule *s, int64_t t, int64_t *next) {
  if (s->every) {
    *next = t + s->delay;
    return true;
  }
  /* a field that matches nothing (a list of empty parts, ",") would have
   * the walk run the whole five years, as robfig's does, to the same end */
  uint64_t dom_bits = s->dom & ~CRON_STAR_BIT, dow_bits = s->dow & ~CRON_STAR_BIT;
  bool no_day = (s->dom | s->dow) & CRON_STAR_BIT ? !dom_bits || !dow_bits : !dom_bits && !dow_bits;
  if (!(s->minute & ~CRON_STAR_BIT) || !(s->hour & ~CRON_STAR_BIT) || !(s->month & ~CRON_STAR_BIT) || no_day)
    return false;
  const tz_zone *z = &s->zone;
  t += 1;
  bool added = false;
  civil c = civil_of(z, t);
  int64_t year_limit = c.year + 5;
wrap:
  c = civil_of(z, t);
  if (c.year > year_limit) return false;
  while (!(s->month >> c.month & 1)) {
    if (!added) {
      added = true;
      t = date(z, c.year, c.month, 1, 0, 0, 0);
      c = civil_of(z, t);
    }
    t = date(z, c.year, c.month + 1, c.day, c.hour, c.minute, c.second);
    c = civil_of(z, t);
    if (c.month == 1) goto wrap;
  }
  while (!day_matches(s, &c)) {
    if (!added) {
      added = true;
      t = date(z, c.year, c.month, c.day, 0, 0, 0);
      c = civil_of(z, t);
    }
    t = date(z, c.year, c.month, c.day + 1, c.hour, c.minute, c.second);
    c = civil_of(z, t);
    if (c.hour) { /* a DST change moved midnight */
      t += c.hour > 12 ? (int64_t)(24 - c.hour) * 3600 : -(int64_t)c.hour * 3600;
      c = civil_of(z, t);
    }
    if (c.day == 1) goto wrap;
  }
  while (!(s->hour >> c.hour & 1)) {
    if (!added) {
      added = true;
      t = date(z, c.year, c.month, c.day, c.hour, 0, 0);
    }
    t += 3600;
    c = civil_of(z, t);
    if (c.hour == 0) goto wrap;
  }
  while (!(s->minute >> c.minute & 1)) {
    if (!added) {
      added = true;
      t -= t - floor_div(t, 60) * 60;
    }
    t += 60;
    c = civil_of(z, t);
    if (c.minute == 0) goto wrap;
  }
  while (!(s->second >> c.second & 1)) {
    added = true;
    t += 1;
    c = civil_of(z, t);
    if (c.second == 0) goto wrap;
  }
  *next = t;
  return true;
}
