/* pb_wire.c: see pb_wire.h. Base-128 varints, tags (field << 3 | wire
 * type), length-delimited payloads, little-endian fixed64. */
#include "codec/pb_wire.h"
#include <string.h>

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

void pb_tag(strbuf *out, unsigned field, unsigned wire) { pb_varint(out, (uint64_t)field << 3 | wire); }

void pb_uint(strbuf *out, unsigned field, uint64_t v) {
  pb_tag(out, field, PB_WIRE_VARINT);
  pb_varint(out, v);
}

void pb_bool(strbuf *out, unsigned field, bool v) { pb_uint(out, field, v ? 1 : 0); }

void pb_double(strbuf *out, unsigned field, double v) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  unsigned char le[8];
  for (int i = 0; i < 8; i++) le[i] = (unsigned char)(bits >> (8 * i));
  pb_tag(out, field, PB_WIRE_FIXED64);
  sb_add(out, (const char *)le, 8);
}

void pb_bytes(strbuf *out, unsigned field, const void *data, size_t n) {
  pb_tag(out, field, PB_WIRE_LEN);
  pb_varint(out, n);
  sb_add(out, data, n);
}

void pb_string(strbuf *out, unsigned field, const char *s) { pb_bytes(out, field, s, strlen(s)); }

size_t pb_open(strbuf *out, unsigned field) {
  pb_tag(out, field, PB_WIRE_LEN);
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

bool pb_read_varint(pb_reader *r, uint64_t *v) {
  *v = 0;
  for (unsigned shift = 0; shift < 64 && r->p < r->end; shift += 7) {
    unsigned char b = *r->p++;
    *v |= (uint64_t)(b & 0x7F) << shift;
    if (!(b & 0x80)) return true;
  }
  return false;
}

static bool skip(pb_reader *r, size_t n, pb_reader *value) {
  if (pb_len(*r) < n) return false;
  value->p = r->p;
  value->end = r->p += n;
  return true;
}

bool pb_next_field(pb_reader *r, unsigned *field, unsigned *wire, pb_reader *value, bool *bad) {
  if (r->p >= r->end) return false;
  uint64_t key, len;
  if (!pb_read_varint(r, &key) || key >> 3 == 0 || key >> 3 > 0x1FFFFFFF) return *bad = true, false;
  *field = (unsigned)(key >> 3);
  *wire = (unsigned)(key & 7);
  value->p = value->end = r->p;
  bool ok;
  switch (*wire) {
  case PB_WIRE_VARINT:
    ok = pb_read_varint(r, &len);
    value->end = r->p; /* the varint's bytes: pb_varint_of reads them */
    break;
  case PB_WIRE_FIXED64: ok = skip(r, 8, value); break;
  case PB_WIRE_FIXED32: ok = skip(r, 4, value); break;
  case PB_WIRE_LEN: ok = pb_read_varint(r, &len) && len <= pb_len(*r) && skip(r, (size_t)len, value); break;
  default: ok = false;
  }
  if (!ok) *bad = true;
  return ok;
}

uint64_t pb_varint_of(pb_reader s) {
  uint64_t v = 0;
  pb_read_varint(&s, &v);
  return v;
}

uint64_t pb_fixed64_of(pb_reader s) {
  uint64_t v = 0;
  for (int i = 0; i < 8 && s.p + i < s.end; i++) v |= (uint64_t)s.p[i] << (8 * i);
  return v;
}
