/* doc_load.c: where documents come from (files, directories, stdin, buffers),
 * which reader gets them, and what a document becomes in the docset: empty
 * documents are skipped, the root must be an object, Lists expand into their
 * items with duplicate-field paths re-based onto each item. */
#include "codec/doc_reader.h"
#include "util/die.h"
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void doc_error(strbuf *err, const char *name, int line, int col, const char *fmt, ...) {
  sb_printf(err, "%s:%d:%d: ", name, line, col);
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(err, fmt, ap);
  va_end(ap);
}

void raw_doc_add_dup(raw_doc *rd, const char *path) {
  if (rd->n_dups == rd->cap_dups) {
    rd->cap_dups = rd->cap_dups ? rd->cap_dups * 2 : 4;
    rd->dups = xrealloc(rd->dups, rd->cap_dups * sizeof *rd->dups);
  }
  rd->dups[rd->n_dups++] = xstrdup(path);
}

void raw_doc_drop_dups(raw_doc *rd, size_t keep) {
  while (rd->n_dups > keep) free(rd->dups[--rd->n_dups]);
}

void raw_doc_add_item_line(raw_doc *rd, int line) {
  if (rd->n_item_lines == rd->cap_item_lines) {
    rd->cap_item_lines = rd->cap_item_lines ? rd->cap_item_lines * 2 : 16;
    rd->item_lines = xrealloc(rd->item_lines, rd->cap_item_lines * sizeof *rd->item_lines);
  }
  rd->item_lines[rd->n_item_lines++] = line;
}

void raw_doc_clear(raw_doc *rd) {
  json_decref(rd->root);
  for (size_t i = 0; i < rd->n_dups; i++) free(rd->dups[i]);
  free(rd->dups);
  free(rd->item_lines);
  memset(rd, 0, sizeof *rd);
}

json_t *doc_number(double f) {
  if (f == trunc(f) && f >= -0x1p63 && f < 0x1p63) return json_integer((json_int_t)f);
  return json_real(f);
}

static doc *push_doc(docset *out, const char *name, json_t *root, int line) {
  if (out->n == out->cap) {
    out->cap = out->cap ? out->cap * 2 : 8;
    out->items = xrealloc(out->items, out->cap * sizeof *out->items);
  }
  doc *d = &out->items[out->n++];
  *d = (doc){.root = root, .file = xstrdup(name), .line = line};
  return d;
}

static void add_dup(doc *d, const char *path) {
  d->dup_fields = xrealloc(d->dup_fields, (d->n_dup_fields + 1) * sizeof *d->dup_fields);
  d->dup_fields[d->n_dup_fields++] = xstrdup(path);
}

static const char *json_kind(const json_t *v) {
  switch (json_typeof(v)) {
  case JSON_ARRAY: return "an array";
  case JSON_STRING: return "a string";
  case JSON_INTEGER:
  case JSON_REAL: return "a number";
  case JSON_TRUE:
  case JSON_FALSE: return "a boolean";
  default: return "an object";
  }
}

/* kubectl flattens a List (any kind "...List" with an items array). */
static json_t *list_items(const json_t *root) {
  const char *kind = json_string_value(json_object_get(root, "kind"));
  json_t *items = json_object_get(root, "items");
  size_t n = kind ? strlen(kind) : 0;
  return n >= 4 && !strcmp(kind + n - 4, "List") && json_is_array(items) ? items : NULL;
}

/* A typed List as an API server sends it (kind "ResourceClaimList",
 * apiVersion "resource.k8s.io/v1") leaves out its items' kind and
 * apiVersion: they are the List's, as client-go decodes them. */
static void inherit_kind(const json_t *root, json_t *item) {
  const char *kind = json_string_value(json_object_get(root, "kind"));
  const json_t *api_version = json_object_get(root, "apiVersion");
  size_t n = strlen(kind);
  if (n <= 4 || !json_is_string(api_version) || json_object_get(item, "kind") || json_object_get(item, "apiVersion"))
    return;
  json_object_set_new(item, "kind", json_stringn(kind, n - 4));
  json_object_set(item, "apiVersion", (json_t *)api_version);
}

static int accept_list(docset *out, const char *name, raw_doc *rd, json_t *items, strbuf *err) {
  size_t i;
  json_t *item;
  json_array_foreach(items, i, item) {
    int line = i < rd->n_item_lines ? rd->item_lines[i] : rd->line;
    if (!json_is_object(item)) {
      doc_error(err, name, line, 1, "List item items[%zu] must be an object, not %s", i, json_kind(item));
      return 2;
    }
    inherit_kind(rd->root, item);
    doc *d = push_doc(out, name, json_incref(item), line);
    char prefix[48];
    int plen = snprintf(prefix, sizeof prefix, "items[%zu].", i);
    for (size_t k = 0; k < rd->n_dups; k++)
      if (!strncmp(rd->dups[k], prefix, (size_t)plen)) add_dup(d, rd->dups[k] + plen);
  }
  return 0;
}

int doc_accept(docset *out, const char *name, raw_doc *rd, strbuf *err) {
  int rc = 0;
  json_t *items;
  if (!rd->root || json_is_null(rd->root)) {
    /* an empty document: kubectl skips it */
  } else if (!json_is_object(rd->root)) {
    doc_error(err, name, rd->line, rd->col, "document must be an object, not %s", json_kind(rd->root));
    rc = 2;
  } else if ((items = list_items(rd->root))) {
    rc = accept_list(out, name, rd, items, err);
  } else {
    doc *d = push_doc(out, name, rd->root, rd->line);
    rd->root = NULL;
    d->dup_fields = rd->dups;
    d->n_dup_fields = rd->n_dups;
    rd->dups = NULL;
    rd->n_dups = 0;
  }
  raw_doc_clear(rd);
  return rc;
}

bool doc_looks_like_json(const char *data, size_t len) {
  size_t i = 0;
  if (len >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3)) i = 3;
  while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n')) i++;
  return i < len && data[i] == '{';
}

static bool within_limit(const char *name, size_t len, strbuf *err) {
  if (len <= DOC_MAX_BYTES) return true;
  sb_printf(err, "%s: input is larger than %zu MiB", name, DOC_MAX_BYTES >> 20);
  return false;
}

int docs_load_buffer(const char *name, const char *data, size_t len, docset *out, strbuf *err) {
  if (!within_limit(name, len, err)) return 2;
  if (doc_looks_like_json(data, len)) return json_read_stream(name, data, len, out, err);
  return yaml_read_stream(name, data, len, out, err);
}

int docs_load_json(const char *name, const char *data, size_t len, docset *out, strbuf *err) {
  if (!within_limit(name, len, err)) return 2;
  return json_read_stream(name, data, len, out, err);
}

/* Reads all of f, up to DOC_MAX_BYTES (one more byte tells it is too large). */
static int load_stream(FILE *f, const char *name, doc_buffer_fn *fn, void *ctx, strbuf *err) {
  strbuf text = STRBUF_INIT;
  /* read in place, into room for the whole of a regular file at once */
  struct stat st;
  if (!fstat(fileno(f), &st) && S_ISREG(st.st_mode) && st.st_size > 0 && (size_t)st.st_size <= DOC_MAX_BYTES)
    sb_reserve(&text, (size_t)st.st_size + 1); /* the 1: the read that finds the end */
  size_t got;
  do {
    size_t room = text.cap > text.len + 1 ? text.cap - text.len - 1 : 0;
    char *at = sb_reserve(&text, room ? room : 65536);
    got = fread(at, 1, room ? room : 65536, f);
    sb_commit(&text, got);
  } while (got > 0 && text.len <= DOC_MAX_BYTES);
  int rc;
  if (ferror(f)) {
    sb_printf(err, "%s: %s", name, strerror(errno));
    rc = 2;
  } else {
    rc = fn(ctx, name, text.buf ? text.buf : "", text.len, err);
  }
  sb_free(&text);
  return rc;
}

static int load_file(const char *path, doc_buffer_fn *fn, void *ctx, strbuf *err) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    if (errno == ENOENT) sb_printf(err, "the path \"%s\" does not exist", path);
    else sb_printf(err, "%s: %s", path, strerror(errno));
    return 2;
  }
  int rc = load_stream(f, path, fn, ctx, err);
  fclose(f);
  return rc;
}

/* Files are read on past one that fails, so every unreadable file is
 * reported, one line each in err. */
static int note_error(int rc, strbuf *err) {
  if (rc && err->len && err->buf[err->len - 1] != '\n') sb_putc(err, '\n');
  return rc;
}

static bool has_manifest_extension(const char *name) {
  const char *dot = strrchr(name, '.');
  return dot && (!strcmp(dot, ".yaml") || !strcmp(dot, ".yml") || !strcmp(dot, ".json"));
}

static int compare_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Like filepath.Walk: entries in byte order, subdirectories visited where they
 * sort (only when recursive), symlinked directories not followed. */
static int load_dir(const char *dir, bool recursive, int level, doc_buffer_fn *fn, void *ctx, strbuf *err) {
  if (level > 64) {
    sb_printf(err, "%s: directories nested too deep", dir);
    return 2;
  }
  DIR *d = opendir(dir);
  if (!d) {
    sb_printf(err, "%s: %s", dir, strerror(errno));
    return 2;
  }
  char **names = NULL;
  size_t n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    names = xrealloc(names, (n + 1) * sizeof *names);
    names[n++] = xstrdup(e->d_name);
  }
  closedir(d);
  if (n) qsort(names, n, sizeof *names, compare_names); /* names is NULL when the directory is empty */
  size_t dlen = strlen(dir);
  const char *sep = dlen && dir[dlen - 1] == '/' ? "" : "/";
  int rc = 0;
  strbuf path = STRBUF_INIT;
  for (size_t i = 0; i < n; i++) {
    sb_truncate(&path, 0);
    sb_printf(&path, "%s%s%s", dir, sep, names[i]);
    struct stat st;
    if (lstat(sb_str(&path), &st) == 0) {
      if (S_ISDIR(st.st_mode)) {
        if (recursive) rc |= load_dir(sb_str(&path), recursive, level + 1, fn, ctx, err);
      } else if (has_manifest_extension(names[i]) && stat(sb_str(&path), &st) == 0 && S_ISREG(st.st_mode)) {
        rc |= note_error(load_file(sb_str(&path), fn, ctx, err), err);
      }
    }
    free(names[i]);
  }
  free(names);
  sb_free(&path);
  return rc;
}

int docs_walk_paths(const char *const *paths, size_t n, bool recursive, doc_buffer_fn *fn, void *ctx, strbuf *err) {
  int rc = 0;
  for (size_t i = 0; i < n; i++) {
    struct stat st;
    if (!strcmp(paths[i], "-")) rc |= note_error(load_stream(stdin, "-", fn, ctx, err), err);
    else if (stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode)) rc |= load_dir(paths[i], recursive, 0, fn, ctx, err);
    else rc |= note_error(load_file(paths[i], fn, ctx, err), err);
  }
  if (err->len && err->buf[err->len - 1] == '\n') sb_truncate(err, err->len - 1); /* lines between, none after */
  return rc ? 2 : 0;
}

static int load_into_docset(void *out, const char *name, const char *data, size_t len, strbuf *err) {
  return docs_load_buffer(name, data, len, out, err);
}

int docs_load_paths(const char *const *paths, size_t n, bool recursive, docset *out, strbuf *err) {
  return docs_walk_paths(paths, n, recursive, load_into_docset, out, err);
}

void docset_free(docset *ds) {
  for (size_t i = 0; i < ds->n; i++) {
    doc *d = &ds->items[i];
    json_decref(d->root);
    free(d->file);
    for (size_t k = 0; k < d->n_dup_fields; k++) free(d->dup_fields[k]);
    free(d->dup_fields);
  }
  free(ds->items);
  memset(ds, 0, sizeof *ds);
}
