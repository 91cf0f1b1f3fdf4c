/* log.h: the server's log, in klog's text format
 * ("I1201 16:50:11.123456   12345 server.c:42] message") on stderr, with
 * klog's verbosity: log_v(n, ...) writes only when -v is n or more. One
 * write per line, so lines of several threads never mix. */
#ifndef DRA_LOG_H
#define DRA_LOG_H
#include <stdbool.h>

void log_set_verbosity(int v);
bool log_enabled(int v);
/* severity: 'I', 'W' or 'E'. */
void log_write(char severity, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#define log_info(...) log_write('I', __FILE__, __LINE__, __VA_ARGS__)
#define log_warning(...) log_write('W', __FILE__, __LINE__, __VA_ARGS__)
#define log_error(...) log_write('E', __FILE__, __LINE__, __VA_ARGS__)
#define log_v(v, ...)                                                                                                  \
  do {                                                                                                                 \
    if (log_enabled(v)) log_info(__VA_ARGS__);                                                                         \
  } while (0)

#endif
