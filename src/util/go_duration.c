/* go_duration.c: see go_duration.h. Summed as Go sums it: whole parts in
 * uint64 with its overflow checks, a fraction through a double (Go's
 * float64), so the same text gives the same nanoseconds. */
#include "util/go_duration.h"
#include <string.h>

#define LIMIT (1ULL << 63)

static const struct {
  const char *name;
  uint64_t ns;
} units[] = {{"ns", 1},
             {"us", 1000},
             {"\xc2\xb5s", 1000}, /* U+00B5 micro sign */
             {"\xce\xbcs", 1000}, /* U+03BC Greek mu */
             {"ms", 1000000},
             {"s", 1000000000ULL},
             {"m", 60000000000ULL},
             {"h", 3600000000000ULL}};

void go_time_quote(strbuf *sb, const char *s, size_t n) {
  static const char hex[] = "0123456789abcdef";
  sb_putc(sb, '"');
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x80 || c < ' ') {
      sb_puts(sb, "\\x");
      sb_putc(sb, hex[c >> 4]);
      sb_putc(sb, hex[c & 15]);
      continue;
    }
    if (c == '"' || c == '\\') sb_putc(sb, '\\');
    sb_putc(sb, (char)c);
  }
  sb_putc(sb, '"');
}

static bool fail(strbuf *err, const char *what, const char *unit, size_t unit_len, const char *text, size_t n) {
  if (!err) return false;
  sb_puts(err, "time: ");
  sb_puts(err, what);
  if (unit) {
    go_time_quote(err, unit, unit_len);
    sb_puts(err, " in duration");
  }
  sb_putc(err, ' ');
  go_time_quote(err, text, n);
  return false;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool go_parse_duration(const char *text, size_t n, int64_t *ns, strbuf *err) {
  const char *p = text, *end = text + n;
  bool neg = false;
  if (p < end && (*p == '-' || *p == '+')) neg = *p++ == '-';
  if (end - p == 1 && *p == '0') {
    *ns = 0;
    return true;
  }
  if (p == end) return fail(err, "invalid duration", NULL, 0, text, n);
  uint64_t total = 0;
  while (p < end) {
    if (*p != '.' && !is_digit(*p)) return fail(err, "invalid duration", NULL, 0, text, n);
    uint64_t whole = 0, frac = 0;
    double scale = 1;
    const char *start = p;
    for (; p < end && is_digit(*p); p++) {
      if (whole > LIMIT / 10) return fail(err, "invalid duration", NULL, 0, text, n);
      whole = whole * 10 + (uint64_t)(*p - '0');
      if (whole > LIMIT) return fail(err, "invalid duration", NULL, 0, text, n);
    }
    bool pre = p != start, post = false;
    if (p < end && *p == '.') {
      const char *fstart = ++p;
      bool overflow = false;
      for (; p < end && is_digit(*p); p++) {
        if (overflow) continue;
        uint64_t next = frac * 10 + (uint64_t)(*p - '0');
        if (frac > (LIMIT - 1) / 10 || next > LIMIT) {
          overflow = true; /* further digits add no precision */
          continue;
        }
        frac = next;
        scale *= 10;
      }
      post = p != fstart;
    }
    if (!pre && !post) return fail(err, "invalid duration", NULL, 0, text, n);
    const char *u = p;
    while (p < end && *p != '.' && !is_digit(*p)) p++;
    size_t ulen = (size_t)(p - u);
    if (!ulen) return fail(err, "missing unit in duration", NULL, 0, text, n);
    uint64_t unit = 0;
    for (size_t i = 0; i < sizeof units / sizeof units[0] && !unit; i++)
      if (strlen(units[i].name) == ulen && !memcmp(units[i].name, u, ulen)) unit = units[i].ns;
    if (!unit) return fail(err, "unknown unit ", u, ulen, text, n);
    if (whole > LIMIT / unit) return fail(err, "invalid duration", NULL, 0, text, n);
    whole *= unit;
    if (frac > 0) {
      whole += (uint64_t)((double)frac * ((double)unit / scale));
      if (whole > LIMIT) return fail(err, "invalid duration", NULL, 0, text, n);
    }
    total += whole;
    if (total > LIMIT) return fail(err, "invalid duration", NULL, 0, text, n);
  }
  if (neg) {
    *ns = total == LIMIT ? INT64_MIN : -(int64_t)total;
    return true;
  }
  if (total > LIMIT - 1) return fail(err, "invalid duration", NULL, 0, text, n);
  *ns = (int64_t)total;
  return true;
}
