/* ssa_go_zero.c: see ssa_go_zero.h. */
#include "api/ssa_go_zero.h"
#include "codec/pb_schema.h"
#include <stdbool.h>

#define GO_ZERO_MAX_DEPTH 100

static void fill(json_t *obj, const pb_message *m, bool drop_empty, int depth);

/* The value Go writes for a zero field, or NULL when it leaves it out. */
static json_t *zero_of(const pb_field *f, int depth) {
  bool omitted = f->flags & (PB_OMITEMPTY | PB_OMITZERO);
  if (f->flags & (PB_REPEATED | PB_NILABLE | PB_WRAPPED) || f->kind == PBK_BYTES) return omitted ? NULL : json_null();
  switch (f->kind) {
  case PBK_MESSAGE: { /* a struct: omitempty does not leave it out */
    if (f->flags & PB_OMITZERO || depth > GO_ZERO_MAX_DEPTH) return NULL;
    json_t *o = json_object();
    fill(o, pb_field_message(f), false, depth + 1);
    return o;
  }
  case PBK_TIME:
  case PBK_MICRO_TIME:
  case PBK_RAW_JSON: return f->flags & PB_OMITZERO ? NULL : json_null();
  case PBK_QUANTITY: return f->flags & PB_OMITZERO ? NULL : json_string("0");
  case PBK_DURATION: return f->flags & PB_OMITZERO ? NULL : json_string("0s");
  case PBK_INT_OR_STRING: return f->flags & PB_OMITZERO ? NULL : json_integer(0);
  case PBK_STRING: return omitted ? NULL : json_string("");
  case PBK_BOOL: return omitted ? NULL : json_false();
  case PBK_DOUBLE: return omitted ? NULL : json_real(0);
  default: return omitted ? NULL : json_integer(0);
  }
}

/* The message of a map's values, or NULL when they are not messages. */
static const pb_message *map_value_message(const pb_field *f) {
  const pb_field *value = pb_message_field(pb_field_message(f), 2);
  return value && value->kind == PBK_MESSAGE ? pb_field_message(value) : NULL;
}

/* Whether encoding/json's omitempty leaves v out: an empty array, map or
 * string, zero, false or null (a struct value never, a pointer when nil). */
static bool go_empty(const json_t *v, const pb_field *f) {
  if (json_is_null(v)) return true;
  if (json_is_array(v)) return !json_array_size(v);
  if (json_is_object(v)) return f->flags & PB_MAP && !json_object_size(v);
  if (f->flags & PB_NILABLE) return false; /* a pointer to a zero is written */
  if (json_is_string(v)) return f->kind == PBK_STRING && !*json_string_value(v);
  if (json_is_boolean(v)) return json_is_false(v);
  if (json_is_integer(v)) return !json_integer_value(v);
  return false;
}

static void fill_value(json_t *v, const pb_field *f, bool drop_empty, int depth) {
  if (f->kind != PBK_MESSAGE || depth > GO_ZERO_MAX_DEPTH) return;
  const pb_message *m = pb_field_message(f);
  if (f->flags & PB_MAP) {
    const pb_message *values = map_value_message(f);
    const char *key;
    json_t *item;
    if (values && json_is_object(v))
      json_object_foreach(v, key, item) if (json_is_object(item)) fill(item, values, drop_empty, depth + 1);
  } else if (f->flags & PB_REPEATED) {
    size_t i;
    json_t *item;
    if (json_is_array(v)) json_array_foreach(v, i, item) if (json_is_object(item)) fill(item, m, drop_empty, depth + 1);
  } else if (!(f->flags & PB_WRAPPED) && json_is_object(v)) fill(v, m, drop_empty, depth + 1);
}

static void fill(json_t *obj, const pb_message *m, bool drop_empty, int depth) {
  for (unsigned i = m->first; i < (unsigned)m->first + m->count; i++) {
    const pb_field *f = &pb_fields[i];
    if (f->flags & PB_INLINE) {
      if (depth <= GO_ZERO_MAX_DEPTH) fill(obj, pb_field_message(f), drop_empty, depth + 1);
      continue;
    }
    json_t *v = json_object_get(obj, f->json);
    if (v && drop_empty && f->flags & PB_OMITEMPTY && go_empty(v, f)) json_object_del(obj, f->json);
    else if (v) fill_value(v, f, drop_empty, depth);
    else {
      json_t *zero = zero_of(f, depth);
      if (zero) json_object_set_new(obj, f->json, zero);
    }
  }
}

void ssa_fill_go_zero(json_t *obj) {
  const pb_message *m = pb_message_for(json_string_value(json_object_get(obj, "apiVersion")),
                                       json_string_value(json_object_get(obj, "kind")));
  if (m && json_is_object(obj)) fill(obj, m, false, 0);
}

void ssa_go_round_trip(json_t *obj) {
  const pb_message *m = pb_message_for(json_string_value(json_object_get(obj, "apiVersion")),
                                       json_string_value(json_object_get(obj, "kind")));
  if (m && json_is_object(obj)) fill(obj, m, true, 0);
}
