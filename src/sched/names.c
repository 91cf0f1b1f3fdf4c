/* names.c: generated names, suffixes and UIDs; see names.h. */
#include "sched/names.h"
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define MAX_GENERATED_BASE 57 /* 63 minus "-" and the 5 suffix characters */

const char *sched_generate_name_base(const char *owner, const char *entry, char buf[64]) {
  size_t lo = strlen(owner), le = strlen(entry), base = lo + 1 + le;
  if (base <= MAX_GENERATED_BASE) {
    snprintf(buf, 64, "%.*s-%.*s-", (int)lo, owner, (int)le, entry);
    return buf;
  }
  size_t keep_o = lo * MAX_GENERATED_BASE / base, keep_e = le * MAX_GENERATED_BASE / base;
  snprintf(buf, 64, "%.*s-%.*s", (int)keep_o, owner, (int)keep_e, entry);
  return buf;
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
