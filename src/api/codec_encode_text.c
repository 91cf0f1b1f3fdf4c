/* codec_encode_text.c: typed struct -> compact JSON text, byte for byte what
 * json_dumps(codec_encode(td, in), JSON_COMPACT) gives, without building the
 * jansson tree (the store encodes every version it keeps). Whatever jansson
 * would treat specially (strings with control or non-ASCII bytes, raw JSON,
 * unknown fields, duplicate map keys) is handed to jansson itself. */
#include "api/codec.h"
#include "util/strbuf.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static bool encode_value(strbuf *sb, field_kind k, const type_desc *elem, const void *src);

/* jansson's text of a value it owns; false (nothing written) for NULL, as
 * json_object_set_new / json_array_append_new drop a NULL value. */
static bool put_jansson(strbuf *sb, json_t *v) {
  if (!v) return false;
  char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
  json_decref(v);
  if (!text) return false;
  sb_puts(sb, text);
  free(text);
  return true;
}

static bool plain_ascii(const char *s) {
  for (const unsigned char *p = (const unsigned char *)s; *p; p++)
    if (*p < 0x20 || *p >= 0x80) return false;
  return true;
}

static bool put_string(strbuf *sb, const char *s) {
  if (!plain_ascii(s)) return put_jansson(sb, json_string(s));
  sb_putc(sb, '"');
  for (const char *p = s;;) {
    size_t run = strcspn(p, "\"\\");
    sb_add(sb, p, run);
    p += run;
    if (!*p) break;
    sb_putc(sb, '\\');
    sb_putc(sb, *p++);
  }
  sb_putc(sb, '"');
  return true;
}

/* A member: "key":value, or nothing when the value is dropped. */
static void put_member(strbuf *sb, bool *first, const char *key, field_kind k, const type_desc *elem, const void *src) {
  size_t mark = sb->len;
  if (!*first) sb_putc(sb, ',');
  if (put_string(sb, key)) {
    sb_putc(sb, ':');
    if (encode_value(sb, k, elem, src)) {
      *first = false;
      return;
    }
  }
  sb_truncate(sb, mark);
}

static bool encode_list(strbuf *sb, const type_desc *elem, const dlist *l) {
  sb_putc(sb, '[');
  bool first = true;
  for (uint32_t i = 0; i < l->n; i++) {
    size_t mark = sb->len;
    if (!first) sb_putc(sb, ',');
    if (encode_value(sb, elem->scalar, elem, (const char *)l->items + i * elem->size)) first = false;
    else sb_truncate(sb, mark);
  }
  sb_putc(sb, ']');
  return true;
}

static int cmp_entry_keys(const void *x, const void *y) {
  const atom *a = **(const atom *const *const *)x;
  const atom *b = **(const atom *const *const *)y;
  return strcmp(a->str, b->str);
}

static bool encode_map(strbuf *sb, const type_desc *elem, const dmap *m) {
  const void **order = malloc((m->n ? m->n : 1) * sizeof *order);
  for (uint32_t i = 0; i < m->n; i++) order[i] = (const char *)m->items + i * elem->entry_size;
  qsort(order, m->n, sizeof *order, cmp_entry_keys);
  bool duplicate = false;
  for (uint32_t i = 1; i < m->n; i++) duplicate |= cmp_entry_keys(&order[i - 1], &order[i]) == 0;
  if (duplicate) { /* a later entry replaces an earlier one in place */
    free(order);
    return put_jansson(sb, codec_encode_value(K_MAP, elem, m));
  }
  sb_putc(sb, '{');
  bool first = true;
  for (uint32_t i = 0; i < m->n; i++) {
    const char *entry = order[i];
    put_member(sb, &first, (*(const atom *const *)entry)->str, elem->scalar, elem, entry + elem->entry_value);
  }
  sb_putc(sb, '}');
  free(order);
  return true;
}

static bool encode_struct(strbuf *sb, const type_desc *td, const void *in) {
  if (*(json_t *const *)((const char *)in + td->extra_offset)) /* unknown fields: jansson merges them */
    return put_jansson(sb, codec_encode(td, in));
  sb_putc(sb, '{');
  bool first = true;
  for (size_t i = 0; i < td->nfields; i++) {
    const field_desc *f = &td->fields[i];
    if (codec_field_present(f, in)) put_member(sb, &first, f->json, f->kind, f->elem, (const char *)in + f->offset);
  }
  sb_putc(sb, '}');
  return true;
}

static bool encode_value(strbuf *sb, field_kind k, const type_desc *elem, const void *src) {
  switch (k) {
  case K_STR: {
    const char *s = *(char *const *)src;
    return put_string(sb, s ? s : "");
  }
  case K_ATOM: {
    const atom *a = *(const atom *const *)src;
    return put_string(sb, a ? a->str : "");
  }
  case K_BOOL: sb_puts(sb, *(const bool *)src ? "true" : "false"); return true;
  case K_INT: sb_printf(sb, "%" PRId64, *(const int64_t *)src); return true;
  case K_QTY: {
    char buf[128];
    return put_string(sb, quantity_format_str(src, buf, sizeof buf));
  }
  case K_OBJ: {
    const void *obj = *(void *const *)src;
    if (obj) return encode_struct(sb, elem, obj);
    sb_puts(sb, "null");
    return true;
  }
  case K_EMB: return encode_struct(sb, elem, src);
  case K_LIST: return encode_list(sb, elem, src);
  case K_MAP: return encode_map(sb, elem, src);
  case K_RAW: return put_jansson(sb, codec_encode_value(k, elem, src));
  }
  sb_puts(sb, "null");
  return true;
}

char *codec_encode_text(const type_desc *td, const void *in) {
  strbuf sb = STRBUF_INIT;
  encode_struct(&sb, td, in);
  return sb_detach(&sb);
}
