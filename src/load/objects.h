/* objects.h: reading manifests into typed objects: files, directories and
 * stdin through the document loader, each document decoded strictly into an
 * api_object, namespaced objects without a namespace put in "default" (as
 * kubectl does). The context module (context/load.c) admits and stores them. */
#ifndef DRA_LOAD_OBJECTS_H
#define DRA_LOAD_OBJECTS_H
#include "api/object.h"
#include "util/arena.h"
#include "util/strbuf.h"

typedef struct loaded_object {
  api_object *obj; /* NULL when the kind is unknown; errs says why */
  errlist errs;    /* strict-decoding errors (FE_DECODE) */
  const char *file; /* these three in the set's strings */
  int line;
  const char *kind; /* as written in the document */
  const char *api_version;
} loaded_object;

typedef struct object_set {
  loaded_object *items;
  size_t n, cap;
  /* Set before loading: what the objects leave out (CODEC_SKIP_*,
   * api/codec.h), unread on the direct path and dropped on the tree path. */
  unsigned skip;
  arena *strings; /* the items' file, kind and apiVersion */
} object_set;

/* Returns 0, or 2 when a file can't be read or has a syntax error (message in
 * *err, one line per bad file, "file:line:column: ..."); the other files'
 * objects are in out. */
int objects_load_paths(const char *const *paths, size_t n, bool recursive, object_set *out, strbuf *err);
int objects_load_buffer(const char *name, const char *data, size_t len, object_set *out, strbuf *err);
void object_set_free(object_set *s);
/* The two ways objects_load_buffer reads a buffer, apart for the differential
 * test and fuzzer: straight from the text into the typed structs (false,
 * with out unchanged, when some document needs the tree path) and through
 * the document tree (every case, every error message). */
bool objects_load_direct(const char *name, const char *data, size_t len, object_set *out);
int objects_load_tree(const char *name, const char *data, size_t len, object_set *out, strbuf *err);

/* True when the object decoded cleanly (known kind, no decode errors). */
bool loaded_object_ok(const loaded_object *lo);
#endif
