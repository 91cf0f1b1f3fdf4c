/* protobuf.h: a minimal protobuf wire-format writer (encoding only): varint
 * and length-delimited fields appended to a strbuf. A nested message is
 * opened with pb_open, its fields are appended, and pb_close prefixes the
 * exact length. */
#ifndef DRA_SRV_PROTOBUF_H
#define DRA_SRV_PROTOBUF_H
#include "util/strbuf.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

void pb_varint(strbuf *out, uint64_t v);
/* Wire type 0 (varint): int64, uint64, bool, enum. */
void pb_uint(strbuf *out, unsigned field, uint64_t v);
void pb_bool(strbuf *out, unsigned field, bool v);
/* Wire type 2 (length-delimited): bytes and strings. */
void pb_bytes(strbuf *out, unsigned field, const void *data, size_t n);
void pb_string(strbuf *out, unsigned field, const char *s);
/* Starts an embedded message; returns the mark pb_close needs. */
size_t pb_open(strbuf *out, unsigned field);
void pb_close(strbuf *out, size_t mark);

#endif
