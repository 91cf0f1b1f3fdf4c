/* quantity.h: Kubernetes resource.Quantity: parse every accepted form
 * ("10Gi", "100m", "1e3", "0.5", "+1"), exact integer arithmetic in
 * nano-units, comparison, and canonical formatting ("0.5" -> "500m"). */
#ifndef DRA_QUANTITY_H
#define DRA_QUANTITY_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
  QUANTITY_DECIMAL_SI = 0,       /* 1k, 500m, 1 */
  QUANTITY_BINARY_SI = 1,        /* 1Ki, 10Gi */
  QUANTITY_DECIMAL_EXPONENT = 2, /* 1e3, 1E6 */
} quantity_format;

/* The value is nanos * 10^-9, exact; precision below 1n rounds up (away
 * from zero is NOT used: Kubernetes rounds up toward +inf), as
 * resource.ParseQuantity does. */
typedef struct quantity {
  __int128 nanos;
  quantity_format format;
} quantity;

#define QUANTITY_REGEX_ERROR "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"

/* Returns true on success. On failure *err (if given) points to a static
 * message: QUANTITY_REGEX_ERROR for syntax, or another Kubernetes text
 * ("unable to parse quantity's suffix", "quantity is too large"). */
bool quantity_parse(const char *s, size_t len, quantity *out, const char **err);
/* Canonical string, as Quantity.String() prints it. buf of >= 64 bytes. */
const char *quantity_format_str(const quantity *q, char *buf, size_t n);
int quantity_cmp(const quantity *a, const quantity *b);
quantity quantity_add(quantity a, quantity b);
quantity quantity_sub(quantity a, quantity b);
bool quantity_is_zero(const quantity *q);
/* Value() rounded up to an integer, and MilliValue(), saturating at int64. */
int64_t quantity_value(const quantity *q);
int64_t quantity_milli_value(const quantity *q);
quantity quantity_from_int(int64_t v, quantity_format f);

#endif
