/* validate_render.c: JSON rendering of bad values for field errors. */
#include "api/validate_render.h"
#include "api/codec.h"
#include "util/die.h"
#include <stdlib.h>

static char *dump_compact(json_t *v) {
  char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
  json_decref(v);
  if (!s) die_oom();
  return s;
}

char *render_field_json(const type_desc *td, const void *value, const char *json_field) {
  json_t *whole = codec_encode(td, value);
  json_t *member = json_object_get(whole, json_field);
  char *s = dump_compact(member ? json_incref(member) : json_null());
  json_decref(whole);
  return s;
}

char *render_str_list(const dstr_list *l) {
  if (!l->set) return xstrdup("null");
  json_t *arr = json_array();
  for (uint32_t i = 0; i < l->n; i++) json_array_append_new(arr, json_string(l->items[i] ? l->items[i] : ""));
  return dump_compact(arr);
}
