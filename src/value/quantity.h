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

/* The value is nanos * 10^-9, exact. As resource.ParseQuantity does,
 * precision below 1n rounds away from zero ("0.1n" -> 1n, "-0.1n" -> -1n),
 * and a BinarySI value above 2^63-1 is capped there ("8Ei" -> 2^63-1).
 * Limit (ours, not Kubernetes'): |nanos| <= QUANTITY_MAX_NANOS, i.e. the
 * value has at most 29 integer digits; a decimal quantity beyond that does
 * not parse ("quantity is too large"), where Kubernetes' arbitrary-precision
 * decimal would accept it. */
typedef struct quantity {
  __int128 nanos;
  quantity_format format;
  /* How Kubernetes holds the value, which only Quantity.AsInt64 (CEL's
   * isInteger()/asInteger()) shows: an int64 times 10^scale, or (dec) an
   * arbitrary-precision decimal, as ParseQuantity's slow path and an
   * overflowing Add/Sub leave it. Zero: an int64, scale 0. */
  int32_t scale;
  bool dec;
} quantity;

#define QUANTITY_MAX_NANOS ((__int128)10000000000000000000ULL * (__int128)10000000000000000000ULL - 1)

#define QUANTITY_REGEX_ERROR "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
#define QUANTITY_SUFFIX_ERROR "unable to parse quantity's suffix"
#define QUANTITY_NUMERIC_ERROR "unable to parse numeric part of quantity"
#define QUANTITY_TOO_LARGE_ERROR "quantity is too large"

/* Returns true on success. On failure *err (if given) points to a static
 * message: QUANTITY_REGEX_ERROR for syntax, or QUANTITY_SUFFIX_ERROR,
 * QUANTITY_NUMERIC_ERROR (as Kubernetes), or QUANTITY_TOO_LARGE_ERROR.
 * Never allocates. Like Kubernetes it accepts a few odd forms: "1.", ".5",
 * "1.G", and a missing number reads as 0 ("+", ".", "m", "Ki"). */
bool quantity_parse(const char *s, size_t len, quantity *out, const char **err);
/* quantity_parse, and *keeps_text tells whether Kubernetes would remember
 * the input text: ParseQuantity keeps it for some already-near-canonical
 * inputs, and then String()/MarshalJSON print the text verbatim instead of
 * the canonical form ("+1", "1E3", "1.500k", "01Ki" stay as written). */
bool quantity_parse_keeping_text(const char *s, size_t len, quantity *out, const char **err,
                                 bool *keeps_text);
/* Canonical string, as Quantity.String() prints a computed value
 * (CanonicalizeBytes). buf of >= 64 bytes (shorter buffers truncate). */
const char *quantity_format_str(const quantity *q, char *buf, size_t n);
int quantity_cmp(const quantity *a, const quantity *b);
/* Exact sum/difference (saturating at +-QUANTITY_MAX_NANOS). The format is
 * a's, or b's when a is zero, as Quantity.Add/Sub do. */
quantity quantity_add(quantity a, quantity b);
quantity quantity_sub(quantity a, quantity b);
bool quantity_is_zero(const quantity *q);
/* -1, 0 or 1. */
int quantity_sign(const quantity *q);
/* Quantity.AsInt64: the value when Kubernetes holds it as an int64 with
 * a scale >= 0 that fits (so never "1.0", "1000m" or "1.5Gi"). */
bool quantity_as_int64(const quantity *q, int64_t *out);
/* Value() and MilliValue(): rounded up away from zero to an integer
 * (1.1 -> 2, -1.1 -> -2), saturating at the int64 limits (Kubernetes
 * silently overflows there). */
int64_t quantity_value(const quantity *q);
int64_t quantity_milli_value(const quantity *q);
quantity quantity_from_int(int64_t v, quantity_format f);

#endif
