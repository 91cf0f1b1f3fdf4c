/* quantity.c: reading and writing quantities (see quantity.h), with the
 * suffixes of k8s.io/apimachinery pkg/api/resource. */
#include "quantity.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
  const char *suffix;
  long double factor;
  bool binary;
} suffixes[] = {
    {"Ki", 1024.0L, true},
    {"Mi", 1048576.0L, true},
    {"Gi", 1073741824.0L, true},
    {"Ti", 1099511627776.0L, true},
    {"Pi", 1125899906842624.0L, true},
    {"Ei", 1152921504606846976.0L, true},
    {"n", 1e-9L, false},
    {"u", 1e-6L, false},
    {"m", 1e-3L, false},
    {"k", 1e3L, false},
    {"M", 1e6L, false},
    {"G", 1e9L, false},
    {"T", 1e12L, false},
    {"P", 1e15L, false},
    {"E", 1e18L, false},
};

bool qty_parse(const char *text, qty *out) {
  if (!text || !*text) return false;
  char *end;
  long double v = strtold(text, &end);
  if (end == text || isnan(v) || isinf(v)) return false;
  out->binary = false;
  if (*end == 'e' || *end == 'E') return false; /* strtold took the exponent already */
  if (*end) {
    size_t i;
    for (i = 0; i < sizeof suffixes / sizeof *suffixes; i++)
      if (!strcmp(end, suffixes[i].suffix)) break;
    if (i == sizeof suffixes / sizeof *suffixes) return false;
    v *= suffixes[i].factor;
    out->binary = suffixes[i].binary;
  }
  out->v = v;
  return true;
}

const char *qty_format(qty q, char *buf, size_t len) {
  long double v = q.v;
  if (v == 0) {
    snprintf(buf, len, "0");
    return buf;
  }
  /* the largest suffix of the family that divides the value exactly */
  for (int i = (int)(sizeof suffixes / sizeof *suffixes) - 1; i >= 0; i--) {
    if (suffixes[i].binary != q.binary || suffixes[i].factor < 1) continue;
    long double n = v / suffixes[i].factor;
    if (n == floorl(n) && fabsl(n) >= 1) {
      snprintf(buf, len, "%.0Lf%s", n, suffixes[i].suffix);
      return buf;
    }
  }
  if (v == floorl(v)) snprintf(buf, len, "%.0Lf", v);
  else snprintf(buf, len, "%.0Lfm", v * 1000);
  return buf;
}
