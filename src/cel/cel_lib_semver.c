/* cel_lib_semver.c: Kubernetes' semver library (version 1): semver(),
 * isSemver() with optional normalization, and the comparison methods. */
#include "cel/cel_internal.h"
#include <string.h>

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
  return semver_parse(text, len, out);
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
