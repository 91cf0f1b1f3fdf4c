/* semver.h: Semantic Versioning 2.0.0, strictly: parse, compare, and equality
 * that ignores build metadata. Used for `version` attributes and CEL semver. */
#ifndef DRA_SEMVER_H
#define DRA_SEMVER_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

typedef struct semver {
  uint64_t major, minor, patch;
  const char *pre;   /* pre-release without '-', NULL if none (points into the parsed text) */
  size_t pre_len;
  const char *build; /* build metadata without '+', NULL if none */
  size_t build_len;
} semver;

/* Strict SemVer 2.0.0, exactly semver.org's regular expression: no leading
 * 'v', no leading zeros in MAJOR.MINOR.PATCH or in numeric pre-release ids
 * (build ids may have them: "1.0.0-alpha+001" is the spec's own example).
 * MAJOR, MINOR and PATCH must fit uint64. Never allocates.
 * Returns true on success; *out's strings point into s (which must outlive it). */
bool semver_parse(const char *s, size_t len, semver *out);
/* blang/semver v4's Parse, which Kubernetes' CEL semver()/isSemver() use:
 * accepts what semver_parse accepts, except numeric pre-release identifiers
 * above 2^64-1. On failure appends blang's message to err (if given), e.g.
 * `Major number must not contain leading zeroes "01"`. */
bool semver_parse_blang(const char *s, size_t len, semver *out, strbuf *err);
/* <0, 0, >0 per SemVer precedence (build metadata ignored). */
int semver_cmp(const semver *a, const semver *b);
/* Appends the version as text: "1.2.3-rc.1+build". */
void semver_write(const semver *v, strbuf *out);

#endif
