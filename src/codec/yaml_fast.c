/* yaml_fast.c: the YAML that kubectl, Helm and manifest generators write,
 * read as tokens (doc_tokens.h) without libyaml, for speed: libyaml's
 * scanner alone costs over 200 instructions a byte.
 *
 * Covered, in the UTF-8 text libyaml takes (but a BOM, NEL, LS and PS):
 * block mappings and sequences (a sequence as a mapping's value may sit at
 * the key's indentation; "- key: value" opens a mapping in the item, and
 * "- - x" a sequence), flow mappings and sequences (over lines too, but no
 * scalar in them may go on over lines), plain and single-quoted scalars (a
 * value's may go on over more lines, folded), double-quoted scalars on one
 * line with the escapes \\ \" \/ \n \t \r, literal block scalars ("|",
 * "|-"), comments, and "---" between documents, lines ending in "\n" or
 * "\r\n". Each document's root is a block mapping at column 0.
 *
 * Everything else gives up, and the caller reads the buffer again through
 * libyaml (yaml_tokens.c), so every result outside this subset, errors
 * included, stays libyaml's: tabs, a lone CR, other encodings, folded block
 * scalars (">"), double-quoted scalars over several lines, anchors,
 * aliases, tags, "?" keys, directives, "...", indentation that is not a
 * plain step in or back, and whatever would be a syntax error. Inside the
 * subset the tokens are the ones yaml_tokens.c makes from libyaml's events
 * (fuzz/fuzz_yaml_fast.c checks it). A document is read whole into a token
 * list by next_doc, before its first token is handed out. A one-line flow
 * collection whose text was read before is not read again: its tokens are
 * copied (yaml_flow_memo.h). */
#include "codec/doc.h"
#include "codec/doc_tokens.h"
#include "codec/yaml_flow_memo.h"
#include "codec/yaml_resolve.h"
#include "util/die.h"
#include "util/strbuf.h"
#include "util/utf8.h"
#include <stdlib.h>
#include <string.h>

typedef enum { AT_LINE, AT_MARKER, AT_END } cursor_kind;

typedef struct yaml_fast {
  tk_source src;
  const unsigned char *s;
  size_t len;
  /* The cursor: the next line holding content, found by find_content.
   * pos is its start, end where its text ends (line_end), ind its leading
   * spaces. */
  cursor_kind at;
  size_t pos, end;
  int ind;
  int line;        /* 0-based line number of pos */
  int flow_parent; /* the indentation of the block collection a flow one is in */
  /* The current document's tokens. A string with s == NULL lies in scratch
   * from offset i (it had escapes or went on over lines), until the whole
   * document is read and next_doc points it there. */
  tk *toks;
  size_t n, cap, next;
  strbuf scratch;
  int depth;
  yaml_flow_memo *memo; /* repeated one-line flow collections */
} yaml_fast;

/* Byte classes. ORDINARY: a byte a plain scalar holds with no second look
 * (printable ASCII but ' ', ':', '#' and the flow indicators); in a flow
 * collection, FLOW_ORDINARY ('?' too is looked at). */
enum { ORDINARY = 1, PRINTABLE = 2, FLOW_STOP = 4, FLOW_ORDINARY = 8 };
#define PLAIN (ORDINARY | PRINTABLE | FLOW_ORDINARY)
static const unsigned char byte_class[256] = {
    [' '] = PRINTABLE,
    ['!' ... '"'] = PLAIN,
    ['#'] = PRINTABLE,
    ['$' ... '+'] = PLAIN,
    ['-' ... '9'] = PLAIN,
    [':'] = PRINTABLE,
    [';' ... '>'] = PLAIN,
    ['?'] = ORDINARY | PRINTABLE,
    ['@' ... 'Z'] = PLAIN,
    ['\\'] = PLAIN,
    ['^' ... 'z'] = PLAIN,
    ['|'] = PLAIN,
    ['~'] = PLAIN,
    [','] = PRINTABLE | FLOW_STOP,
    ['['] = PRINTABLE | FLOW_STOP,
    [']'] = PRINTABLE | FLOW_STOP,
    ['{'] = PRINTABLE | FLOW_STOP,
    ['}'] = PRINTABLE | FLOW_STOP,
};

/* Where the run of bytes of class cls (ORDINARY or FLOW_ORDINARY) from q
 * ends, at the line's end at the latest. Before the text's end, the byte
 * at the line's end is its break, in no class, so no bound is checked. */
static inline size_t plain_run(const yaml_fast *y, size_t q, unsigned char cls) {
  const unsigned char *s = y->s;
  if (y->end < y->len) {
    while (byte_class[s[q]] & cls) q++;
    return q;
  }
  while (q < y->end && (byte_class[s[q]] & cls)) q++;
  return q;
}

/* ---- lines -------------------------------------------------------------- */

/* One UTF-8 character of a comment or a scalar at p, as libyaml reads it:
 * well formed, printable, and not one of the characters it also takes as a
 * line break (NEL, LS, PS) or a byte order mark; its length, or 0. */
static size_t text_char(const unsigned char *p, const unsigned char *end) {
  unsigned v = 0;
  size_t n = utf8_decode(p, (size_t)(end - p), &v);
  if (n == 1) return v >= 0x20 && v != 0x7F ? 1 : 0;
  bool printable = (v >= 0xA0 && v <= 0xD7FF) || (v >= 0xE000 && v <= 0xFFFD) || v >= 0x10000;
  return n && printable && v != 0x2028 && v != 0x2029 && v != 0xFEFF ? n : 0;
}

/* A comment from its '#' at p to the end of the line. */
static bool comment_ok(const yaml_fast *y, size_t p) {
  const unsigned char *q = y->s + p, *end = y->s + y->end;
  while (q < end) {
    if (byte_class[*q] & PRINTABLE) {
      q++;
      continue;
    }
    size_t n = text_char(q, end);
    if (!n) return false;
    q += n;
  }
  return true;
}

static size_t skip_spaces(const yaml_fast *y, size_t p) {
  while (p < y->end && y->s[p] == ' ') p++;
  return p;
}

/* What may follow a value on its line: blanks, then a comment after one. */
static bool rest_ok(const yaml_fast *y, size_t p) {
  size_t q = skip_spaces(y, p);
  if (q == y->end) return true;
  return y->s[q] == '#' && q > p && comment_ok(y, q);
}

/* Where the text of the line from p ends: its "\n", or the "\r" of its
 * "\r\n" (one line break to libyaml, as to the reader), or the end. A lone
 * "\r" stays in the line's text, where nothing takes it. */
static size_t line_end(const yaml_fast *y, size_t p) {
  const unsigned char *nl = memchr(y->s + p, '\n', y->len - p);
  if (!nl) return y->len;
  size_t end = (size_t)(nl - y->s);
  return end > p && y->s[end - 1] == '\r' ? end - 1 : end;
}

/* Where the line after the one ending at end starts. */
static size_t next_start(const yaml_fast *y, size_t end) { return end + 1 + (end < y->len && y->s[end] == '\r'); }

/* Moves the cursor from pos to the next line with content, past blank and
 * comment lines; false when something there is not covered. */
static bool find_content(yaml_fast *y) {
  for (;;) {
    if (y->pos >= y->len) {
      y->at = AT_END;
      return true;
    }
    y->end = line_end(y, y->pos);
    size_t q = skip_spaces(y, y->pos);
    const unsigned char *s = y->s + y->pos;
    size_t n = y->end - y->pos;
    if (q < y->end && y->s[q] == '#') {
      if (!comment_ok(y, q)) return false;
    } else if (q < y->end) {
      y->ind = (int)(q - y->pos);
      y->at = AT_LINE;
      if (y->ind || n < 3 || (n > 3 && s[3] != ' ')) return true;
      if (!memcmp(s, "---", 3)) {
        y->at = AT_MARKER;
        return rest_ok(y, y->pos + 3);
      }
      return memcmp(s, "...", 3) != 0;
    }
    y->pos = next_start(y, y->end);
    y->line++;
  }
}

/* Moves the cursor past its line, to the next one with content. */
static bool next_line(yaml_fast *y) {
  y->pos = next_start(y, y->end);
  y->line++;
  return find_content(y);
}

/* ---- tokens ------------------------------------------------------------- */

static tk *add_token(yaml_fast *y, tk_kind kind) {
  if (y->n == y->cap) y->toks = xgrow(y->toks, y->n, &y->cap, sizeof *y->toks, 256);
  tk *t = &y->toks[y->n++];
  t->kind = kind;
  return t;
}

/* Appends n tokens read before (yaml_flow_memo.h). */
static void add_tokens(yaml_fast *y, const tk *toks, size_t n) {
  while (y->cap - y->n < n) y->toks = xgrow(y->toks, y->cap, &y->cap, sizeof *y->toks, 256); /* full: grows */
  memcpy(y->toks + y->n, toks, n * sizeof *toks);
  y->n += n;
}

static bool open_collection(yaml_fast *y, tk_kind kind) {
  if (y->depth == DOC_MAX_DEPTH) return false;
  y->depth++;
  add_token(y, kind);
  return true;
}

static void close_collection(yaml_fast *y) {
  y->depth--;
  add_token(y, TK_END);
}

/* A scalar's token; s NULL for text in scratch from offset at. Text here
 * is well-formed UTF-8 without a control byte or NUL, so a quoted scalar
 * and a plain one that is text by its first byte (not "<<" for a key) need
 * no closer look. */
static bool add_scalar(yaml_fast *y, const unsigned char *s, size_t n, size_t at, bool plain, bool key) {
  tk t;
  if (s && (!plain || (yaml_plain_is_text((const char *)s, n) && (!key || s[0] != '<')))) {
    tk *added = add_token(y, TK_STRING);
    added->s = (const char *)s;
    added->len = n;
    return true;
  }
  yaml_scalar_token_of_text(s ? (const char *)s : y->scratch.buf + at, n, plain, key, &t);
  if (t.kind == TK_GIVE_UP) return false;
  if (t.kind == TK_STRING && !s) t.s = NULL, t.i = (int64_t)at;
  *add_token(y, t.kind) = t;
  return true;
}

/* ---- scalars ------------------------------------------------------------ */

/* Whether c may open a plain scalar (next: the byte after it, or 0 at the
 * end of the line). In flow, "-" must lead a word and "?", ":" may not. */
static bool plain_start(unsigned char c, unsigned char next, bool flow) {
  /* per byte: 1 opens one, 2 depends on the next byte, 0 does not (an
   * indicator); bytes from 0x80 are text, if well formed (the scan checks) */
  static const unsigned char opens[256] = {
      ['$'] = 1, ['('] = 1, [')'] = 1, ['+'] = 1, ['.' ... '9'] = 1, [';' ... '='] = 1, ['A' ... 'Z'] = 1,
      ['\\'] = 1, ['^' ... '_'] = 1, ['a' ... 'z'] = 1, ['~'] = 1, [0x80 ... 0xFF] = 1, ['-'] = 2, ['?'] = 2,
  };
  if (opens[c] != 2) return opens[c];
  if (c == '-') return flow ? (next >= '0' && next <= '9') || (next >= 'A' && next <= 'z') || next == '.' : next && next != ' ';
  return !flow && next && next != ' '; /* '?' */
}

/* A plain scalar in block context from p: to the end of the line, a " #",
 * or a ':' before a blank or the end (*colon set). *to: past its last
 * non-blank byte; *after: where it stopped. */
static bool plain_block(const yaml_fast *y, size_t p, size_t *to, size_t *after, bool *colon) {
  const unsigned char *s = y->s;
  size_t q = p, last = p;
  *colon = false;
  for (;;) {
    size_t run = q;
    q = plain_run(y, q, ORDINARY);
    if (q > run) last = q;
    if (q == y->end) break;
    unsigned char c = s[q];
    if (c == ':') {
      if (q + 1 == y->end || s[q + 1] == ' ') {
        *colon = true;
        break;
      }
      last = ++q;
    } else if (c == ' ') {
      if (q + 1 < y->end && s[q + 1] == '#') break;
      q++;
    } else if (c == '#' || (byte_class[c] & FLOW_STOP)) {
      last = ++q;
    } else {
      size_t n = c >= 0x80 ? text_char(s + q, s + y->end) : 0;
      if (!n) return false; /* a control byte, a tab, bad UTF-8 */
      last = q += n;
    }
  }
  *to = last;
  *after = q;
  return true;
}

/* Whether a plain scalar in a flow collection that ends a line ends there:
 * the next line that is not blank opens with ',', ']', '}' or a comment
 * (else libyaml would fold that line's text into it). */
static bool flow_ends_below(const yaml_fast *y) {
  for (size_t pos = next_start(y, y->end); pos < y->len;) {
    size_t end = line_end(y, pos), q = pos;
    while (q < end && y->s[q] == ' ') q++;
    if (q < end) return y->s[q] == ',' || y->s[q] == ']' || y->s[q] == '}' || y->s[q] == '#';
    pos = next_start(y, end);
  }
  return false;
}

/* A plain scalar in a flow collection from p, up to ',', ']', '}', ": " or
 * the end of its line (when flow_ends_below);
 * anything that might mean more ('#', '?', an opening bracket, a ':' before
 * anything but a plain byte) gives up. */
static bool plain_flow(const yaml_fast *y, size_t p, size_t *to, size_t *after) {
  const unsigned char *s = y->s;
  size_t q = p, last = p;
  for (;;) {
    size_t run = q;
    q = plain_run(y, q, FLOW_ORDINARY);
    if (q > run) last = q;
    if (q == y->end) {
      if (!flow_ends_below(y)) return false;
      break;
    }
    unsigned char c = s[q];
    if (c == ',' || c == '}' || c == ']') break;
    if (c == ' ') {
      q++;
      continue;
    }
    if (c == ':' && (q + 1 == y->end || s[q + 1] == ' ')) break;
    if (c >= 0x80) {
      size_t n = text_char(s + q, s + y->end);
      if (!n) return false;
      last = q += n;
      continue;
    }
    if (c != ':' || q + 1 == y->end || !(byte_class[s[q + 1]] & FLOW_ORDINARY)) return false;
    last = q += 2; /* "host:port": a ':' before a plain byte is text */
  }
  *to = last;
  *after = q;
  return last > p;
}

/* A quoted scalar from its quote at p: its token, and *after past the
 * closing quote. With lines, a single-quoted one may go on over the lines
 * below, folded as libyaml folds them (blanks around a break dropped, a
 * break a space, n blank lines n breaks; go-yaml writes long strings so);
 * the cursor is then on its last line. */
static bool quoted(yaml_fast *y, size_t p, bool key, bool lines, size_t *after) {
  const unsigned char *s = y->s;
  unsigned char quote = s[p];
  bool single = quote == '\'';
  size_t q = p + 1, start = q;
  while (q < y->end && (byte_class[s[q]] & PRINTABLE) && s[q] != quote && s[q] != '\\') q++;
  if (q < y->end && s[q] == quote && (!single || q + 1 == y->end || s[q + 1] != '\'')) {
    *after = q + 1;
    return add_scalar(y, s + start, q - start, 0, false, key);
  }
  /* escapes, a backslash (plain in single quotes) or more lines: the text goes to scratch */
  size_t at = y->scratch.len, line_from = at;
  sb_add(&y->scratch, (const char *)s + start, q - start);
  for (;;) {
    if (q == y->end) {
      if (!single || !lines) return false;
      while (y->scratch.len > line_from && y->scratch.buf[y->scratch.len - 1] == ' ')
        sb_truncate(&y->scratch, y->scratch.len - 1);
      size_t breaks = 0;
      for (;; breaks++) { /* to the next line that is not blank */
        if (next_start(y, y->end) >= y->len) return false;
        y->pos = next_start(y, y->end);
        y->line++;
        y->end = line_end(y, y->pos);
        q = skip_spaces(y, y->pos);
        if (q < y->end) break;
      }
      if (q == y->pos && y->end - q >= 3 && (!memcmp(s + q, "---", 3) || !memcmp(s + q, "...", 3))) return false;
      if (!breaks) sb_putc(&y->scratch, ' ');
      for (; breaks; breaks--) sb_putc(&y->scratch, '\n');
      line_from = y->scratch.len;
      continue;
    }
    unsigned char c = s[q];
    if (c >= 0x80) {
      size_t n = text_char(s + q, s + y->end);
      if (!n) return false;
      sb_add(&y->scratch, (const char *)s + q, n);
      q += n;
      continue;
    }
    if (!(byte_class[c] & PRINTABLE)) return false;
    if (single && c == '\'') {
      if (q + 1 < y->end && s[q + 1] == '\'') {
        sb_putc(&y->scratch, '\'');
        q += 2;
        continue;
      }
      break;
    }
    if (!single && c == '"') break;
    if (!single && c == '\\') {
      if (q + 1 == y->end) return false;
      static const char escaped[] = "\\\"/ntr", meaning[] = "\\\"/\n\t\r";
      const char *e = memchr(escaped, s[q + 1], sizeof escaped - 1);
      if (!e) return false;
      sb_putc(&y->scratch, meaning[e - escaped]);
      q += 2;
      continue;
    }
    sb_putc(&y->scratch, (char)c);
    q++;
  }
  *after = q + 1;
  return add_scalar(y, NULL, y->scratch.len - at, at, false, key);
}

/* ---- flow collections (on one line) ------------------------------------- */

static bool flow_value(yaml_fast *y, size_t *p);

/* flow_space past the end of a line or a comment, from p (blanks up to p
 * passed over already). */
static bool flow_space_lines(yaml_fast *y, size_t *q, size_t p) {
  for (;;) {
    if (p < y->end && y->s[p] != '#') break;
    if (p < y->end && ((p > y->pos && y->s[p - 1] != ' ') || !comment_ok(y, p))) return false;
    if (y->end >= y->len) return false;
    y->pos = next_start(y, y->end);
    y->line++;
    y->end = line_end(y, y->pos);
    p = skip_spaces(y, y->pos);
    if (p < y->end && y->s[p] != '#' && (int)(p - y->pos) <= y->flow_parent) return false;
  }
  *q = p;
  return true;
}

/* The blanks in a flow collection from *q, and the line breaks and
 * comments among them: *q on the next byte that is not one. False at the
 * end of the text, on a '#' right after a token, and on a line not
 * indented past the block collection the flow one is in (y->flow_parent;
 * libyaml does not check, the spec does: a document marker among them). */
static inline bool flow_space(yaml_fast *y, size_t *q) {
  size_t p = skip_spaces(y, *q);
  if (p < y->end && y->s[p] != '#') {
    *q = p;
    return true;
  }
  return flow_space_lines(y, q, p);
}

static bool flow_key(yaml_fast *y, size_t *p) {
  size_t q = *p, to, after;
  unsigned char c = y->s[q];
  if (c == '"' || c == '\'') {
    if (!quoted(y, q, true, false, &after)) return false;
  } else {
    if (!plain_start(c, q + 1 < y->end ? y->s[q + 1] : 0, true) || !plain_flow(y, q, &to, &after) ||
        !add_scalar(y, y->s + q, to - q, 0, true, true))
      return false;
  }
  if (after >= y->end || y->s[after] != ':' || (after + 1 < y->end && y->s[after + 1] != ' ')) return false;
  *p = after + 1;
  return flow_space(y, p);
}

/* A flow mapping or sequence from its bracket at *p, over one line or
 * more; *p past its close, the cursor on the close's line. */
static bool flow_collection(yaml_fast *y, size_t *p) {
  bool mapping = y->s[*p] == '{';
  unsigned char close = mapping ? '}' : ']';
  if (!open_collection(y, mapping ? TK_OBJECT : TK_ARRAY)) return false;
  size_t q = *p + 1;
  if (!flow_space(y, &q)) return false;
  if (y->s[q] == close) {
    *p = q + 1;
    close_collection(y);
    return true;
  }
  for (;;) {
    if ((mapping && !flow_key(y, &q)) || !flow_value(y, &q) || !flow_space(y, &q)) return false;
    if (y->s[q] == close) break;
    if (y->s[q] != ',') return false;
    q++;
    if (!flow_space(y, &q) || y->s[q] == close) return false; /* a trailing comma */
  }
  *p = q + 1;
  close_collection(y);
  return true;
}

static bool flow_value(yaml_fast *y, size_t *p) {
  size_t q = *p, to, after;
  if (q == y->end) return false;
  unsigned char c = y->s[q];
  if (c == '{' || c == '[') return flow_collection(y, p);
  if (c == '"' || c == '\'') return quoted(y, q, false, false, p);
  if (!plain_start(c, q + 1 < y->end ? y->s[q + 1] : 0, true) || !plain_flow(y, q, &to, &after)) return false;
  if (y->s[after] == ':') return false; /* a pair in a sequence */
  *p = after;
  return add_scalar(y, y->s + q, to - q, 0, true, false);
}

/* ---- block collections -------------------------------------------------- */

static bool block_mapping(yaml_fast *y, int ind, size_t p);

static bool dash_at(const yaml_fast *y, size_t p) {
  return p < y->end && y->s[p] == '-' && (p + 1 == y->end || y->s[p + 1] == ' ');
}

static bool block_sequence(yaml_fast *y, int ind);

/* The value of a key or item whose line ends after its indicator: a
 * collection on the lines below, indented further (or, for a key, a
 * sequence at the key's own indentation), else null. */
static bool value_below(yaml_fast *y, int parent, bool key) {
  if (!next_line(y)) return false;
  if (y->at == AT_LINE && (y->ind > parent || (key && y->ind == parent && dash_at(y, y->pos + (size_t)y->ind)))) {
    size_t p = y->pos + (size_t)y->ind;
    return dash_at(y, p) ? block_sequence(y, y->ind) : block_mapping(y, y->ind, p);
  }
  add_token(y, TK_NULL);
  return true;
}

/* A literal block scalar ("|" or "|-"), its '|' at p, in a collection at
 * indentation parent: the lines below indented further, each from the
 * first one's indentation on, joined by their breaks; "|" keeps one final
 * break, "|-" none. Given up: "|+", an indentation indicator, an empty
 * scalar, blank lines before its first line or holding spaces, and a last
 * line with no break after it. Leaves the cursor on the line after it. */
static bool literal_block(yaml_fast *y, size_t p, int parent) {
  size_t q = p + 1;
  bool strip = q < y->end && y->s[q] == '-';
  if (!rest_ok(y, q + strip)) return false;
  size_t at = y->scratch.len, pos = next_start(y, y->end), breaks = 0;
  int line = y->line + 1, ind = -1;
  for (; pos < y->len; pos = next_start(y, y->end), line++) {
    y->end = line_end(y, pos);
    size_t k = skip_spaces(y, pos) - pos;
    if (pos + k == y->end) { /* a blank line */
      if (k || ind < 0) return false;
      breaks++;
      continue;
    }
    if (ind < 0) {
      if ((int)k <= parent) return false;
      ind = (int)k;
    }
    if ((int)k < ind) break;
    if (y->end == y->len) return false;
    if (y->scratch.len > at) breaks++;
    while (breaks) sb_putc(&y->scratch, '\n'), breaks--;
    for (size_t c = pos + (size_t)ind, n; c < y->end; c += n)
      if (!(n = text_char(y->s + c, y->s + y->end))) return false;
    sb_add(&y->scratch, (const char *)y->s + pos + ind, y->end - pos - (size_t)ind);
  }
  if (ind < 0) return false;
  if (!strip) sb_putc(&y->scratch, '\n');
  y->pos = pos;
  y->line = line;
  return add_scalar(y, NULL, y->scratch.len - at, at, false, false) && find_content(y);
}

/* A plain scalar [p, to) that ends its line, in a collection at parent,
 * and the lines that go on with it: those below indented further that do
 * not open with '#', folded as libyaml folds them (a break between two
 * lines is a space, n blank lines are n breaks). Given up: a ": " in a
 * later line. Leaves the cursor on the line after it. */
static bool plain_lines(yaml_fast *y, size_t p, size_t to, int parent) {
  size_t at = y->scratch.len, pos = next_start(y, y->end), blank = 0;
  int line = y->line + 1;
  bool folded = false, more = true;
  while (more && pos < y->len) {
    y->end = line_end(y, pos);
    size_t q = skip_spaces(y, pos), to_here, after;
    bool colon;
    if (q == y->end) { /* a blank line, spaces or none */
      blank++;
      pos = next_start(y, y->end), line++;
      continue;
    }
    if ((int)(q - pos) <= parent || y->s[q] == '#') break;
    if (!plain_block(y, q, &to_here, &after, &colon) || colon) return false;
    if (!folded) sb_add(&y->scratch, (const char *)y->s + p, to - p);
    folded = true;
    if (!blank) sb_putc(&y->scratch, ' ');
    for (; blank; blank--) sb_putc(&y->scratch, '\n');
    sb_add(&y->scratch, (const char *)y->s + q, to_here - q);
    more = after == y->end; /* else a comment ends it */
    if (!more && !rest_ok(y, after)) return false;
    pos = next_start(y, y->end), line++;
  }
  bool added = folded ? add_scalar(y, NULL, y->scratch.len - at, at, true, false)
                      : add_scalar(y, y->s + p, to - p, 0, true, false);
  y->pos = pos;
  y->line = line;
  return added && find_content(y);
}

/* A flow collection at p, the value of a key or an item in a collection
 * at parent: *after past its close. When it opens and closes on this line,
 * ending it, its tokens are copied from the memo when this text was read
 * before (the same bytes give the same tokens, their strings pointing into
 * the earlier copy of the text), and offered to it otherwise. */
static bool flow_collection_line(yaml_fast *y, size_t p, int parent, size_t *after) {
  size_t len = y->end - p, n, first = y->n;
  int nest, line = y->line;
  bool keep = false;
  y->flow_parent = parent;
  if (len >= YAML_FLOW_MEMO_MIN_TEXT && len <= YAML_FLOW_MEMO_MAX_TEXT && y->s[y->end - 1] == (y->s[p] == '{' ? '}' : ']')) {
    if (!y->memo) y->memo = yaml_flow_memo_new();
    const tk *kept = yaml_flow_memo_find(y->memo, (const char *)y->s + p, len, &n, &nest, &keep);
    if (kept && y->depth + nest <= DOC_MAX_DEPTH) {
      add_tokens(y, kept, n);
      *after = y->end;
      return true;
    }
  }
  if (!flow_collection(y, &p)) return false;
  *after = p;
  if (!keep || p != y->end || y->line != line) return true;
  for (size_t i = first; i < y->n; i++)
    if (y->toks[i].kind == TK_STRING && !y->toks[i].s) return true; /* text in scratch */
  yaml_flow_memo_keep(y->memo, y->toks + first, y->n - first);
  return true;
}

/* A scalar or flow collection at p that ends its line, or a literal block
 * scalar, the value of a key or an item in a collection at parent. */
static bool value_inline(yaml_fast *y, size_t p, int parent) {
  size_t to, after;
  bool colon;
  unsigned char c = y->s[p];
  if (c == '|') return literal_block(y, p, parent);
  if (c == '{' || c == '[') {
    if (!flow_collection_line(y, p, parent, &after)) return false;
  } else if (c == '"' || c == '\'') {
    if (!quoted(y, p, false, true, &after)) return false;
  } else {
    if (!plain_start(c, p + 1 < y->end ? y->s[p + 1] : 0, false) || !plain_block(y, p, &to, &after, &colon) || colon)
      return false;
    if (after == y->end) return plain_lines(y, p, to, parent);
    if (!add_scalar(y, y->s + p, to - p, 0, true, false)) return false;
  }
  return rest_ok(y, after) && next_line(y);
}

/* A key at p: its token, and *p past its ':'. */
static bool block_key(yaml_fast *y, size_t *p) {
  size_t q = *p, to, after;
  bool colon;
  unsigned char c = y->s[q];
  if (c == '"' || c == '\'') {
    if (!quoted(y, q, true, false, &after)) return false;
    colon = after < y->end && y->s[after] == ':' && (after + 1 == y->end || y->s[after + 1] == ' ');
  } else if (!plain_start(c, q + 1 < y->end ? y->s[q + 1] : 0, false) || !plain_block(y, q, &to, &after, &colon) ||
             !colon || !add_scalar(y, y->s + q, to - q, 0, true, true)) {
    return false;
  }
  /* libyaml looks for a simple key's ':' within 1024 bytes */
  if (!colon || after - q > 1000) return false;
  *p = after + 1;
  return true;
}

/* A block mapping whose keys sit at column ind, its first key at p. */
static bool block_mapping(yaml_fast *y, int ind, size_t p) {
  if (!open_collection(y, TK_OBJECT)) return false;
  for (;;) {
    if (!block_key(y, &p)) return false;
    size_t q = skip_spaces(y, p);
    bool below = q == y->end || (y->s[q] == '#' && q > p);
    if (below ? !comment_ok(y, q) || !value_below(y, ind, true) : !value_inline(y, q, ind)) return false;
    if (y->at != AT_LINE || y->ind < ind) break;
    if (y->ind > ind) return false;
    p = y->pos + (size_t)ind;
  }
  close_collection(y);
  return true;
}

/* An item's content after "- ", at p: a mapping when it opens with a key. */
static bool item_inline(yaml_fast *y, size_t p, int parent) {
  size_t to, after;
  bool colon = false;
  unsigned char c = y->s[p];
  if (c == '"' || c == '\'') { /* a key, when on one line and a ':' follows */
    size_t n = y->n;
    colon = quoted(y, p, false, false, &after) && after < y->end && y->s[after] == ':';
    y->n = n;
  } else if (c != '{' && c != '[' && c != '|') {
    if (!plain_start(c, p + 1 < y->end ? y->s[p + 1] : 0, false) || !plain_block(y, p, &to, &after, &colon))
      return false;
  }
  return colon ? block_mapping(y, (int)(p - y->pos), p) : value_inline(y, p, parent);
}

/* A block sequence whose dashes sit at column ind, the cursor on the line
 * of the first (which may follow another dash on that line). */
static bool block_sequence(yaml_fast *y, int ind) {
  if (!open_collection(y, TK_ARRAY)) return false;
  for (;;) {
    size_t dash = y->pos + (size_t)ind, p = skip_spaces(y, dash + 1);
    bool below = p == y->end || (y->s[p] == '#' && p > dash + 1);
    bool nested = !below && dash_at(y, p); /* "- - x": a sequence in the item, from its dash on */
    if (below ? !comment_ok(y, p) || !value_below(y, ind, false)
              : nested ? !block_sequence(y, (int)(p - y->pos)) : !item_inline(y, p, ind))
      return false;
    if (y->at != AT_LINE || y->ind < ind) break;
    if (y->ind > ind) return false;
    if (!dash_at(y, y->pos + (size_t)ind)) break; /* the key after a sequence at its own indentation */
  }
  close_collection(y);
  return true;
}

/* ---- the source --------------------------------------------------------- */

static void give_up(tk *t) { t->kind = TK_GIVE_UP; }

static void next(tk_source *src, tk *t) {
  yaml_fast *y = (yaml_fast *)src;
  if (y->next == y->n) return give_up(t);
  *t = y->toks[y->next++];
}

/* A document at a time: its tokens, or giving up on the first thing not
 * covered (or when the last document was not read to its end). */
static bool next_doc(tk_source *src, tk *t, int *line) {
  yaml_fast *y = (yaml_fast *)src;
  t->kind = TK_END;
  bool fine = y->next == y->n;
  y->n = y->next = 0;
  sb_truncate(&y->scratch, 0);
  while (fine && (fine = find_content(y)) && y->at == AT_MARKER) {
    y->pos = next_start(y, y->end);
    y->line++;
  }
  if (fine && y->at == AT_END) return false;
  if (fine && y->ind == 0) { /* on a line: the root mapping */
    *line = y->line + 1;
    fine = block_mapping(y, 0, y->pos) && y->at != AT_LINE;
  } else {
    fine = false;
  }
  if (!fine) {
    give_up(t);
    y->n = y->next = 0;
    return false;
  }
  if (y->scratch.len) /* the texts in scratch, which moves no more */
    for (size_t i = 0; i < y->n; i++)
      if (y->toks[i].kind == TK_STRING && !y->toks[i].s) y->toks[i].s = y->scratch.buf + y->toks[i].i;
  next(src, t);
  return true;
}

static void close_source(tk_source *src) {
  yaml_fast *y = (yaml_fast *)src;
  free(y->toks);
  sb_free(&y->scratch);
  yaml_flow_memo_free(y->memo);
  free(y);
}

tk_source *yaml_fast_open(const char *data, size_t len) {
  yaml_fast *y = xcalloc(1, sizeof *y);
  y->src = (tk_source){next, next_doc, close_source, NULL, NULL, NULL};
  y->s = (const unsigned char *)data;
  y->len = len;
  return &y->src;
}
