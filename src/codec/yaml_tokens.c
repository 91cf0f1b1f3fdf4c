/* yaml_tokens.c: libyaml's events as tokens (doc_tokens.h), for decoding
 * straight into typed structs. Scalars resolve as in yaml_read.c (go-yaml v2
 * rules, yaml_resolve.c). What yaml_read.c does beyond plain values gives up
 * here, so the tree path handles it with its own words: anchors and aliases,
 * tags, merge keys, keys that are not strings, infinities, invalid UTF-8,
 * the nesting limit, roots that are not mappings, and every syntax error. */
#include "codec/doc_reader.h"
#include "codec/doc_tokens.h"
#include "codec/yaml_resolve.h"
#include "util/die.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

typedef struct yaml_tokens {
  tk_source src;
  yaml_parser_t parser;
  yaml_event_t ev; /* the last event, alive while its text is a token */
  bool have_ev;
  uint64_t in_mapping[DOC_MAX_DEPTH / 64 + 1]; /* per open collection: a mapping, not a sequence */
  bool expect_key; /* in a mapping, between members */
  int depth;
} yaml_tokens;

static bool pull(yaml_tokens *y) {
  if (y->have_ev) yaml_event_delete(&y->ev);
  y->have_ev = yaml_parser_parse(&y->parser, &y->ev);
  return y->have_ev;
}

static void give_up(tk *t) { t->kind = TK_GIVE_UP; }

/* Where a value ends (a scalar, or a mapping's or sequence's end). */
static void value_done(yaml_tokens *y) { y->expect_key = y->in_mapping[y->depth / 64] >> (y->depth % 64) & 1; }

static bool valid_text(const char *s, size_t n) {
  unsigned char high = 0;
  for (size_t i = 0; i < n; i++) high |= (unsigned char)s[i];
  if (high < 0x80) return true;
  json_t *v = json_stringn(s, n); /* the tree's own check */
  json_decref(v);
  return v != NULL;
}

static void text_token(const char *s, size_t n, tk *t) {
  t->kind = TK_STRING;
  t->s = s;
  t->len = n;
}

void yaml_scalar_token(const char *s, size_t n, bool plain, bool key, tk *t) {
  if (!valid_text(s, n)) return give_up(t);
  yaml_scalar_token_of_text(s, n, plain, key, t);
}

void yaml_scalar_token_of_text(const char *s, size_t n, bool plain, bool key, tk *t) {
  yr_value rv;
  if (key) { /* a plain string (not "<<") or a quoted one, without a NUL */
    if (memchr(s, 0, n) || (plain && (yaml_resolve_plain(s, n, &rv) != YR_STR || (n == 2 && !memcmp(s, "<<", 2)))))
      return give_up(t);
    return text_token(s, n, t);
  }
  if (!plain) return text_token(s, n, t);
  switch (yaml_resolve_plain(s, n, &rv)) {
  case YR_STR:
  case YR_TIMESTAMP: return text_token(s, n, t);
  case YR_NULL: t->kind = TK_NULL; return;
  case YR_BOOL: t->kind = rv.b ? TK_TRUE : TK_FALSE; return;
  case YR_INT: t->kind = TK_INTEGER, t->i = rv.i; return;
  case YR_UINT: t->kind = TK_REAL, t->f = (double)rv.u; return;
  case YR_FLOAT:
    if (!isfinite(rv.f)) return give_up(t);
    return tk_set_number(t, rv.f);
  }
}

static void scalar_token(const yaml_event_t *ev, bool key, tk *t) {
  yaml_scalar_token((const char *)ev->data.scalar.value, ev->data.scalar.length, ev->data.scalar.plain_implicit, key, t);
}

static void open_collection(yaml_tokens *y, tk *t, bool mapping) {
  if (y->depth == DOC_MAX_DEPTH) return give_up(t);
  y->depth++;
  uint64_t bit = (uint64_t)1 << (y->depth % 64);
  if (mapping) y->in_mapping[y->depth / 64] |= bit;
  else y->in_mapping[y->depth / 64] &= ~bit;
  y->expect_key = mapping;
  t->kind = mapping ? TK_OBJECT : TK_ARRAY;
}

static void next(tk_source *src, tk *t) {
  yaml_tokens *y = (yaml_tokens *)src;
  if (y->depth == 0 || !pull(y)) return give_up(t);
  const yaml_event_t *ev = &y->ev;
  bool key = y->expect_key;
  y->expect_key = false;
  switch (ev->type) {
  case YAML_SCALAR_EVENT:
    if (ev->data.scalar.anchor || ev->data.scalar.tag) return give_up(t);
    if (!key) value_done(y);
    return scalar_token(ev, key, t);
  case YAML_MAPPING_START_EVENT:
  case YAML_SEQUENCE_START_EVENT: {
    bool mapping = ev->type == YAML_MAPPING_START_EVENT;
    if (key || (mapping ? ev->data.mapping_start.anchor || ev->data.mapping_start.tag
                        : ev->data.sequence_start.anchor || ev->data.sequence_start.tag))
      return give_up(t);
    return open_collection(y, t, mapping);
  }
  case YAML_MAPPING_END_EVENT:
  case YAML_SEQUENCE_END_EVENT:
    y->depth--;
    value_done(y);
    t->kind = TK_END;
    return;
  default: return give_up(t); /* an alias */
  }
}

/* A root scalar that resolves to null is an empty document, as in the tree. */
static bool null_root(const yaml_event_t *ev) {
  yr_value rv;
  return !ev->data.scalar.anchor && !ev->data.scalar.tag && ev->data.scalar.plain_implicit &&
         yaml_resolve_plain((const char *)ev->data.scalar.value, ev->data.scalar.length, &rv) == YR_NULL;
}

static bool next_doc(tk_source *src, tk *t, int *line) {
  yaml_tokens *y = (yaml_tokens *)src;
  t->kind = TK_END;
  if (y->depth) {
    give_up(t);
    return false;
  }
  while (pull(y)) {
    const yaml_event_t *ev = &y->ev;
    switch (ev->type) {
    case YAML_STREAM_START_EVENT:
    case YAML_DOCUMENT_START_EVENT:
    case YAML_DOCUMENT_END_EVENT: continue;
    case YAML_STREAM_END_EVENT: return false;
    case YAML_SCALAR_EVENT:
      if (null_root(ev)) continue;
      break;
    case YAML_MAPPING_START_EVENT:
      if (ev->data.mapping_start.anchor || ev->data.mapping_start.tag) break;
      *line = (int)ev->start_mark.line + 1;
      open_collection(y, t, true);
      return true;
    default: break;
    }
    break;
  }
  give_up(t);
  return false;
}

static void close_source(tk_source *src) {
  yaml_tokens *y = (yaml_tokens *)src;
  if (y->have_ev) yaml_event_delete(&y->ev);
  yaml_parser_delete(&y->parser);
  free(y);
}

tk_source *yaml_tokens_open(const char *data, size_t len) {
  yaml_tokens *y = xcalloc(1, sizeof *y);
  y->src = (tk_source){next, next_doc, close_source, NULL, NULL, NULL}; /* skipping reads the tokens */
  if (!yaml_parser_initialize(&y->parser)) die_oom();
  yaml_parser_set_input_string(&y->parser, (const unsigned char *)data, len);
  return &y->src;
}
