/* quantity.c: Kubernetes resource.Quantity (k8s.io/apimachinery
 * pkg/api/resource) on exact nano integers: parsing as ParseQuantity does,
 * canonical text as CanonicalizeBytes does, and the arithmetic the API and
 * allocator need. Owns the suffix tables. Never allocates, never uses
 * floating point. */
#include "value/quantity.h"

#include <string.h>

#define NANOS_PER_UNIT ((__int128)1000000000)
/* Kubernetes caps a parsed BinarySI value at 2^63-1. */
#define BINARY_CAP_NANOS ((__int128)INT64_MAX * NANOS_PER_UNIT)
/* Bounds the size arithmetic below; no real quantity comes near it. */
#define MAX_INPUT_LEN ((size_t)1 << 30)

static const struct {
  const char *text;
  int32_t exponent; /* power of ten */
} decimal_suffixes[] = {
    {"n", -9}, {"u", -6}, {"m", -3}, {"", 0}, {"k", 3}, {"M", 6}, {"G", 9}, {"T", 12}, {"P", 15}, {"E", 18},
};

/* Index = power of 1024. */
static const char *const binary_suffixes[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
#define MAX_BINARY_POWER 6

/* "<sign><num>.<denom><suffix>" as Kubernetes' parseQuantityString splits it. */
typedef struct number_parts {
  bool negative;
  bool has_digit;  /* the number part shows at least one digit */
  const char *num; /* integer digits after the leading zeros; empty reads as "0" */
  size_t num_len;
  const char *denom; /* fraction digits */
  size_t denom_len;
  const char *suffix;
  size_t suffix_len;
} number_parts;

typedef struct suffix_meaning {
  quantity_format format;
  int32_t exponent; /* power of ten, or of two for BinarySI */
} suffix_meaning;

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static bool is_suffix_letter(char c) {
  switch (c) {
  case 'e': case 'E': case 'i': case 'n': case 'u': case 'm':
  case 'k': case 'K': case 'M': case 'G': case 'T': case 'P':
    return true;
  default:
    return false;
  }
}

static size_t skip_digits(const char *s, size_t pos, size_t len) {
  while (pos < len && is_digit(s[pos]))
    pos++;
  return pos;
}

/* False when s is not: sign? digits* (. digits*)? suffix-letters* sign? digits*. */
static bool split_number(const char *s, size_t len, number_parts *p) {
  size_t pos = 0;
  *p = (number_parts){.num = s, .denom = s, .suffix = s + len};
  if (s[0] == '-' || s[0] == '+') {
    p->negative = s[0] == '-';
    pos++;
  }
  size_t zeros_from = pos;
  while (pos < len && s[pos] == '0')
    pos++;
  if (pos == len) { /* "000", "-", "+": zero without suffix */
    p->has_digit = true;
    return true;
  }
  p->num = s + pos;
  pos = skip_digits(s, pos, len);
  p->num_len = (size_t)(s + pos - p->num);
  p->has_digit = pos > zeros_from;
  if (pos < len && s[pos] == '.') {
    p->denom = s + ++pos;
    pos = skip_digits(s, pos, len);
    p->denom_len = (size_t)(s + pos - p->denom);
    p->has_digit |= p->denom_len > 0;
  }
  p->suffix = s + pos;
  p->suffix_len = len - pos;
  while (pos < len && is_suffix_letter(s[pos]))
    pos++;
  if (pos < len && (s[pos] == '+' || s[pos] == '-'))
    pos++;
  return skip_digits(s, pos, len) == len;
}

/* Go's strconv.ParseInt(s, 10, 64). */
static bool parse_go_int64(const char *s, size_t len, int64_t *out) {
  size_t pos = 0;
  bool negative = false;
  if (len > 0 && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    pos++;
  }
  if (pos == len)
    return false;
  uint64_t limit = negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX, v = 0;
  for (; pos < len; pos++) {
    if (!is_digit(s[pos]))
      return false;
    unsigned d = (unsigned)(s[pos] - '0');
    if (v > (limit - d) / 10)
      return false;
    v = v * 10 + d;
  }
  *out = !negative ? (int64_t)v : v > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)v;
  return true;
}

/* Go's int32(x): keeps the low 32 bits. */
static int32_t go_int32(int64_t x) {
  uint32_t u = (uint32_t)(uint64_t)x;
  return u <= INT32_MAX ? (int32_t)u : (int32_t)(u - (uint32_t)INT32_MAX - 1u) + INT32_MIN;
}

static bool interpret_suffix(const char *s, size_t len, suffix_meaning *m) {
  for (size_t i = 0; i < sizeof decimal_suffixes / sizeof decimal_suffixes[0]; i++)
    if (strlen(decimal_suffixes[i].text) == len && memcmp(decimal_suffixes[i].text, s, len) == 0) {
      *m = (suffix_meaning){QUANTITY_DECIMAL_SI, decimal_suffixes[i].exponent};
      return true;
    }
  for (int32_t power = 1; power <= MAX_BINARY_POWER; power++)
    if (len == 2 && memcmp(binary_suffixes[power], s, 2) == 0) {
      *m = (suffix_meaning){QUANTITY_BINARY_SI, 10 * power};
      return true;
    }
  int64_t exponent;
  if (len > 1 && (s[0] == 'e' || s[0] == 'E') && parse_go_int64(s + 1, len - 1, &exponent)) {
    *m = (suffix_meaning){QUANTITY_DECIMAL_EXPONENT, go_int32(exponent)};
    return true;
  }
  return false;
}

/* Digit i of the number with the '.' removed. */
static unsigned digit_at(const number_parts *p, size_t i) {
  return (unsigned)((i < p->num_len ? p->num[i] : p->denom[i - p->num_len]) - '0');
}

/* *v = *v * factor + addend, false past QUANTITY_MAX_NANOS (v, factor,
 * addend >= 0; factor, addend < 2^62). Small values skip the division. */
static bool mul_add(__int128 *v, __int128 factor, __int128 addend) {
  if (*v > (__int128)UINT64_MAX && *v > (QUANTITY_MAX_NANOS - addend) / factor)
    return false;
  __int128 r = *v * factor + addend; /* < 2^127 either way */
  if (r > QUANTITY_MAX_NANOS)
    return false;
  *v = r;
  return true;
}

/* |value| in nanos = digits * multiplier * 10^pow10, rounded up to an
 * integer; false if it exceeds QUANTITY_MAX_NANOS. */
static bool scale_digits(const number_parts *p, uint64_t multiplier, int64_t pow10, __int128 *nanos) {
  size_t lo = 0, hi = p->num_len + p->denom_len;
  while (lo < hi && digit_at(p, lo) == 0)
    lo++;
  while (hi > lo && digit_at(p, hi - 1) == 0) {
    hi--;
    pow10++;
  }
  *nanos = 0;
  if (lo == hi)
    return true;
  size_t significant = hi - lo, dropped = pow10 < 0 ? (size_t)-pow10 : 0;
  size_t kept = significant > dropped ? significant - dropped : 0;
  /* Multiply the dropped digits by multiplier from the right: what carries
   * over joins the integer part, anything left behind rounds it up. */
  unsigned __int128 carry = 0;
  bool inexact = false;
  for (size_t i = hi; i > lo + kept; i--) {
    unsigned __int128 t = (unsigned __int128)digit_at(p, i - 1) * multiplier + carry;
    inexact |= t % 10 != 0;
    carry = t / 10;
  }
  for (size_t zeros = significant - kept; zeros < dropped && carry != 0; zeros++) {
    inexact |= carry % 10 != 0;
    carry /= 10;
  }
  __int128 v = 0;
  for (size_t i = lo; i < lo + kept; i++)
    if (!mul_add(&v, 10, digit_at(p, i)))
      return false;
  if (!mul_add(&v, (__int128)multiplier, (__int128)carry + inexact))
    return false;
  for (int64_t i = 0; i < pow10; i++)
    if (!mul_add(&v, 10, 0))
      return false;
  *nanos = v;
  return true;
}

/* Digit i of the number as Kubernetes' fast path joins it: the integer
 * digits (or "0" when there are none), then the fraction digits. */
static unsigned joined_digit(const number_parts *p, size_t i) {
  if (p->num_len > 0)
    return digit_at(p, i);
  return i == 0 ? 0 : (unsigned)(p->denom[i - 1] - '0');
}

/* Kubernetes keeps the input text when its int64 fast path sees a number
 * already in canonical shape; this mirrors that test. */
static bool text_is_kept(const number_parts *p, const suffix_meaning *m) {
  if (m->format == QUANTITY_BINARY_SI) {
    uint64_t value = 0; /* fast path: at most 13 digits */
    for (size_t i = 0; i < p->num_len; i++)
      value = value * 10 + digit_at(p, i);
    return (value & 7) != 0;
  }
  int64_t scale = (int64_t)m->exponent - (int64_t)p->denom_len;
  size_t n = (p->num_len > 0 ? p->num_len : 1) + p->denom_len;
  bool ends_000 = n >= 3 && joined_digit(p, n - 1) == 0 && joined_digit(p, n - 2) == 0 && joined_digit(p, n - 3) == 0;
  return scale % 3 == 0 && !ends_000 && p->num_len > 0;
}

static const char *parse_quantity(const char *s, size_t len, quantity *out, bool *keeps_text) {
  if (len == 0)
    return QUANTITY_REGEX_ERROR;
  if (len > MAX_INPUT_LEN)
    return QUANTITY_TOO_LARGE_ERROR;
  if (len == 1 && s[0] == '0') {
    *out = (quantity){.nanos = 0, .format = QUANTITY_DECIMAL_SI};
    *keeps_text = true;
    return NULL;
  }
  number_parts p;
  suffix_meaning m;
  if (!split_number(s, len, &p))
    return QUANTITY_REGEX_ERROR;
  if (!interpret_suffix(p.suffix, p.suffix_len, &m))
    return QUANTITY_SUFFIX_ERROR;

  /* Kubernetes has an int64 fast path and an inf.Dec slow path; they agree
   * on the value, but only the slow path rejects a number without digits,
   * and only the fast path keeps the input text. */
  bool binary = m.format == QUANTITY_BINARY_SI;
  int64_t num_digits = p.num_len > 0 ? (int64_t)p.num_len : 1, denom_digits = (int64_t)p.denom_len;
  bool fast = binary ? denom_digits == 0 && 15 - num_digits - m.exponent * 3 / 10 - 1 >= 0
                     : 18 - num_digits - denom_digits >= 0 && m.exponent - denom_digits >= -9;
  if (!fast && !p.has_digit)
    return QUANTITY_NUMERIC_ERROR;

  __int128 magnitude;
  bool fits = binary ? scale_digits(&p, (uint64_t)1 << m.exponent, 9 - denom_digits, &magnitude)
                     : scale_digits(&p, 1, (int64_t)m.exponent - denom_digits + 9, &magnitude);
  bool overflows_int64 = binary && (!fits || magnitude > BINARY_CAP_NANOS);
  if (binary) {
    if (overflows_int64)
      magnitude = BINARY_CAP_NANOS;
    if (magnitude > 0 && magnitude < NANOS_PER_UNIT) /* below 1: BinarySI would round */
      m.format = QUANTITY_DECIMAL_SI;
  } else if (!fits) {
    return QUANTITY_TOO_LARGE_ERROR;
  }
  /* the fast path's int64: the digits times 10^scale (decimal) or times
   * 2^exponent (binary, scale 0), unless that overflows */
  bool int_form = fast && !overflows_int64;
  int32_t scale = binary ? 0 : (int32_t)(m.exponent - denom_digits);
  *out = (quantity){p.negative ? -magnitude : magnitude, m.format, int_form ? scale : 0, !int_form};
  *keeps_text = fast && text_is_kept(&p, &m);
  return NULL;
}

bool quantity_parse_keeping_text(const char *s, size_t len, quantity *out, const char **err,
                                 bool *keeps_text) {
  quantity q;
  bool keeps = false;
  const char *e = parse_quantity(s, len, &q, &keeps);
  if (err)
    *err = e;
  if (keeps_text)
    *keeps_text = e == NULL && keeps;
  if (e)
    return false;
  *out = q;
  return true;
}

bool quantity_parse(const char *s, size_t len, quantity *out, const char **err) {
  return quantity_parse_keeping_text(s, len, out, err, NULL);
}

/* Appends the decimal digits of v at out; returns the length. Works in
 * 64-bit pieces: __int128 division is slow. */
static size_t put_int(char *out, __int128 v) {
  const uint64_t piece = 10000000000000000000ULL; /* 10^19 */
  unsigned __int128 m = v < 0 ? -(unsigned __int128)v : (unsigned __int128)v;
  char digits[48];
  size_t n = 0, len = 0;
  while (m > UINT64_MAX) {
    uint64_t low = (uint64_t)(m % piece);
    m /= piece;
    for (int i = 0; i < 19; i++, low /= 10)
      digits[n++] = (char)('0' + low % 10);
  }
  uint64_t high = (uint64_t)m;
  do {
    digits[n++] = (char)('0' + high % 10);
    high /= 10;
  } while (high != 0);
  if (v < 0)
    out[len++] = '-';
  while (n > 0)
    out[len++] = digits[--n];
  return len;
}

/* Divides out the factors of ten of m (non-zero); returns how many. */
static int strip_tens(__int128 *m) {
  int tens = 0;
  while (*m % 10 == 0 && (*m > INT64_MAX || *m < INT64_MIN)) {
    *m /= 10;
    tens++;
  }
  int64_t small = (int64_t)*m;
  if (small != *m)
    return tens;
  while (small % 10 == 0) {
    small /= 10;
    tens++;
  }
  *m = small;
  return tens;
}

static size_t put_text(char *out, const char *text) {
  size_t n = strlen(text);
  memcpy(out, text, n);
  return n;
}

static const char *decimal_suffix(int exponent) {
  for (size_t i = 0; i < sizeof decimal_suffixes / sizeof decimal_suffixes[0]; i++)
    if (decimal_suffixes[i].exponent == exponent)
      return decimal_suffixes[i].text;
  return NULL;
}

/* CanonicalizeBytes: the largest suffix that keeps the mantissa an integer.
 * BinarySI falls back to DecimalSI below 1024 and for fractions. Two cases
 * where apimachinery (snapshot 2026-07-23) prints a suffix it lacks as
 * nothing, losing the value, are written value-preserving instead:
 * a DecimalSI exponent above E prints "e<exp>" ("1000E" -> "1e21", not "1"),
 * as later upstream code does; a BinarySI value beyond Ei (only reachable
 * through sums) keeps "Ei" with a larger mantissa. */
static size_t canonical_text(const quantity *q, char *out) {
  if (q->nanos == 0)
    return put_text(out, "0");
  quantity_format format = q->format;
  if (format == QUANTITY_BINARY_SI &&
      ((q->nanos > -1024 * NANOS_PER_UNIT && q->nanos < 1024 * NANOS_PER_UNIT) || q->nanos % NANOS_PER_UNIT != 0))
    format = QUANTITY_DECIMAL_SI;
  if (format == QUANTITY_BINARY_SI) {
    __int128 units = q->nanos / NANOS_PER_UNIT;
    int power = 0;
    while (power < MAX_BINARY_POWER && units % 1024 == 0) {
      units /= 1024;
      power++;
    }
    size_t len = put_int(out, units);
    return len + put_text(out + len, binary_suffixes[power]);
  }
  __int128 mantissa = q->nanos;
  int exponent = -9 + strip_tens(&mantissa);
  while (exponent % 3 != 0) { /* exponent >= -9, so mantissa shrank first */
    mantissa *= 10;
    exponent--;
  }
  size_t len = put_int(out, mantissa);
  const char *suffix = format == QUANTITY_DECIMAL_SI ? decimal_suffix(exponent) : NULL;
  if (suffix)
    return len + put_text(out + len, suffix);
  if (exponent == 0)
    return len;
  out[len++] = 'e';
  return len + put_int(out + len, exponent);
}

const char *quantity_format_str(const quantity *q, char *buf, size_t n) {
  char text[64];
  size_t len = canonical_text(q, text);
  if (n == 0)
    return buf;
  if (len >= n)
    len = n - 1;
  memcpy(buf, text, len);
  buf[len] = '\0';
  return buf;
}

int quantity_cmp(const quantity *a, const quantity *b) { return (a->nanos > b->nanos) - (a->nanos < b->nanos); }

static __int128 saturate(__int128 v) {
  return v > QUANTITY_MAX_NANOS ? QUANTITY_MAX_NANOS : v < -QUANTITY_MAX_NANOS ? -QUANTITY_MAX_NANOS : v;
}

/* v as an int64 at scale s (v in nanos, a multiple of 10^(9+s)). */
static bool int64_at_scale(__int128 v, int32_t s, __int128 *out) {
  if (s < -9 || s > 27) return false;
  __int128 unit = 1;
  for (int32_t i = -9; i < s; i++) unit *= 10;
  if (v % unit) return false;
  *out = v / unit;
  return *out >= INT64_MIN && *out <= INT64_MAX;
}

/* The representation int64Amount.Add leaves for sum (an int64 at the
 * smaller scale, or a decimal when either operand is one or it overflows). */
static void sum_representation(quantity *r, const quantity *a, const quantity *b) {
  __int128 va, vb, vr;
  if (a->dec || b->dec) {
    r->dec = true;
    return;
  }
  if (b->nanos == 0 || a->nanos == 0) {
    r->scale = b->nanos == 0 ? a->scale : b->scale;
    return;
  }
  int32_t s = a->scale < b->scale ? a->scale : b->scale;
  r->dec = !int64_at_scale(a->nanos, s, &va) || !int64_at_scale(b->nanos, s, &vb) || !int64_at_scale(r->nanos, s, &vr);
  r->scale = r->dec ? 0 : s;
}

quantity quantity_add(quantity a, quantity b) {
  __int128 sum;
  if (__builtin_add_overflow(a.nanos, b.nanos, &sum))
    sum = a.nanos > 0 ? QUANTITY_MAX_NANOS : -QUANTITY_MAX_NANOS;
  quantity r = {saturate(sum), a.nanos == 0 ? b.format : a.format, 0, false};
  sum_representation(&r, &a, &b);
  return r;
}

quantity quantity_sub(quantity a, quantity b) {
  __int128 diff;
  if (__builtin_sub_overflow(a.nanos, b.nanos, &diff))
    diff = a.nanos > 0 ? QUANTITY_MAX_NANOS : -QUANTITY_MAX_NANOS;
  quantity r = {saturate(diff), a.nanos == 0 ? b.format : a.format, 0, false};
  quantity nb = b;
  nb.nanos = -b.nanos;
  sum_representation(&r, &a, &nb);
  return r;
}

bool quantity_as_int64(const quantity *q, int64_t *out) {
  __int128 v;
  if (q->dec || q->scale < 0 || !int64_at_scale(q->nanos, 0, &v)) return false;
  *out = (int64_t)v;
  return true;
}

bool quantity_is_zero(const quantity *q) { return q->nanos == 0; }

int quantity_sign(const quantity *q) { return (q->nanos > 0) - (q->nanos < 0); }

/* nanos / unit rounded away from zero, saturated to int64. */
static int64_t round_up_to(__int128 nanos, __int128 unit) {
  __int128 whole = nanos / unit, rest = nanos % unit;
  whole += (rest > 0) - (rest < 0);
  return whole > INT64_MAX ? INT64_MAX : whole < INT64_MIN ? INT64_MIN : (int64_t)whole;
}

int64_t quantity_value(const quantity *q) { return round_up_to(q->nanos, NANOS_PER_UNIT); }

int64_t quantity_milli_value(const quantity *q) { return round_up_to(q->nanos, NANOS_PER_UNIT / 1000); }

quantity quantity_from_int(int64_t v, quantity_format f) { return (quantity){.nanos = (__int128)v * NANOS_PER_UNIT, .format = f}; }
