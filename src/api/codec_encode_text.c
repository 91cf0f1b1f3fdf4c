/* codec_encode_text.c: typed struct -> JSON text without building the
 * jansson tree, in two styles:
 *  - compact, byte for byte what json_dumps(codec_encode(td, in),
 *    JSON_COMPACT) gives (the store encodes every version it keeps);
 *  - kubectl -o json's, byte for byte what doc_write_json(codec_encode(td,
 *    in)) gives (Go's escaping, 4-space indent), for dra's printed output.
 * Whatever the tree writer would treat specially (compact: strings with
 * control or non-ASCII bytes; both: raw JSON and the values of unknown
 * fields, duplicate map keys) is handed to the tree writer itself; in
 * the compact style, a JSON value that many stored objects share is
 * copied from the text kept with it (codec_share_text). */
#include "api/codec.h"
#include "codec/doc.h"
#include "codec/json_skip.h"
#include "util/die.h"
#include "util/strbuf.h"
#include <stdlib.h>
#include <string.h>

#define COMPACT (-1) /* the level that asks for jansson's compact style */

static bool encode_value(strbuf *sb, field_kind k, const type_desc *elem, const void *src, int level);

static bool put_string(strbuf *sb, const char *s, int level);

/* json_dumps's compact text of v itself: the values jansson spells its own
 * way (reals, strings with control or non-ASCII bytes or a NUL) go to it. */
static bool put_dumped(strbuf *sb, const json_t *v) {
  char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
  if (!text) return false;
  sb_puts(sb, text);
  free(text);
  return true;
}

/* Printable ASCII but for '"' and '\\': the bytes a plain string holds as they are. */
const unsigned char codec_plain_ascii[256] = {[' '] = 1, ['!'] = 1, ['#' ... '['] = 1, [']' ... 0x7f] = 1};

/* The n bytes at s as json_dumps writes a string when all of it is
 * printable ASCII: quotes and backslashes escaped, nothing else. In one
 * pass, the runs between them found 8 bytes at a time (json_plain_run);
 * false, with nothing written, at any other byte (a NUL too). */
static bool put_plain_string(strbuf *sb, const char *s, size_t n) {
  const unsigned char *u = (const unsigned char *)s;
  char *to = sb_reserve(sb, 2 * n + 2), *at = to;
  *at++ = '"';
  for (size_t i = 0;;) {
    size_t end = json_plain_run(u, n, i, codec_plain_ascii, 1, false);
    memcpy(at, s + i, end - i);
    at += end - i;
    if (end == n) break;
    if (u[end] != '"' && u[end] != '\\') return false; /* control or non-ASCII: the tree writer's */
    *at++ = '\\';
    *at++ = (char)u[end];
    i = end + 1;
  }
  *at++ = '"';
  sb_commit(sb, (size_t)(at - to));
  return true;
}

static bool put_compact_tree(strbuf *sb, const json_t *v, bool shared);

/* v's compact text; with shared, copied from the text kept with v when it
 * is a value many objects share. */
static bool put_compact(strbuf *sb, const json_t *v, bool shared) {
  const char *text;
  size_t len;
  if (shared && codec_share_text(v, &text, &len)) {
    sb_add(sb, text, len);
    return true;
  }
  return put_compact_tree(sb, v, shared);
}

/* json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY) byte for byte, without
 * its per-container bookkeeping (most of its cost on managedFields'
 * fieldsV1 trees): members in insertion order, as jansson keeps them;
 * with shared, each member through put_compact. */
static bool put_compact_tree(strbuf *sb, const json_t *v, bool shared) {
  switch (json_typeof(v)) {
  case JSON_OBJECT: {
    const char *key;
    size_t len;
    json_t *member;
    bool first = true;
    sb_putc(sb, '{');
    json_object_keylen_foreach((json_t *)v, key, len, member) {
      if (!first) sb_putc(sb, ',');
      first = false;
      if (!put_plain_string(sb, key, len) && !put_string(sb, key, COMPACT)) return false;
      sb_putc(sb, ':');
      if (!put_compact(sb, member, shared)) return false;
    }
    sb_putc(sb, '}');
    return true;
  }
  case JSON_ARRAY:
    sb_putc(sb, '[');
    for (size_t i = 0; i < json_array_size(v); i++) {
      if (i) sb_putc(sb, ',');
      if (!put_compact(sb, json_array_get(v, i), shared)) return false;
    }
    sb_putc(sb, ']');
    return true;
  case JSON_STRING: return put_plain_string(sb, json_string_value(v), json_string_length(v)) || put_dumped(sb, v);
  case JSON_INTEGER: sb_put_int(sb, json_integer_value(v)); return true;
  case JSON_TRUE: sb_puts(sb, "true"); return true;
  case JSON_FALSE: sb_puts(sb, "false"); return true;
  case JSON_NULL: sb_puts(sb, "null"); return true;
  default: return put_dumped(sb, v);
  }
}

bool codec_compact_tree(strbuf *sb, const json_t *v) { return put_compact_tree(sb, v, false); }

bool codec_compact_string(strbuf *sb, const char *s) { return put_string(sb, s, COMPACT); }

/* The tree writer's text of a value the struct holds (not a reference of
 * its own, which would count as one more holder in codec_share_text). */
static bool put_held(strbuf *sb, const json_t *v, int level) {
  if (level == COMPACT) return put_compact(sb, v, true);
  doc_write_json_at(sb, v, level);
  return true;
}

/* The same for a value it owns; false (nothing written) for NULL, as
 * json_object_set_new / json_array_append_new drop a NULL value. */
static bool put_jansson(strbuf *sb, json_t *v, int level) {
  if (!v) return false;
  bool ok = put_held(sb, v, level);
  json_decref(v);
  return ok;
}

/* Where a member or item starts: a comma unless it is the first, then a
 * line of its own unless compact, in one write. */
static void put_line(strbuf *sb, bool first, int level) {
  if (level == COMPACT) {
    if (!first) sb_putc(sb, ',');
    return;
  }
  char *to = sb_reserve(sb, 4 * (size_t)level + 2), *at = to;
  if (!first) *at++ = ',';
  sb_commit(sb, (size_t)(doc_json_line(at, level) - to));
}

static int deeper(int level) { return level == COMPACT ? level : level + 1; }

static bool put_string(strbuf *sb, const char *s, int level) {
  size_t n = strlen(s);
  if (level != COMPACT) {
    doc_write_json_string(sb, s, n);
    return true;
  }
  return put_plain_string(sb, s, n) || put_jansson(sb, json_string(s), level);
}

/* What comes before a member's value: a comma after the first, its line,
 * "key": ; false when the key could not be written. A field's name (field)
 * needs no escaping (test_codec_encode_text checks every table). */
static bool put_key(strbuf *sb, bool first, const char *key, size_t len, bool field, int level) {
  if (level != COMPACT) {
    if (field) doc_write_json_plain_key(sb, first, key, len, deeper(level));
    else doc_write_json_key(sb, first, key, len, deeper(level));
    return true;
  }
  if (!first) sb_putc(sb, ',');
  if (field) { /* "key": in one write */
    char *to = sb_reserve(sb, len + 3);
    to[0] = '"';
    memcpy(to + 1, key, len);
    to[len + 1] = '"';
    to[len + 2] = ':';
    sb_commit(sb, len + 3);
    return true;
  }
  if (!put_string(sb, key, level)) return false;
  sb_putc(sb, ':');
  return true;
}

/* A member: "key":value, or nothing when the value is dropped. */
static void put_member(strbuf *sb, bool *first, const char *key, size_t len, bool field, field_kind k,
                       const type_desc *elem, const void *src, int level) {
  size_t mark = sb->len;
  if (put_key(sb, *first, key, len, field, level) && encode_value(sb, k, elem, src, deeper(level))) *first = false;
  else sb_truncate(sb, mark);
}

/* The end of a container: on its own line, unless it is empty ("{}", "[]"). */
static void close_container(strbuf *sb, bool empty, char c, int level) {
  if (empty || level == COMPACT) {
    sb_putc(sb, c);
    return;
  }
  char *to = sb_reserve(sb, 4 * (size_t)level + 2), *at = doc_json_line(to, level);
  *at++ = c;
  sb_commit(sb, (size_t)(at - to));
}

static bool encode_list(strbuf *sb, const type_desc *elem, const dlist *l, int level) {
  sb_putc(sb, '[');
  bool first = true;
  for (uint32_t i = 0; i < l->n; i++) {
    size_t mark = sb->len;
    put_line(sb, first, deeper(level));
    if (encode_value(sb, elem->scalar, elem, (const char *)l->items + i * elem->size, deeper(level))) first = false;
    else sb_truncate(sb, mark);
  }
  close_container(sb, first, ']', level);
  return true;
}

static int cmp_entry_keys(const void *x, const void *y) {
  const atom *a = **(const atom *const *const *)x;
  const atom *b = **(const atom *const *const *)y;
  return strcmp(a->str, b->str);
}

static bool encode_map(strbuf *sb, const type_desc *elem, const dmap *m, int level) {
  const void *small[16];
  const void **order = m->n <= 16 ? small : xmalloc(m->n * sizeof *order);
  for (uint32_t i = 0; i < m->n; i++) order[i] = (const char *)m->items + i * elem->entry_size;
  qsort(order, m->n, sizeof *order, cmp_entry_keys);
  bool duplicate = false;
  for (uint32_t i = 1; i < m->n; i++) duplicate |= cmp_entry_keys(&order[i - 1], &order[i]) == 0;
  if (duplicate) { /* a later entry replaces an earlier one in place */
    if (order != small) free(order);
    return put_jansson(sb, codec_encode_value(K_MAP, elem, m), level);
  }
  sb_putc(sb, '{');
  bool first = true;
  for (uint32_t i = 0; i < m->n; i++) {
    const char *entry = order[i];
    const char *key = (*(const atom *const *)entry)->str;
    put_member(sb, &first, key, strlen(key), false, elem->scalar, elem, entry + elem->entry_value, level);
  }
  close_container(sb, first, '}', level);
  if (order != small) free(order);
  return true;
}

/* An unknown field kept in _extra: "key":value after the known ones, as
 * codec_encode appends them; also an unset F_TIME field's null. */
static void put_extra_member(strbuf *sb, bool *first, const char *key, const json_t *v, int level) {
  size_t mark = sb->len;
  if (put_key(sb, *first, key, strlen(key), false, level) && put_held(sb, v, deeper(level))) *first = false;
  else sb_truncate(sb, mark);
}

/* Whether an unknown field has the name of a known one that is written: the
 * tree then holds it in the known field's place, which only the tree gets right. */
static bool extra_shadows_field(const type_desc *td, const void *in, json_t *extra) {
  const char *key;
  size_t len;
  json_t *v;
  json_object_keylen_foreach(extra, key, len, v) { /* unknown fields are few, a struct's fields many */
    for (size_t i = 0; i < td->nfields; i++) {
      const field_desc *f = &td->fields[i];
      if (f->json_len == len && !memcmp(f->json, key, len) && codec_field_present(f, in)) return true;
    }
  }
  return false;
}

static void put_bool(strbuf *sb, bool b) {
  if (b) sb_add(sb, "true", 4);
  else sb_add(sb, "false", 5);
}

/* A present string, boolean or integer field in kubectl's style, written
 * in line: most members are, and they cannot be dropped (nothing to undo). */
static bool put_scalar_member(strbuf *sb, bool first, const field_desc *f, const char *src, int level) {
  if (level == COMPACT || f->kind > K_INT) return false;
  doc_write_json_plain_key(sb, first, f->json, f->json_len, deeper(level));
  switch (f->kind) {
  case K_STR: { /* NULL only for an F_ALWAYS field: Go writes its "" */
    const char *s = *(char *const *)src;
    if (!s) s = "";
    doc_write_json_string(sb, s, strlen(s));
    break;
  }
  case K_ATOM: {
    const char *s = (*(const atom *const *)src)->str;
    doc_write_json_string(sb, s, strlen(s));
    break;
  }
  case K_BOOL: put_bool(sb, *(const bool *)src); break;
  default: sb_put_int(sb, *(const int64_t *)src); break;
  }
  return true;
}

static bool encode_struct(strbuf *sb, const type_desc *td, const void *in, int level) {
  json_t *extra = *(json_t *const *)((const char *)in + td->extra_offset);
  if (extra && extra_shadows_field(td, in, extra)) return put_jansson(sb, codec_encode(td, in), level);
  sb_putc(sb, '{');
  bool first = true;
  for (size_t i = 0; i < td->nfields; i++) {
    const field_desc *f = &td->fields[i];
    if (codec_field_null(f, in)) {
      put_extra_member(sb, &first, f->json, json_null(), level);
      continue;
    }
    if (!codec_field_present(f, in)) continue;
    if (put_scalar_member(sb, first, f, (const char *)in + f->offset, level)) first = false;
    else put_member(sb, &first, f->json, f->json_len, true, f->kind, f->elem, (const char *)in + f->offset, level);
  }
  const char *key, *text;
  size_t len;
  json_t *v;
  if (extra && level == COMPACT && codec_share_text(extra, &text, &len)) {
    /* its members as put_extra_member writes them: the text within its braces */
    if (!first) sb_putc(sb, ',');
    sb_add(sb, text + 1, len - 2);
    first = false;
  } else if (extra) {
    json_object_foreach(extra, key, v) put_extra_member(sb, &first, key, v, level);
  }
  close_container(sb, first, '}', level);
  return true;
}

static bool encode_value(strbuf *sb, field_kind k, const type_desc *elem, const void *src, int level) {
  switch (k) {
  case K_STR: {
    const char *s = *(char *const *)src;
    return put_string(sb, s ? s : "", level);
  }
  case K_ATOM: {
    const atom *a = *(const atom *const *)src;
    return put_string(sb, a ? a->str : "", level);
  }
  case K_BOOL: put_bool(sb, *(const bool *)src); return true;
  case K_INT: sb_put_int(sb, *(const int64_t *)src); return true;
  case K_QTY: {
    char buf[128];
    return put_string(sb, quantity_format_str(src, buf, sizeof buf), level);
  }
  case K_OBJ: {
    const void *obj = *(void *const *)src;
    if (obj) return encode_struct(sb, elem, obj, level);
    sb_puts(sb, "null");
    return true;
  }
  case K_EMB: return encode_struct(sb, elem, src, level);
  case K_LIST: return encode_list(sb, elem, src, level);
  case K_MAP: return encode_map(sb, elem, src, level);
  case K_RAW: { /* written as it is held: codec_encode_value's copy cost as much as writing it */
    const json_t *raw = *(json_t *const *)src;
    return put_held(sb, raw ? raw : json_null(), level);
  }
  case K_RAW_TEXT: { /* the text itself when compact: it is what writing its tree gives */
    const json_t *text = *(json_t *const *)src;
    if (level == COMPACT && text) {
      sb_add(sb, json_string_value(text), json_string_length(text));
      return true;
    }
    return put_jansson(sb, codec_raw_text_tree(text), level);
  }
  }
  sb_puts(sb, "null");
  return true;
}

void codec_encode_text_to(strbuf *sb, const type_desc *td, const void *in) { encode_struct(sb, td, in, COMPACT); }

char *codec_encode_text(const type_desc *td, const void *in) {
  strbuf sb = STRBUF_INIT;
  codec_encode_text_to(&sb, td, in);
  return sb_detach(&sb);
}

void codec_encode_json(strbuf *sb, const type_desc *td, const void *in, int level) { encode_struct(sb, td, in, level); }
