/* strbuf.c: see strbuf.h. */
#include "util/strbuf.h"
#include "util/die.h"
#include "util/utf8.h"
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sb_grow(strbuf *sb, size_t extra) {
  size_t cap = sb->cap ? sb->cap : 64;
  while (cap < sb->len + extra + 1) cap *= 2;
  sb->buf = xrealloc(sb->buf, cap);
  sb->cap = cap;
}

static void reserve(strbuf *sb, size_t extra) {
  if (sb->len + extra + 1 > sb->cap) sb_grow(sb, extra);
}

void sb_add(strbuf *sb, const char *s, size_t n) {
  reserve(sb, n);
  memcpy(sb->buf + sb->len, s, n);
  sb->len += n;
  sb->buf[sb->len] = 0;
}

void sb_puts(strbuf *sb, const char *s) { sb_add(sb, s, strlen(s)); }

void sb_put_uint(strbuf *sb, uint64_t v) {
  char digits[20], *p = digits + sizeof digits;
  do *--p = (char)('0' + v % 10);
  while (v /= 10);
  sb_add(sb, p, (size_t)(digits + sizeof digits - p));
}

void sb_put_int(strbuf *sb, int64_t v) {
  if (v < 0) sb_putc(sb, '-');
  sb_put_uint(sb, v < 0 ? -(uint64_t)v : (uint64_t)v);
}

void sb_cat(strbuf *sb, ...) {
  va_list ap;
  va_start(ap, sb);
  for (const char *s; (s = va_arg(ap, const char *));) sb_puts(sb, s);
  va_end(ap);
}

void sb_vprintf(strbuf *sb, const char *fmt, va_list ap) {
  va_list again;
  va_copy(again, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  if (n < 0) n = 0; /* an encoding error adds nothing */
  reserve(sb, (size_t)n);
  vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, again);
  sb->len += (size_t)n;
  va_end(again);
}

void sb_printf(strbuf *sb, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(sb, fmt, ap);
  va_end(ap);
}

/* Go's unicode.IsPrint for the code points above U+007F that commonly
 * occur: C1 controls, the no-break and other spaces, soft hyphen, the
 * zero-width and bidi format characters, line/paragraph separators, BOM and
 * specials are not printable; everything else is taken as printable
 * (Go also escapes unassigned code points, which needs Unicode's tables). */
static bool go_printable(unsigned cp) {
  return !((cp >= 0x80 && cp <= 0xA0) || cp == 0xAD || cp == 0x61C || cp == 0x1680 || cp == 0x180E ||
           (cp >= 0x2000 && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202F) || (cp >= 0x205F && cp <= 0x206F) ||
           cp == 0x3000 || cp == 0xFEFF || (cp >= 0xFFF9 && cp <= 0xFFFB) || cp == 0xFFFE || cp == 0xFFFF);
}

void sb_go_quote(strbuf *sb, const char *s) {
  sb_putc(sb, '"');
  const unsigned char *p = (const unsigned char *)s, *end = p + strlen(s);
  while (p < end) {
    unsigned cp;
    size_t n = utf8_decode(p, (size_t)(end - p), &cp);
    if (!n) { sb_printf(sb, "\\x%02x", *p++); continue; }
    switch (cp) {
    case '"': sb_puts(sb, "\\\""); break;
    case '\\': sb_puts(sb, "\\\\"); break;
    case '\n': sb_puts(sb, "\\n"); break;
    case '\t': sb_puts(sb, "\\t"); break;
    case '\r': sb_puts(sb, "\\r"); break;
    case '\a': sb_puts(sb, "\\a"); break;
    case '\b': sb_puts(sb, "\\b"); break;
    case '\f': sb_puts(sb, "\\f"); break;
    case '\v': sb_puts(sb, "\\v"); break;
    default:
      if (cp < 0x20 || cp == 0x7F) sb_printf(sb, "\\x%02x", cp);
      else if (!go_printable(cp)) sb_printf(sb, cp < 0x10000 ? "\\u%04x" : "\\U%08x", cp);
      else sb_add(sb, (const char *)p, (size_t)n);
    }
    p += n;
  }
  sb_putc(sb, '"');
}

void sb_truncate(strbuf *sb, size_t len) {
  if (len < sb->len) {
    sb->len = len;
    sb->buf[len] = 0;
  }
}

const char *sb_str(strbuf *sb) { return sb->buf ? sb->buf : ""; }

char *sb_detach(strbuf *sb) {
  char *p = sb->buf ? sb->buf : xstrdup("");
  sb->buf = NULL;
  sb->len = sb->cap = 0;
  return p;
}

void sb_free(strbuf *sb) {
  free(sb->buf);
  sb->buf = NULL;
  sb->len = sb->cap = 0;
}

char *sb_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  strbuf sb = STRBUF_INIT;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) sb_add(&sb, buf, n);
  fclose(f);
  if (len) *len = sb.len;
  return sb_detach(&sb);
}
