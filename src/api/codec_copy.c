/* codec_copy.c: deep copy, the atoms held (util/atom.h) and deep equality
 * of typed structs, driven by the same descriptor tables as decode and
 * encode. */
#include "api/codec.h"
#include "api/type_facts.h"
#include <string.h>

static void release_json(void *p) { json_decref(p); }

/* A JSON value of the source in the copy's arena: copied, or with
 * share_json the same value with one more reference (neither side writes
 * it: codec_copy_sharing_json). */
static json_t *copy_json(arena *a, const json_t *v, bool share_json) {
  if (!v) return NULL;
  json_t *copy = share_json ? json_incref((json_t *)v) : json_deep_copy(v);
  arena_on_free(a, release_json, copy);
  return copy;
}

static void copy_value(arena *a, field_kind k, const type_desc *elem, const void *src, void *dst, bool share_json);

static void copy_struct(arena *a, const type_desc *td, const void *in, void *out, bool share_json) {
  memcpy(out, in, td->size);
  for (size_t i = 0; i < td->nfields; i++) {
    const field_desc *f = &td->fields[i];
    copy_value(a, f->kind, f->elem, (const char *)in + f->offset, (char *)out + f->offset, share_json);
  }
  json_t *const *extra = (json_t *const *)((const char *)in + td->extra_offset);
  *(json_t **)((char *)out + td->extra_offset) = copy_json(a, *extra, share_json);
}

static void copy_value(arena *a, field_kind k, const type_desc *elem, const void *src, void *dst, bool share_json) {
  switch (k) {
  case K_STR: {
    const char *s = *(char *const *)src;
    *(char **)dst = s ? arena_strdup(a, s) : NULL;
    return;
  }
  case K_ATOM: atom_hold(a, *(const atom *const *)src); return; /* copied by the memcpy, held by a */
  case K_BOOL:
  case K_INT: return; /* copied by the struct memcpy / scalar memcpy */
  case K_QTY: return;
  case K_OBJ: {
    const void *obj = *(void *const *)src;
    if (!obj) return;
    void *copy = arena_alloc(a, elem->size);
    copy_struct(a, elem, obj, copy, share_json);
    *(void **)dst = copy;
    return;
  }
  case K_EMB: copy_struct(a, elem, src, dst, share_json); return;
  case K_LIST:
  case K_MAP: {
    const dlist *l = src;
    dlist *out = dst;
    bool is_map = k == K_MAP;
    size_t stride = is_map ? elem->entry_size : elem->size;
    size_t value_off = is_map ? elem->entry_value : 0;
    out->items = l->n ? arena_calloc(a, l->n, stride) : NULL;
    if (l->n) memcpy(out->items, l->items, l->n * stride);
    for (uint32_t i = 0; i < l->n; i++) {
      if (is_map) { /* a key of the source's arena is copied with it (atom.h) */
        const atom **key = (const atom **)((char *)out->items + i * stride);
        *key = atom_copy_to(a, *key);
      }
      copy_value(a, elem->scalar, elem, (const char *)l->items + i * stride + value_off,
                 (char *)out->items + i * stride + value_off, share_json);
    }
    return;
  }
  case K_RAW:
  case K_RAW_TEXT: *(json_t **)dst = copy_json(a, *(json_t *const *)src, share_json); return;
  }
}

void codec_copy(arena *a, const type_desc *td, const void *in, void *out) { copy_struct(a, td, in, out, false); }

void codec_copy_sharing_json(arena *a, const type_desc *td, const void *in, void *out) {
  copy_struct(a, td, in, out, true);
}

static bool type_holds_atoms(const type_desc *td) { return type_facts(td) & TYPE_HOLDS_ATOMS; }

static bool value_holds_atoms(field_kind k, const type_desc *elem) { return value_facts(k, elem) & TYPE_HOLDS_ATOMS; }

static void hold_struct(arena *a, const type_desc *td, const void *v);

/* Each item of a list or map (a map's keys are atoms too). */
static void hold_items(arena *a, field_kind k, const type_desc *elem, const dlist *l) {
  bool is_map = k == K_MAP;
  size_t stride = is_map ? elem->entry_size : elem->size;
  for (uint32_t i = 0; i < l->n; i++) {
    const char *item = (const char *)l->items + i * stride;
    if (is_map) atom_hold(a, *(const atom *const *)item);
    item += is_map ? elem->entry_value : 0;
    switch (elem->scalar) {
    case K_ATOM: atom_hold(a, *(const atom *const *)item); break;
    case K_OBJ:
      if (*(void *const *)item) hold_struct(a, elem, *(void *const *)item);
      break;
    case K_EMB: hold_struct(a, elem, item); break;
    case K_LIST:
    case K_MAP: hold_items(a, elem->scalar, elem, (const dlist *)item); break;
    default: break;
    }
  }
}

/* Scalars other than atoms are passed over in line: they are most fields. */
static void hold_struct(arena *a, const type_desc *td, const void *v) {
  if (!type_holds_atoms(td)) return;
  for (size_t i = 0; i < td->nfields; i++) {
    const field_desc *f = &td->fields[i];
    const char *p = (const char *)v + f->offset;
    switch (f->kind) {
    case K_ATOM: atom_hold(a, *(const atom *const *)p); break;
    case K_OBJ:
      if (*(void *const *)p) hold_struct(a, f->elem, *(void *const *)p);
      break;
    case K_EMB: hold_struct(a, f->elem, p); break;
    case K_LIST:
    case K_MAP:
      if (((const dlist *)p)->n && value_holds_atoms(f->kind, f->elem)) hold_items(a, f->kind, f->elem, (const dlist *)p);
      break;
    default: break;
    }
  }
}

void codec_hold_atoms(arena *a, const type_desc *td, const void *v) { hold_struct(a, td, v); }

static bool equal_value(field_kind k, const type_desc *elem, const void *x, const void *y, bool alike);

/* Values one version shares with another (the same strings, lists and
 * structs) are equal without a walk. With alike, equal values must also
 * encode alike (codec_encode_alike). */
static bool equal_struct(const type_desc *td, const void *x, const void *y, bool alike) {
  if (x == y) return true;
  for (size_t i = 0; i < td->nfields; i++) {
    const field_desc *f = &td->fields[i];
    if (f->set_offset && *((const bool *)x + f->set_offset) != *((const bool *)y + f->set_offset)) return false;
    if (!equal_value(f->kind, f->elem, (const char *)x + f->offset, (const char *)y + f->offset, alike)) return false;
  }
  json_t *const *ex = (json_t *const *)((const char *)x + td->extra_offset);
  json_t *const *ey = (json_t *const *)((const char *)y + td->extra_offset);
  if (!*ex || !*ey) return !*ex && !*ey;
  return json_equal(*ex, *ey);
}

static bool equal_value(field_kind k, const type_desc *elem, const void *x, const void *y, bool alike) {
  switch (k) {
  case K_STR: {
    const char *a = *(char *const *)x, *b = *(char *const *)y;
    return a == b || (a && b && strcmp(a, b) == 0);
  }
  case K_ATOM: return *(void *const *)x == *(void *const *)y;
  case K_BOOL: return *(const bool *)x == *(const bool *)y;
  case K_INT: return *(const int64_t *)x == *(const int64_t *)y;
  case K_QTY: return quantity_cmp(x, y) == 0;
  case K_OBJ: {
    const void *a = *(void *const *)x, *b = *(void *const *)y;
    return (!a || !b) ? a == b : equal_struct(elem, a, b, alike);
  }
  case K_EMB: return equal_struct(elem, x, y, alike);
  case K_LIST:
  case K_MAP: {
    /* Empty and absent are equal, as apimachinery's Semantic.DeepEqual
     * has nil and empty slices and maps. */
    const dlist *a = x, *b = y;
    if (a->n != b->n || (alike && !a->n && a->set != b->set)) return false;
    if (a->items == b->items) return true;
    bool is_map = k == K_MAP;
    size_t stride = is_map ? elem->entry_size : elem->size;
    size_t value_off = is_map ? elem->entry_value : 0;
    for (uint32_t i = 0; i < a->n; i++) {
      const char *ea = (const char *)a->items + i * stride, *eb = (const char *)b->items + i * stride;
      if (is_map && !atom_same(*(const atom *const *)ea, *(const atom *const *)eb)) return false;
      if (!equal_value(elem->scalar, elem, ea + value_off, eb + value_off, alike)) return false;
    }
    return true;
  }
  case K_RAW: {
    const json_t *a = *(json_t *const *)x, *b = *(json_t *const *)y;
    return (!a || !b) ? a == b : json_equal(a, b);
  }
  case K_RAW_TEXT: { /* equal texts, or values json_equal finds equal (members in another order) */
    const json_t *a = *(json_t *const *)x, *b = *(json_t *const *)y;
    if (!a || !b) return a == b;
    if (json_equal(a, b)) return true;
    if (alike) return false; /* other texts, written otherwise */
    json_t *ta = codec_raw_text_tree(a), *tb = codec_raw_text_tree(b);
    bool same = json_equal(ta, tb);
    json_decref(ta);
    json_decref(tb);
    return same;
  }
  }
  return false;
}

bool codec_equal(const type_desc *td, const void *x, const void *y) { return equal_struct(td, x, y, false); }

bool codec_encode_alike(field_kind k, const type_desc *elem, const void *x, const void *y) {
  return equal_value(k, elem, x, y, true);
}

bool codec_equal_value(field_kind k, const type_desc *elem, const void *x, const void *y) {
  return equal_value(k, elem, x, y, false);
}
