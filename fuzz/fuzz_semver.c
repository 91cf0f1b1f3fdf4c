/* fuzz_semver.c: libFuzzer target for semver_parse and semver_parse_blang.
 * Whatever parses must point inside the input, compare equal to itself, and
 * compare antisymmetrically against a second version taken from the same
 * bytes; blang must accept exactly the strict versions whose numeric
 * pre-release identifiers fit uint64, and explain every refusal. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "value/semver.h"
#include "util/strbuf.h"

static bool inside(const char *p, size_t n, const uint8_t *data, size_t size) {
  return !p || ((const uint8_t *)p >= data && (const uint8_t *)p + n <= data + size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* one version, or two separated by a NUL byte */
  const uint8_t *nul = memchr(data, 0, size);
  size_t first = nul ? (size_t)(nul - data) : size;
  semver a, b;
  strbuf why = STRBUF_INIT;
  bool blang = semver_parse_blang((const char *)data, first, &b, &why);
  bool refused_for_size = !blang && strstr(sb_str(&why), "value out of range") != NULL;
  if (blang == (why.len > 0))
    abort();
  sb_free(&why);
  if (!semver_parse((const char *)data, first, &a)) {
    if (blang)
      abort();
    return 0;
  }
  if (!blang && !refused_for_size)
    abort();
  if (!inside(a.pre, a.pre_len, data, size) || !inside(a.build, a.build_len, data, size) ||
      semver_cmp(&a, &a) != 0)
    abort();
  if (!nul || !semver_parse((const char *)nul + 1, size - first - 1, &b))
    return 0;
  int ab = semver_cmp(&a, &b), ba = semver_cmp(&b, &a);
  if ((ab > 0) - (ab < 0) != -((ba > 0) - (ba < 0)))
    abort();
  /* build metadata never counts */
  semver a_bare = a, b_bare = b;
  a_bare.build = b_bare.build = NULL;
  a_bare.build_len = b_bare.build_len = 0;
  if (semver_cmp(&a_bare, &b_bare) != ab)
    abort();
  return 0;
}
