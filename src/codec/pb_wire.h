/* pb_wire.h: the protobuf wire format (https://protobuf.dev/programming-guides/encoding/):
 * writing varint, fixed64 and length-delimited fields to a strbuf, and
 * reading fields back from bytes. A nested message is opened with pb_open,
 * its fields are appended, and pb_close prefixes the exact length. */
#ifndef DRA_CODEC_PB_WIRE_H
#define DRA_CODEC_PB_WIRE_H
#include "util/strbuf.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { PB_WIRE_VARINT = 0, PB_WIRE_FIXED64 = 1, PB_WIRE_LEN = 2, PB_WIRE_FIXED32 = 5 };

void pb_varint(strbuf *out, uint64_t v);
void pb_tag(strbuf *out, unsigned field, unsigned wire);
/* Wire type 0 (varint): int64, uint64, bool, enum. */
void pb_uint(strbuf *out, unsigned field, uint64_t v);
void pb_bool(strbuf *out, unsigned field, bool v);
/* Wire type 1: a double, little-endian. */
void pb_double(strbuf *out, unsigned field, double v);
/* Wire type 2 (length-delimited): bytes and strings. */
void pb_bytes(strbuf *out, unsigned field, const void *data, size_t n);
void pb_string(strbuf *out, unsigned field, const char *s);
/* Starts an embedded message; returns the mark pb_close needs. */
size_t pb_open(strbuf *out, unsigned field);
void pb_close(strbuf *out, size_t mark);

/* Reading: a window of bytes. */
typedef struct pb_reader {
  const unsigned char *p, *end;
} pb_reader;

bool pb_read_varint(pb_reader *r, uint64_t *v);
/* The next field: its number, wire type and in *value the bytes of a
 * length-delimited field, or those of the varint or fixed value (read
 * them with pb_varint_of, pb_fixed64_of). false at the end, or on
 * malformed input with *bad set. */
bool pb_next_field(pb_reader *r, unsigned *field, unsigned *wire, pb_reader *value, bool *bad);
uint64_t pb_varint_of(pb_reader varint);
uint64_t pb_fixed64_of(pb_reader fixed);
static inline size_t pb_len(pb_reader r) { return (size_t)(r.end - r.p); }

#endif
