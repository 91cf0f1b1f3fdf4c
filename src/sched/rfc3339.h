/* rfc3339.h: reading the timestamps the API carries ("2026-01-02T15:04:05Z",
 * whole seconds, UTC, as metav1.Time prints them). Writing is the store's
 * meta_format_time. */
#ifndef DRA_SCHED_RFC3339_H
#define DRA_SCHED_RFC3339_H
#include <stdbool.h>
#include <stdint.h>

/* Unix seconds of t; false when t is not in that form. */
bool sched_parse_time(const char *t, int64_t *out);

#endif
