/* codec_direct.c: a document's tokens (codec/doc_tokens.h) -> typed struct,
 * driven by the same type_desc tables as codec_decode.c but with no tree in
 * between. Only the clean case is decoded here: wherever codec_decode would
 * report something (unknown field, wrong type, duplicate key, bad quantity)
 * this gives up and the caller takes the tree path. Values it does not read
 * itself (unknown fields of open structs, scalars of another type than the
 * field's) are built as small trees from the tokens and handed to
 * codec_decode_value, so they decode exactly as there; opaque RAW JSON is
 * such a tree, kept as it is. */
#include "api/codec.h"
#include "api/extra_memo.h"
#include "api/open_fields.h"
#include "api/tree_memo.h"
#include "util/hash_words.h"
#include "api/types.h"
#include <stddef.h>
#include "util/die.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 256 /* more fields in one struct than its seen-set holds: tree path */

typedef struct direct {
  arena *a;
  tk_source *src;
  tk *t; /* the current token */
  unsigned skip; /* CODEC_SKIP_* */
} direct;

static void advance(direct *d) { d->src->next(d->src, d->t); }

/* A key outlives the tokens after it (a source reuses its text buffer). */
typedef struct key_copy {
  char small[64];
  char *s;
  size_t len;
} key_copy;

static void key_take(key_copy *k, const tk *t) {
  k->len = t->len;
  k->s = t->len < sizeof k->small ? k->small : xmalloc(t->len + 1);
  memcpy(k->s, t->s, t->len);
  k->s[t->len] = 0;
}

static void key_release(key_copy *k) {
  if (k->s != k->small) free(k->s);
}

static json_t *read_tree(direct *d);

/* The value starting at the current token as a tree, as the tree readers
 * build it; NULL when a source gives up or a mapping repeats a key. */
static json_t *build_tree(direct *d) {
  tk *t = d->t;
  if (t->kind == TK_ARRAY) {
    json_t *arr = json_array();
    for (advance(d); t->kind != TK_END; advance(d)) {
      json_t *item = read_tree(d);
      if (!item) return json_decref(arr), NULL;
      json_array_append_new(arr, item);
    }
    return arr;
  }
  if (t->kind != TK_OBJECT) return tk_scalar_json(t);
  json_t *obj = json_object();
  for (advance(d); t->kind != TK_END; advance(d)) {
    if (t->kind != TK_STRING) return json_decref(obj), NULL;
    key_copy k;
    key_take(&k, t);
    advance(d);
    json_t *v = read_tree(d);
    /* a repeated key replaces its value and leaves the size: one lookup */
    size_t before = json_object_size(obj);
    bool ok = v && !json_object_setn_new_nocheck(obj, k.s, k.len, v) && json_object_size(obj) > before;
    key_release(&k);
    if (!ok) return json_decref(obj), NULL;
  }
  return obj;
}

/* build_tree, through the source's memo (tree_memo.h) when it has one: a
 * mapping or sequence whose text was read before is that value, passed
 * over; one read for the first time is built and shared, then kept. */
static json_t *read_tree(direct *d) {
  tk_source *src = d->src;
  const char *text;
  size_t len;
  int room;
  if (!src->memo || !src->span || (d->t->kind != TK_OBJECT && d->t->kind != TK_ARRAY) || !src->span(src, &text, &len, &room))
    return build_tree(d);
  uint64_t hash = hash_words(text, len);
  json_t *v = tree_memo_find(src->memo, hash, text, len, room);
  if (v) {
    if (tk_skip_value(src, d->t)) return v;
    json_decref(v);
    return NULL;
  }
  v = build_tree(d);
  if (!v) return NULL;
  v = codec_share_value(v);
  tree_memo_keep(src->memo, hash, len, v);
  return v;
}

/* A K_RAW_TEXT value: with the restore's memo, the shared one whose text
 * is the text read, or else that text itself when it is already the one
 * codec_raw_text would make (passed over either way, and shared at once:
 * a stored text was checked when it was stored); else its tree, built,
 * checked when the field is F_SCHEMA (field key of open struct td; NULL
 * td: not), and made text, shared at once with the memo.
 * Not through the memo: its trees would outlive the texts made of them. */
static bool decode_raw_text(direct *d, void *dst, const type_desc *td, const char *key) {
  tk_source *src = d->src;
  const char *span;
  size_t len;
  int room;
  json_t *text = NULL;
  if (src->memo && src->span && (d->t->kind == TK_OBJECT || d->t->kind == TK_ARRAY) &&
      src->span(src, &span, &len, &room)) {
    text = codec_raw_text_stored(span, len, room);
    if (!text && codec_raw_text_canonical(span, len, room)) text = codec_share_value(json_stringn_nocheck(span, len));
    if (text && !tk_skip_value(src, d->t)) {
      json_decref(text);
      return false;
    }
  }
  if (!text) { /* its members not through the memo either */
    struct tree_memo *memo = src->memo;
    src->memo = NULL;
    json_t *v = build_tree(d);
    src->memo = memo;
    text = v && (!td || open_field_valid(td, key, v)) ? codec_raw_text(v) : NULL;
    json_decref(v);
    if (text && src->memo) text = codec_share_value(text); /* found by the next object that has it */
  }
  if (text) *(json_t **)dst = codec_own_json(d->a, text);
  return text != NULL;
}

/* Any value through the tree decoder, accepted only if it decodes cleanly. */
static bool decode_via_tree(direct *d, field_kind k, const type_desc *elem, void *dst, bool *set) {
  json_t *v = read_tree(d);
  if (!v) return false;
  errlist errs = {0};
  fpath path = {STRBUF_INIT};
  codec_decode_value(d->a, k, elem, v, dst, set, &path, &errs);
  bool ok = errs.n == 0;
  errlist_free(&errs);
  fp_free(&path);
  json_decref(v);
  return ok;
}

static bool decode_value(direct *d, field_kind k, const type_desc *elem, void *dst, bool *set);

/* Room for one more element of size bytes in an array of the arena: the
 * array doubles when full (the outgrown copy stays in the arena, unused:
 * cheaper than a malloc'd buffer per list, and lists are mostly short). */
static char *append(direct *d, char **items, uint32_t n, uint32_t *cap, size_t size) {
  if (n == *cap) {
    uint32_t grown = *cap ? *cap * 2 : 4;
    *items = arena_grow(d->a, *items, (size_t)n * size, (size_t)grown * size);
    *cap = grown;
  }
  return *items + (size_t)n * size;
}

static bool decode_list(direct *d, const type_desc *elem, dlist *l) {
  char *items = NULL;
  uint32_t n = 0, cap = 0;
  for (advance(d); d->t->kind != TK_END; advance(d)) {
    char *item = append(d, &items, n++, &cap, elem->size);
    if (!decode_value(d, elem->scalar, elem, item, NULL)) return false;
  }
  l->set = true;
  l->n = n;
  l->items = n ? items : NULL;
  return true;
}

static bool decode_map(direct *d, const type_desc *elem, dmap *m) {
  char *entries = NULL;
  uint32_t n = 0, cap = 0;
  size_t size = elem->entry_size;
  for (advance(d); d->t->kind != TK_END; advance(d)) {
    if (d->t->kind != TK_STRING) return false;
    /* a string map's keys are its object's own, as codec_decode.c has them */
    const atom *key = elem->scalar == K_STR ? atom_in_arena(d->a, d->t->s, d->t->len)
                                            : atom_intern_in(d->a, d->t->s, d->t->len);
    for (uint32_t i = 0; i < n; i++)
      if (atom_same(*(const atom **)(entries + i * size), key)) return false; /* a duplicate key */
    char *entry = append(d, &entries, n++, &cap, size);
    *(const atom **)entry = key;
    advance(d);
    if (!decode_value(d, elem->scalar, elem, entry + elem->entry_value, NULL)) return false;
  }
  m->set = true;
  m->n = n;
  m->items = n ? entries : NULL;
  return true;
}

static bool decode_members(direct *d, const type_desc *td, void *out, uint64_t *seen);

static bool decode_struct(direct *d, const type_desc *td, void *out) {
  uint64_t seen[MAX_FIELDS / 64] = {0};
  return td->nfields <= MAX_FIELDS && decode_members(d, td, out, seen);
}

static bool decode_value(direct *d, field_kind k, const type_desc *elem, void *dst, bool *set) {
  const tk *t = d->t;
  switch (k) {
  case K_STR:
    if (t->kind != TK_STRING) break;
    *(char **)dst = arena_strndup(d->a, t->s, t->len);
    return true;
  case K_ATOM:
    if (t->kind != TK_STRING) break;
    *(const atom **)dst = atom_intern_in(d->a, t->s, t->len);
    return true;
  case K_BOOL:
    if (t->kind != TK_TRUE && t->kind != TK_FALSE) break;
    *(bool *)dst = t->kind == TK_TRUE;
    if (set) *set = true;
    return true;
  case K_INT:
    if (t->kind != TK_INTEGER) break;
    *(int64_t *)dst = t->i;
    if (set) *set = true;
    return true;
  case K_QTY: {
    if (t->kind != TK_STRING) break;
    const char *err = NULL;
    if (!quantity_parse(t->s, t->len, dst, &err)) return false;
    if (set) *set = true;
    return true;
  }
  case K_OBJ: {
    if (t->kind != TK_OBJECT) break;
    void *obj = arena_alloc(d->a, elem->size);
    *(void **)dst = obj;
    return decode_struct(d, elem, obj);
  }
  case K_EMB:
    if (t->kind != TK_OBJECT) break;
    return decode_struct(d, elem, dst);
  case K_LIST:
    if (t->kind != TK_ARRAY) break;
    return decode_list(d, elem, dst);
  case K_MAP:
    if (t->kind != TK_OBJECT) break;
    return decode_map(d, elem, dst);
  case K_RAW: { /* the tree read here is the value codec_decode would copy */
    json_t *v = read_tree(d);
    if (v) *(json_t **)dst = codec_own_json(d->a, v);
    return v != NULL;
  }
  case K_RAW_TEXT: return decode_raw_text(d, dst, NULL, NULL);
  }
  if (t->kind == TK_GIVE_UP) return false;
  return decode_via_tree(d, k, elem, dst, set);
}

/* Whether a and b, n bytes each, are equal: a field name is short, and a
 * call to memcmp cost more than the compare. */
static inline bool same_bytes(const char *a, const char *b, size_t n) {
  uint64_t x, y, x2, y2;
  if (n >= 8) {
    for (; n > 16; a += 8, b += 8, n -= 8) {
      memcpy(&x, a, 8), memcpy(&y, b, 8);
      if (x != y) return false;
    }
    memcpy(&x, a, 8), memcpy(&y, b, 8), memcpy(&x2, a + n - 8, 8), memcpy(&y2, b + n - 8, 8);
    return x == y && x2 == y2;
  }
  if (n >= 4) {
    uint32_t u, v, u2, v2;
    memcpy(&u, a, 4), memcpy(&v, b, 4), memcpy(&u2, a + n - 4, 4), memcpy(&v2, b + n - 4, 4);
    return u == v && u2 == v2;
  }
  for (size_t i = 0; i < n; i++)
    if (a[i] != b[i]) return false;
  return true;
}

/* Fields mostly come in the API's order: try the one after the last first. */
static const field_desc *find_field(const type_desc *td, const char *key, size_t len, size_t *hint) {
  for (size_t n = 0, i = *hint; n < td->nfields; n++, i = i + 1 == td->nfields ? 0 : i + 1) {
    const field_desc *f = &td->fields[i];
    if (f->json_len == len && f->json[0] == key[0] && same_bytes(f->json, key, len)) {
      *hint = i + 1 == td->nfields ? 0 : i + 1;
      return &td->fields[i];
    }
  }
  return NULL;
}

/* The members sig holds as a new object, each checked as one that may
 * stand in open struct td; NULL when a key repeats or one may not. */
static json_t *sig_members(const type_desc *td, const extra_sig *sig) {
  json_t *extra = extra_sig_object(sig);
  const char *key;
  json_t *v;
  json_object_foreach(extra, key, v) if (!open_field_valid(td, key, v)) return json_decref(extra), NULL;
  return extra;
}

/* The members sig holds, put in _extra (empty yet) as they are, from then on
 * written there one by one: sig is spoiled. */
static bool flush_sig(direct *d, const type_desc *td, void *out, extra_sig *sig) {
  bool had = !sig->spoiled && sig->n;
  sig->spoiled = true;
  if (!had) return true;
  json_t *extra = sig_members(td, sig);
  if (!extra) return false;
  *(json_t **)((char *)out + td->extra_offset) = codec_own_json(d->a, extra);
  return true;
}

/* At the struct's end: its unknown fields, all in sig, become the value
 * kept for them (extra_memo.h), made and checked now when none is. */
static bool finish_sig(direct *d, const type_desc *td, void *out, const extra_sig *sig) {
  if (sig->spoiled || !sig->n) return true;
  uint64_t hash;
  json_t *extra = extra_memo_find(td, sig, &hash);
  if (!extra) {
    if (!(extra = sig_members(td, sig))) return false;
    extra_memo_keep(td, sig, hash, extra);
  }
  *(json_t **)((char *)out + td->extra_offset) = codec_own_json(d->a, extra);
  return true;
}

/* An unknown field of an open struct, kept in _extra as codec_decode keeps
 * it: written down in sig while its members are scalars, else in _extra. */
static bool keep_unknown(direct *d, const type_desc *td, void *out, extra_sig *sig) {
  key_copy k;
  key_take(&k, d->t);
  advance(d);
  if (extra_sig_add(sig, k.s, k.len, d->t)) {
    key_release(&k);
    return true;
  }
  if (!flush_sig(d, td, out, sig)) {
    key_release(&k);
    return false;
  }
  json_t *v = read_tree(d);
  /* a field its schema lacks or a value of the wrong type: the tree
   * decoder reports it where it is (a key has no NUL: json_tokens.c) */
  bool clean = v && open_field_valid(td, k.s, v);
  json_t *extra = clean ? codec_extra(d->a, (json_t **)((char *)out + td->extra_offset)) : NULL;
  bool ok = extra && !json_object_getn(extra, k.s, k.len);
  if (ok) json_object_setn_new_nocheck(extra, k.s, k.len, v);
  else json_decref(v);
  key_release(&k);
  return ok;
}

/* Whether the field is one d leaves out unread. */
static bool skipped(const direct *d, const type_desc *td, const field_desc *f) {
  return ((d->skip & CODEC_SKIP_MANAGED_FIELDS) && td == &object_meta_desc &&
          f->offset == offsetof(object_meta, managed_fields)) ||
         ((d->skip & CODEC_SKIP_UNSCHEDULED) && (f->flags & F_UNSCHEDULED));
}

static bool decode_members(direct *d, const type_desc *td, void *out, uint64_t *seen) {
  size_t hint = 0;
  tk *t = d->t;
  extra_sig sig;
  sig.n = 0, sig.spoiled = false, sig.len = 0;
  for (advance(d); t->kind != TK_END; advance(d)) {
    if (t->kind != TK_STRING) return false;
    const field_desc *f = t->len ? find_field(td, t->s, t->len, &hint) : NULL;
    if (!f) {
      if (!(td->flags & T_OPEN)) return false;
      if ((d->skip & CODEC_SKIP_UNSCHEDULED) && !open_field_scheduled(td, t->s, t->len)) {
        advance(d);
        if (!tk_skip_value(d->src, t)) return false;
      } else if (!keep_unknown(d, td, out, &sig)) {
        return false;
      }
      continue;
    }
    size_t i = (size_t)(f - td->fields);
    if (seen[i / 64] >> (i % 64) & 1) return false; /* a duplicate key */
    seen[i / 64] |= (uint64_t)1 << (i % 64);
    advance(d);
    if (skipped(d, td, f)) {
      if (!tk_skip_value(d->src, t)) return false;
      continue;
    }
    if (t->kind == TK_NULL && f->kind != K_RAW && f->kind != K_RAW_TEXT) continue; /* null = absent, as Go decodes it */
    if ((f->flags & F_INT32) && t->kind == TK_INTEGER && (t->i > INT32_MAX || t->i < INT32_MIN)) return false;
    bool *set = f->set_offset ? (bool *)((char *)out + f->set_offset) : NULL;
    if (!(f->flags & F_SCHEMA)) {
      if (!decode_value(d, f->kind, f->elem, (char *)out + f->offset, set)) return false;
    } else if (f->kind != K_RAW_TEXT || !decode_raw_text(d, (char *)out + f->offset, td, f->json)) {
      return false; /* a RAW one is checked on the tree path (open_fields.h) */
    }
  }
  return finish_sig(d, td, out, &sig);
}

bool codec_decode_tokens(arena *a, const type_desc *td, tk_source *src, tk *t, void *out) {
  direct d = {a, src, t, 0};
  return t->kind == TK_OBJECT && decode_struct(&d, td, out);
}

/* The bit of field name in seen; false when td has no such field. */
static bool field_bit(const type_desc *td, const char *name, size_t *bit) {
  size_t hint = 0;
  const field_desc *f = find_field(td, name, strlen(name), &hint);
  if (f) *bit = (size_t)(f - td->fields);
  return f != NULL;
}

bool codec_decode_token_members(arena *a, const type_desc *td, tk_source *src, unsigned skip, void *out,
                                const char *const *done, size_t n_done) {
  tk t;
  direct d = {a, src, &t, skip};
  uint64_t seen[MAX_FIELDS / 64] = {0};
  if (td->nfields > MAX_FIELDS) return false;
  for (size_t k = 0; k < n_done; k++) {
    size_t i;
    if (!field_bit(td, done[k], &i)) return false;
    seen[i / 64] |= (uint64_t)1 << (i % 64);
  }
  return decode_members(&d, td, out, seen);
}

bool codec_decode_token_object(arena *a, const type_desc *td, tk_source *src, unsigned skip, void *out,
                               const char *const *names, size_t n, bool *present) {
  tk t;
  direct d = {a, src, &t, skip};
  uint64_t seen[MAX_FIELDS / 64] = {0};
  if (td->nfields > MAX_FIELDS || !decode_members(&d, td, out, seen)) return false;
  for (size_t k = 0; k < n; k++) {
    size_t i;
    present[k] = field_bit(td, names[k], &i) && (seen[i / 64] >> (i % 64) & 1);
  }
  return true;
}
