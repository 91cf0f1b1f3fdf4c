/* pb_time.h: the JSON texts of k8s.io/apimachinery's time types, to and
 * from the numbers their protobuf messages hold: metav1.Time (RFC 3339,
 * seconds, UTC), metav1.MicroTime (RFC 3339 with six decimals) and
 * metav1.Duration (Go's time.Duration text: "1h2m3.5s", "150ms"; read by
 * util/go_duration.h). */
#ifndef DRA_CODEC_PB_TIME_H
#define DRA_CODEC_PB_TIME_H
#include "util/strbuf.h"
#include <stdbool.h>
#include <stdint.h>

/* time.Parse(time.RFC3339, s): seconds since the epoch and nanoseconds. */
bool pb_parse_rfc3339(const char *s, int64_t *seconds, int32_t *nanos);
/* UTC "2006-01-02T15:04:05Z", or with micro, "2006-01-02T15:04:05.000000Z". */
void pb_format_rfc3339(strbuf *out, int64_t seconds, int32_t nanos, bool micro);
/* time.Duration.String(). */
void pb_format_duration(strbuf *out, int64_t ns);

#endif
