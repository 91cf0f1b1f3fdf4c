/* cron_schedule.h: a CronJob's spec.schedule as kube-controller-manager and
 * kube-apiserver read it: github.com/robfig/cron/v3 ParseStandard, called
 * through k8s.io/kubernetes pkg/util/parsers ParseCronScheduleWithPanicRecovery.
 * Five fields (minute, hour, day of month, month, day of week) of lists of
 * "*", "?", numbers, names (jan-dec, sun-sat, any case), ranges and
 * "/steps"; the descriptors @yearly (@annually), @monthly, @weekly, @daily
 * (@midnight), @hourly and "@every <Go duration>"; a "TZ=<zone> " or
 * "CRON_TZ=<zone> " prefix. Errors carry robfig's texts. Times are Unix
 * seconds; the schedule's own zone is util/tz_zone.h's, and without one the
 * controller's (UTC in dra). See docs/overview.md, 'Workload controllers'. */
#ifndef DRA_API_CRON_SCHEDULE_H
#define DRA_API_CRON_SCHEDULE_H
#include "util/strbuf.h"
#include "util/tz_zone.h"
#include <stdbool.h>
#include <stdint.h>

#define CRON_STAR_BIT (1ULL << 63) /* the field was "*" or "?" (robfig's starBit) */

typedef struct cron_schedule {
  bool every;    /* "@every": a constant delay */
  int64_t delay; /* its seconds (at least 1) */
  /* otherwise the bits of the matching values, plus CRON_STAR_BIT */
  uint64_t second, minute, hour, dom, month, dow;
  tz_zone zone; /* from TZ=; UTC without it */
} cron_schedule;

/* false with robfig's (or the panic recovery's) message in err; either
 * way cron_schedule_free the result. */
bool cron_schedule_parse(const char *spec, cron_schedule *out, strbuf *err);
/* SpecSchedule.Next / ConstantDelaySchedule.Next: the first activation
 * after t. false when there is none within five years (Go's zero time). */
bool cron_schedule_next(const cron_schedule *s, int64_t t, int64_t *next);
void cron_schedule_free(cron_schedule *s);

#endif
