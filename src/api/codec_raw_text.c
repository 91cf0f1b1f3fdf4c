/* codec_raw_text.c: K_RAW_TEXT values (schema.h), a JSON value held as its
 * compact text: made from the value's tree when decoding, and read back
 * into a tree where something needs the value rather than its bytes
 * (codec_encode, pretty output, the field manager through
 * managed_fields_tree.c); and, for the restore, a stored one found by the
 * text it is read from, or taken as it is when it is already the text
 * codec_raw_text would make of it (codec_raw_text_canonical). */
#include "api/codec.h"
#include "codec/json_skip.h"
#include <stdbool.h>
#include <string.h>

json_t *codec_raw_text(const json_t *v) {
  strbuf sb = STRBUF_INIT;
  json_t *text = codec_compact_tree(&sb, v) ? json_stringn_nocheck(sb.buf ? sb.buf : "", sb.len) : NULL;
  sb_free(&sb);
  return text;
}

json_t *codec_raw_text_tree(const json_t *text) {
  json_t *v = text ? json_loadb(json_string_value(text), json_string_length(text), JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL)
                   : NULL;
  return v ? v : json_null();
}

/* How many levels the compact JSON text of a value nests. */
static int nesting(const char *s, size_t n) {
  int depth = 0, deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (in_string) {
      if (c == '\\') i++;
      else if (c == '"') in_string = false;
    } else if (c == '"') in_string = true;
    else if (c == '{' || c == '[') deepest = ++depth > deepest ? depth : deepest;
    else if (c == '}' || c == ']') depth--;
  }
  return deepest;
}

json_t *codec_raw_text_stored(const char *s, size_t n, int room) {
  json_t *text = codec_share_string(s, n);
  /* each level takes two bytes: a text of at most 2 * room nests no deeper */
  if (text && (room < 0 || n / 2 > (size_t)room) && nesting(s, n) > room) {
    json_decref(text);
    return NULL;
  }
  return text;
}

/* Containers codec_raw_text_canonical follows open at once; a text nested
 * deeper is left to the tree. */
#define CANONICAL_DEPTH 64

/* From just after a string's opening quote: the position of its closing
 * quote when the string is as put_plain_string writes it, else 0. */
static size_t plain_string_end(const unsigned char *u, size_t n, size_t p) {
  for (;;) {
    p = json_plain_run(u, n, p, codec_plain_ascii, 1, false);
    if (p >= n) return 0;
    if (u[p] == '"') return p;
    if (u[p] != '\\' || p + 1 >= n || (u[p + 1] != '"' && u[p + 1] != '\\')) return 0;
    p += 2;
  }
}

/* From an integer's first byte: the position after it when it is as
 * sb_put_int writes one (no "-0", no leading zero, at most 18 digits, so
 * in range), else 0. */
static size_t integer_end(const unsigned char *u, size_t n, size_t p) {
  bool negative = u[p] == '-';
  size_t start = p + negative, end = start;
  while (end < n && u[end] >= '0' && u[end] <= '9') end++;
  size_t digits = end - start;
  if (!digits || digits > 18 || (u[start] == '0' && (digits > 1 || negative))) return 0;
  return end;
}

/* A literal (true, false, null) at p: the position after it, else 0. */
static size_t literal_end(const char *s, size_t n, size_t p) {
  static const char *const words[] = {"true", "false", "null"};
  for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
    size_t len = strlen(words[i]);
    if (n - p >= len && !memcmp(s + p, words[i], len)) return p + len;
  }
  return 0;
}

bool codec_raw_text_canonical(const char *s, size_t n, int room) {
  const unsigned char *u = (const unsigned char *)s;
  struct {
    bool object;
    size_t key, key_len; /* the last key read (key 0: none yet) */
  } open[CANONICAL_DEPTH];
  int depth = 0;
  size_t p = 0;
  enum { VALUE, KEY, AFTER } state = VALUE;
  if (!n || (u[0] != '{' && u[0] != '[')) return false;
  for (;;) {
    if (state == AFTER && !depth) return p == n;
    if (p >= n) return false;
    if (state == KEY) { /* a key after '{' or ',': greater than the one before it */
      size_t end = u[p] == '"' ? plain_string_end(u, n, p + 1) : 0;
      if (!end || end + 1 >= n || u[end + 1] != ':') return false;
      size_t key = p + 1, len = end - key, before = open[depth - 1].key, before_len = open[depth - 1].key_len;
      if (before) {
        int cmp = memcmp(s + before, s + key, before_len < len ? before_len : len);
        if (cmp > 0 || (cmp == 0 && before_len >= len)) return false;
      }
      open[depth - 1].key = key;
      open[depth - 1].key_len = len;
      p = end + 2;
      state = VALUE;
    } else if (state == VALUE) {
      unsigned char c = u[p];
      if (c == '{' || c == '[') {
        if (depth == CANONICAL_DEPTH || depth >= room) return false;
        open[depth].object = c == '{';
        open[depth++].key = 0;
        p++;
        if (p < n && u[p] == (c == '{' ? '}' : ']')) {
          depth--;
          p++;
          state = AFTER;
        } else {
          state = c == '{' ? KEY : VALUE;
        }
        continue;
      }
      size_t end = c == '"'                               ? plain_string_end(u, n, p + 1) + 1
                   : c == '-' || (c >= '0' && c <= '9') ? integer_end(u, n, p)
                                                        : literal_end(s, n, p);
      if (end <= 1) return false; /* 1: no string's end (a value never starts at 0) */
      p = end;
      state = AFTER;
    } else { /* after a value: a comma or its container's end */
      bool object = open[depth - 1].object;
      if (u[p] == ',') {
        p++;
        state = object ? KEY : VALUE;
      } else if (u[p] == (object ? '}' : ']')) {
        depth--;
        p++;
      } else {
        return false;
      }
    }
  }
}
