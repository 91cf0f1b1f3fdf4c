/* objects.c: see objects.h. */
#include "load/objects.h"
#include "api/codec.h"
#include "api/open_fields.h"
#include "codec/doc.h"
#include "codec/doc_tokens.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

static void clear_object(loaded_object *lo) {
  api_object_free(lo->obj);
  errlist_free(&lo->errs);
}

/* s in the set's strings: the previous object's own copy when equal (a
 * file's objects share its name, and runs of one kind are common). */
static const char *set_string(object_set *out, const char *s, const char *previous) {
  if (previous && !strcmp(previous, s)) return previous;
  if (!out->strings) out->strings = arena_new();
  return arena_strdup(out->strings, s);
}

static loaded_object *add_object(object_set *out, const char *file, int line, const char *kind, const char *version) {
  if (out->n == out->cap) {
    out->cap = out->cap ? out->cap * 2 : 16;
    out->items = xrealloc(out->items, out->cap * sizeof *out->items);
  }
  const loaded_object *prev = out->n ? &out->items[out->n - 1] : NULL;
  loaded_object *lo = &out->items[out->n++];
  memset(lo, 0, sizeof *lo);
  lo->file = set_string(out, file ? file : "-", prev ? prev->file : NULL);
  lo->line = line;
  lo->kind = set_string(out, kind ? kind : "", prev ? prev->kind : NULL);
  lo->api_version = set_string(out, version ? version : "", prev ? prev->api_version : NULL);
  return lo;
}

/* What the loader adds to a decoded object: where it came from, and the
 * "default" namespace kubectl gives a namespaced object without one. */
static void place_object(loaded_object *lo) {
  lo->obj->file = arena_strdup(lo->obj->arena, lo->file);
  lo->obj->line = lo->line;
  object_meta *m = api_object_meta(lo->obj);
  if (lo->obj->info->namespaced && (!m->namespace_ || !*m->namespace_))
    m->namespace_ = arena_strdup(lo->obj->arena, "default");
  api_object_note_size(lo->obj); /* the next objects of its kind start with a chunk its size */
}

/* items is never NULL after a load, even with nothing loaded (callers sort it). */
static void keep_items(object_set *out) {
  if (!out->items) out->items = xmalloc((out->cap = 1) * sizeof *out->items);
}

/* What CODEC_SKIP_MANAGED_FIELDS leaves unread, as the direct decoder
 * passes over it: the document's metadata.managedFields, and the duplicate
 * keys inside it (moved past the count returned, which is what is left). */
static size_t leave_out_managed_fields(doc *d) {
  json_object_del(json_object_get(d->root, "metadata"), "managedFields");
  static const char prefix[] = "metadata.managedFields";
  size_t kept = 0;
  for (size_t i = 0; i < d->n_dup_fields; i++) {
    const char *p = d->dup_fields[i];
    bool inside = !strncmp(p, prefix, sizeof prefix - 1) && (p[sizeof prefix - 1] == '[' || p[sizeof prefix - 1] == '.' || !p[sizeof prefix - 1]);
    if (inside) continue;
    char *keep = d->dup_fields[kept];
    d->dup_fields[kept++] = d->dup_fields[i];
    d->dup_fields[i] = keep;
  }
  return kept;
}

static void decode_docs(docset *ds, object_set *out) {
  for (size_t i = 0; i < ds->n; i++) {
    doc *d = &ds->items[i];
    const char *kind = json_string_value(json_object_get(d->root, "kind"));
    const char *version = json_string_value(json_object_get(d->root, "apiVersion"));
    loaded_object *lo = add_object(out, d->file, d->line, kind, version);
    size_t n_dup = d->n_dup_fields;
    if (out->skip & CODEC_SKIP_MANAGED_FIELDS) n_dup = leave_out_managed_fields(d);
    lo->obj = api_object_decode(d->root, (const char *const *)d->dup_fields, n_dup, &lo->errs);
    if (lo->obj && (out->skip & CODEC_SKIP_UNSCHEDULED)) open_fields_drop_unscheduled(lo->obj->info->desc, lo->obj->typed);
    if (lo->obj) place_object(lo);
  }
}

int objects_load_tree(const char *name, const char *data, size_t len, object_set *out, strbuf *err) {
  keep_items(out);
  docset ds = {0};
  int rc = docs_load_buffer(name, data, len, &ds, err);
  decode_docs(&ds, out);
  docset_free(&ds);
  return rc;
}

/* Whether the text is one line (but for blanks after it): a List's items
 * then all have the List's line, which is the only line the token sources
 * tell (a server's list pages are written so). */
static bool one_line(const char *data, size_t len) {
  while (len && (data[len - 1] == ' ' || data[len - 1] == '\t' || data[len - 1] == '\r' || data[len - 1] == '\n')) len--;
  return !memchr(data, '\n', len) && !memchr(data, '\r', len);
}

typedef struct direct_sink {
  object_set *out;
  const char *name;
  int line;
} direct_sink;

static void add_direct(void *user, api_object *o) {
  direct_sink *ds = user;
  api_head *h = api_object_head(o);
  loaded_object *lo = add_object(ds->out, ds->name, ds->line, h->kind, h->api_version);
  lo->obj = o;
  place_object(lo);
}

/* Every document of the buffer straight from its text into objects
 * (api_objects_decode_tokens), Lists too when the text is one line, from
 * the source doc_tokens_open gives when careful or not; false, with out as
 * it was, when one of them needs another source. */
static bool load_direct_from(const char *name, const char *data, size_t len, bool careful, object_set *out) {
  tk_source *src = doc_tokens_open(data, len, careful);
  if (!src) return false;
  size_t before = out->n;
  bool lists = one_line(data, len), decoded = true;
  direct_sink ds = {out, name, 0};
  tk t;
  while (decoded && src->next_doc(src, &t, &ds.line)) decoded = api_objects_decode_tokens(src, lists, out->skip, add_direct, &ds);
  bool ok = decoded && t.kind != TK_GIVE_UP;
  src->close(src);
  if (ok) return true;
  while (out->n > before) clear_object(&out->items[--out->n]);
  return false;
}

bool objects_load_direct(const char *name, const char *data, size_t len, object_set *out) {
  return load_direct_from(name, data, len, false, out) || load_direct_from(name, data, len, true, out);
}

/* One file's (or stdin's, or a buffer's) text: directly when it can, else
 * through the document tree, which also reports every error. */
static int load_buffer(void *ctx, const char *name, const char *data, size_t len, strbuf *err) {
  object_set *out = ctx;
  if (objects_load_direct(name, data, len, out)) return 0;
  return objects_load_tree(name, data, len, out, err);
}

int objects_load_paths(const char *const *paths, size_t n, bool recursive, object_set *out, strbuf *err) {
  keep_items(out);
  return docs_walk_paths(paths, n, recursive, load_buffer, out, err);
}

int objects_load_buffer(const char *name, const char *data, size_t len, object_set *out, strbuf *err) {
  keep_items(out);
  return load_buffer(out, name, data, len, err);
}

void object_set_free(object_set *s) {
  for (size_t i = 0; i < s->n; i++) clear_object(&s->items[i]);
  free(s->items);
  arena_free(s->strings);
  s->items = NULL;
  s->strings = NULL;
  s->n = s->cap = 0;
}

bool loaded_object_ok(const loaded_object *lo) { return lo->obj && lo->errs.n == 0; }
