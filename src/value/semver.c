/* semver.c: strict Semantic Versioning 2.0.0 as semver.org's regular
 * expression states it, and precedence (spec item 11). Owns only parsing
 * and ordering; length limits and error texts belong to the callers.
 *
 * blang/semver v4 (what Kubernetes' CEL semver library parses with) accepts
 * nothing that this refuses: its Parse splits off "+build", then "-pre",
 * and demands digits without leading zeros for the three numbers, non-empty
 * [0-9A-Za-z-] identifiers, and no leading zero in numeric pre-release ids.
 * It refuses more: any number above 2^64-1 (ParseUint), also in numeric
 * pre-release identifiers, which semver.org allows. We refuse such numbers
 * in MAJOR.MINOR.PATCH (they are stored as uint64) and accept them as
 * pre-release identifiers, comparing those by value at any length;
 * semver_parse_blang refuses them and words every refusal as blang does. */
#include "value/semver.h"

#include <string.h>

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static bool is_identifier_char(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-';
}

static bool all_digits(const char *s, size_t len) {
  for (size_t i = 0; i < len; i++)
    if (!is_digit(s[i]))
      return false;
  return true;
}

/* 0|[1-9][0-9]* fitting uint64, at *pos. */
static bool parse_number(const char *s, size_t len, size_t *pos, uint64_t *out) {
  size_t start = *pos;
  uint64_t v = 0;
  while (*pos < len && is_digit(s[*pos])) {
    unsigned d = (unsigned)(s[*pos] - '0');
    if (v > (UINT64_MAX - d) / 10)
      return false;
    v = v * 10 + d;
    (*pos)++;
  }
  size_t digits = *pos - start;
  if (digits == 0 || (digits > 1 && s[start] == '0'))
    return false;
  *out = v;
  return true;
}

/* Dot-separated non-empty identifiers at *pos, up to '+' or the end.
 * Pre-release identifiers that are all digits must not have a leading zero. */
static bool scan_identifiers(const char *s, size_t len, size_t *pos, bool prerelease) {
  for (;;) {
    size_t start = *pos;
    while (*pos < len && is_identifier_char(s[*pos]))
      (*pos)++;
    size_t n = *pos - start;
    if (n == 0 || (prerelease && n > 1 && s[start] == '0' && all_digits(s + start, n)))
      return false;
    if (*pos == len || s[*pos] != '.')
      return true;
    (*pos)++;
  }
}

/* An optional "<marker>identifiers" part at *pos; *part stays NULL without it. */
static bool scan_part(const char *s, size_t len, size_t *pos, char marker, bool prerelease, const char **part,
                      size_t *part_len) {
  if (*pos == len || s[*pos] != marker)
    return true;
  size_t start = ++*pos;
  if (!scan_identifiers(s, len, pos, prerelease))
    return false;
  *part = s + start;
  *part_len = *pos - start;
  return true;
}

bool semver_parse(const char *s, size_t len, semver *out) {
  semver v = {0};
  size_t pos = 0;
  if (!parse_number(s, len, &pos, &v.major) || pos == len || s[pos++] != '.' ||
      !parse_number(s, len, &pos, &v.minor) || pos == len || s[pos++] != '.' ||
      !parse_number(s, len, &pos, &v.patch) || !scan_part(s, len, &pos, '-', true, &v.pre, &v.pre_len) ||
      !scan_part(s, len, &pos, '+', false, &v.build, &v.build_len) || pos != len)
    return false;
  *out = v;
  return true;
}

/* Length of the identifier that starts s (up to a '.'). */
static size_t identifier_len(const char *s, size_t len) {
  const char *dot = memchr(s, '.', len);
  return dot ? (size_t)(dot - s) : len;
}

/* Go's strconv.Quote of n bytes (stops at a NUL byte). */
static void quote(strbuf *err, const char *p, size_t n) {
  strbuf tmp = STRBUF_INIT;
  sb_add(&tmp, p, n);
  sb_go_quote(err, sb_str(&tmp));
  sb_free(&tmp);
}

static bool refuse(strbuf *err, const char *message, const char *p, size_t n) {
  if (err) {
    sb_puts(err, message);
    if (p) {
      sb_putc(err, ' ');
      quote(err, p, n);
    }
  }
  return false;
}

/* strconv.ParseUint(s, 10, 64) of digits, with its error text. */
static bool blang_uint(const char *p, size_t n, strbuf *err) {
  size_t pos = 0;
  uint64_t v;
  if (n > 0 && parse_number(p, n, &pos, &v) && pos == n)
    return true;
  if (err) {
    sb_puts(err, "strconv.ParseUint: parsing ");
    quote(err, p, n);
    sb_puts(err, n == 0 ? ": invalid syntax" : ": value out of range");
  }
  return false;
}

static bool blang_identifier_chars(const char *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!is_identifier_char(p[i]))
      return false;
  return true;
}

enum { MAJOR, MINOR, PATCH };

/* MAJOR, MINOR or PATCH (which) as blang checks it. */
static bool blang_number(const char *p, size_t n, int which, strbuf *err) {
  static const char *const invalid[] = {"Invalid character(s) found in major number",
                                        "Invalid character(s) found in minor number",
                                        "Invalid character(s) found in patch number"};
  static const char *const zeros[] = {"Major number must not contain leading zeroes",
                                      "Minor number must not contain leading zeroes",
                                      "Patch number must not contain leading zeroes"};
  if (!all_digits(p, n))
    return refuse(err, invalid[which], p, n);
  if (n > 1 && p[0] == '0')
    return refuse(err, zeros[which], p, n);
  return blang_uint(p, n, err);
}

/* Dot-separated identifiers of a pre-release (or build) part, as blang's
 * NewPRVersion (or its build loop) checks them. */
static bool blang_identifiers(const char *p, size_t n, bool prerelease, strbuf *err) {
  for (;;) {
    size_t id = identifier_len(p, n);
    if (id == 0)
      return refuse(err, prerelease ? "Prerelease is empty" : "Build meta data is empty", NULL, 0);
    if (prerelease && all_digits(p, id)) {
      if (id > 1 && p[0] == '0')
        return refuse(err, "Numeric PreRelease version must not contain leading zeroes", p, id);
      if (!blang_uint(p, id, err))
        return false;
    } else if (!blang_identifier_chars(p, id)) {
      return refuse(err, prerelease ? "Invalid character(s) found in prerelease"
                                    : "Invalid character(s) found in build meta data", p, id);
    }
    if (id == n)
      return true;
    p += id + 1, n -= id + 1;
  }
}

bool semver_parse_blang(const char *s, size_t len, semver *out, strbuf *err) {
  if (len == 0)
    return refuse(err, "Version string empty", NULL, 0);
  const char *dot1 = memchr(s, '.', len);
  const char *dot2 = dot1 ? memchr(dot1 + 1, '.', len - (size_t)(dot1 + 1 - s)) : NULL;
  if (!dot2)
    return refuse(err, "No Major.Minor.Patch elements found", NULL, 0);
  const char *patch = dot2 + 1, *end = s + len;
  const char *plus = memchr(patch, '+', (size_t)(end - patch));
  const char *patch_end = plus ? plus : end;
  const char *minus = memchr(patch, '-', (size_t)(patch_end - patch));
  if (!blang_number(s, (size_t)(dot1 - s), MAJOR, err) ||
      !blang_number(dot1 + 1, (size_t)(dot2 - dot1 - 1), MINOR, err) ||
      !blang_number(patch, (size_t)((minus ? minus : patch_end) - patch), PATCH, err) ||
      (minus && !blang_identifiers(minus + 1, (size_t)(patch_end - minus - 1), true, err)) ||
      (plus && !blang_identifiers(plus + 1, (size_t)(end - plus - 1), false, err)))
    return false;
  return semver_parse(s, len, out); /* blang accepts a subset: this succeeds */
}

static int cmp_u64(uint64_t a, uint64_t b) { return (a > b) - (a < b); }

/* Bytewise, a proper prefix first. */
static int cmp_bytes(const char *a, size_t alen, const char *b, size_t blen) {
  int c = memcmp(a, b, alen < blen ? alen : blen);
  if (c != 0)
    return c < 0 ? -1 : 1;
  return cmp_u64(alen, blen);
}

/* Numeric identifiers by value (no leading zeros, so longer is larger),
 * numeric before alphanumeric, alphanumeric ASCII-wise. */
static int cmp_identifier(const char *a, size_t alen, const char *b, size_t blen) {
  bool anum = all_digits(a, alen), bnum = all_digits(b, blen);
  if (anum != bnum)
    return anum ? -1 : 1;
  if (anum && alen != blen)
    return alen < blen ? -1 : 1;
  return cmp_bytes(a, alen, b, blen);
}

static int cmp_prerelease(const char *a, size_t alen, const char *b, size_t blen) {
  for (;;) {
    size_t ai = identifier_len(a, alen), bi = identifier_len(b, blen);
    int c = cmp_identifier(a, ai, b, bi);
    if (c != 0)
      return c;
    bool amore = ai < alen, bmore = bi < blen;
    if (!amore || !bmore)
      return (int)amore - (int)bmore; /* fewer identifiers: lower */
    a += ai + 1, alen -= ai + 1;
    b += bi + 1, blen -= bi + 1;
  }
}

void semver_write(const semver *v, strbuf *out) {
  sb_printf(out, "%llu.%llu.%llu", (unsigned long long)v->major, (unsigned long long)v->minor,
            (unsigned long long)v->patch);
  if (v->pre) sb_printf(out, "-%.*s", (int)v->pre_len, v->pre);
  if (v->build) sb_printf(out, "+%.*s", (int)v->build_len, v->build);
}

int semver_cmp(const semver *a, const semver *b) {
  int c = cmp_u64(a->major, b->major);
  if (c == 0)
    c = cmp_u64(a->minor, b->minor);
  if (c == 0)
    c = cmp_u64(a->patch, b->patch);
  if (c != 0)
    return c;
  if (!a->pre || !b->pre) /* a release is above its pre-releases */
    return (a->pre == NULL) - (b->pre == NULL);
  return cmp_prerelease(a->pre, a->pre_len, b->pre, b->pre_len);
}
