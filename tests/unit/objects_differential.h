/* objects_differential.h: the check the codec differential test and fuzzer
 * share: a buffer read straight from its text (objects_load_direct) gives
 * the very objects the document tree gives (objects_load_tree): same count,
 * files, lines, kinds, versions, errors, and the same typed content, compared
 * both as codec_equal sees it and as encoded JSON text, byte for byte; and
 * that every object prints as kubectl -o json the same way straight from
 * its struct as through the tree. */
#ifndef DRA_OBJECTS_DIFFERENTIAL_H
#define DRA_OBJECTS_DIFFERENTIAL_H
#include "api/codec.h"
#include "codec/doc.h"
#include "load/objects.h"
#include <stdio.h>
#include <string.h>

static char *differential_text(const loaded_object *lo) {
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, "%s:%d %s %s errs=%zu", lo->file, lo->line, lo->kind, lo->api_version, lo->errs.n);
  for (size_t i = 0; i < lo->errs.n; i++) {
    char *t = field_error_text(&lo->errs.items[i]);
    sb_printf(&sb, "\n  %s", t);
    free(t);
  }
  if (lo->obj) {
    json_t *j = api_object_encode(lo->obj);
    sb_printf(&sb, "\n  version=%s file=%s line=%d\n  ", lo->obj->version ? lo->obj->version : "-", lo->obj->file,
              lo->obj->line);
    doc_write_json_compact(&sb, j);
    json_decref(j);
  }
  return sb_detach(&sb);
}

/* The objects written as kubectl -o json prints them, straight from the
 * structs (codec_encode_json) and through the tree: false when they differ. */
static bool differential_encode(const char *name, const object_set *set) {
  bool same = true;
  for (size_t i = 0; same && i < set->n; i++) {
    const api_object *o = set->items[i].obj;
    if (!o) continue;
    strbuf direct = STRBUF_INIT, tree = STRBUF_INIT;
    codec_encode_json(&direct, o->info->desc, o->typed, 0);
    sb_putc(&direct, '\n');
    json_t *j = api_object_encode(o);
    doc_write_json(&tree, j);
    json_decref(j);
    same = direct.len == tree.len && !memcmp(direct.buf, tree.buf, tree.len);
    if (!same) fprintf(stderr, "%s: object %zu encodes differently\ndirect: %s\ntree:   %s\n", name, i, sb_str(&direct), sb_str(&tree));
    sb_free(&direct);
    sb_free(&tree);
  }
  return same;
}

/* -1: the buffer needs the tree path (nothing to compare); 0: both agree;
 * 1: they differ (a description on stderr). skip: what both leave out
 * (object_set's skip). */
static int differential_check_skipping(const char *name, const char *data, size_t len, unsigned skip) {
  object_set direct = {.skip = skip}, tree = {.skip = skip};
  strbuf err = STRBUF_INIT;
  bool gave_up = !objects_load_direct(name, data, len, &direct);
  int rc = objects_load_tree(name, data, len, &tree, &err);
  if (!differential_encode(name, &tree)) rc = 1, gave_up = false;
  if (gave_up) {
    object_set_free(&direct);
    object_set_free(&tree);
    sb_free(&err);
    return -1;
  }
  int differ = rc != 0 || err.len != 0 || direct.n != tree.n;
  if (differ) fprintf(stderr, "%s: tree rc %d (%s), %zu objects direct, %zu by tree\n", name, rc, sb_str(&err), direct.n, tree.n);
  for (size_t i = 0; !differ && i < direct.n; i++) {
    const loaded_object *a = &direct.items[i], *b = &tree.items[i];
    char *ta = differential_text(a), *tb = differential_text(b);
    bool same = !strcmp(ta, tb) && (!a->obj) == (!b->obj) &&
                (!a->obj || (a->obj->info == b->obj->info && codec_equal(a->obj->info->desc, a->obj->typed, b->obj->typed)));
    if (!same) fprintf(stderr, "%s: object %zu differs\ndirect: %s\ntree:   %s\n", name, i, ta, tb);
    differ = !same;
    free(ta);
    free(tb);
  }
  object_set_free(&direct);
  object_set_free(&tree);
  sb_free(&err);
  return differ;
}

static int differential_check(const char *name, const char *data, size_t len) {
  return differential_check_skipping(name, data, len, 0);
}

#endif
