/* doc.h: the document layer. Reads YAML/JSON files (or buffers, or stdin) into
 * jansson json_t trees the way kubectl does (sigs.k8s.io/yaml resolution,
 * multi-document streams, List expansion), and prints json_t trees as
 * kubectl -o yaml / -o json do. */
#ifndef DRA_DOC_H
#define DRA_DOC_H
#include "util/strbuf.h"
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* Limits against hostile input; exceeding one is a clean load error. */
#define DOC_MAX_BYTES ((size_t)64 << 20)   /* per file or buffer */
#define DOC_MAX_DEPTH 1000                 /* nesting of mappings/sequences */
#define DOC_MAX_ALIAS_NODES 1000000        /* nodes copied by YAML aliases, per stream */

typedef struct doc {
  json_t *root;       /* one object (owned reference) */
  char *file;         /* source name as given, "-" for stdin */
  int line;           /* 1-based line where the document (or List item) starts; 0 if unknown */
  char **dup_fields;  /* duplicate keys inside this object, as field paths relative to root,
                         e.g. "spec.devices.requests[0].name" (the first value was kept) */
  size_t n_dup_fields;
} doc;

typedef struct docset {
  doc *items;
  size_t n, cap;
} docset;

/* Reads each path: a file; a directory (its *.yaml, *.yml, *.json files in name
 * order, subdirectories too when recursive); "-" = stdin. Returns 0 on success;
 * 2 on an unreadable file or a syntax error, with a message in *err such as
 * "examples/x.yaml:12:3: mapping values are not allowed in this context".
 * Documents loaded before the error stay in out. */
int docs_load_paths(const char *const *paths, size_t n, bool recursive, docset *out, strbuf *err);
/* Same for text already in memory; name is used in messages and doc.file.
 * Content whose first non-blank byte is '{' is read as JSON (as kubectl sniffs). */
int docs_load_buffer(const char *name, const char *data, size_t len, docset *out, strbuf *err);
void docset_free(docset *ds);

/* kubectl -o yaml: keys sorted as go-yaml sorts them, 2-space indent, block
 * style, strings quoted only when needed to read back as strings. */
void doc_write_yaml(strbuf *out, const json_t *v);
/* kubectl -o json: insertion order, 4-space indent, Go's escaping and numbers.
 * Both writers end the text with a newline. */
void doc_write_json(strbuf *out, const json_t *v);

#endif
