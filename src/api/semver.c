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
 * pre-release identifiers, comparing those by value at any length. */
#include "api/semver.h"

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

static size_t identifier_len(const char *s, size_t len) {
  const char *dot = memchr(s, '.', len);
  return dot ? (size_t)(dot - s) : len;
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
