/* histogram.c: the buckets of histogram.h. */
#include "util/histogram.h"
#include "util/die.h"
#include <stdlib.h>

void histogram_init(histogram *h, const double *bounds, size_t n_bounds) {
  *h = (histogram){.bounds = bounds, .n_bounds = n_bounds, .in_bucket = xcalloc(n_bounds, sizeof *h->in_bucket)};
}

void histogram_observe(histogram *h, double value) {
  size_t i = 0;
  while (i < h->n_bounds && value > h->bounds[i]) i++;
  if (i < h->n_bounds) h->in_bucket[i]++;
  h->count++;
  h->sum += value;
}

uint64_t histogram_cumulative(const histogram *h, size_t i) {
  uint64_t n = 0;
  for (size_t k = 0; k <= i && k < h->n_bounds; k++) n += h->in_bucket[k];
  return n;
}

void histogram_free(histogram *h) {
  free(h->in_bucket);
  h->in_bucket = NULL;
}
