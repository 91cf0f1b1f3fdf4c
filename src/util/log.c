/* log.c: klog's header (severity, month and day, wall time in microseconds,
 * the process id, file:line) in front of each message, and the -v level. */
#include "util/log.h"
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static atomic_int verbosity;

void log_set_verbosity(int v) { atomic_store(&verbosity, v); }

bool log_enabled(int v) { return atomic_load(&verbosity) >= v; }

void log_write(char severity, const char *file, int line, const char *fmt, ...) {
  struct timeval now;
  gettimeofday(&now, NULL);
  struct tm tm;
  localtime_r(&now.tv_sec, &tm);
  const char *base = strrchr(file, '/');
  char buf[4096];
  int n = snprintf(buf, sizeof buf, "%c%02d%02d %02d:%02d:%02d.%06ld %7d %s:%d] ", severity, tm.tm_mon + 1,
                   tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (long)now.tv_usec, (int)getpid(),
                   base ? base + 1 : file, line);
  va_list ap;
  va_start(ap, fmt);
  n += vsnprintf(buf + n, sizeof buf - (size_t)n, fmt, ap);
  va_end(ap);
  if ((size_t)n >= sizeof buf - 1) n = (int)sizeof buf - 2; /* cut, but keep the line whole */
  if (buf[n - 1] != '\n') buf[n++] = '\n';
  fwrite(buf, 1, (size_t)n, stderr);
}
