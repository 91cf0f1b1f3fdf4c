/* hash_words.c: see hash_words.h. Each word is mixed in with a multiply
 * and a shift; the tail's bytes make one last word, and the length seeds
 * the hash so that texts differing only in trailing zero bytes differ. */
#include "util/hash_words.h"
#include <string.h>

uint64_t hash_words(const char *s, size_t n) {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
  for (; n >= 8; s += 8, n -= 8) {
    uint64_t w;
    memcpy(&w, s, 8);
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  uint64_t w = 0;
  memcpy(&w, s, n);
  h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
  return h ^ h >> 29;
}
