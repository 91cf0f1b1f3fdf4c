/* names.c: generated names, suffixes and UIDs; see names.h. */
#include "sched/names.h"
#include <stdint.h>
#include <string.h>

#define MAX_GENERATED_BASE 57 /* 63 minus "-" and the 5 suffix characters */

/* "<owner>-<entry>" and then tail (a NUL-terminated piece) into buf, whose
 * 64 bytes hold it: the callers keep the parts short enough. */
static const char *join_base(char buf[64], const char *owner, size_t lo, const char *entry, size_t le, const char *tail) {
  size_t lt = strlen(tail);
  memcpy(buf, owner, lo);
  buf[lo] = '-';
  memcpy(buf + lo + 1, entry, le);
  memcpy(buf + lo + 1 + le, tail, lt + 1);
  return buf;
}

const char *sched_generate_name_base(const char *owner, const char *entry, char buf[64]) {
  size_t lo = strlen(owner), le = strlen(entry), base = lo + 1 + le;
  if (base <= MAX_GENERATED_BASE) return join_base(buf, owner, lo, entry, le, "-");
  size_t keep_o = lo * MAX_GENERATED_BASE / base, keep_e = le * MAX_GENERATED_BASE / base;
  return join_base(buf, owner, keep_o, entry, keep_e, "");
}

static uint64_t fnv1a(uint64_t h, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    h ^= (unsigned char)s[i];
    h *= 1099511628211ULL;
  }
  return h;
}

void sched_name_suffix(const char *ns, const char *owner, const char *entry, unsigned attempt,
                       char out[SCHED_NAME_SUFFIX_LEN + 1]) {
  uint64_t h = 1469598103934665603ULL;
  const char *parts[3] = {ns ? ns : "", owner ? owner : "", entry ? entry : ""};
  for (int i = 0; i < 3; i++) h = fnv1a(h, parts[i], strlen(parts[i]) + 1); /* NUL separates */
  h = fnv1a(h, (const char *)&attempt, sizeof attempt);
  h ^= h >> 33; /* mix the high bits into the ones the modulo reads */
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  const size_t n = sizeof SCHED_NAME_ALPHABET - 1;
  for (int i = 0; i < SCHED_NAME_SUFFIX_LEN; i++) {
    out[i] = SCHED_NAME_ALPHABET[h % n];
    h /= n;
  }
  out[SCHED_NAME_SUFFIX_LEN] = 0;
}
