/* protobuf.c: see protobuf.h. Encoding per
 * https://protobuf.dev/programming-guides/encoding/ (base-128 varints, tags
 * (field << 3 | wire type), length-delimited payloads). */
#include "server/protobuf.h"
#include <string.h>

enum { WIRE_VARINT = 0, WIRE_LEN = 2 };

static size_t varint_encode(uint64_t v, unsigned char buf[10]) {
  size_t n = 0;
  while (v >= 0x80) {
    buf[n++] = (unsigned char)(v | 0x80);
    v >>= 7;
  }
  buf[n++] = (unsigned char)v;
  return n;
}

void pb_varint(strbuf *out, uint64_t v) {
  unsigned char buf[10];
  sb_add(out, (const char *)buf, varint_encode(v, buf));
}

static void tag(strbuf *out, unsigned field, unsigned wire) { pb_varint(out, (uint64_t)field << 3 | wire); }

void pb_uint(strbuf *out, unsigned field, uint64_t v) {
  tag(out, field, WIRE_VARINT);
  pb_varint(out, v);
}

void pb_bool(strbuf *out, unsigned field, bool v) { pb_uint(out, field, v ? 1 : 0); }

void pb_bytes(strbuf *out, unsigned field, const void *data, size_t n) {
  tag(out, field, WIRE_LEN);
  pb_varint(out, n);
  sb_add(out, data, n);
}

void pb_string(strbuf *out, unsigned field, const char *s) { pb_bytes(out, field, s, strlen(s)); }

size_t pb_open(strbuf *out, unsigned field) {
  tag(out, field, WIRE_LEN);
  return out->len;
}

/* The payload since mark is already in place: grow by the length's varint
 * and shift the payload behind it. */
void pb_close(strbuf *out, size_t mark) {
  unsigned char len[10];
  size_t payload = out->len - mark, n = varint_encode(payload, len);
  sb_add(out, (const char *)len, n); /* grows the buffer by n */
  memmove(out->buf + mark + n, out->buf + mark, payload);
  memcpy(out->buf + mark, len, n);
}
