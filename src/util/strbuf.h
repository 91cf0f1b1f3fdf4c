/* strbuf.h: growable byte buffer for building text (paths, messages, output). */
#ifndef DRA_STRBUF_H
#define DRA_STRBUF_H
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

typedef struct strbuf {
  char *buf;   /* always NUL-terminated once anything was added */
  size_t len, cap;
} strbuf;

#define STRBUF_INIT {0, 0, 0}
void sb_add(strbuf *sb, const char *s, size_t n);
void sb_puts(strbuf *sb, const char *s);
/* Room for n more bytes (and the NUL) past len; see sb_reserve. */
void sb_grow(strbuf *sb, size_t n);
static inline void sb_putc(strbuf *sb, char c) {
  if (sb->len + 2 > sb->cap) sb_grow(sb, 1);
  sb->buf[sb->len++] = c;
  sb->buf[sb->len] = 0;
}
/* An integer in decimal, as printf's %" PRId64 " and %" PRIu64 " write it. */
void sb_put_int(strbuf *sb, int64_t v);
void sb_put_uint(strbuf *sb, uint64_t v);
/* Appends the strings up to the NULL: sb_printf("%s%s", ...) without the formatting. */
void sb_cat(strbuf *sb, ...) __attribute__((sentinel));
void sb_printf(strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(strbuf *sb, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* Go's strconv.Quote of s: "..." with \" \\ \n \t and \u/\x escapes. */
void sb_go_quote(strbuf *sb, const char *s);
void sb_truncate(strbuf *sb, size_t len);
const char *sb_str(strbuf *sb); /* "" when empty */
char *sb_detach(strbuf *sb);    /* caller frees; buffer reset */
void sb_free(strbuf *sb);
/* The whole of a file, malloc'd and NUL-terminated, its length in *len
 * (len may be NULL); NULL with errno set when it cannot be read. */
char *sb_read_file(const char *path, size_t *len);
/* For writers that fill the buffer themselves: room for n more bytes, and
 * where they go; sb_commit then counts the k of them that were written. */
static inline char *sb_reserve(strbuf *sb, size_t n) {
  if (sb->len + n + 1 > sb->cap) sb_grow(sb, n);
  return sb->buf + sb->len;
}
static inline void sb_commit(strbuf *sb, size_t k) {
  sb->len += k;
  sb->buf[sb->len] = 0;
}

#endif
