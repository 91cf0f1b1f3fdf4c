/* fuzz_cron_schedule.c: libFuzzer target for cron_schedule_parse (a
 * CronJob's spec.schedule). Bad input gives an error text, never a crash;
 * a schedule that parses steps forward from a few times: each next time is
 * later, and in UTC (no zone) falls on a minute, hour, day and month the
 * schedule names. */
#include <stdlib.h>
#include <string.h>

#include "api/cron_schedule.h"
#include "util/civil_date.h"

static void check_fields(const cron_schedule *s, int64_t t) {
  if (s->every || s->zone.n_types) return;
  int64_t days = t / 86400 - (t % 86400 < 0), secs = t - days * 86400, y;
  unsigned m, d, weekday = (unsigned)(((days + 4) % 7 + 7) % 7);
  civil_from_days(days, &y, &m, &d);
  if (secs % 60 || !(s->minute >> (secs / 60 % 60) & 1) || !(s->hour >> (secs / 3600) & 1) || !(s->month >> m & 1))
    abort();
  bool dom = s->dom >> d & 1, dow = s->dow >> weekday & 1;
  if ((s->dom | s->dow) & CRON_STAR_BIT ? !(dom && dow) : !(dom || dow)) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  memcpy(text, data, size);
  text[size] = 0;
  cron_schedule s;
  strbuf err = STRBUF_INIT;
  if (cron_schedule_parse(text, &s, &err)) {
    static const int64_t from[] = {0, 951782400 /* 2000-02-29 */, 1772879400, 4102444799 /* 2099-12-31 */};
    for (size_t i = 0; i < sizeof from / sizeof from[0]; i++) {
      int64_t t = from[i], next;
      for (int k = 0; k < 3 && cron_schedule_next(&s, t, &next); k++) {
        if (next <= t) abort();
        check_fields(&s, next);
        t = next;
      }
    }
  } else if (!err.len) abort();
  cron_schedule_free(&s);
  sb_free(&err);
  free(text);
  return 0;
}
