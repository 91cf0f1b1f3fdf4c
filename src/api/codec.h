/* codec.h: table-driven conversion between the document tree (jansson) and
 * the typed structs of types.h, strict as kube-apiserver's
 * fieldValidation=Strict: unknown fields, wrong types and bad quantities are
 * FE_DECODE errors naming the field path; T_OPEN structs keep unknown fields. */
#ifndef DRA_CODEC_H
#define DRA_CODEC_H
#include "api/schema.h"
#include "codec/doc_tokens.h"
#include "util/arena.h"
#include "util/fielderr.h"
#include "util/strbuf.h"

/* Decodes v into out (td->size bytes, zeroed by the caller). path names v. */
/* The unknown fields of a T_OPEN struct (its _extra slot), for a writer:
 * made an empty object owned by a when there are none yet, and a copy of
 * a's own when the value is shared (its reference count above one: held
 * by defaults_memo.c, codec_share.c or another version too), so that no
 * writer changes what other objects hold. */
json_t *codec_extra(arena *a, json_t **extra);
/* v, released when a is freed: a K_RAW value as decoded (codec_decode
 * keeps a deep copy of the document's; the direct decoder its own tree). */
json_t *codec_own_json(arena *a, json_t *v);
/* v (a reference a takes; NULL for none) becomes the value at *slot, a
 * JSON field of a's struct, released when a is freed; the value *slot
 * held is released now when a itself holds it (a copy's reference,
 * codec_copy_sharing_json), so a version that replaced a value does not
 * keep it alive (docs/server.md "Bounded memory"). */
void codec_set_json(arena *a, json_t **slot, json_t *v);
void codec_decode(arena *a, const type_desc *td, const json_t *v, void *out, fpath *path, errlist *errs);
/* One value of kind k (elem: its type) at dst, as codec_decode decodes a
 * field's value; set: the field's _set flag or NULL. */
void codec_decode_value(arena *a, field_kind k, const type_desc *elem, const json_t *v, void *dst, bool *set,
                        fpath *path, errlist *errs);
/* The same straight from a document's tokens (codec/doc_tokens.h), t being
 * the value's first token, with no tree in between. It covers the clean case
 * only: false where codec_decode would report an error (unknown field, wrong
 * type, duplicate key, bad quantity) or the source gave up; the caller then
 * decodes through the tree, so results and errors stay the tree path's. */
bool codec_decode_tokens(arena *a, const type_desc *td, tk_source *src, tk *t, void *out);
/* What the two calls below can leave out unread (skip): objects' metadata.managedFields,
 * checked for JSON's grammar only, for objects that are only read and scheduled
 * (kubectl dra's snapshot; docs/kubectl-dra.md "Speed"). */
#define CODEC_SKIP_MANAGED_FIELDS 1u
/* ... and the fields of open structs that scheduling does not read (unknown
 * ones open_field_scheduled does not keep, F_UNSCHEDULED typed ones), for a
 * snapshot that is only scheduled. */
#define CODEC_SKIP_UNSCHEDULED 2u
/* The rest of a mapping whose first members the caller read and stored
 * itself; done names their fields, so that a repeat is a duplicate. */
bool codec_decode_token_members(arena *a, const type_desc *td, tk_source *src, unsigned skip, void *out,
                                const char *const *done, size_t n_done);
/* A whole mapping, the current token its start, and whether each of its
 * members names[k] appeared (with any value, null included) in present[k]. */
bool codec_decode_token_object(arena *a, const type_desc *td, tk_source *src, unsigned skip, void *out,
                               const char *const *names, size_t n, bool *present);
/* A new JSON value in the API's field order (maps with sorted keys, as Go). */
json_t *codec_encode(const type_desc *td, const void *in);
/* One value of kind k (elem: its type) as codec_encode encodes it in a struct. */
json_t *codec_encode_value(field_kind k, const type_desc *elem, const void *src);
/* Whether codec_encode writes field f of in (Go's omitempty, F_KEEP_EMPTY,
 * F_ALWAYS, F_TIME). */
static inline bool codec_field_present(const field_desc *f, const void *in) {
  const char *p = (const char *)in + f->offset;
  bool keep_empty = f->flags & F_KEEP_EMPTY;
  switch (f->kind) {
  case K_STR: {
    const char *s = *(char *const *)p;
    return (f->flags & (F_ALWAYS | F_TIME)) || (s && (*s || keep_empty));
  }
  case K_ATOM: {
    const atom *a = *(const atom *const *)p;
    return a && (a->len || keep_empty);
  }
  case K_BOOL:
  case K_INT:
  case K_QTY: return keep_empty || *((const bool *)in + f->set_offset);
  case K_OBJ: return keep_empty || *(void *const *)p != NULL; /* a Go pointer without omitempty: null */
  case K_RAW:
  case K_RAW_TEXT: return *(void *const *)p != NULL;
  case K_EMB: return true;
  case K_LIST:
  case K_MAP: {
    const dlist *l = (const dlist *)p;
    return l->set && (l->n || keep_empty);
  }
  }
  return false;
}
/* Whether codec_encode writes field f of in as null (an unset F_TIME). */
bool codec_field_null(const field_desc *f, const void *in);
/* json_dumps(codec_encode(td, in), JSON_COMPACT) without the tree (malloc'd). */
char *codec_encode_text(const type_desc *td, const void *in);
/* The same text appended to sb. */
void codec_encode_text_to(strbuf *sb, const type_desc *td, const void *in);
/* json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY) appended to sb, written
 * from the tree itself; false when it cannot be (what was written stays). */
bool codec_compact_tree(strbuf *sb, const json_t *v);
/* The string s as codec_compact_tree writes a string or an object's key
 * (json_dumps's compact text); false when it cannot be written. */
bool codec_compact_string(strbuf *sb, const char *s);
/* A K_RAW_TEXT value (schema.h) for the JSON value v: a new jansson string
 * of v's compact text, so that writing it out as it is gives the bytes
 * encoding v's tree would (NULL when v cannot be written). */
json_t *codec_raw_text(const json_t *v);
/* The JSON value a K_RAW_TEXT value holds, a new tree (json null for NULL
 * or text that is not JSON, which the decoders never store). */
json_t *codec_raw_text_tree(const json_t *text);
/* The stored K_RAW_TEXT value (codec_share_string) that is the n bytes at
 * s, when its value nests at most room levels deep: a value read as that
 * text, found without reading it; else NULL. */
json_t *codec_raw_text_stored(const char *s, size_t n, int room);
/* Whether the n bytes at s are an object or array in the very text
 * codec_raw_text writes for the value they hold, one the token decoder
 * reads whole (codec_direct.c): compact, strings of printable ASCII with
 * only '"' and '\\' escaped, integers of at most 18 digits, each object's
 * keys in increasing byte order (as field managers write them; so no key
 * twice), nested at most room levels deep. A text that is not, even if
 * equivalent, is not judged here: false. */
bool codec_raw_text_canonical(const char *s, size_t n, int room);
/* The bytes put_plain_string writes as they are in a compact string. */
extern const unsigned char codec_plain_ascii[256];
/* doc_write_json(codec_encode(td, in)) without the tree, nested level deep
 * (see doc_write_json_at); no newline after it. */
void codec_encode_json(strbuf *sb, const type_desc *td, const void *in, int level);
/* Deep copy of a struct into arena a (strings, lists, maps, raw JSON). */
void codec_copy(arena *a, const type_desc *td, const void *in, void *out);
/* The same, but the copy holds the source's JSON values (raw fields and
 * unknown fields) with a reference rather than copies: for a copy whose
 * writers copy a JSON value before changing it, as the control loop's do
 * (docs/server.md "Control loop writes"). */
void codec_copy_sharing_json(arena *a, const type_desc *td, const void *in, void *out);
/* a holds every interned atom the struct points at (util/atom.h), so that
 * the struct keeps them alive whichever arena they came from. */
void codec_hold_atoms(arena *a, const type_desc *td, const void *v);
/* The JSON values the struct keeps (raw fields, unknown fields of T_OPEN
 * structs) that a owns become the process-wide copy of an equal value,
 * so objects that carry the same values share them (codec_share.c). The
 * struct must not change after this, nor the values it holds. */
void codec_share_json(arena *a, const type_desc *td, void *v);
/* The process-wide copy of a JSON value equal to v (takes v): a reference
 * of the caller's own, for a reader that shares values as it reads them
 * (tree_memo.h; a K_RAW_TEXT string too). Nobody may change it. */
json_t *codec_share_value(json_t *v);
/* Marks v, a value shared some other way for the rest of the process
 * (defaults_memo.c's), as one the table must leave alone: its lifetime
 * rule, that a value goes when its last holder does, would never see that
 * holder go. False when no more can be marked (v is then not kept that
 * way). */
bool codec_share_exempt(json_t *v);
/* Whether codec_share_exempt marked v. */
bool codec_share_is_exempt(const json_t *v);
/* Equal and written the same: json_equal, with objects' members in the
 * same order. */
bool codec_json_same(const json_t *x, const json_t *y);
/* How many values the process-wide table holds (for tests and memory
 * figures). */
/* The table's string whose value is the n bytes at s (a new reference),
 * or NULL: a K_RAW_TEXT value stored already. */
json_t *codec_share_string(const char *s, size_t n);
size_t codec_share_count(void);
/* How many of its values keep a text (for tests and memory figures). */
size_t codec_share_text_count(void);
/* How many holders besides the table a value of it needs for a text. */
#define CODEC_SHARE_TEXT_HOLDERS 8
/* The compact JSON text of v (codec_compact_tree's) when v is a value of
 * that table that CODEC_SHARE_TEXT_HOLDERS holders share: made on the first call, kept
 * until v leaves the table. The caller holds v (through an object that
 * holds it), so the text stays while it does. False otherwise, or when
 * the tree cannot be written. */
bool codec_share_text(const json_t *v, const char **text, size_t *len);
/* Deep equality of two structs of type td, as apimachinery's Semantic.DeepEqual:
 * an empty list or map equals an absent one. */
bool codec_equal(const type_desc *td, const void *x, const void *y);
/* The same for one value of kind k (elem: its type), as codec_encode_value takes it. */
bool codec_equal_value(field_kind k, const type_desc *elem, const void *x, const void *y);
/* Whether x and y are equal and encode alike (codec_encode gives
 * json_equal trees for both): codec_equal_value, but an empty list or map
 * equals only one as absent or as present as itself, and K_RAW_TEXT texts
 * only the same text (no tree read); so false for some equal values. */
bool codec_encode_alike(field_kind k, const type_desc *elem, const void *x, const void *y);
/* How Go's encoding/json names a JSON value's type in its errors
 * ("object", "array", "string", "number", "bool", "null"). */
const char *codec_json_type_word(const json_t *v);

#endif
