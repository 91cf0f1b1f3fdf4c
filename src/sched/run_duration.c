/* run_duration.c: see run_duration.h. Nanoseconds are summed as Go's
 * time.ParseDuration sums them (a fraction keeps what fits in int64
 * nanoseconds), then rounded up to seconds. */
#include "sched/run_duration.h"
#include <string.h>

#define NS_PER_SECOND 1000000000ULL
#define MAX_NS 9223372036854775807ULL

static const struct {
  const char *name;
  uint64_t ns;
} units[] = {{"ns", 1},
             {"us", 1000},
             {"\xc2\xb5s", 1000}, /* U+00B5 micro sign */
             {"\xce\xbcs", 1000}, /* U+03BC Greek mu */
             {"ms", 1000000},
             {"s", NS_PER_SECOND},
             {"m", 60 * NS_PER_SECOND},
             {"h", 3600 * NS_PER_SECOND}};

/* The unit at *p (as many bytes as are not digits or '.'); 0 when unknown. */
static uint64_t read_unit(const char **p) {
  const char *s = *p, *e = s;
  while (*e && *e != '.' && (*e < '0' || *e > '9')) e++;
  size_t n = (size_t)(e - s);
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
    if (strlen(units[i].name) == n && !memcmp(units[i].name, s, n)) {
      *p = e;
      return units[i].ns;
    }
  return 0;
}

bool sched_parse_run_duration(const char *text, int64_t *seconds) {
  if (!text) return false;
  const char *p = text;
  if (*p == '+') p++;
  else if (*p == '-') return false;
  if (!strcmp(p, "0")) {
    *seconds = 0;
    return true;
  }
  if (!*p) return false;
  uint64_t total = 0;
  while (*p) {
    uint64_t whole = 0, frac = 0, scale = 1;
    bool digits = false;
    for (; *p >= '0' && *p <= '9'; p++, digits = true) {
      if (whole > (MAX_NS - 9) / 10) return false;
      whole = whole * 10 + (uint64_t)(*p - '0');
    }
    if (*p == '.') {
      p++;
      for (; *p >= '0' && *p <= '9'; p++, digits = true)
        if (scale <= MAX_NS / 10) { /* further digits are below a nanosecond's reach */
          frac = frac * 10 + (uint64_t)(*p - '0');
          scale *= 10;
        }
    }
    if (!digits) return false;
    uint64_t unit = read_unit(&p);
    if (!unit) return false;
    if (whole > MAX_NS / unit) return false;
    uint64_t ns = whole * unit;
    /* frac/scale of a unit, without overflowing: unit <= 3.6e12, frac < scale <= 1e18 */
    long double part = (long double)frac * (long double)unit / (long double)scale;
    ns += (uint64_t)part;
    if (ns > MAX_NS || total > MAX_NS - ns) return false;
    total += ns;
  }
  *seconds = (int64_t)((total + NS_PER_SECOND - 1) / NS_PER_SECOND);
  return true;
}
