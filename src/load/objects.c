/* objects.c: see objects.h. */
#include "load/objects.h"
#include "codec/doc.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

static void decode_docs(docset *ds, object_set *out) {
  out->items = xrealloc(out->items, (out->n + ds->n + 1) * sizeof *out->items);
  for (size_t i = 0; i < ds->n; i++) {
    doc *d = &ds->items[i];
    loaded_object *lo = &out->items[out->n++];
    memset(lo, 0, sizeof *lo);
    lo->file = xstrdup(d->file ? d->file : "-");
    lo->line = d->line;
    const char *kind = json_string_value(json_object_get(d->root, "kind"));
    const char *version = json_string_value(json_object_get(d->root, "apiVersion"));
    lo->kind = xstrdup(kind ? kind : "");
    lo->api_version = xstrdup(version ? version : "");
    lo->obj = api_object_decode(d->root, (const char *const *)d->dup_fields, d->n_dup_fields, &lo->errs);
    if (!lo->obj) continue;
    lo->obj->file = arena_strdup(lo->obj->arena, lo->file);
    lo->obj->line = lo->line;
    object_meta *m = api_object_meta(lo->obj);
    if (lo->obj->info->namespaced && (!m->namespace_ || !*m->namespace_))
      m->namespace_ = arena_strdup(lo->obj->arena, "default");
  }
}

int objects_load_paths(const char *const *paths, size_t n, bool recursive, object_set *out, strbuf *err) {
  docset ds = {0};
  int rc = docs_load_paths(paths, n, recursive, &ds, err);
  decode_docs(&ds, out);
  docset_free(&ds);
  return rc;
}

int objects_load_buffer(const char *name, const char *data, size_t len, object_set *out, strbuf *err) {
  docset ds = {0};
  int rc = docs_load_buffer(name, data, len, &ds, err);
  decode_docs(&ds, out);
  docset_free(&ds);
  return rc;
}

void object_set_free(object_set *s) {
  for (size_t i = 0; i < s->n; i++) {
    loaded_object *lo = &s->items[i];
    api_object_free(lo->obj);
    errlist_free(&lo->errs);
    free(lo->file);
    free(lo->kind);
    free(lo->api_version);
  }
  free(s->items);
  s->items = NULL;
  s->n = 0;
}

bool loaded_object_ok(const loaded_object *lo) { return lo->obj && lo->errs.n == 0; }
