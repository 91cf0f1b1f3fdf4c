/* json_skip.h: where a JSON value ends in a text, found without reading the
 * value into a tree, for handing part of a document on as the text it was
 * written in (dra allocate --batch passes a case's objects to the loader so,
 * cli/cli_batch.c). It checks the grammar (RFC 8259), not what a value means:
 * invalid UTF-8, \u0000, lone surrogates and numbers out of range pass, for
 * the reader that gets the text to judge. */
#ifndef DRA_JSON_SKIP_H
#define DRA_JSON_SKIP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Containers nest at most this deep (jansson's own limit is 2048). */
#define JSON_SKIP_MAX_DEPTH 4096

/* The position of the first non-blank byte at or after pos (len if none). */
size_t json_skip_blanks(const char *data, size_t len, size_t pos);
/* The position just after the JSON value starting at data[pos] (blanks
 * before it skipped), or 0 when no value starts there: a syntax error, the
 * text ends, or nesting deeper than JSON_SKIP_MAX_DEPTH. */
size_t json_skip_value(const char *data, size_t len, size_t pos);
/* In the object starting at data[pos] (blanks before it skipped): the
 * position of the value of its last member named key (as a parser keeps
 * a key given twice), 0 when it has none or is not an object. A key of
 * the object written with an escape cannot be told from key unread:
 * *plain_keys is set false then, for the caller to read the text whole. */
size_t json_skip_to_member(const char *data, size_t len, size_t pos, const char *key, bool *plain_keys);
/* In the array starting at data[pos]: the position of item index, 0 when
 * it has no such item or is not an array. */
size_t json_skip_to_item(const char *data, size_t len, size_t pos, size_t index);

/* Inside a string, from pos: the position of the first byte that is not
 * held as it is ('"', '\\', a control byte, and with !high_plain a byte of
 * 0x80 and up), len if none. plain[b] & mask says which bytes are (the
 * caller's table, agreeing with high_plain), for the last bytes short of
 * a word. Eight bytes at a time: each word is tested at once, and on a
 * little-endian machine its lowest flagged byte is the one (the tests
 * flag no byte below the first that matches them: a borrow only runs up
 * from a byte that matches). */
static inline size_t json_plain_run(const unsigned char *u, size_t len, size_t pos, const unsigned char *plain,
                                    unsigned mask, bool high_plain) {
  const uint64_t ones = 0x0101010101010101u, highs = ones * 0x80;
  while (len - pos >= 8) {
    uint64_t w;
    memcpy(&w, u + pos, 8);
    uint64_t quote = w ^ (ones * '"'), backslash = w ^ (ones * '\\');
    /* a byte flagged in highs: zero in quote or backslash, below 0x20 in w
     * (exact for "is there any", whatever borrows do above it) */
    uint64_t hit = ((quote - ones) & ~quote) | ((backslash - ones) & ~backslash) | ((w - ones * 0x20) & ~w);
    if (!high_plain) hit |= w;
    hit &= highs;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (hit) return pos + (size_t)(__builtin_ctzll(hit) >> 3);
#else
    if (hit) break;
#endif
    pos += 8;
  }
  while (pos < len && plain[u[pos]] & mask) pos++;
  return pos;
}

#endif
