/* hash_words.h: a 64-bit hash of bytes read a word (8 bytes) at a time,
 * for hash tables of strings (store/strmap.c, api/tree_memo.c,
 * api/codec_share.c): about a fifth of the cost of a byte-at-a-time FNV
 * on keys such as "<namespace>\x1f<name>". Nothing stores it: a table
 * filled again after a change to it only iterates in another order. */
#ifndef DRA_UTIL_HASH_WORDS_H
#define DRA_UTIL_HASH_WORDS_H
#include <stddef.h>
#include <stdint.h>

uint64_t hash_words(const char *s, size_t n);

#endif
