/* fuzz_tzif.c: libFuzzer target for tz_zone_parse (the TZif files a
 * CronJob's timeZone names). Bad data is refused, never a crash; a zone
 * that parses answers every lookup with a span that starts by the time
 * (its end may not pass it: Go's footer rule ends a leap year's last span
 * a day early; nor may the end of time, INT64_MAX, Go's omega, which ends
 * the last span even when a transition falls on it) and an offset within
 * eight days (a footer allows a week of hours and then minutes). */
#include <stdlib.h>

#include "util/tz_zone.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tz_zone z;
  if (!tz_zone_parse(data, size, &z)) return 0;
  for (size_t i = 0; i < z.n + 2; i++) {
    int64_t t = i < z.n ? z.when[i] : i == z.n ? INT64_MIN / 2 : INT64_MAX / 2, start, end;
    int32_t off = tz_zone_lookup(&z, t, &start, &end);
    if (t < start || (t >= end && end != INT64_MAX && !z.rule.valid) || off < -8 * 86400 || off > 8 * 86400) abort();
  }
  tz_zone_free(&z);
  return 0;
}
