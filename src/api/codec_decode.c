/* codec_decode.c: JSON tree -> typed struct, driven by type_desc tables.
 * Owns the strict-decoding error texts (unknown field, wrong type, bad
 * quantity); nothing here knows a particular kind. */
#include "api/codec.h"
#include "api/open_fields.h"
#include "util/strbuf.h"
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

const char *codec_json_type_word(const json_t *v) {
  switch (json_typeof(v)) {
  case JSON_OBJECT: return "object";
  case JSON_ARRAY: return "array";
  case JSON_STRING: return "string";
  case JSON_INTEGER:
  case JSON_REAL: return "number";
  case JSON_TRUE:
  case JSON_FALSE: return "bool";
  case JSON_NULL: return "null";
  }
  return "value";
}

static const char *go_type_word(field_kind k, const type_desc *elem) {
  switch (k) {
  case K_STR:
  case K_ATOM: return "string";
  case K_BOOL: return "bool";
  case K_INT: return "int64";
  case K_QTY: return "resource.Quantity";
  case K_LIST: return "array";
  case K_MAP: return "map";
  default: return elem ? "object" : "value";
  }
}

static void wrong_type(const json_t *v, field_kind k, const type_desc *elem, fpath *path, errlist *errs) {
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, "cannot unmarshal %s", codec_json_type_word(v));
  if (json_is_number(v)) {
    if (json_is_integer(v)) sb_printf(&sb, " %" JSON_INTEGER_FORMAT, json_integer_value(v));
    else sb_printf(&sb, " %g", json_real_value(v));
  }
  sb_printf(&sb, " into field %s of type %s", fp_str(path), go_type_word(k, elem));
  fe_decode(errs, fp_str(path), sb_str(&sb));
  sb_free(&sb);
}

/* A Go int32 field given a number out of its range. */
static void int32_overflow(const json_t *v, fpath *path, errlist *errs) {
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, "cannot unmarshal number %" JSON_INTEGER_FORMAT " into field %s of type int32", json_integer_value(v),
            fp_str(path));
  fe_decode(errs, fp_str(path), sb_str(&sb));
  sb_free(&sb);
}

static void decode_struct(arena *a, const type_desc *td, const json_t *v, void *out, fpath *path, errlist *errs);

static void release_json(void *p) { json_decref(p); }

json_t *codec_extra(arena *a, json_t **extra) {
  if (!*extra) {
    *extra = json_object();
    arena_on_free(a, release_json, *extra);
  } else if ((*extra)->refcount > 1) {
    codec_set_json(a, extra, json_deep_copy(*extra));
  }
  return *extra;
}

json_t *codec_own_json(arena *a, json_t *v) {
  arena_on_free(a, release_json, v);
  return v;
}

void codec_set_json(arena *a, json_t **slot, json_t *v) {
  json_t *old = *slot;
  *slot = v ? codec_own_json(a, v) : NULL;
  if (old) arena_run_cleanup(a, old);
}

/* A raw field's value, shared with the document it came from rather than
 * copied (jansson's deep copy costs about as much as reading the text):
 * neither side writes it afterwards. */
static json_t *keep_json(arena *a, const json_t *v) { return codec_own_json(a, json_incref((json_t *)v)); }

static void decode_quantity(const json_t *v, quantity *q, bool *set, fpath *path, errlist *errs) {
  char buf[64];
  const char *s;
  size_t len;
  if (json_is_string(v)) {
    s = json_string_value(v);
    len = json_string_length(v);
  } else if (json_is_integer(v)) {
    len = (size_t)snprintf(buf, sizeof buf, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
    s = buf;
  } else if (json_is_real(v) && isfinite(json_real_value(v))) {
    len = (size_t)snprintf(buf, sizeof buf, "%.17g", json_real_value(v));
    s = buf;
  } else {
    wrong_type(v, K_QTY, NULL, path, errs);
    return;
  }
  const char *err = NULL;
  if (!quantity_parse(s, len, q, &err)) {
    strbuf sb = STRBUF_INIT;
    sb_printf(&sb, "%s: %s", fp_str(path), err ? err : QUANTITY_REGEX_ERROR);
    fe_decode(errs, fp_str(path), sb_str(&sb));
    sb_free(&sb);
    return;
  }
  if (set) *set = true;
}


static void decode_list(arena *a, const type_desc *elem, const json_t *v, dlist *l, fpath *path, errlist *errs) {
  if (!json_is_array(v)) {
    wrong_type(v, K_LIST, elem, path, errs);
    return;
  }
  size_t n = json_array_size(v);
  l->set = true;
  l->n = (uint32_t)n;
  l->items = n ? arena_calloc(a, n, elem->size) : NULL;
  for (size_t i = 0; i < n; i++) {
    size_t mark = fp_index(path, i);
    codec_decode_value(a, elem->scalar, elem, json_array_get(v, i), (char *)l->items + i * elem->size, NULL, path, errs);
    fp_pop(path, mark);
  }
}

static void decode_map(arena *a, const type_desc *elem, const json_t *v, dmap *m, fpath *path, errlist *errs) {
  if (!json_is_object(v)) {
    wrong_type(v, K_MAP, elem, path, errs);
    return;
  }
  size_t n = json_object_size(v);
  m->set = true;
  m->n = (uint32_t)n;
  m->items = n ? arena_calloc(a, n, elem->entry_size) : NULL;
  size_t i = 0;
  const char *key;
  json_t *val;
  json_object_foreach((json_t *)v, key, val) {
    char *entry = (char *)m->items + i * elem->entry_size;
    /* a string map's keys are the client's to make up: its object's own (atom.h) */
    *(const atom **)entry = elem->scalar == K_STR ? atom_in_arena(a, key, strlen(key)) : atom_cstr_in(a, key);
    size_t mark = fp_key(path, key);
    codec_decode_value(a, elem->scalar, elem, val, entry + elem->entry_value, NULL, path, errs);
    fp_pop(path, mark);
    i++;
  }
}

void codec_decode_value(arena *a, field_kind k, const type_desc *elem, const json_t *v, void *dst, bool *set,
                         fpath *path, errlist *errs) {
  switch (k) {
  case K_STR:
  case K_ATOM:
    if (!json_is_string(v)) break;
    if (k == K_STR) *(char **)dst = arena_strndup(a, json_string_value(v), json_string_length(v));
    else *(const atom **)dst = atom_intern_in(a, json_string_value(v), json_string_length(v));
    return;
  case K_BOOL:
    if (!json_is_boolean(v)) break;
    *(bool *)dst = json_is_true(v);
    if (set) *set = true;
    return;
  case K_INT:
    if (!json_is_integer(v)) break;
    *(int64_t *)dst = json_integer_value(v);
    if (set) *set = true;
    return;
  case K_QTY:
    decode_quantity(v, dst, set, path, errs);
    return;
  case K_OBJ: {
    if (!json_is_object(v)) break;
    void *obj = arena_alloc(a, elem->size);
    decode_struct(a, elem, v, obj, path, errs);
    *(void **)dst = obj;
    return;
  }
  case K_EMB:
    if (!json_is_object(v)) break;
    decode_struct(a, elem, v, dst, path, errs);
    return;
  case K_LIST:
    decode_list(a, elem, v, dst, path, errs);
    return;
  case K_MAP:
    decode_map(a, elem, v, dst, path, errs);
    return;
  case K_RAW:
    *(json_t **)dst = keep_json(a, v);
    return;
  case K_RAW_TEXT: {
    json_t *text = codec_raw_text(v);
    if (!text) break;
    *(json_t **)dst = codec_own_json(a, text);
    return;
  }
  }
  wrong_type(v, k, elem, path, errs);
}

static const field_desc *find_field(const type_desc *td, const char *json) {
  for (size_t i = 0; i < td->nfields; i++)
    if (strcmp(td->fields[i].json, json) == 0) return &td->fields[i];
  return NULL;
}

static void decode_struct(arena *a, const type_desc *td, const json_t *v, void *out, fpath *path, errlist *errs) {
  const char *key;
  json_t *val;
  json_t **extra = (json_t **)((char *)out + td->extra_offset);
  json_object_foreach((json_t *)v, key, val) {
    const field_desc *f = find_field(td, key);
    if (!f) {
      if (td->flags & T_OPEN) { /* kept when its schema has it (open_fields.h) */
        size_t mark = fp_field(path, key);
        json_t *copy = json_deep_copy(val);
        if (open_field_check(td, key, copy, path, errs)) json_object_set_new(codec_extra(a, extra), key, copy);
        else json_decref(copy);
        fp_pop(path, mark);
        continue;
      }
      size_t mark = fp_field(path, key);
      strbuf sb = STRBUF_INIT;
      sb_puts(&sb, "unknown field ");
      sb_go_quote(&sb, fp_str(path));
      fe_unknown_field(errs, fp_str(path), sb_str(&sb));
      sb_free(&sb);
      fp_pop(path, mark);
      continue;
    }
    if (json_is_null(val) && f->kind != K_RAW && f->kind != K_RAW_TEXT) continue; /* null = absent, as Go decodes it */
    size_t mark = fp_field(path, key);
    bool *set = f->set_offset ? (bool *)((char *)out + f->set_offset) : NULL;
    if ((f->flags & F_INT32) && json_is_integer(val) &&
        (json_integer_value(val) > INT32_MAX || json_integer_value(val) < INT32_MIN))
      int32_overflow(val, path, errs);
    else if (f->flags & F_SCHEMA) { /* the checked copy: the check drops unknown fields */
      json_t *copy = json_deep_copy(val);
      open_field_check(td, key, copy, path, errs);
      codec_decode_value(a, f->kind, NULL, copy, (char *)out + f->offset, NULL, path, errs);
      json_decref(copy);
    } else codec_decode_value(a, f->kind, f->elem, val, (char *)out + f->offset, set, path, errs);
    fp_pop(path, mark);
  }
}

void codec_decode(arena *a, const type_desc *td, const json_t *v, void *out, fpath *path, errlist *errs) {
  if (!json_is_object(v)) {
    wrong_type(v, K_EMB, td, path, errs);
    return;
  }
  decode_struct(a, td, v, out, path, errs);
}
