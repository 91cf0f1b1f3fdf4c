/* doc_tokens.h: a document's text as a stream of tokens, for decoders that
 * build typed values straight from the text with no tree in between
 * (api/codec_direct.c). Each token means what the tree readers (doc.h) would
 * have put in the tree: strings decoded, YAML plain scalars resolved, numbers
 * as jansson would hold them.
 *
 * A source covers the common case only. On anything else (a syntax error, a
 * YAML anchor, alias, tag, merge key or non-string key, a limit reached) it
 * gives up, and the caller reads the whole buffer again through the tree
 * path, so every exotic case keeps exactly the tree path's result. */
#ifndef DRA_DOC_TOKENS_H
#define DRA_DOC_TOKENS_H
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
  TK_GIVE_UP, /* not covered here: use the tree path */
  TK_OBJECT,  /* start of a mapping; keys are TK_STRING tokens */
  TK_ARRAY,   /* start of a sequence */
  TK_END,     /* end of the innermost mapping or sequence */
  TK_STRING,
  TK_INTEGER, /* .i: jansson would hold a json_integer */
  TK_REAL,    /* .f: jansson would hold a json_real */
  TK_TRUE,
  TK_FALSE,
  TK_NULL,
} tk_kind;

typedef struct tk {
  tk_kind kind;
  const char *s; /* TK_STRING: the decoded text, valid until the next token */
  size_t len;
  int64_t i;
  double f;
} tk;

typedef struct tk_source tk_source;
struct tk_source {
  /* The next token of the current document. */
  void (*next)(tk_source *src, tk *t);
  /* Moves to the next document: true with its root's first token in *t (a
   * TK_OBJECT) and its line in *line; false at the end of the stream, or
   * with t->kind == TK_GIVE_UP. */
  bool (*next_doc)(tk_source *src, tk *t, int *line);
  void (*close)(tk_source *src);
  /* Optional: passes over the rest of the value whose first token *t is
   * (read already), leaving in *t its last token, or TK_GIVE_UP. A source
   * without it is read token by token (tk_skip_value). */
  void (*skip)(tk_source *src, tk *t);
  /* Optional: the text of the mapping or sequence whose first token was
   * just read, from its bracket to its closing one, and how many levels may
   * nest in it (itself included) before the source gives up; false when no
   * container closes there. Does not move, nor check the grammar: a skip
   * right after it (no token read in between) jumps to the end it gave. */
  bool (*span)(tk_source *src, const char **text, size_t *len, int *room);
  /* Set by the reader that opened it, or NULL: where trees read from this
   * source's text are looked up and kept (api/tree_memo.h). */
  struct tree_memo *memo;
};

/* A number as the tree readers store it: integral values within int64 are
 * integers, others reals (doc_number). */
void tk_set_number(tk *t, double f);
/* Passes over the value whose first token *t is, as src->skip or token by
 * token; false when the source gives up. */
bool tk_skip_value(tk_source *src, tk *t);
/* The token's scalar as a new json_t (TK_STRING, TK_INTEGER ... TK_NULL). */
json_t *tk_scalar_json(const tk *t);

/* The tokens of a buffer as docs_load_buffer reads it: JSON when its first
 * non-blank byte is '{', else YAML. data must outlive the source. NULL when
 * only the tree path can read it (too large); close with src->close(src).
 * YAML is read first without libyaml (yaml_fast.c); when that gives up, the
 * caller asks again with careful set, for libyaml's events (NULL for JSON,
 * which has one source only). */
tk_source *doc_tokens_open(const char *data, size_t len, bool careful);
/* The sources doc_tokens_open chooses from. */
tk_source *json_tokens_open(const char *data, size_t len);
tk_source *yaml_tokens_open(const char *data, size_t len);
tk_source *yaml_fast_open(const char *data, size_t len);

/* A YAML scalar's token as yaml_tokens.c gives it: plain ones resolved by
 * go-yaml v2's rules, quoted ones strings; a key must be a string (not the
 * merge key "<<") without a NUL. TK_GIVE_UP for what only the tree reads
 * (invalid UTF-8, infinities, other keys). */
void yaml_scalar_token(const char *s, size_t n, bool plain, bool key, tk *t);
/* The same for text known to be well-formed UTF-8 (yaml_fast.c checks
 * every byte as it reads). */
void yaml_scalar_token_of_text(const char *s, size_t n, bool plain, bool key, tk *t);

#endif
