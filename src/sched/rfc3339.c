/* rfc3339.c: see rfc3339.h. Also accepts a fraction and a numeric offset,
 * which kubectl dumps do not contain but users may write. */
#include "sched/rfc3339.h"
#include <stdio.h>
#include <string.h>

static int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = (unsigned)(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + (int64_t)doe - 719468;
}

bool sched_parse_time(const char *t, int64_t *out) {
  int y, mo, d, h, mi, s, n = 0;
  if (!t || sscanf(t, "%4d-%2d-%2dT%2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &s, &n) != 6 || n != 19) return false;
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return false;
  const char *p = t + n;
  if (*p == '.')
    for (p++; *p >= '0' && *p <= '9'; p++) {
    }
  int64_t offset = 0;
  if (*p == 'Z' || *p == 'z') p++;
  else if (*p == '+' || *p == '-') {
    int oh, om, k = 0;
    if (sscanf(p + 1, "%2d:%2d%n", &oh, &om, &k) != 2 || k != 5) return false;
    offset = (oh * 3600 + om * 60) * (*p == '+' ? 1 : -1);
    p += 6;
  } else return false;
  if (*p) return false;
  *out = days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 + h * 3600 + mi * 60 + s - offset;
  return true;
}
