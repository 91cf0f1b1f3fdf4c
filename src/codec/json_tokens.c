/* json_tokens.c: JSON text as tokens (doc_tokens.h), for decoding straight
 * into typed structs. Plain ASCII strings and small integers are read in
 * place; escapes, other bytes and other numbers go through json_read.c's own
 * lexers, so every token means what json_read_stream would have stored. Any
 * syntax error, a key with a NUL, a top-level array and the nesting limit
 * give up: the tree path then reports them in its words. */
#include "codec/doc_reader.h"
#include "codec/doc_tokens.h"
#include "codec/json_skip.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

typedef enum { AFTER_OPEN, AFTER_KEY, AFTER_VALUE } member_state;

typedef struct json_tokens {
  tk_source src;
  const char *s;
  size_t len, pos;
  uint64_t in_object[DOC_MAX_DEPTH / 64 + 1]; /* per open container: an object, not an array */
  int depth;
  member_state state;
  strbuf scratch; /* decoded text of the last string with escapes or non-ASCII bytes */
  int line;       /* of j->pos: newlines are only ever skipped as blanks */
  /* The containers of the last value span() indexed, in the order they
   * open: each one's span is then found without reading its text again. */
  struct container_span {
    size_t start, end;
  } *spans;
  size_t n_spans, cap_spans, next_span; /* next_span: the first not asked for yet */
  size_t asked_end; /* the end of the span just asked for, until the next token */
} json_tokens;

/* Byte classes: blanks (2 for a newline), and bytes a string holds as they are. */
enum { PLAIN = 1 << 2 };
static const unsigned char byte_class[256] = {
    ['\t'] = 1, ['\r'] = 1, ['\n'] = 2, [' '] = 1 | PLAIN, ['!'] = PLAIN, ['#' ... '['] = PLAIN, [']' ... 0x7f] = PLAIN,
};

static inline void skip_space(json_tokens *j) {
  const unsigned char *u = (const unsigned char *)j->s;
  size_t pos = j->pos;
  unsigned blank;
  while (pos < j->len && (blank = byte_class[u[pos]] & 3)) {
    j->line += blank >> 1;
    pos++;
    while (j->len - pos >= 8 && !memcmp(u + pos, "        ", 8)) pos += 8; /* indentation */
  }
  j->pos = pos;
}

static void give_up(tk *t) { t->kind = TK_GIVE_UP; }

static void read_string(json_tokens *j, tk *t) {
  const unsigned char *u = (const unsigned char *)j->s;
  size_t start = ++j->pos, end = json_plain_run(u, j->len, start, byte_class, PLAIN, false);
  if (end < j->len && u[end] == '"') {
    t->kind = TK_STRING;
    t->s = j->s + start;
    t->len = end - start;
    j->pos = end + 1;
    return;
  }
  j->pos = start - 1;
  sb_truncate(&j->scratch, 0);
  if (!json_read_string(j->s, j->len, &j->pos, &j->scratch)) return give_up(t);
  t->kind = TK_STRING;
  t->s = j->scratch.buf ? j->scratch.buf : "";
  t->len = j->scratch.len;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static void read_number(json_tokens *j, tk *t) {
  size_t p = j->pos;
  bool negative = j->s[p] == '-';
  p += negative;
  size_t first = p;
  int64_t v = 0;
  while (p < j->len && is_digit(j->s[p]) && p - first < 18) v = v * 10 + (j->s[p++] - '0');
  bool plain = p > first && (j->s[first] != '0' || p == first + 1) &&
               (p == j->len || (!is_digit(j->s[p]) && j->s[p] != '.' && j->s[p] != 'e' && j->s[p] != 'E'));
  if (plain) {
    t->kind = TK_INTEGER;
    t->i = negative ? -v : v;
    j->pos = p;
    return;
  }
  json_t *n = json_read_number(j->s, j->len, &j->pos);
  if (!n) return give_up(t);
  if (json_is_integer(n)) t->kind = TK_INTEGER, t->i = json_integer_value(n);
  else t->kind = TK_REAL, t->f = json_real_value(n);
  json_decref(n);
}

static void read_literal(json_tokens *j, tk *t, const char *word, tk_kind kind) {
  size_t n = strlen(word);
  if (j->len - j->pos < n || memcmp(j->s + j->pos, word, n)) return give_up(t);
  j->pos += n;
  t->kind = kind;
}

static void open_container(json_tokens *j, tk *t, char c) {
  if (j->depth == DOC_MAX_DEPTH) return give_up(t);
  j->depth++;
  uint64_t bit = (uint64_t)1 << (j->depth % 64);
  if (c == '{') j->in_object[j->depth / 64] |= bit;
  else j->in_object[j->depth / 64] &= ~bit;
  j->pos++;
  j->state = AFTER_OPEN;
  t->kind = c == '{' ? TK_OBJECT : TK_ARRAY;
}

static void read_value(json_tokens *j, tk *t) {
  skip_space(j);
  if (j->pos >= j->len) return give_up(t);
  j->state = AFTER_VALUE; /* of the enclosing container, unless this opens one */
  char c = j->s[j->pos];
  switch (c) {
  case '{':
  case '[': return open_container(j, t, c);
  case '"': return read_string(j, t);
  case 't': return read_literal(j, t, "true", TK_TRUE);
  case 'f': return read_literal(j, t, "false", TK_FALSE);
  case 'n': return read_literal(j, t, "null", TK_NULL);
  default:
    if (c == '-' || is_digit(c)) return read_number(j, t);
    return give_up(t);
  }
}

static void read_key(json_tokens *j, tk *t) {
  skip_space(j);
  if (j->pos >= j->len || j->s[j->pos] != '"') return give_up(t);
  read_string(j, t);
  /* only a string with escapes (decoded into scratch) can hold a NUL */
  if (t->kind != TK_STRING || (t->s == j->scratch.buf && memchr(t->s, 0, t->len))) return give_up(t);
  skip_space(j);
  if (j->pos >= j->len || j->s[j->pos] != ':') return give_up(t);
  j->pos++;
  j->state = AFTER_KEY;
}

static void close_container(json_tokens *j, tk *t) {
  j->pos++;
  j->depth--;
  j->state = AFTER_VALUE;
  t->kind = TK_END;
}

static void next(tk_source *src, tk *t) {
  json_tokens *j = (json_tokens *)src;
  j->asked_end = 0;
  if (j->depth == 0) return give_up(t);
  bool object = j->in_object[j->depth / 64] >> (j->depth % 64) & 1;
  char close = object ? '}' : ']';
  if (j->state == AFTER_KEY) return read_value(j, t);
  skip_space(j);
  if (j->pos >= j->len) return give_up(t);
  char c = j->s[j->pos];
  if (c == close) return close_container(j, t);
  if (j->state == AFTER_VALUE) {
    if (c != ',') return give_up(t);
    j->pos++;
  }
  if (object) read_key(j, t);
  else read_value(j, t);
}

/* A container passed over by json_skip's grammar check alone: its strings'
 * contents are not decoded, as nothing reads them. */
static void skip(tk_source *src, tk *t) {
  json_tokens *j = (json_tokens *)src;
  if (t->kind != TK_OBJECT && t->kind != TK_ARRAY) return; /* a scalar is read whole */
  size_t end = j->asked_end ? j->asked_end : json_skip_value(j->s, j->len, j->pos - 1);
  if (!end) return give_up(t);
  for (const char *nl = j->s + j->pos; (nl = memchr(nl, '\n', (size_t)(j->s + end - nl))); nl++) j->line++;
  j->pos = end;
  j->depth--;
  j->state = AFTER_VALUE;
  t->kind = TK_END;
}

/* Records where each container of the value opening at start ends, by
 * its brackets outside strings alone; false when the text ends first. The
 * grammar is not checked: span's reader reads the text itself, or takes a
 * value whose JSON is exactly that text (tree_memo.h). */
static bool index_spans(json_tokens *j, size_t start) {
  const unsigned char *u = (const unsigned char *)j->s;
  size_t open[64], depth = 0, deeper = 0; /* open: indexes in spans of the innermost containers */
  j->n_spans = j->next_span = 0;
  for (size_t p = start; p < j->len; p++) {
    unsigned char c = u[p];
    if (c == '"') { /* to the closing quote, over what a backslash escapes */
      for (p++; p < j->len; p++) {
        p = json_plain_run(u, j->len, p, byte_class, PLAIN, false);
        if (p >= j->len || u[p] == '"') break;
        if (u[p] == '\\') p++;
      }
      continue;
    }
    if (c == '{' || c == '[') {
      if (depth == sizeof open / sizeof *open) {
        deeper++;
        continue;
      }
      if (j->n_spans == j->cap_spans) {
        j->cap_spans = j->cap_spans ? j->cap_spans * 2 : 64;
        j->spans = xrealloc(j->spans, j->cap_spans * sizeof *j->spans);
      }
      open[depth++] = j->n_spans;
      j->spans[j->n_spans++] = (struct container_span){p, 0};
    } else if (c == '}' || c == ']') {
      if (deeper) {
        deeper--;
        continue;
      }
      j->spans[open[--depth]].end = p + 1;
      if (!depth) return true;
    }
  }
  return false;
}

/* The container just opened (its bracket at j->pos - 1): from the index of
 * the value it is in, or after indexing it (a container nested deeper than
 * an index holds is indexed on its own). */
static bool span(tk_source *src, const char **text, size_t *len, int *room) {
  json_tokens *j = (json_tokens *)src;
  size_t start = j->pos - 1;
  while (j->next_span < j->n_spans && j->spans[j->next_span].start < start) j->next_span++;
  if (j->next_span == j->n_spans || j->spans[j->next_span].start != start) {
    if (!index_spans(j, start)) return false;
  }
  struct container_span *c = &j->spans[j->next_span++];
  if (!c->end) return false;
  *text = j->s + start;
  *len = c->end - start;
  j->asked_end = c->end;
  *room = DOC_MAX_DEPTH - j->depth + 1;
  return true;
}

static bool next_doc(tk_source *src, tk *t, int *line) {
  json_tokens *j = (json_tokens *)src;
  t->kind = TK_END;
  if (j->depth) {
    give_up(t);
    return false;
  }
  skip_space(j);
  if (j->pos >= j->len) return false;
  if (j->s[j->pos] != '{') {
    give_up(t);
    return false;
  }
  *line = j->line;
  open_container(j, t, '{');
  return t->kind == TK_OBJECT;
}

static void close_source(tk_source *src) {
  json_tokens *j = (json_tokens *)src;
  sb_free(&j->scratch);
  free(j->spans);
  free(j);
}

tk_source *json_tokens_open(const char *data, size_t len) {
  json_tokens *j = xcalloc(1, sizeof *j);
  j->src = (tk_source){next, next_doc, close_source, skip, span, NULL};
  j->s = data;
  j->len = len;
  j->line = 1;
  if (len >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3)) j->pos = 3;
  return &j->src;
}
