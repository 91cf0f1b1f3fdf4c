/* histogram.h: a Prometheus-style histogram: counts of observations at or
 * under each upper bound, their number and their sum. Not locked: its
 * owner serializes observations and reads. */
#ifndef DRA_HISTOGRAM_H
#define DRA_HISTOGRAM_H
#include <stddef.h>
#include <stdint.h>

typedef struct histogram {
  const double *bounds; /* ascending upper bounds (static), +Inf implied */
  size_t n_bounds;
  uint64_t *in_bucket; /* observations per bucket, not cumulative */
  uint64_t count;
  double sum;
} histogram;

void histogram_init(histogram *h, const double *bounds, size_t n_bounds);
void histogram_observe(histogram *h, double value);
/* Observations at or under bounds[i] (cumulative, as Prometheus' le). */
uint64_t histogram_cumulative(const histogram *h, size_t i);
void histogram_free(histogram *h);

#endif
