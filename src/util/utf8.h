/* utf8.h: strict UTF-8 decoding and encoding, for the document readers and
 * writers, Go-style quoting (strbuf) and CEL string literals. */
#ifndef DRA_UTF8_H
#define DRA_UTF8_H
#include "util/strbuf.h"
#include <stddef.h>

/* Decodes one sequence from s (n > 0 bytes available): its length, or 0 when
 * the bytes are not valid UTF-8 (overlong, surrogate, truncated, > U+10FFFF). */
size_t utf8_decode(const unsigned char *s, size_t n, unsigned *cp);
void utf8_encode(strbuf *sb, unsigned cp);

#endif
