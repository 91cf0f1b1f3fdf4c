/* json_write.c: json_t -> text as kubectl -o json prints it (Go's
 * json.MarshalIndent with 4 spaces): insertion order, HTML-safe escaping,
 * Go's float spelling, "{}" and "[]" for empty containers. */
#include "codec/doc.h"
#include "codec/gofloat.h"
#include "util/utf8.h"
#include <string.h>

/* level < 0: compact (json.Marshal's form), no line breaks or indent. */
static void indent(strbuf *out, int level) {
  if (level < 0) return;
  char *to = sb_reserve(out, 4 * (size_t)level + 1);
  sb_commit(out, (size_t)(doc_json_line(to, level) - to));
}

/* Bytes written as they are: printable ASCII but for what Go escapes. */
static const bool plain_byte[256] = {
    [' ' ... '!'] = true, ['#' ... '%'] = true, ['\'' ... ';'] = true, ['='] = true, ['?' ... '['] = true, [']' ... 0x7f] = true,
};

void doc_write_json_string(strbuf *out, const char *s, size_t len) {
  static const char hex[] = "0123456789abcdef";
  const unsigned char *p = (const unsigned char *)s;
  char *to = sb_reserve(out, len + 2);
  to[0] = '"';
  size_t plain = 0;
  for (; plain < len && plain_byte[p[plain]]; plain++) to[plain + 1] = s[plain]; /* copied as it is checked */
  if (plain == len) { /* the common case: in one piece */
    to[len + 1] = '"';
    sb_commit(out, len + 2);
    return;
  }
  sb_commit(out, plain + 1);
  for (size_t i = plain; i < len;) {
    size_t run = i;
    while (run < len && plain_byte[p[run]]) run++;
    if (run > i) {
      sb_add(out, s + i, run - i);
      i = run;
      continue;
    }
    unsigned char c = p[i];
    const char *esc = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t"
                    : c == '\b' ? "\\b" : c == '\f' ? "\\f" : NULL;
    if (esc) {
      sb_puts(out, esc);
      i++;
    } else if (c < 0x80) { /* a control character, '<', '>' or '&' */
      char u[7] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15], 0};
      sb_puts(out, u);
      i++;
    } else {
      unsigned cp;
      size_t n = utf8_decode(p + i, len - i, &cp);
      if (!n) sb_puts(out, "\\ufffd");
      else if (cp == 0x2028 || cp == 0x2029) sb_printf(out, "\\u%04x", cp);
      else sb_add(out, s + i, n);
      i += n ? n : 1;
    }
  }
  sb_putc(out, '"');
}

/* ",\n    \"" before a key: where the key's text goes, in room for klen + 3 more. */
static inline char *key_start(strbuf *out, bool first, size_t klen, int level, char **start) {
  char *to = sb_reserve(out, klen + (level < 0 ? 0 : 4 * (size_t)level) + 6), *at = to;
  if (!first) *at++ = ',';
  if (level >= 0) at = doc_json_line(at, level);
  *at++ = '"';
  *start = to;
  return at;
}

/* "\": " (or "\":" compact) after a key's text. */
static inline void key_end(strbuf *out, char *to, char *at, int level) {
  *at++ = '"';
  *at++ = ':';
  if (level >= 0) *at++ = ' ';
  sb_commit(out, (size_t)(at - to));
}

void doc_write_json_key(strbuf *out, bool first, const char *k, size_t klen, int level) {
  char *to, *at = key_start(out, first, klen, level, &to);
  const unsigned char *p = (const unsigned char *)k;
  size_t plain = 0;
  for (; plain < klen && plain_byte[p[plain]]; plain++) at[plain] = k[plain];
  if (plain < klen) { /* a key to escape: the string writer's slow path */
    sb_commit(out, (size_t)(at - 1 - to));
    doc_write_json_string(out, k, klen);
    sb_add(out, ": ", level < 0 ? 1 : 2);
    return;
  }
  key_end(out, to, at + klen, level);
}

void doc_write_json_plain_key(strbuf *out, bool first, const char *k, size_t klen, int level) {
  char *to, *at = key_start(out, first, klen, level, &to);
  memcpy(at, k, klen);
  key_end(out, to, at + klen, level);
}

bool doc_json_plain(const char *s, size_t len) {
  for (size_t i = 0; i < len; i++)
    if (!plain_byte[(unsigned char)s[i]]) return false;
  return true;
}

static int deeper(int level) { return level < 0 ? level : level + 1; }

static void put_value(strbuf *out, const json_t *v, int level) {
  switch (json_typeof(v)) {
  case JSON_OBJECT: {
    if (!json_object_size(v)) {
      sb_puts(out, "{}");
      return;
    }
    sb_putc(out, '{');
    const char *k;
    size_t klen, n = 0;
    json_t *child;
    json_object_keylen_foreach((json_t *)v, k, klen, child) {
      doc_write_json_key(out, n++ == 0, k, klen, deeper(level));
      put_value(out, child, deeper(level));
    }
    indent(out, level);
    sb_putc(out, '}');
    return;
  }
  case JSON_ARRAY: {
    if (!json_array_size(v)) {
      sb_puts(out, "[]");
      return;
    }
    sb_putc(out, '[');
    size_t i;
    json_t *child;
    json_array_foreach(v, i, child) {
      if (i) sb_putc(out, ',');
      indent(out, deeper(level));
      put_value(out, child, deeper(level));
    }
    indent(out, level);
    sb_putc(out, ']');
    return;
  }
  case JSON_STRING: doc_write_json_string(out, json_string_value(v), json_string_length(v)); return;
  case JSON_INTEGER: sb_put_int(out, json_integer_value(v)); return;
  case JSON_REAL: go_format_float_json(out, json_real_value(v)); return;
  case JSON_TRUE: sb_puts(out, "true"); return;
  case JSON_FALSE: sb_puts(out, "false"); return;
  case JSON_NULL: sb_puts(out, "null"); return;
  }
}

void doc_write_json_at(strbuf *out, const json_t *v, int level) { put_value(out, v, level); }

void doc_write_json(strbuf *out, const json_t *v) {
  put_value(out, v, 0);
  sb_putc(out, '\n');
}

void doc_write_json_compact(strbuf *out, const json_t *v) { put_value(out, v, -1); }
