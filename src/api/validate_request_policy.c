/* validate_request_policy.c: a capacity's requestPolicy, in
 * kube-apiserver's order (k8s.io/kubernetes pkg/apis/resource/validation).
 * validValues: sort order, size, each option against the capacity,
 * uniqueness, then the default's membership. validRange: min, default and max
 * against each other and the capacity, then the step: integer arithmetic
 * (values must lie in [0, 2^63-1]) unless any value is fractional, then milli
 * arithmetic (values must be whole milli-units), as DRAFractionalCapacityRange
 * (on in dra) does it. */
#include "api/validate_request_policy.h"
#include <stdio.h>

enum { VALID_VALUES_MAX = 10 };
#define NANOS_PER_UNIT ((__int128)1000000000)
#define NANOS_PER_MILLI ((__int128)1000000)

typedef struct {
  char s[64];
} qtext;

static qtext qstr(const quantity *q) {
  qtext t;
  quantity_format_str(q, t.s, sizeof t.s);
  return t;
}

static void invalid_q(errlist *e, fpath *p, const char *field, const quantity *q, const char *detail) {
  size_t m = field ? fp_field(p, field) : 0;
  qtext t = qstr(q);
  fe_invalid_str(e, p, t.s, detail);
  if (field) fp_pop(p, m);
}

/* inf.Dec-like exact decimal of q without trailing zeros: the set key for
 * duplicate detection among validValues. */
static void decimal_text(const quantity *q, char *buf, size_t n) {
  __int128 v = q->nanos;
  bool neg = v < 0;
  unsigned __int128 u = neg ? (unsigned __int128)(-v) : (unsigned __int128)v;
  unsigned __int128 whole = u / 1000000000u, frac = u % 1000000000u;
  char digits[48];
  int k = 0;
  do {
    digits[k++] = (char)('0' + (int)(whole % 10));
    whole /= 10;
  } while (whole);
  size_t o = 0;
  if (neg && o + 1 < n) buf[o++] = '-';
  while (k && o + 1 < n) buf[o++] = digits[--k];
  if (frac) {
    char f[10];
    snprintf(f, sizeof f, "%09u", (unsigned)frac);
    int last = 8;
    while (f[last] == '0') last--;
    if (o + 1 < n) buf[o++] = '.';
    for (int i = 0; i <= last && o + 1 < n; i++) buf[o++] = f[i];
  }
  buf[o] = '\0';
}

static void validate_valid_values(errlist *e, fpath *p, const quantity *def, const quantity *capacity,
                                  const quantity_list *values) {
  size_t m = fp_field(p, "validValues");
  for (uint32_t i = 0; i + 1 < values->n; i++)
    if (quantity_cmp(&values->items[i], &values->items[i + 1]) > 0) {
      size_t mi = fp_index(p, i + 1);
      invalid_q(e, p, NULL, &values->items[i + 1], "values must be sorted in ascending order");
      fp_pop(p, mi);
    }
  bool found_default = false;
  if (values->n > VALID_VALUES_MAX) {
    fe_too_many(e, p, values->n, VALID_VALUES_MAX);
  } else {
    qtext cap = qstr(capacity);
    char detail[128];
    snprintf(detail, sizeof detail, "option is larger than capacity value: %s", cap.s);
    for (uint32_t i = 0; i < values->n; i++) {
      if (quantity_cmp(&values->items[i], capacity) > 0) {
        size_t mi = fp_index(p, i);
        invalid_q(e, p, NULL, &values->items[i], detail);
        fp_pop(p, mi);
      }
      if (quantity_cmp(&values->items[i], def) == 0) found_default = true;
    }
    for (uint32_t i = 0; i < values->n; i++)
      for (uint32_t j = 0; j < i; j++)
        if (quantity_cmp(&values->items[i], &values->items[j]) == 0) {
          char key[64];
          decimal_text(&values->items[i], key, sizeof key);
          size_t mi = fp_index(p, i);
          fe_duplicate_str(e, p, key);
          fp_pop(p, mi);
          break;
        }
  }
  if (!found_default) invalid_q(e, p, NULL, def, "default value is not valid according to the requestPolicy");
  fp_pop(p, m);
}

typedef struct {
  const char *name;
  const quantity *q;
} named_q;

static bool is_fractional(const quantity *q) { return q->nanos % NANOS_PER_UNIT != 0; }

/* default, min, max, step in that order; absent ones are NULL. */
static bool milli_unsafe(errlist *e, fpath *p, const named_q *v) {
  bool unsafe = false;
  for (int i = 0; i < 4; i++) {
    if (!v[i].q) continue;
    __int128 n = v[i].q->nanos;
    __int128 milli = n / NANOS_PER_MILLI;
    if (n % NANOS_PER_MILLI != 0 || milli > INT64_MAX || milli < INT64_MIN) {
      invalid_q(e, p, v[i].name, v[i].q, "value cannot be represented as a milli value");
      unsafe = true;
    }
  }
  return unsafe;
}

static bool int64_unsafe(errlist *e, fpath *p, const named_q *v) {
  bool unsafe = false;
  for (int i = 0; i < 4; i++) {
    if (!v[i].q) continue;
    if (v[i].q->nanos < 0) {
      invalid_q(e, p, v[i].name, v[i].q, "must be greater than or equal to 0");
      unsafe = true;
    } else if (v[i].q->nanos > (__int128)INT64_MAX * NANOS_PER_UNIT) {
      invalid_q(e, p, v[i].name, v[i].q, "must not be larger than 9223372036854775807");
      unsafe = true;
    }
  }
  return unsafe;
}

static void check_step(errlist *e, fpath *p, const quantity *value, const quantity *min, const quantity *step,
                       bool milli) {
  __int128 unit = milli ? NANOS_PER_MILLI : NANOS_PER_UNIT;
  __int128 v = value->nanos / unit, lo = min->nanos / unit, s = step->nanos / unit;
  if (s == 0 || (v - lo) % s == 0) return;
  qtext st = qstr(step), mn = qstr(min);
  char detail[192];
  snprintf(detail, sizeof detail, "value is not a multiple of a given step (%s) from (%s)", st.s, mn.s);
  invalid_q(e, p, "step", value, detail);
}

static void validate_range(errlist *e, fpath *p, const quantity *def, const quantity *capacity,
                           const capacity_request_policy_range *r) {
  size_t m = fp_field(p, "validRange");
  const quantity *min = r->min_set ? &r->min : NULL, *max = r->max_set ? &r->max : NULL,
                 *step = r->step_set ? &r->step : NULL;
  char detail[192];
  qtext cap = qstr(capacity);
  if (!min) {
    size_t mm = fp_field(p, "min");
    fe_required(e, p, "required when validRange is defined");
    fp_pop(p, mm);
    fp_pop(p, m);
    return;
  }
  qtext mn = qstr(min);
  if (quantity_cmp(min, capacity) > 0) {
    snprintf(detail, sizeof detail, "min is larger than capacity value: %s", cap.s);
    invalid_q(e, p, "min", min, detail);
  }
  if (quantity_cmp(def, min) < 0) {
    snprintf(detail, sizeof detail, "default is less than min: %s", mn.s);
    invalid_q(e, p, "default", def, detail);
  }
  if (max) {
    qtext mx = qstr(max);
    if (quantity_cmp(min, max) > 0) {
      snprintf(detail, sizeof detail, "min is larger than max: %s", mx.s);
      invalid_q(e, p, "max", min, detail);
    }
    if (quantity_cmp(max, capacity) > 0) {
      snprintf(detail, sizeof detail, "max is larger than capacity value: %s", cap.s);
      invalid_q(e, p, "max", max, detail);
    }
    if (quantity_cmp(def, max) > 0) {
      snprintf(detail, sizeof detail, "default is more than max: %s", mx.s);
      invalid_q(e, p, "default", def, detail);
    }
  }
  named_q values[4] = {{"default", def}, {"min", min}, {"max", max}, {"step", step}};
  bool milli = is_fractional(def) || is_fractional(min) || (max && is_fractional(max)) ||
               (step && is_fractional(step));
  if ((milli && milli_unsafe(e, p, values)) || !step) {
    fp_pop(p, m);
    return;
  }
  if (step->nanos <= 0) {
    invalid_q(e, p, "step", step, "must be greater than zero");
    fp_pop(p, m);
    return;
  }
  quantity added = quantity_add(*min, *step);
  if (quantity_cmp(&added, capacity) > 0) {
    qtext a = qstr(&added);
    snprintf(detail, sizeof detail, "one step %s is larger than capacity value: %s", a.s, cap.s);
    invalid_q(e, p, "step", step, detail);
  }
  if (milli || !int64_unsafe(e, p, values)) {
    check_step(e, p, def, min, step, milli);
    if (max) check_step(e, p, max, min, step, milli);
  }
  fp_pop(p, m);
}

void validate_request_policy(errlist *e, fpath *p, const quantity *capacity, const capacity_request_policy *policy) {
  const quantity *def = policy->default__set ? &policy->default_ : NULL;
  if (policy->valid_values.n > 0 && policy->valid_range) {
    fe_forbidden(e, p, "exactly one policy can be specified, cannot specify \"validValues\" and \"validRange\" at the same time");
    return;
  }
  if (policy->valid_values.n == 0 && !policy->valid_range) return;
  const char *what = policy->valid_values.n > 0 ? "required when validValues is defined" : "required when validRange is defined";
  if (!def) {
    size_t m = fp_field(p, "default");
    fe_required(e, p, what);
    fp_pop(p, m);
  } else if (policy->valid_values.n > 0) {
    validate_valid_values(e, p, def, capacity, &policy->valid_values);
  } else {
    validate_range(e, p, def, capacity, policy->valid_range);
  }
}
