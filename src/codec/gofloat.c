/* gofloat.c: Go-compatible float text (see gofloat.h). */
#include "codec/gofloat.h"
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Shortest decimal digits of |f| that read back to f (as a float when bits is
 * 32): f = 0.DIGITS x 10^point. digits gets at most 17 characters. */
static int shortest_digits(double f, int bits, char digits[32], int *point) {
  char buf[48];
  double a = fabs(f);
  if (a == 0) {
    strcpy(digits, "0");
    *point = 1;
    return 1;
  }
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(buf, sizeof buf, "%.*e", prec - 1, a);
    bool same = bits == 32 ? strtof(buf, NULL) == (float)a : strtod(buf, NULL) == a;
    if (same || prec == 17) break;
  }
  /* buf is "d.ddde[+-]xx" */
  int n = 0;
  char *e = strchr(buf, 'e');
  for (char *p = buf; p < e; p++)
    if (*p != '.') digits[n++] = *p;
  while (n > 1 && digits[n - 1] == '0') n--;
  digits[n] = 0;
  *point = atoi(e + 1) + 1;
  return n;
}

static void put_e(strbuf *out, const char *digits, int n, int point) {
  sb_putc(out, digits[0]);
  if (n > 1) {
    sb_putc(out, '.');
    sb_add(out, digits + 1, (size_t)n - 1);
  }
  int exp = point - 1;
  sb_printf(out, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
}

static void put_f(strbuf *out, const char *digits, int n, int point) {
  if (point <= 0) {
    sb_puts(out, "0.");
    for (int i = point; i < 0; i++) sb_putc(out, '0');
    sb_add(out, digits, (size_t)n);
    return;
  }
  for (int i = 0; i < point; i++) sb_putc(out, i < n ? digits[i] : '0');
  if (n > point) {
    sb_putc(out, '.');
    sb_add(out, digits + point, (size_t)(n - point));
  }
}

static bool put_special(strbuf *out, double f) {
  if (isnan(f)) sb_puts(out, "NaN");
  else if (isinf(f)) sb_puts(out, f > 0 ? "+Inf" : "-Inf");
  else return false;
  return true;
}

void go_format_float_g(strbuf *out, double f, int bits) {
  if (bits == 32) f = (float)f; /* may overflow to an infinity */
  if (put_special(out, f)) return;
  char digits[32];
  int point, n = shortest_digits(f, bits, digits, &point);
  if (signbit(f)) sb_putc(out, '-');
  int exp = point - 1;
  /* With shortest digits Go decides between %e and %f with precision 6. */
  if (exp < -4 || exp >= 6) put_e(out, digits, n, point);
  else put_f(out, digits, n, point);
}

void go_format_float_json(strbuf *out, double f) {
  char digits[32];
  int point, n = shortest_digits(f, 64, digits, &point);
  if (signbit(f)) sb_putc(out, '-');
  double a = fabs(f);
  if (a != 0 && (a < 1e-6 || a >= 1e21)) {
    size_t start = out->len;
    put_e(out, digits, n, point);
    /* Go's json: "e-07" -> "e-7" (only negative exponents are cleaned). */
    size_t len = out->len - start;
    char *b = out->buf + start;
    if (len >= 4 && b[len - 4] == 'e' && b[len - 3] == '-' && b[len - 2] == '0') {
      b[len - 2] = b[len - 1];
      sb_truncate(out, out->len - 1);
    }
    return;
  }
  put_f(out, digits, n, point);
}
