/* codec_encode.c: typed struct -> JSON tree in the API's field order, with
 * Go's omitempty rules as the F_KEEP_EMPTY flag states them; map keys are
 * sorted as Go's encoding/json sorts them. */
#include "api/codec.h"
#include <stdlib.h>
#include <string.h>

static json_t *encode_struct(const type_desc *td, const void *in);


static int cmp_entry_keys(const void *x, const void *y) {
  const atom *a = **(const atom *const *const *)x;
  const atom *b = **(const atom *const *const *)y;
  return strcmp(a->str, b->str);
}

static json_t *encode_list(const type_desc *elem, const dlist *l) {
  json_t *arr = json_array();
  for (uint32_t i = 0; i < l->n; i++)
    json_array_append_new(arr, codec_encode_value(elem->scalar, elem, (const char *)l->items + i * elem->size));
  return arr;
}

static json_t *encode_map(const type_desc *elem, const dmap *m) {
  json_t *obj = json_object();
  const void **order = malloc((m->n ? m->n : 1) * sizeof *order);
  for (uint32_t i = 0; i < m->n; i++) order[i] = (const char *)m->items + i * elem->entry_size;
  qsort(order, m->n, sizeof *order, cmp_entry_keys);
  for (uint32_t i = 0; i < m->n; i++) {
    const char *entry = order[i];
    const atom *key = *(const atom *const *)entry;
    json_object_set_new(obj, key->str, codec_encode_value(elem->scalar, elem, entry + elem->entry_value));
  }
  free(order);
  return obj;
}

json_t *codec_encode_value(field_kind k, const type_desc *elem, const void *src) {
  switch (k) {
  case K_STR: {
    const char *s = *(char *const *)src;
    return json_string(s ? s : "");
  }
  case K_ATOM: {
    const atom *a = *(const atom *const *)src;
    return json_string(a ? a->str : "");
  }
  case K_BOOL: return json_boolean(*(const bool *)src);
  case K_INT: return json_integer(*(const int64_t *)src);
  case K_QTY: {
    char buf[128];
    return json_string(quantity_format_str(src, buf, sizeof buf));
  }
  case K_OBJ: {
    const void *obj = *(void *const *)src;
    return obj ? encode_struct(elem, obj) : json_null();
  }
  case K_EMB: return encode_struct(elem, src);
  case K_LIST: return encode_list(elem, src);
  case K_MAP: return encode_map(elem, src);
  case K_RAW: {
    const json_t *raw = *(json_t *const *)src;
    return raw ? json_deep_copy(raw) : json_null();
  }
  case K_RAW_TEXT: return codec_raw_text_tree(*(json_t *const *)src);
  }
  return json_null();
}

bool codec_field_null(const field_desc *f, const void *in) {
  if (!(f->flags & F_TIME) || f->kind != K_STR) return false;
  const char *s = *(char *const *)((const char *)in + f->offset);
  return !s || !*s;
}

static json_t *encode_struct(const type_desc *td, const void *in) {
  json_t *obj = json_object();
  for (size_t i = 0; i < td->nfields; i++) {
    const field_desc *f = &td->fields[i];
    if (!codec_field_present(f, in)) continue;
    json_object_set_new(obj, f->json,
                        codec_field_null(f, in) ? json_null()
                                                : codec_encode_value(f->kind, f->elem, (const char *)in + f->offset));
  }
  const json_t *extra = *(json_t *const *)((const char *)in + td->extra_offset);
  if (extra) {
    const char *key;
    json_t *val;
    json_object_foreach((json_t *)extra, key, val) json_object_set_new(obj, key, json_deep_copy(val));
  }
  return obj;
}

json_t *codec_encode(const type_desc *td, const void *in) { return encode_struct(td, in); }
