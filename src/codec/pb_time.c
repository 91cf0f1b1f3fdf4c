/* pb_time.c: see pb_time.h. Dates through util/civil_date.h. */
#include "codec/pb_time.h"
#include "util/civil_date.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>

static bool digits(const char **s, int n, int *v) {
  *v = 0;
  for (int i = 0; i < n; i++, (*s)++) {
    if (!isdigit((unsigned char)**s)) return false;
    *v = *v * 10 + (**s - '0');
  }
  return true;
}

static bool expect(const char **s, char c) { return **s == c ? (*s)++, true : false; }

bool pb_parse_rfc3339(const char *s, int64_t *seconds, int32_t *nanos) {
  int y, mo, d, h, mi, se;
  if (!digits(&s, 4, &y) || !expect(&s, '-') || !digits(&s, 2, &mo) || !expect(&s, '-') || !digits(&s, 2, &d) ||
      !expect(&s, 'T') || !digits(&s, 2, &h) || !expect(&s, ':') || !digits(&s, 2, &mi) || !expect(&s, ':') ||
      !digits(&s, 2, &se))
    return false;
  static const int month_days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (mo < 1 || mo > 12 || d < 1 || d > month_days[mo - 1] || h > 23 || mi > 59 || se > 59) return false;
  bool leap = (y % 4 == 0 && y % 100) || y % 400 == 0;
  if (mo == 2 && d == 29 && !leap) return false;
  int32_t ns = 0;
  if (*s == '.') {
    s++;
    int n = 0;
    for (; isdigit((unsigned char)*s); s++, n++)
      if (n < 9) ns = ns * 10 + (*s - '0');
    if (!n) return false;
    for (; n < 9; n++) ns *= 10;
  }
  int offset = 0;
  if (*s == 'Z') s++;
  else if (*s == '+' || *s == '-') {
    int sign = *s++ == '-' ? -1 : 1, oh, om;
    if (!digits(&s, 2, &oh) || !expect(&s, ':') || !digits(&s, 2, &om) || oh > 23 || om > 59) return false;
    offset = sign * (oh * 3600 + om * 60);
  } else return false;
  if (*s) return false;
  *seconds = days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 + h * 3600 + mi * 60 + se - offset;
  *nanos = ns;
  return true;
}

void pb_format_rfc3339(strbuf *out, int64_t seconds, int32_t nanos, bool micro) {
  int64_t days = seconds / 86400, rem = seconds % 86400;
  if (rem < 0) rem += 86400, days--;
  int64_t y;
  unsigned m, d;
  civil_from_days(days, &y, &m, &d);
  sb_printf(out, "%04lld-%02u-%02uT%02d:%02d:%02d", (long long)y, m, d, (int)(rem / 3600), (int)(rem / 60 % 60),
            (int)(rem % 60));
  if (micro) sb_printf(out, ".%06d", nanos / 1000);
  sb_putc(out, 'Z');
}

/* Go's fmtFrac and fmtInt: v's digits with prec decimals, trailing zeros dropped. */
static void put_frac(strbuf *out, uint64_t v, int prec) {
  char buf[32];
  int n = snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
  if (prec == 0) {
    sb_puts(out, buf);
    return;
  }
  char whole[32], frac[32];
  if (n > prec) {
    memcpy(whole, buf, (size_t)(n - prec));
    whole[n - prec] = 0;
    memcpy(frac, buf + n - prec, (size_t)prec + 1);
  } else {
    strcpy(whole, "0");
    snprintf(frac, sizeof frac, "%0*llu", prec, (unsigned long long)v);
  }
  int fl = (int)strlen(frac);
  while (fl && frac[fl - 1] == '0') frac[--fl] = 0;
  sb_puts(out, whole);
  if (fl) sb_printf(out, ".%s", frac);
}

void pb_format_duration(strbuf *out, int64_t ns) {
  uint64_t u = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
  if (ns < 0) sb_putc(out, '-');
  if (u == 0) {
    sb_puts(out, "0s");
    return;
  }
  if (u < 1000000000ULL) {
    const char *unit = u < 1000 ? "ns" : u < 1000000 ? "\xc2\xb5s" : "ms";
    int prec = u < 1000 ? 0 : u < 1000000 ? 3 : 6;
    put_frac(out, u, prec);
    sb_puts(out, unit);
    return;
  }
  uint64_t secs = u / 1000000000ULL, h = secs / 3600, m = secs / 60 % 60;
  if (h) sb_printf(out, "%lluh", (unsigned long long)h);
  if (h || m) sb_printf(out, "%llum", (unsigned long long)m);
  put_frac(out, (secs % 60) * 1000000000ULL + u % 1000000000ULL, 9);
  sb_putc(out, 's');
}
