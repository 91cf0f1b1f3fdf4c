/* json_read.c: JSON text -> json_t documents, with what jansson's loader
 * lacks: duplicate keys kept-first and recorded as field paths, line numbers
 * of List items, Go's number rules (integers stay int64, else float64) and
 * Go's encoding/json error wording with file:line:column. Several
 * concatenated values form a stream, as with Go's json.Decoder. */
#include "codec/doc_reader.h"
#include "util/utf8.h"
#include "util/fielderr.h"
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct jreader {
  const unsigned char *s;
  size_t len, pos;
  const char *name;
  strbuf *err;
  fpath path;
  int depth;
  raw_doc doc;
  size_t mark_pos; /* position cache for line/column */
  int mark_line, mark_col;
} jreader;

static void position(jreader *j, size_t pos, int *line, int *col) {
  if (pos < j->mark_pos) j->mark_pos = 0, j->mark_line = 1, j->mark_col = 1;
  for (; j->mark_pos < pos && j->mark_pos < j->len; j->mark_pos++) {
    unsigned char c = j->s[j->mark_pos];
    if (c == '\n') j->mark_line++, j->mark_col = 1;
    else if ((c & 0xC0) != 0x80) j->mark_col++;
  }
  *line = j->mark_line;
  *col = j->mark_col;
}

static bool fail(jreader *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(jreader *j, const char *fmt, ...) {
  strbuf msg = STRBUF_INIT;
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(&msg, fmt, ap);
  va_end(ap);
  int line, col;
  position(j, j->pos, &line, &col);
  doc_error(j->err, j->name, line, col, "%s", sb_str(&msg));
  sb_free(&msg);
  return false;
}

/* Go's quoteChar: the offending byte as '\n', 'x', '\'' ... */
static bool fail_char(jreader *j, const char *context) {
  if (j->pos >= j->len) return fail(j, "unexpected end of JSON input");
  unsigned char c = j->s[j->pos];
  char q[16];
  if (c == '\'') strcpy(q, "\\'");
  else if (c == '\n') strcpy(q, "\\n");
  else if (c == '\t') strcpy(q, "\\t");
  else if (c == '\r') strcpy(q, "\\r");
  else if (c < 0x20 || c >= 0x7F) snprintf(q, sizeof q, "\\x%02x", c);
  else q[0] = (char)c, q[1] = 0;
  return fail(j, "invalid character '%s' %s", q, context);
}

static void skip_space(jreader *j) {
  while (j->pos < j->len) {
    unsigned char c = j->s[j->pos];
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
    j->pos++;
  }
}

static int peek(jreader *j) { return j->pos < j->len ? j->s[j->pos] : -1; }

static bool parse_value(jreader *j, json_t **out, bool root_items);

static int hex_digit(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  c |= 0x20;
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The four hex digits after "\\u" at j->pos (which is on the 'u'); -1 after reporting. */
static int read_hex4(jreader *j) {
  j->pos++;
  int v = 0;
  for (int i = 0; i < 4; i++, j->pos++) {
    int d = hex_digit(peek(j));
    if (d < 0) {
      fail_char(j, "in \\u hexadecimal character escape");
      return -1;
    }
    v = v * 16 + d;
  }
  return v;
}

/* \uXXXX (and a following low surrogate); invalid surrogates become U+FFFD as in Go. */
static bool parse_unicode_escape(jreader *j, strbuf *sb) {
  int cp = read_hex4(j);
  if (cp < 0) return false;
  if (cp >= 0xD800 && cp < 0xDC00 && j->len - j->pos >= 6 && j->s[j->pos] == '\\' && j->s[j->pos + 1] == 'u') {
    size_t back = j->pos;
    j->pos++;
    int lo = read_hex4(j);
    if (lo < 0) return false;
    if (lo >= 0xDC00 && lo < 0xE000) cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
    else j->pos = back; /* not a pair: the second escape stands alone */
  }
  utf8_encode(sb, cp >= 0xD800 && cp < 0xE000 ? 0xFFFD : (unsigned)cp);
  return true;
}

static bool parse_string(jreader *j, strbuf *sb) {
  j->pos++; /* opening quote */
  for (;;) {
    if (j->pos >= j->len) return fail(j, "unexpected end of JSON input");
    unsigned char c = j->s[j->pos];
    if (c == '"') {
      j->pos++;
      return true;
    }
    if (c < 0x20) return fail_char(j, "in string literal");
    if (c == '\\') {
      j->pos++;
      int e = peek(j);
      const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
      const char *hit = e > 0 ? strchr(from, e) : NULL;
      if (hit) {
        sb_putc(sb, to[hit - from]);
        j->pos++;
      } else if (e == 'u') {
        if (!parse_unicode_escape(j, sb)) return false;
      } else {
        return fail_char(j, "in string escape code");
      }
      continue;
    }
    if (c < 0x80) { /* a run of plain ASCII in one go */
      size_t end = j->pos;
      while (end < j->len && j->s[end] >= 0x20 && j->s[end] < 0x80 && j->s[end] != '"' && j->s[end] != '\\') end++;
      sb_add(sb, (const char *)j->s + j->pos, end - j->pos);
      j->pos = end;
      continue;
    }
    unsigned cp;
    size_t n = utf8_decode(j->s + j->pos, j->len - j->pos, &cp);
    if (n) sb_add(sb, (const char *)j->s + j->pos, n);
    else utf8_encode(sb, 0xFFFD); /* Go replaces each invalid byte */
    j->pos += n ? n : 1;
  }
}

static bool digits(jreader *j) {
  size_t start = j->pos;
  while (j->pos < j->len && j->s[j->pos] >= '0' && j->s[j->pos] <= '9') j->pos++;
  return j->pos > start;
}

static bool parse_number(jreader *j, json_t **out) {
  size_t start = j->pos;
  bool integer = true;
  if (peek(j) == '-') j->pos++;
  if (peek(j) == '0') j->pos++;
  else if (!digits(j)) return fail_char(j, "in numeric literal");
  if (peek(j) == '.') {
    j->pos++;
    integer = false;
    if (!digits(j)) return fail_char(j, "after decimal point in numeric literal");
  }
  if (peek(j) == 'e' || peek(j) == 'E') {
    j->pos++;
    integer = false;
    if (peek(j) == '+' || peek(j) == '-') j->pos++;
    if (!digits(j)) return fail_char(j, "in exponent of numeric literal");
  }
  char buf[64];
  size_t n = j->pos - start;
  char *text = n < sizeof buf ? buf : malloc(n + 1);
  if (!text) return fail(j, "out of memory");
  memcpy(text, j->s + start, n);
  text[n] = 0;
  errno = 0;
  long long i = integer ? strtoll(text, NULL, 10) : 0;
  if (integer && errno == 0) {
    *out = json_integer(i);
  } else {
    errno = 0;
    double f = strtod(text, NULL);
    *out = errno == ERANGE && (f > 1 || f < -1) ? NULL : doc_number(f);
  }
  bool ok = *out || fail(j, "json: cannot unmarshal number %.40s into Go value of type float64", text);
  if (text != buf) free(text);
  return ok;
}

static bool parse_literal(jreader *j, const char *word, json_t *value, json_t **out) {
  for (size_t i = 0; word[i]; i++, j->pos++) {
    if (peek(j) != word[i]) {
      char context[48];
      snprintf(context, sizeof context, "in literal %s (expecting '%c')", word, word[i]);
      return fail_char(j, context);
    }
  }
  *out = value;
  return true;
}

static bool enter(jreader *j) {
  if (++j->depth <= DOC_MAX_DEPTH) return true;
  return fail(j, "document nesting exceeds %d levels", DOC_MAX_DEPTH);
}

typedef enum { MEMBERS_FOLLOW, CLOSED, BROKEN } container_state;

/* At '[' or '{': *out becomes the container; is it empty? */
static container_state open_container(jreader *j, json_t **out, json_t *container, char close) {
  if (!enter(j)) {
    json_decref(container);
    return BROKEN;
  }
  j->pos++;
  *out = container;
  skip_space(j);
  if (peek(j) != close) return MEMBERS_FOLLOW;
  j->pos++;
  j->depth--;
  return CLOSED;
}

/* After a member: a ',' or the closing bracket. */
static container_state next_member(jreader *j, char close, const char *context) {
  skip_space(j);
  int c = peek(j);
  if (c != ',' && c != close) {
    fail_char(j, context);
    return BROKEN;
  }
  j->pos++;
  if (c == ',') return MEMBERS_FOLLOW;
  j->depth--;
  return CLOSED;
}

static bool parse_array(jreader *j, json_t **out, bool root_items) {
  container_state state = open_container(j, out, json_array(), ']');
  for (size_t i = 0; state == MEMBERS_FOLLOW; i++) {
    skip_space(j);
    if (root_items) {
      int line, col;
      position(j, j->pos, &line, &col);
      raw_doc_add_item_line(&j->doc, line);
    }
    size_t mark = fp_index(&j->path, i);
    json_t *item = NULL;
    bool ok = parse_value(j, &item, false);
    fp_pop(&j->path, mark);
    if (!ok) {
      json_decref(item);
      return false;
    }
    json_array_append_new(*out, item);
    state = next_member(j, ']', "after array element");
  }
  return state == CLOSED;
}

static bool parse_member(jreader *j, json_t *obj, strbuf *key) {
  skip_space(j);
  if (peek(j) != '"') return fail_char(j, "looking for beginning of object key string");
  sb_truncate(key, 0);
  if (!parse_string(j, key)) return false;
  if (memchr(sb_str(key), 0, key->len)) return fail(j, "invalid object key: a key must not contain a NUL character");
  skip_space(j);
  if (peek(j) != ':') return fail_char(j, "after object key");
  j->pos++;
  skip_space(j);
  const char *k = sb_str(key);
  bool root_items = j->depth == 1 && !strcmp(k, "items") && peek(j) == '[';
  size_t mark = fp_field(&j->path, k);
  json_t *v = NULL;
  size_t dups_before = j->doc.n_dups;
  bool ok = parse_value(j, &v, root_items);
  if (ok && json_object_getn(obj, k, key->len)) {
    raw_doc_drop_dups(&j->doc, dups_before); /* inside the value that is dropped */
    raw_doc_add_dup(&j->doc, fp_str(&j->path));
    json_decref(v);
  } else if (ok) {
    json_object_setn_new_nocheck(obj, k, key->len, v);
  } else {
    json_decref(v);
  }
  fp_pop(&j->path, mark);
  return ok;
}

static bool parse_object(jreader *j, json_t **out) {
  container_state state = open_container(j, out, json_object(), '}');
  strbuf key = STRBUF_INIT;
  while (state == MEMBERS_FOLLOW)
    state = parse_member(j, *out, &key) ? next_member(j, '}', "after object key:value pair") : BROKEN;
  sb_free(&key);
  return state == CLOSED;
}

static bool parse_value(jreader *j, json_t **out, bool root_items) {
  skip_space(j);
  switch (peek(j)) {
  case '{': return parse_object(j, out);
  case '[': return parse_array(j, out, root_items);
  case '"': {
    strbuf sb = STRBUF_INIT;
    bool ok = parse_string(j, &sb);
    if (ok) *out = json_stringn_nocheck(sb.buf ? sb.buf : "", sb.len);
    sb_free(&sb);
    return ok;
  }
  case 't': return parse_literal(j, "true", json_true(), out);
  case 'f': return parse_literal(j, "false", json_false(), out);
  case 'n': return parse_literal(j, "null", json_null(), out);
  default:
    if (peek(j) == '-' || (peek(j) >= '0' && peek(j) <= '9')) return parse_number(j, out);
    return fail_char(j, "looking for beginning of value");
  }
}

int json_read_stream(const char *name, const char *data, size_t len, docset *out, strbuf *err) {
  jreader j = {.s = (const unsigned char *)data, .len = len, .name = name, .err = err, .mark_line = 1, .mark_col = 1};
  if (len >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3)) j.pos = 3;
  int rc = 0;
  for (;;) {
    skip_space(&j);
    if (j.pos >= j.len) break;
    position(&j, j.pos, &j.doc.line, &j.doc.col);
    if (!parse_value(&j, &j.doc.root, false)) {
      rc = 2;
      break;
    }
    skip_space(&j);
    if (j.pos < j.len && j.s[j.pos] != '{' && j.s[j.pos] != '[') {
      fail_char(&j, "after top-level value");
      rc = 2;
      break;
    }
    if ((rc = doc_accept(out, name, &j.doc, err))) break;
  }
  raw_doc_clear(&j.doc);
  fp_free(&j.path);
  return rc;
}

/* The lexers above for a token source (json_tokens.c): one literal at
 * data[*pos], read exactly as in a tree; an error only says false. */
static bool lex_alone(const char *data, size_t len, size_t *pos, bool (*lex)(jreader *, void *), void *out) {
  strbuf discarded = STRBUF_INIT;
  jreader j = {.s = (const unsigned char *)data, .len = len, .pos = *pos, .name = "", .err = &discarded,
               .mark_line = 1, .mark_col = 1};
  bool ok = lex(&j, out);
  *pos = j.pos;
  sb_free(&discarded);
  return ok;
}

static bool lex_string(jreader *j, void *sb) { return parse_string(j, sb); }
static bool lex_number(jreader *j, void *out) { return parse_number(j, out); }

bool json_read_string(const char *data, size_t len, size_t *pos, strbuf *sb) {
  return lex_alone(data, len, pos, lex_string, sb);
}

json_t *json_read_number(const char *data, size_t len, size_t *pos) {
  json_t *v = NULL;
  return lex_alone(data, len, pos, lex_number, &v) ? v : NULL;
}
