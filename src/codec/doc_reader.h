/* doc_reader.h: the contract between the loader (doc_load.c) and the two
 * syntax readers (yaml_read.c, json_read.c). A reader turns text into raw
 * documents and hands each to doc_accept, which skips empty ones, checks the
 * root is an object and expands Lists. */
#ifndef DRA_DOC_READER_H
#define DRA_DOC_READER_H
#include "codec/doc.h"

typedef struct raw_doc {
  json_t *root;        /* owned; NULL for an empty document */
  int line, col;       /* where the root node starts, 1-based */
  int *item_lines;     /* start line of root.items[i], when root.items is a sequence */
  size_t n_item_lines, cap_item_lines;
  char **dups;         /* duplicate-key field paths relative to root */
  size_t n_dups, cap_dups;
} raw_doc;

void raw_doc_add_dup(raw_doc *rd, const char *path);
void raw_doc_drop_dups(raw_doc *rd, size_t keep); /* forgets all but the first keep */
void raw_doc_add_item_line(raw_doc *rd, int line);
void raw_doc_clear(raw_doc *rd);
/* Takes the content of rd (rd is cleared). Returns 0, or 2 with *err set. */
int doc_accept(docset *out, const char *name, raw_doc *rd, strbuf *err);
/* Appends "name:line:col: " then the formatted message to err. */
void doc_error(strbuf *err, const char *name, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* A number as it arrives after kubectl's YAML->JSON->object trip: integral
 * values within int64 are integers (json.Marshal writes 1.0 as 1), others reals. */
json_t *doc_number(double f);

/* Whether the first non-blank byte (after a BOM) is '{': kubectl's sniff. */
bool doc_looks_like_json(const char *data, size_t len);

/* Both return 0 or 2 (with *err); documents before an error stay in out. */
int yaml_read_stream(const char *name, const char *data, size_t len, docset *out, strbuf *err);
int json_read_stream(const char *name, const char *data, size_t len, docset *out, strbuf *err);

/* json_read.c's lexers for the JSON token source: the string literal (on its
 * quote) or number at data[*pos], decoded as in a tree; *pos moves past it.
 * False / NULL when it is malformed. */
bool json_read_string(const char *data, size_t len, size_t *pos, strbuf *sb);
json_t *json_read_number(const char *data, size_t len, size_t *pos);

#endif
