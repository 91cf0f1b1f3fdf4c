/* schema.h: the machinery that turns one field list per API struct into both
 * the C struct and its descriptor table, so decode, encode and copy are
 * written once (codec_decode.c, codec_encode.c) and driven by the tables.
 *
 * A field list is a macro NAME_FIELDS(X, S) calling X(S, KIND, cname,
 * "jsonName", ELEM, FLAGS) once per field, in the API's JSON field order.
 * KIND is one of:
 *   STR   char *          (NULL = absent)
 *   ATOM  const atom *    (interned; NULL = absent)
 *   BOOL  bool + cname_set
 *   INT   int64_t + cname_set
 *   QTY   quantity + cname_set
 *   OBJ   struct ELEM *   (NULL = absent)
 *   EMB   ELEM by value   (always present, e.g. metadata)
 *   LIST  ELEM_list       {items, n, set}
 *   MAP   ELEM_map        {items: {key atom, value ELEM}, n, set}; JSON object
 *   RAW   json_t *        (opaque JSON kept verbatim)
 * ELEM names a type with a descriptor: a struct from types.h, or one of the
 * scalar element types dstr, datom, i64, dbool, quantity. */
#ifndef DRA_SCHEMA_H
#define DRA_SCHEMA_H
#include "value/quantity.h"
#include "util/atom.h"
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* K_RAW: a JSON value kept as a jansson tree. K_RAW_TEXT: a JSON value kept
 * as its compact text (codec_compact_tree's), in a jansson string owned and
 * shared as a K_RAW value is: a tenth of a tree's memory, for a value only
 * written out again (managedFields' fieldsV1; codec_raw_text.c). */
typedef enum { K_STR, K_ATOM, K_BOOL, K_INT, K_QTY, K_OBJ, K_EMB, K_LIST, K_MAP, K_RAW, K_RAW_TEXT } field_kind;

enum {
  F_NONE = 0,
  F_KEEP_EMPTY = 1 << 0, /* encode "" / [] / {} when present (Go pointer or non-omitempty field); an
                            * absent OBJ as null (a Go pointer without omitempty) */
  F_INT32 = 1 << 1,      /* an INT that is a Go int32: a number out of its range does not decode */
  F_ALWAYS = 1 << 2,     /* a STR that is a Go string without omitempty: encoded always, "" when unset */
  F_TIME = 1 << 3,       /* a STR that is a Go metav1.Time, which omitempty never leaves out:
                            * encoded always, null when unset */
  F_SCHEMA = 1 << 4,     /* a RAW or RAW_TEXT field of a struct with a full schema (open_fields.h): kept
                            * as JSON but checked as decoding it would be, unknown fields refused or dropped */
  F_UNSCHEDULED = 1 << 5, /* a field of an open struct the scheduler does not read: DRA_LOAD_SCHEDULING_ONLY
                             * leaves it out, as it does such unknown fields (open_fields.h) */
};

enum {
  T_STRICT = 0,
  T_OPEN = 1 << 0, /* unknown fields are kept in _extra and encoded back, not refused */
};

typedef struct type_desc type_desc;

typedef struct field_desc {
  const char *json;
  field_kind kind;
  uint32_t offset;     /* of the value */
  uint32_t set_offset; /* of cname_set for BOOL/INT/QTY */
  const type_desc *elem;
  uint32_t flags;
  uint32_t json_len; /* strlen(json) */
} field_desc;

struct type_desc {
  const char *name;     /* Go type name, for messages */
  field_kind scalar;    /* for scalar element types: their kind; K_EMB for structs */
  size_t size;          /* sizeof the C type */
  size_t entry_size;    /* sizeof map entry {key, value} */
  size_t entry_value;   /* offsetof(entry, value) */
  size_t extra_offset;  /* offsetof(S, _extra) for structs */
  const field_desc *fields;
  size_t nfields;
  uint32_t flags;       /* T_OPEN */
  unsigned char *facts; /* what its values can hold: 0 not known yet, see type_facts.h */
};

/* Generic container layouts every *_list / *_map shares. */
typedef struct dlist { void *items; uint32_t n; bool set; } dlist;
typedef struct dmap { void *items; uint32_t n; bool set; } dmap;

/* Scalar element types. */
typedef char *dstr;
typedef const atom *datom;
typedef int64_t i64;
typedef bool dbool;

#define DECLARE_CONTAINERS(T)                                         \
  typedef struct T##_entry T##_entry;                                 \
  typedef struct T##_list { T *items; uint32_t n; bool set; } T##_list; \
  typedef struct T##_map { T##_entry *items; uint32_t n; bool set; } T##_map;

#define DECLARE_SCALAR(T)                                 \
  DECLARE_CONTAINERS(T)                                   \
  struct T##_entry { const atom *key; T value; };         \
  extern const type_desc T##_desc;

DECLARE_SCALAR(dstr)
DECLARE_SCALAR(datom)
DECLARE_SCALAR(i64)
DECLARE_SCALAR(dbool)
DECLARE_SCALAR(quantity)

#define SCHEMA_MEMBER_STR(c, T) char *c;
#define SCHEMA_MEMBER_ATOM(c, T) const atom *c;
#define SCHEMA_MEMBER_BOOL(c, T) bool c; bool c##_set;
#define SCHEMA_MEMBER_INT(c, T) int64_t c; bool c##_set;
#define SCHEMA_MEMBER_QTY(c, T) quantity c; bool c##_set;
#define SCHEMA_MEMBER_OBJ(c, T) struct T *c;
#define SCHEMA_MEMBER_EMB(c, T) struct T c;
#define SCHEMA_MEMBER_LIST(c, T) T##_list c;
#define SCHEMA_MEMBER_MAP(c, T) T##_map c;
#define SCHEMA_MEMBER_RAW(c, T) json_t *c;
#define SCHEMA_MEMBER_RAW_TEXT(c, T) json_t *c;
#define SCHEMA_MEMBER(S, K, c, j, T, F) SCHEMA_MEMBER_##K(c, T)

/* Declares struct S (forward-declared by DECLARE_CONTAINERS(S)) from S_FIELDS. */
#define DEFINE_STRUCT(S)                                  \
  struct S { S##_FIELDS(SCHEMA_MEMBER, S) json_t *_extra; }; \
  struct S##_entry { const atom *key; S value; };        \
  extern const type_desc S##_desc;

#endif
