/* doc.h: the document layer. Reads YAML/JSON files (or buffers, or stdin) into
 * jansson json_t trees the way kubectl does (sigs.k8s.io/yaml resolution,
 * multi-document streams, List expansion), and prints json_t trees as
 * kubectl -o yaml / -o json do.
 *
 * Values as kubectl hands them on (YAML -> JSON -> object):
 *  - plain scalars resolve as go-yaml v2: null/Null/NULL/~/empty; YAML 1.1
 *    bools (yes/on/true/no/off/false in lower, Capital and UPPER case; the
 *    single letters y/Y/n/N are strings, as in YAML 1.2, and written quoted);
 *    ints with 0x/0o/0b/leading-0 octal and '_'; floats; timestamps and
 *    everything else stay strings; quoted and !!str scalars are strings;
 *    !!int/!!float/!!bool/!!null/!!timestamp must agree with the text;
 *    !!binary is base64-decoded; other tags leave the text a string.
 *  - numbers: integral values within int64 are integers (json.Marshal writes
 *    1.0 as 1); ints between 2^63 and 2^64 become the nearest double (jansson
 *    has no uint64); larger literals are doubles; .inf/.nan are an error
 *    ("json: unsupported value: +Inf"), as in sigs.k8s.io/yaml.
 *  - non-string keys become strings as sigs.k8s.io/yaml does: yes -> "true",
 *    0x10 -> "16", 1.5 -> "1.5" (float32 'g'); a null, uint64 or collection
 *    key is an error.
 *  - anchors and aliases copy values (at most DOC_MAX_ALIAS_NODES plus
 *    DOC_ALIAS_RATIO times the nodes written out in the stream, else
 *    "document contains excessive aliasing"); merge keys "<<" take a
 *    mapping or a sequence of mappings; keys the mapping sets itself win,
 *    then earlier merged mappings over later ones.
 *  - duplicate keys keep the first value; each is recorded in dup_fields
 *    (duplicates inside a dropped value are not). In a List, duplicates
 *    outside items[i] are dropped with the List itself.
 *  - JSON: "{" first (after blanks) selects the JSON reader, which accepts
 *    concatenated objects; Go's error wording; invalid UTF-8 and lone
 *    surrogates become U+FFFD as Go does.
 *  Checked against kubectl 1.32 (create --dry-run=client -o json); known
 *  differences: y/Y/n/N (above), duplicates keep the first value (kubectl: the last), -0.0
 *  becomes 0 (kubectl prints -0), libyaml accepts YAML 1.2's "\/" escape,
 *  which go-yaml rejects, and U+0085 in a string is kept (kubectl's -o yaml
 *  re-reads its JSON as YAML 1.1, where U+0085 is a line break, and folds it). */
#ifndef DRA_DOC_H
#define DRA_DOC_H
#include "util/strbuf.h"
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* Limits against hostile input; exceeding one is a clean load error. */
#define DOC_MAX_BYTES ((size_t)64 << 20)   /* per file or buffer */
#define DOC_MAX_DEPTH 1000                 /* nesting of mappings/sequences */
#define DOC_MAX_ALIAS_NODES 1000000        /* nodes YAML aliases may copy per stream... */
#define DOC_ALIAS_RATIO 10                 /* ...plus this many per node in the text */

typedef struct doc {
  json_t *root;       /* one object (owned reference) */
  char *file;         /* source name as given, "-" for stdin */
  int line;           /* 1-based line of the document's (or List item's) first node; 0 if unknown */
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
 * 2 when some file is unreadable or has a syntax error, with one line per
 * such file in *err, e.g.
 * "examples/x.yaml:12:3: mapping values are not allowed in this context".
 * Reading goes on past a bad file: every other file's documents are in out. */
int docs_load_paths(const char *const *paths, size_t n, bool recursive, docset *out, strbuf *err);
/* The same walk over paths, handing each file's whole text to fn (what
 * docs_load_paths does with docs_load_buffer); fn returns 0 or 2 with a
 * message in err, as docs_load_buffer does. */
typedef int doc_buffer_fn(void *ctx, const char *name, const char *data, size_t len, strbuf *err);
int docs_walk_paths(const char *const *paths, size_t n, bool recursive, doc_buffer_fn *fn, void *ctx, strbuf *err);
/* Same for text already in memory; name is used in messages and doc.file.
 * Content whose first non-blank byte is '{' is read as JSON (as kubectl sniffs). */
int docs_load_buffer(const char *name, const char *data, size_t len, docset *out, strbuf *err);
/* The same, read as JSON whatever it starts with (a body sent as
 * application/json); errors are "<name>:<line>:<column>: <Go's words>". */
int docs_load_json(const char *name, const char *data, size_t len, docset *out, strbuf *err);
void docset_free(docset *ds);

/* kubectl -o yaml: keys sorted as go-yaml sorts them (digit runs by value,
 * letters after other characters; non-ASCII letters approximated), 2-space
 * indent, block style, long plain strings folded at 80 columns, strings
 * quoted only when needed to read back as strings, "|" blocks for multi-line
 * strings. Deviation: a "<<" key is quoted so it cannot read back as a merge. */
void doc_write_yaml(strbuf *out, const json_t *v);
/* kubectl -o json: insertion order, 4-space indent, Go's escaping and numbers.
 * Both writers end the text with a newline. */
void doc_write_json(strbuf *out, const json_t *v);
/* Pieces of doc_write_json for writers that print typed values themselves
 * (api/codec_encode_text.c): a string as Go escapes it, and a value nested
 * level deep (its lines indented by 4 * level spaces; no newline after). */
void doc_write_json_string(strbuf *out, const char *s, size_t len);
/* A member's start in an object whose members are level deep (< 0:
 * compact): a comma unless it is the first, its own line, "key": . */
void doc_write_json_key(strbuf *out, bool first, const char *k, size_t klen, int level);
/* The same for a key known to need no escaping (doc_json_plain): a
 * field's name from the API's tables. */
void doc_write_json_plain_key(strbuf *out, bool first, const char *k, size_t klen, int level);
/* Whether Go writes s as it is inside its quotes (no escape). */
bool doc_json_plain(const char *s, size_t len);
void doc_write_json_at(strbuf *out, const json_t *v, int level);
/* A new line indented level deep, written at `at` (room for 1 + 4 * level
 * bytes); returns where it ends. */
static inline char *doc_json_line(char *at, int level) {
  *at++ = '\n';
  for (int i = 0; i < level; i++, at += 4) memcpy(at, "    ", 4);
  return at;
}
/* json.Marshal's compact form of the same (no newline at the end). */
void doc_write_json_compact(strbuf *out, const json_t *v);

#endif
