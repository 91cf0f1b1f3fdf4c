/* run_duration.h: the run time a pod asks the node simulator for, in its
 * dra.k8s.io/run-duration annotation (docs/server.md, "Nodes"), read as
 * Go's time.ParseDuration reads a duration: "30s", "1m30s", "1.5h",
 * "250ms"; units ns, us (µs, μs), ms, s, m, h; "0" alone. */
#ifndef DRA_SCHED_RUN_DURATION_H
#define DRA_SCHED_RUN_DURATION_H
#include <stdbool.h>
#include <stdint.h>

#define SCHED_RUN_DURATION_ANNOTATION "dra.k8s.io/run-duration"

/* The duration in whole seconds, rounded up (the loop's clock counts
 * seconds); false for text Go would refuse, a negative duration, or one
 * beyond Go's range (about 292 years). */
bool sched_parse_run_duration(const char *text, int64_t *seconds);

#endif
