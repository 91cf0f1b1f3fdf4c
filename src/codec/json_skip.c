/* json_skip.c: see json_skip.h. */
#include "codec/json_skip.h"
#include <stdbool.h>
#include <string.h>

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

size_t json_skip_blanks(const char *data, size_t len, size_t pos) {
  while (pos < len && is_blank(data[pos])) pos++;
  return pos;
}

/* Bytes a string holds as they are (not '"', '\\' or a control byte), and
 * those that may follow a backslash but for 'u'. */
static const unsigned char plain_in_string[256] = {[' '] = 1, ['!'] = 1, ['#' ... '['] = 1, [']' ... 0xff] = 1};
static const unsigned char short_escape[256] = {['"'] = 1, ['\\'] = 1, ['/'] = 1, ['b'] = 1,
                                                ['f'] = 1, ['n'] = 1, ['r'] = 1, ['t'] = 1};

/* After the opening quote at pos. */
static size_t skip_string(const char *s, size_t len, size_t pos) {
  const unsigned char *u = (const unsigned char *)s;
  for (pos++; pos < len; pos++) {
    pos = json_plain_run(u, len, pos, plain_in_string, 1, true);
    if (pos >= len || u[pos] < 0x20) return 0;
    if (u[pos] == '"') return pos + 1;
    if (++pos >= len) return 0; /* after a backslash */
    if (u[pos] == 'u') {
      for (int i = 0; i < 4; i++)
        if (++pos >= len || !is_hex(s[pos])) return 0;
    } else if (!short_escape[u[pos]]) {
      return 0;
    }
  }
  return 0;
}

/* At least one digit from pos: the position after them, or 0. */
static size_t skip_digits(const char *s, size_t len, size_t pos) {
  size_t start = pos;
  while (pos < len && is_digit(s[pos])) pos++;
  return pos > start ? pos : 0;
}

static size_t skip_number(const char *s, size_t len, size_t pos) {
  if (s[pos] == '-') pos++;
  if (pos < len && s[pos] == '0') pos++;
  else if (!(pos = skip_digits(s, len, pos))) return 0;
  if (pos < len && s[pos] == '.' && !(pos = skip_digits(s, len, pos + 1))) return 0;
  if (pos < len && (s[pos] == 'e' || s[pos] == 'E')) {
    pos++;
    if (pos < len && (s[pos] == '+' || s[pos] == '-')) pos++;
    if (!(pos = skip_digits(s, len, pos))) return 0;
  }
  return pos;
}

static size_t skip_literal(const char *s, size_t len, size_t pos, const char *word) {
  size_t n = strlen(word);
  return len - pos >= n && !memcmp(s + pos, word, n) ? pos + n : 0;
}

static size_t skip(const char *s, size_t len, size_t pos, int depth);

/* After the opening bracket or brace at pos: the members up to close. */
static size_t skip_container(const char *s, size_t len, size_t pos, int depth, char close) {
  if (depth >= JSON_SKIP_MAX_DEPTH) return 0;
  pos = json_skip_blanks(s, len, pos + 1);
  if (pos < len && s[pos] == close) return pos + 1;
  for (;;) {
    if (close == '}') {
      if (pos >= len || s[pos] != '"' || !(pos = skip_string(s, len, pos))) return 0;
      pos = json_skip_blanks(s, len, pos);
      if (pos >= len || s[pos] != ':') return 0;
      pos++;
    }
    if (!(pos = skip(s, len, pos, depth + 1))) return 0;
    pos = json_skip_blanks(s, len, pos);
    if (pos >= len) return 0;
    if (s[pos] == close) return pos + 1;
    if (s[pos] != ',') return 0;
    pos = json_skip_blanks(s, len, pos + 1);
  }
}

static size_t skip(const char *s, size_t len, size_t pos, int depth) {
  pos = json_skip_blanks(s, len, pos);
  if (pos >= len) return 0;
  switch (s[pos]) {
  case '{': return skip_container(s, len, pos, depth, '}');
  case '[': return skip_container(s, len, pos, depth, ']');
  case '"': return skip_string(s, len, pos);
  case 't': return skip_literal(s, len, pos, "true");
  case 'f': return skip_literal(s, len, pos, "false");
  case 'n': return skip_literal(s, len, pos, "null");
  default: return s[pos] == '-' || is_digit(s[pos]) ? skip_number(s, len, pos) : 0;
  }
}

size_t json_skip_value(const char *data, size_t len, size_t pos) { return skip(data, len, pos, 0); }

/* The first non-blank byte at or after pos is c: the position after it, else 0. */
static size_t expect(const char *s, size_t len, size_t pos, char c) {
  pos = json_skip_blanks(s, len, pos);
  return pos < len && s[pos] == c ? pos + 1 : 0;
}

size_t json_skip_to_member(const char *data, size_t len, size_t pos, const char *key, bool *plain_keys) {
  size_t found = 0, key_len = strlen(key);
  if (!(pos = expect(data, len, pos, '{'))) return 0;
  pos = json_skip_blanks(data, len, pos);
  if (pos < len && data[pos] == '}') return 0;
  for (;;) {
    size_t start = json_skip_blanks(data, len, pos);
    if (start >= len || data[start] != '"' || !(pos = skip_string(data, len, start))) return 0;
    const char *name = data + start + 1;
    size_t name_len = pos - start - 2;
    if (memchr(name, '\\', name_len)) *plain_keys = false;
    if (!(pos = expect(data, len, pos, ':'))) return 0;
    size_t value = json_skip_blanks(data, len, pos);
    if (!(pos = json_skip_value(data, len, value))) return 0;
    if (name_len == key_len && !memcmp(name, key, key_len)) found = value; /* the last one, as a parser keeps it */
    pos = json_skip_blanks(data, len, pos);
    if (pos < len && data[pos] == '}') return found;
    if (pos >= len || data[pos] != ',') return 0;
    pos++;
  }
}

size_t json_skip_to_item(const char *data, size_t len, size_t pos, size_t index) {
  if (!(pos = expect(data, len, pos, '['))) return 0;
  for (size_t i = 0;; i++) {
    size_t item = json_skip_blanks(data, len, pos);
    if (item < len && data[item] == ']') return 0;
    if (i == index) return item;
    if (!(pos = json_skip_value(data, len, item))) return 0;
    if (!(pos = expect(data, len, pos, ','))) return 0;
  }
}
