/* type_facts.h: what the values of a typed struct can hold, worked out
 * once per type from its descriptor and remembered in type_desc.facts:
 * atoms (codec_copy.c holds them for a copy) and JSON values (codec_share.c
 * shares them between stored versions). Walks over an object pass over the
 * structs that hold neither, which are most of them (a container's
 * resources, a claim's requests, a device's attributes hold no JSON). */
#ifndef DRA_API_TYPE_FACTS_H
#define DRA_API_TYPE_FACTS_H
#include "api/schema.h"

enum {
  TYPE_HOLDS_ATOMS = 1 << 0, /* an atom field, or a map (whose keys are atoms) */
  TYPE_HOLDS_JSON = 1 << 1,  /* unknown fields kept (T_OPEN), or a K_RAW or K_RAW_TEXT field */
};

enum { TYPE_FACTS_KNOWN = 1 << 7, TYPE_FACTS_ALL = TYPE_HOLDS_ATOMS | TYPE_HOLDS_JSON };

/* Works a type's facts out (type_facts does, the first time). A type met
 * again while it is being worked out (a recursive type) counts as holding
 * everything, which is never wrong; threads racing to work one out store
 * the same answer. */
unsigned type_facts_work_out(const type_desc *td);

/* The TYPE_HOLDS_* bits of a struct's values. */
static inline unsigned type_facts(const type_desc *td) {
  unsigned char known = td->facts ? __atomic_load_n(td->facts, __ATOMIC_RELAXED) : 0;
  return known & TYPE_FACTS_KNOWN ? known & TYPE_FACTS_ALL : type_facts_work_out(td);
}

/* The same for a field or item of kind k whose element type is elem. */
static inline unsigned value_facts(field_kind k, const type_desc *elem) {
  switch (k) {
  case K_ATOM: return TYPE_HOLDS_ATOMS;
  case K_RAW:
  case K_RAW_TEXT: return TYPE_HOLDS_JSON;
  case K_OBJ:
  case K_EMB: return type_facts(elem);
  case K_LIST:
  case K_MAP: {
    unsigned keys = k == K_MAP ? TYPE_HOLDS_ATOMS : 0;
    if (elem->scalar == K_LIST || elem->scalar == K_MAP) return TYPE_FACTS_ALL; /* nested containers: not worked out */
    return keys | value_facts(elem->scalar, elem);
  }
  default: return 0;
  }
}

#endif
