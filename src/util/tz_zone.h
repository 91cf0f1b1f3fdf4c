/* tz_zone.h: time zones as Go's time.Location has them, for the CronJob
 * controller's timeZone: the offsets of a zone over time, read from the
 * TZif files of /usr/share/zoneinfo (RFC 8536, version 1 or the 64-bit
 * data of versions 2+), with the footer's POSIX TZ rule ("EST5EDT,M3.2.0,
 * M11.1.0") for times after the last transition, as Go's tzset reads it.
 * See docs/overview.md, 'CronJobs'. */
#ifndef DRA_UTIL_TZ_ZONE_H
#define DRA_UTIL_TZ_ZONE_H
#include "util/strbuf.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A day of the year a rule changes on: Jn (1-365, no Feb 29), n (0-365)
 * or Mm.w.d (month, week 1-5, weekday), and the local time of day. */
typedef struct tz_rule_day {
  char kind; /* 'J', 'D' or 'M' */
  int day, week, month;
  int32_t time;
} tz_rule_day;

/* The footer's rule, when it parsed: standard offset, and with DST its
 * offset and the days it starts and ends (offsets east of UTC). */
typedef struct tz_rule {
  bool valid, has_dst;
  int32_t std_offset, dst_offset;
  tz_rule_day start, end;
} tz_rule;

typedef struct tz_zone {
  int64_t *when;     /* transition times, ascending (Unix seconds) */
  uint8_t *to;       /* the type each transition starts */
  int32_t *offset;   /* each type's offset east of UTC (seconds) */
  bool *dst;         /* each type's isdst */
  size_t n, n_types; /* no types: UTC */
  tz_rule rule;      /* after the last transition, when valid */
} tz_zone;

/* A TZif file's zone; false when the data is not one (Go's
 * "malformed time zone information"). */
bool tz_zone_parse(const unsigned char *data, size_t n, tz_zone *out);
/* Go's time.LoadLocation(name): "" and "UTC" are UTC, and "Local" too (dra
 * takes its own zone to be UTC); other names are files under
 * /usr/share/zoneinfo. false with Go's message in err ("unknown time zone
 * X", "time: invalid location name", ...). */
bool tz_zone_load(const char *name, tz_zone *out, strbuf *err);
/* The offset in effect at t, and the span [*start, *end) it holds for;
 * after the last transition *end is INT64_MAX, the end of time (Go's
 * omega), which a transition at INT64_MAX itself starts and ends. */
int32_t tz_zone_lookup(const tz_zone *z, int64_t t, int64_t *start, int64_t *end);
void tz_zone_free(tz_zone *z);

#endif
