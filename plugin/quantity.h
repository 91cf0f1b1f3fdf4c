/* quantity.h: Kubernetes quantities ("40Gi", "7", "400G", "500m") for the
 * sums capacity prints: read into a number of base units, added and
 * subtracted, and written back with the suffix family they came in. */
#ifndef KDRA_QUANTITY_H
#define KDRA_QUANTITY_H
#include <stdbool.h>
#include <stddef.h>

typedef struct qty {
  long double v; /* base units */
  bool binary;   /* written with Ki, Mi, Gi ... */
} qty;

/* false when text is not a quantity. */
bool qty_parse(const char *text, qty *out);
/* value into buf, e.g. "35Gi", "7", "1500m". */
const char *qty_format(qty q, char *buf, size_t len);

#endif
