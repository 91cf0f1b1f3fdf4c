/* cel_lib_semver.c: Kubernetes' semver library (version 1): semver(),
 * isSemver() with optional normalization, and the comparison methods. */
#include "cel/cel_internal.h"
#include <stdio.h>
#include <string.h>

static bool only(const char *s, size_t n, bool alnum) {
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    bool ok = (c >= '0' && c <= '9') || (alnum && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-'));
    if (!ok) return false;
  }
  return true;
}

/* blang/semver's message for a number part, or NULL when it parses. */
static const char *number_error(const char *what, const char *s, size_t n, char *buf, size_t bn) {
  if (!only(s, n, false)) snprintf(buf, bn, "Invalid character(s) found in %s number \"%.*s\"", what, (int)n, s);
  else if (n > 1 && s[0] == '0') snprintf(buf, bn, "%c%s number must not contain leading zeroes \"%.*s\"", what[0] - 32, what + 1, (int)n, s);
  else if (n == 0 || n > 20 || (n == 20 && memcmp(s, "18446744073709551615", 20) > 0))
    snprintf(buf, bn, "strconv.ParseUint: parsing \"%.*s\": %s", (int)n, s, n == 0 ? "invalid syntax" : "value out of range");
  else return NULL;
  return buf;
}

const char *cel_semver_error(const char *s, size_t len, char *buf, size_t bn) {
  if (len == 0) return "Version string empty";
  const char *d1 = memchr(s, '.', len), *d2 = d1 ? memchr(d1 + 1, '.', len - (size_t)(d1 + 1 - s)) : NULL;
  if (!d2) return "No Major.Minor.Patch elements found";
  const char *e;
  if ((e = number_error("major", s, (size_t)(d1 - s), buf, bn))) return e;
  if ((e = number_error("minor", d1 + 1, (size_t)(d2 - d1 - 1), buf, bn))) return e;
  const char *p = d2 + 1, *end = s + len;
  const char *plus = memchr(p, '+', (size_t)(end - p));
  const char *pend = plus ? plus : end;
  const char *dash = memchr(p, '-', (size_t)(pend - p));
  if ((e = number_error("patch", p, (size_t)((dash ? dash : pend) - p), buf, bn))) return e;
  for (const char *q = dash ? dash + 1 : NULL; q && q <= pend;) {
    const char *dot = memchr(q, '.', (size_t)(pend - q));
    size_t n = (size_t)((dot ? dot : pend) - q);
    if (n == 0) return "Prerelease is empty";
    if (!only(q, n, true)) return snprintf(buf, bn, "Invalid character(s) found in prerelease \"%.*s\"", (int)n, q), buf;
    if (only(q, n, false) && n > 1 && q[0] == '0')
      return snprintf(buf, bn, "Numeric PreRelease version must not contain leading zeroes \"%.*s\"", (int)n, q), buf;
    q = dot ? dot + 1 : NULL;
  }
  for (const char *q = plus ? plus + 1 : NULL; q && q <= end;) {
    const char *dot = memchr(q, '.', (size_t)(end - q));
    size_t n = (size_t)((dot ? dot : end) - q);
    if (n == 0) return "Build meta data is empty";
    if (!only(q, n, true)) return snprintf(buf, bn, "Invalid character(s) found in build meta data \"%.*s\"", (int)n, q), buf;
    q = dot ? dot + 1 : NULL;
  }
  return "Invalid semantic version";
}

#define FN(name) static cel_val name(cel_eval *ev, const cel_val *a, uint32_t n)
#define UNUSED (void)ev

/* Normalization of semver(s, true): drop a leading 'v', strip leading zeros
 * of the numeric parts, pad to three parts. Returns NULL with *err. */
static const char *normalize(const char *s, size_t len, size_t *out_len, const char **err) {
  if (len && s[0] == 'v') s++, len--;
  char *buf = cel_scratch_alloc(len + 8);
  size_t o = 0, parts = 0, i = 0;
  while (parts < 3 && i <= len) {
    size_t st = i;
    bool last = parts == 2;
    while (i < len && (last || s[i] != '.')) i++;
    size_t pl = i - st;
    const char *p = s + st;
    if (parts == 2) { /* keep everything; strip zeros before the first non-digit */
      size_t z = 0;
      while (z + 1 < pl && p[z] == '0' && p[z + 1] >= '0' && p[z + 1] <= '9') z++;
      memcpy(buf + o, p + z, pl - z);
      o += pl - z;
    } else {
      size_t z = 0;
      while (z + 1 < pl && p[z] == '0') z++;
      memcpy(buf + o, p + z, pl - z);
      o += pl - z;
    }
    parts++;
    if (i >= len) break;
    buf[o++] = '.';
    i++;
  }
  if (parts < 3) {
    if (memchr(buf, '+', o) || memchr(buf, '-', o)) {
      *err = "short version cannot contain PreRelease/Build meta data";
      return NULL;
    }
    while (parts++ < 3) {
      memcpy(buf + o, ".0", 2);
      o += 2;
    }
  }
  buf[o] = 0;
  *out_len = o;
  return buf;
}

static bool parse(const cel_val *s, bool norm, semver *out, const char **err) {
  const char *text = s->s;
  size_t len = s->len;
  *err = "Invalid semantic version";
  if (len == 0) {
    *err = "Version string empty";
    return false;
  }
  if (norm && !(text = normalize(text, len, &len, err))) return false;
  if (semver_parse(text, len, out)) return true;
  char buf[256];
  *err = cel_scratch_printf("%s", cel_semver_error(text, len, buf, sizeof buf));
  return false;
}

FN(f_semver) {
  UNUSED;
  semver *sv = cel_scratch_alloc(sizeof *sv);
  const char *err;
  if (!parse(&a[0], n == 2 && a[1].b, sv, &err)) return cel_err("%s", err);
  cel_val v = {.kind = V_SEMVER};
  v.p = sv;
  return v;
}

FN(f_is_semver) {
  UNUSED;
  semver sv;
  const char *err;
  return cel_bool(parse(&a[0], n == 2 && a[1].b, &sv, &err));
}

static int cmp(const cel_val *a) { return semver_cmp(a[0].p, a[1].p); }
FN(f_gt) { UNUSED, (void)n; return cel_bool(cmp(a) > 0); }
FN(f_lt) { UNUSED, (void)n; return cel_bool(cmp(a) < 0); }
FN(f_compare) { UNUSED, (void)n; int c = cmp(a); return cel_int(c < 0 ? -1 : c > 0); }
FN(f_major) { UNUSED, (void)n; return cel_int((int64_t)((const semver *)a[0].p)->major); }
FN(f_minor) { UNUSED, (void)n; return cel_int((int64_t)((const semver *)a[0].p)->minor); }
FN(f_patch) { UNUSED, (void)n; return cel_int((int64_t)((const semver *)a[0].p)->patch); }

#define O(id, sig, fn, k) {id, sig, fn, k, 0, 0, 0, {0}, 0, 0}
static cel_overload semver_ovs[] = {
    O("string_to_semver", "semver(string) -> kubernetes.Semver", f_semver, K_SEM_PARSE),
    O("string_bool_to_semver", "semver(string, bool) -> kubernetes.Semver", f_semver, K_SEM_PARSE),
    O("is_semver_string", "isSemver(string) -> bool", f_is_semver, K_SEM_PARSE),
    O("is_semver_string_bool", "isSemver(string, bool) -> bool", f_is_semver, K_SEM_PARSE),
    O("semver_is_greater_than", "kubernetes.Semver.isGreaterThan(kubernetes.Semver) -> bool", f_gt, K_ONE),
    O("semver_is_less_than", "kubernetes.Semver.isLessThan(kubernetes.Semver) -> bool", f_lt, K_ONE),
    O("semver_compare_to", "kubernetes.Semver.compareTo(kubernetes.Semver) -> int", f_compare, K_ONE),
    O("semver_major", "kubernetes.Semver.major() -> int", f_major, K_ONE),
    O("semver_minor", "kubernetes.Semver.minor() -> int", f_minor, K_ONE),
    O("semver_patch", "kubernetes.Semver.patch() -> int", f_patch, K_ONE),
};

cel_lib cel_lib_semver = {"semver", semver_ovs, sizeof semver_ovs / sizeof *semver_ovs};
