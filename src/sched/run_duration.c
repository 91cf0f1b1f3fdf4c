/* run_duration.c: see run_duration.h. Go's time.ParseDuration
 * (util/go_duration.h), then rounded up to seconds. */
#include "sched/run_duration.h"
#include "util/go_duration.h"
#include <string.h>

#define NS_PER_SECOND 1000000000LL

bool sched_parse_run_duration(const char *text, int64_t *seconds) {
  int64_t ns;
  if (!text || !go_parse_duration(text, strlen(text), &ns, NULL) || ns < 0) return false;
  *seconds = ns / NS_PER_SECOND + (ns % NS_PER_SECOND != 0);
  return true;
}
