/* body_pb_internal.h: the protobuf wire-format reading body_pb.c and
 * body_pb_workloads.c share. */
#ifndef DRA_SRV_BODY_PB_INTERNAL_H
#define DRA_SRV_BODY_PB_INTERNAL_H
#include "server/body_pb.h"
#include <stdint.h>

typedef struct pb_reader {
  const unsigned char *p, *end;
} pb_reader;

bool pb_read_varint(pb_reader *r, uint64_t *v);
/* The next field: its number, and in *sub the bytes of a length-delimited
 * field or of a varint (read it with pb_varint_of); other wire types are
 * skipped (*sub empty). false at the end or on malformed input (*bad set). */
bool pb_next_field(pb_reader *r, unsigned *field, pb_reader *sub, bool *bad);
/* The same, with the wire type (0 varint, 2 length-delimited, ...). */
bool pb_next_field_typed(pb_reader *r, unsigned *field, pb_reader *sub, unsigned *wire, bool *bad);
uint64_t pb_varint_of(pb_reader varint);
json_t *pb_string_of(const pb_reader *s);
/* A map<string,string> entry (key = 1, value = 2) into obj. */
void pb_map_entry(pb_reader e, json_t *obj, bool *bad);
/* meta/v1 ObjectMeta: name, generateName, namespace, labels, annotations,
 * finalizers. */
json_t *pb_object_meta(pb_reader m, bool *bad);
/* The "k8s\0" envelope: apiVersion and kind into root, the object's bytes
 * in *raw; false with a message in err. */
bool pb_unwrap(const char *body, size_t n, json_t *root, pb_reader *raw, strbuf *err);

#endif
