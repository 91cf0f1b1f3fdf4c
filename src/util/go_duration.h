/* go_duration.h: Go's time.ParseDuration ("300ms", "-1.5h", "2h45m"; units
 * ns, us (µs, μs), ms, s, m, h; "0" alone), with its error texts, which
 * quote the input as package time's quote does (bytes outside printable
 * ASCII as \xNN). Used by the run-duration annotation and cron's "@every". */
#ifndef DRA_UTIL_GO_DURATION_H
#define DRA_UTIL_GO_DURATION_H
#include "util/strbuf.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The duration of text[0..n) in nanoseconds; false with Go's message
 * ("time: invalid duration \"x\"", ...) appended to err when not NULL. */
bool go_parse_duration(const char *text, size_t n, int64_t *ns, strbuf *err);
/* Package time's quote of s[0..n). */
void go_time_quote(strbuf *sb, const char *s, size_t n);

#endif
