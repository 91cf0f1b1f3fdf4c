/* cel_parse.c: CEL lexer and recursive-descent parser (cel-spec langdef
 * grammar), macro expansion into comprehensions, and syntax-error reports in
 * cel-go's "ERROR: <input>:l:c: msg" + caret form. Nesting is bounded. */
#include "cel/cel_internal.h"
#include "util/utf8.h"
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 250

typedef enum {
  T_EOF, T_INT, T_UINT, T_DOUBLE, T_STRING, T_BYTES, T_IDENT, T_TRUE, T_FALSE, T_NULL, T_IN,
  T_EQ, T_NE, T_LE, T_GE, T_AND, T_OR, T_LT, T_GT, T_NOT, T_PLUS, T_MINUS, T_STAR, T_SLASH, T_PERCENT,
  T_QUEST, T_COLON, T_DOT, T_COMMA, T_LBRACK, T_RBRACK, T_LBRACE, T_RBRACE, T_LPAREN, T_RPAREN, T_ERR,
} tok_kind;

typedef struct {
  tok_kind kind;
  int32_t pos;
  const char *s; /* identifier text / decoded literal */
  size_t len;
  int64_t i;
  uint64_t u;
  double d;
  bool reserved; /* identifier usable only after '.' */
} token;

typedef struct {
  cel_ast *ast;
  const char *src;
  size_t len, at;
  token tok;
  int depth;
  bool macros;
  bool failed;
} parser;

/* ---- error reports ---- */

void cel_report(cel_ast *ast, int32_t pos, const char *fmt, ...) {
  if (ast->nerrors >= 30) return;
  int line = 1, col = 0;
  size_t line_start = 0;
  for (int32_t i = 0; i < pos && (size_t)i < ast->len; i++) {
    if (ast->src[i] == '\n') {
      line++;
      col = 0;
      line_start = (size_t)i + 1;
    } else if (((unsigned char)ast->src[i] & 0xC0) != 0x80) {
      col++;
    }
  }
  if (ast->nerrors) sb_putc(&ast->errors, '\n');
  /* An empty source: cel-go's parser reports column -1 and no snippet. */
  sb_printf(&ast->errors, "ERROR: <input>:%d:%d: ", line, ast->len ? col + 1 : 0);
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(&ast->errors, fmt, ap);
  va_end(ap);
  ast->nerrors++;
  if (!ast->len) return;
  size_t end = line_start;
  while (end < ast->len && ast->src[end] != '\n') end++;
  sb_puts(&ast->errors, "\n | ");
  sb_add(&ast->errors, ast->src + line_start, end - line_start);
  sb_puts(&ast->errors, "\n | ");
  for (int i = 0; i < col; i++) sb_putc(&ast->errors, '.');
  sb_putc(&ast->errors, '^');
}

/* Reports the first problem only: text at pos. */
static void report_first(parser *p, int32_t pos, const char *text) {
  if (p->failed) return;
  p->failed = true;
  cel_report(p->ast, pos, "%s", text);
}

static void syntax_error(parser *p, int32_t pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void syntax_error(parser *p, int32_t pos, const char *fmt, ...) {
  strbuf msg = STRBUF_INIT;
  sb_puts(&msg, "Syntax error: ");
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(&msg, fmt, ap);
  va_end(ap);
  report_first(p, pos, sb_str(&msg));
  sb_free(&msg);
}

/* ---- lexer ---- */

static bool is_ident_start(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_digit(int c) { return c >= '0' && c <= '9'; }
static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Decodes a quoted literal starting at p->at (after any r/b prefix). */
static void lex_string(parser *p, token *t, bool raw, bool bytes) {
  const char *s = p->src;
  size_t n = p->len, i = p->at;
  char q = s[i];
  bool triple = i + 2 < n && s[i + 1] == q && s[i + 2] == q;
  i += triple ? 3 : 1;
  strbuf sb = STRBUF_INIT;
  for (;;) {
    if (i >= n) {
      syntax_error(p, t->pos, "token recognition error at: '%.*s'", (int)(n - (size_t)t->pos > 20 ? 20 : n - (size_t)t->pos), s + t->pos);
      t->kind = T_ERR;
      sb_free(&sb);
      p->at = n;
      return;
    }
    if (triple ? (i + 2 < n + 0 && s[i] == q && s[i + 1] == q && s[i + 2] == q) : s[i] == q) {
      i += triple ? 3 : 1;
      break;
    }
    if (!triple && (s[i] == '\n' || s[i] == '\r')) {
      syntax_error(p, t->pos, "token recognition error at: '%.*s'", (int)(i - (size_t)t->pos), s + t->pos);
      t->kind = T_ERR;
      sb_free(&sb);
      p->at = i;
      return;
    }
    if (s[i] != '\\' || raw) {
      sb_add(&sb, s + i, 1);
      i++;
      continue;
    }
    size_t esc = i;
    i++;
    if (i >= n) continue;
    char c = s[i++];
    switch (c) {
    case 'a': sb_putc(&sb, '\a'); break;
    case 'b': sb_putc(&sb, '\b'); break;
    case 'f': sb_putc(&sb, '\f'); break;
    case 'n': sb_putc(&sb, '\n'); break;
    case 'r': sb_putc(&sb, '\r'); break;
    case 't': sb_putc(&sb, '\t'); break;
    case 'v': sb_putc(&sb, '\v'); break;
    case '\\': case '\'': case '"': case '`': case '?': sb_putc(&sb, c); break;
    case 'x': case 'X': case 'u': case 'U': {
      int digits = (c == 'x' || c == 'X') ? 2 : c == 'u' ? 4 : 8;
      uint32_t v = 0;
      for (int k = 0; k < digits; k++) {
        int h = i < n ? hexval(s[i]) : -1;
        if (h < 0) goto bad;
        v = v * 16 + (uint32_t)h;
        i++;
      }
      if (digits == 2 && bytes) {
        char b = (char)v;
        sb_add(&sb, &b, 1);
      } else {
        if (bytes && digits > 2) goto bad;
        if (v > 0x10FFFF || (v >= 0xD800 && v < 0xE000)) goto bad;
        utf8_encode(&sb, v);
      }
      break;
    }
    case '0': case '1': case '2': case '3': {
      uint32_t v = (uint32_t)(c - '0');
      for (int k = 0; k < 2; k++) {
        if (i >= n || s[i] < '0' || s[i] > '7') goto bad;
        v = v * 8 + (uint32_t)(s[i++] - '0');
      }
      if (bytes) {
        char b = (char)v;
        sb_add(&sb, &b, 1);
      } else {
        utf8_encode(&sb, v);
      }
      break;
    }
    default:
    bad:
      syntax_error(p, (int32_t)esc, "token recognition error at: '%.*s'", (int)(i - esc), s + esc);
      t->kind = T_ERR;
      sb_free(&sb);
      p->at = i;
      return;
    }
  }
  p->at = i;
  t->kind = bytes ? T_BYTES : T_STRING;
  t->len = sb.len;
  t->s = arena_strndup(p->ast->mem, sb.buf ? sb.buf : "", sb.len);
  sb_free(&sb);
  if (!bytes && !cel_utf8_valid(t->s, t->len)) {
    syntax_error(p, t->pos, "invalid UTF-8 in string literal");
    t->kind = T_ERR;
  }
}

static void lex_number(parser *p, token *t) {
  const char *s = p->src;
  size_t n = p->len, i = p->at;
  bool hex = s[i] == '0' && i + 1 < n && (s[i + 1] == 'x' || s[i + 1] == 'X');
  bool is_double = false;
  if (hex) {
    i += 2;
    while (i < n && hexval(s[i]) >= 0) i++;
  } else {
    while (i < n && is_digit(s[i])) i++;
    if (i + 1 < n && s[i] == '.' && is_digit(s[i + 1])) {
      is_double = true;
      i++;
      while (i < n && is_digit(s[i])) i++;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
      size_t j = i + 1;
      if (j < n && (s[j] == '+' || s[j] == '-')) j++;
      if (j < n && is_digit(s[j])) {
        is_double = true;
        i = j;
        while (i < n && is_digit(s[i])) i++;
      }
    }
  }
  size_t len = i - p->at;
  const char *buf = arena_strndup(p->ast->mem, s + p->at, len); /* the whole literal, however long */
  if (is_double) {
    t->kind = T_DOUBLE;
    t->d = strtod(buf, NULL);
  } else if (i < n && (s[i] == 'u' || s[i] == 'U')) {
    i++;
    t->kind = T_UINT;
    errno = 0;
    t->u = strtoull(buf, NULL, hex ? 16 : 10);
    if (errno || (hex && len <= 2)) {
      report_first(p, t->pos, "invalid uint literal"); /* cel-go: no "Syntax error" */
      t->kind = T_ERR;
    }
  } else {
    t->kind = T_INT;
    errno = 0;
    t->u = strtoull(buf, NULL, hex ? 16 : 10);
    if (errno || (hex && len <= 2)) {
      report_first(p, t->pos, "invalid int literal");
      t->kind = T_ERR;
    }
  }
  p->at = i;
}

static const char *const reserved[] = {"as", "break", "const", "continue", "else", "for", "function", "if",
                                       "import", "let", "loop", "package", "namespace", "return", "var",
                                       "void", "while", NULL};

static void next(parser *p) {
  const char *s = p->src;
  size_t n = p->len;
  token *t = &p->tok;
  for (;;) {
    while (p->at < n && (s[p->at] == ' ' || s[p->at] == '\t' || s[p->at] == '\n' || s[p->at] == '\r' || s[p->at] == '\f'))
      p->at++;
    if (p->at + 1 < n && s[p->at] == '/' && s[p->at + 1] == '/') {
      while (p->at < n && s[p->at] != '\n') p->at++;
      continue;
    }
    break;
  }
  memset(t, 0, sizeof *t);
  t->pos = (int32_t)p->at;
  if (p->at >= n) {
    t->kind = T_EOF;
    return;
  }
  char c = s[p->at];
  char d = p->at + 1 < n ? s[p->at + 1] : 0;
  if (is_ident_start(c)) {
    bool r = c == 'r' || c == 'R', b = c == 'b' || c == 'B';
    if ((r || b) && (d == '"' || d == '\'')) {
      p->at++;
      lex_string(p, t, r, b);
      return;
    }
    if ((r || b) && (d == 'r' || d == 'R' || d == 'b' || d == 'B') && (d == 'r' || d == 'R') != r && p->at + 2 < n &&
        (s[p->at + 2] == '"' || s[p->at + 2] == '\'')) {
      p->at += 2;
      lex_string(p, t, true, true);
      return;
    }
    size_t st = p->at;
    while (p->at < n && (is_ident_start(s[p->at]) || is_digit(s[p->at]))) p->at++;
    t->s = s + st;
    t->len = p->at - st;
    t->kind = T_IDENT;
    if (t->len == 4 && !memcmp(t->s, "true", 4)) t->kind = T_TRUE;
    else if (t->len == 5 && !memcmp(t->s, "false", 5)) t->kind = T_FALSE;
    else if (t->len == 4 && !memcmp(t->s, "null", 4)) t->kind = T_NULL;
    else if (t->len == 2 && !memcmp(t->s, "in", 2)) t->kind = T_IN;
    else
      for (int k = 0; reserved[k]; k++)
        if (strlen(reserved[k]) == t->len && !memcmp(reserved[k], t->s, t->len)) t->reserved = true;
    return;
  }
  if (is_digit(c) || (c == '.' && is_digit(d))) {
    if (c == '.') {
      /* ".5" */
      size_t st = p->at;
      p->at++;
      while (p->at < n && is_digit(s[p->at])) p->at++;
      if (p->at < n && (s[p->at] == 'e' || s[p->at] == 'E')) {
        size_t j = p->at + 1;
        if (j < n && (s[j] == '+' || s[j] == '-')) j++;
        if (j < n && is_digit(s[j])) {
          p->at = j;
          while (p->at < n && is_digit(s[p->at])) p->at++;
        }
      }
      char buf[64];
      size_t len = p->at - st < 63 ? p->at - st : 63;
      memcpy(buf, s + st, len);
      buf[len] = 0;
      t->kind = T_DOUBLE;
      t->d = strtod(buf, NULL);
      return;
    }
    lex_number(p, t);
    return;
  }
  if (c == '"' || c == '\'') {
    lex_string(p, t, false, false);
    return;
  }
  p->at++;
  switch (c) {
  case '=': if (d == '=') { p->at++; t->kind = T_EQ; return; } break;
  case '!': if (d == '=') { p->at++; t->kind = T_NE; } else t->kind = T_NOT; return;
  case '<': if (d == '=') { p->at++; t->kind = T_LE; } else t->kind = T_LT; return;
  case '>': if (d == '=') { p->at++; t->kind = T_GE; } else t->kind = T_GT; return;
  case '&': if (d == '&') { p->at++; t->kind = T_AND; return; } break;
  case '|': if (d == '|') { p->at++; t->kind = T_OR; return; } break;
  case '+': t->kind = T_PLUS; return;
  case '-': t->kind = T_MINUS; return;
  case '*': t->kind = T_STAR; return;
  case '/': t->kind = T_SLASH; return;
  case '%': t->kind = T_PERCENT; return;
  case '?': t->kind = T_QUEST; return;
  case ':': t->kind = T_COLON; return;
  case '.': t->kind = T_DOT; return;
  case ',': t->kind = T_COMMA; return;
  case '[': t->kind = T_LBRACK; return;
  case ']': t->kind = T_RBRACK; return;
  case '{': t->kind = T_LBRACE; return;
  case '}': t->kind = T_RBRACE; return;
  case '(': t->kind = T_LPAREN; return;
  case ')': t->kind = T_RPAREN; return;
  default: break;
  }
  if (c == '`') {
    /* A backtick-quoted field name: cel-go lexes it, then refuses it
     * unless the identifier-escape option (off in Kubernetes) is set. */
    size_t j = p->at; /* after the backtick */
    while (j < n && (is_ident_start(s[j]) || is_digit(s[j]) || strchr("./- ", s[j]))) j++;
    if (j < n && s[j] == '`' && j > p->at && !p->failed) {
      p->failed = true;
      cel_report(p->ast, t->pos, "unsupported syntax: '`'");
      p->at = j + 1;
      t->kind = T_ERR;
      return;
    }
  }
  syntax_error(p, t->pos, "token recognition error at: '%c'", c);
  t->kind = T_ERR;
}

static const char *tok_text(parser *p, char *buf, size_t n) {
  if (p->tok.kind == T_EOF) return "<EOF>";
  size_t len = p->at - (size_t)p->tok.pos;
  if (len >= n) len = n - 1;
  memcpy(buf, p->src + p->tok.pos, len);
  buf[len] = 0;
  return buf;
}

static void unexpected(parser *p, const char *expecting) {
  char buf[64];
  if (p->tok.kind == T_ERR) return;
  if (p->tok.kind == T_EOF)
    syntax_error(p, p->tok.pos, "mismatched input '<EOF>' expecting %s", expecting);
  else
    syntax_error(p, p->tok.pos, "mismatched input '%s' expecting %s", tok_text(p, buf, sizeof buf), expecting);
}

static bool expect(parser *p, tok_kind k, const char *what) {
  if (p->tok.kind != k) {
    unexpected(p, what);
    return false;
  }
  next(p);
  return true;
}

/* ---- nodes ---- */

static cel_node *node(parser *p, cel_nkind k, int32_t pos) {
  cel_node *n = arena_alloc(p->ast->mem, sizeof *n);
  n->kind = (uint8_t)k;
  n->pos = pos;
  n->id = ++p->ast->next_id;
  n->slot = -1;
  n->slot2 = -1;
  return n;
}

static cel_node *call(parser *p, int32_t pos, const char *fn, cel_node **args, uint32_t n, bool member) {
  cel_node *c = node(p, N_CALL, pos);
  c->name = fn;
  c->args = arena_calloc(p->ast->mem, n ? n : 1, sizeof *c->args);
  if (n) memcpy(c->args, args, n * sizeof *args);
  c->nargs = n;
  c->member = member;
  return c;
}

static cel_node *call2(parser *p, int32_t pos, const char *fn, cel_node *a, cel_node *b) {
  cel_node *args[2] = {a, b};
  return call(p, pos, fn, args, 2, false);
}

static cel_node *ident(parser *p, int32_t pos, const char *name) {
  cel_node *n = node(p, N_IDENT, pos);
  n->name = name;
  return n;
}

static cel_node *const_bool(parser *p, int32_t pos, bool b) {
  cel_node *n = node(p, N_CONST, pos);
  n->cval = cel_bool(b);
  return n;
}

static cel_node *const_int(parser *p, int32_t pos, int64_t v) {
  cel_node *n = node(p, N_CONST, pos);
  n->cval = cel_int(v);
  return n;
}

static cel_node *list_lit(parser *p, int32_t pos, cel_node **elems, uint32_t n) {
  cel_node *l = node(p, N_LIST, pos);
  l->args = arena_calloc(p->ast->mem, n ? n : 1, sizeof *l->args);
  if (n) memcpy(l->args, elems, n * sizeof *elems);
  l->nargs = n;
  return l;
}

static char *name_of(parser *p, const char *s, size_t n) { return arena_strndup(p->ast->mem, s, n); }

/* ---- macros ---- */

#define ACCU "@result"

static cel_node *compr(parser *p, int32_t pos, cel_node *range, const char *iv, const char *iv2, cel_node *init,
                       cel_node *cond, cel_node *step, cel_node *result) {
  cel_node *c = node(p, N_COMPR, pos);
  c->range = range;
  c->iter_var = iv;
  c->iter_var2 = iv2;
  c->accu_var = ACCU;
  c->init = init;
  c->cond = cond;
  c->step = step;
  c->result = result;
  return c;
}

static const char *iter_name(parser *p, cel_node *arg, const char *macro) {
  if (arg->kind != N_IDENT) {
    syntax_error(p, arg->pos, "%s() variable names must be simple identifiers", macro);
    return NULL;
  }
  return arg->name;
}

/* Expands receiver.fn(args) or fn(args) when it names a macro; NULL if not. */
static cel_node *expand_macro(parser *p, int32_t pos, cel_node *target, const char *fn, cel_node **a, uint32_t n) {
  if (!target) {
    if (!strcmp(fn, "has") && n == 1) {
      if (a[0]->kind != N_SELECT || a[0]->test_only) {
        syntax_error(p, a[0]->pos, "invalid argument to has() macro");
        return NULL;
      }
      a[0]->test_only = 1;
      return a[0];
    }
    return NULL;
  }
  bool one = n == 2, two = n == 3;
  if (target->kind == N_IDENT && !strcmp(target->name, "cel") && !strcmp(fn, "bind") && n == 3) {
    const char *v = iter_name(p, a[0], "cel.bind");
    if (!v) return NULL;
    cel_node *c = compr(p, pos, list_lit(p, pos, NULL, 0), "#unused", NULL, a[1], const_bool(p, pos, false),
                        ident(p, pos, v), a[2]);
    c->accu_var = v;
    return c;
  }
  const char *iv = NULL, *iv2 = NULL;
  bool is_all = !strcmp(fn, "all"), is_exists = !strcmp(fn, "exists");
  bool is_one = !strcmp(fn, "exists_one") || !strcmp(fn, "existsOne");
  if ((is_all || is_exists || is_one) && (one || two)) {
    if (!(iv = iter_name(p, a[0], fn))) return NULL;
    if (two && !(iv2 = iter_name(p, a[1], fn))) return NULL;
    if (iv2 && !strcmp(iv, iv2)) {
      syntax_error(p, a[1]->pos, "duplicate variable name: %s", iv);
      return NULL;
    }
    cel_node *pred = a[n - 1];
    if (is_all)
      return compr(p, pos, target, iv, iv2, const_bool(p, pos, true),
                   call(p, pos, "@not_strictly_false", (cel_node *[]){ident(p, pos, ACCU)}, 1, false),
                   call2(p, pos, "_&&_", ident(p, pos, ACCU), pred), ident(p, pos, ACCU));
    if (is_exists)
      return compr(p, pos, target, iv, iv2, const_bool(p, pos, false),
                   call(p, pos, "@not_strictly_false",
                        (cel_node *[]){call(p, pos, "!_", (cel_node *[]){ident(p, pos, ACCU)}, 1, false)}, 1, false),
                   call2(p, pos, "_||_", ident(p, pos, ACCU), pred), ident(p, pos, ACCU));
    cel_node *inc = call2(p, pos, "_+_", ident(p, pos, ACCU), const_int(p, pos, 1));
    return compr(p, pos, target, iv, iv2, const_int(p, pos, 0), const_bool(p, pos, true),
                 call(p, pos, "_?_:_", (cel_node *[]){pred, inc, ident(p, pos, ACCU)}, 3, false),
                 call2(p, pos, "_==_", ident(p, pos, ACCU), const_int(p, pos, 1)));
  }
  bool is_map = !strcmp(fn, "map"), is_filter = !strcmp(fn, "filter");
  if ((is_map && (n == 2 || n == 3)) || (is_filter && n == 2)) {
    if (!(iv = iter_name(p, a[0], fn))) return NULL;
    cel_node *val = is_filter ? ident(p, pos, iv) : a[n - 1];
    cel_node *filt = is_filter ? a[1] : n == 3 ? a[1] : NULL;
    cel_node *step = call2(p, pos, "_+_", ident(p, pos, ACCU), list_lit(p, pos, (cel_node *[]){val}, 1));
    if (filt) step = call(p, pos, "_?_:_", (cel_node *[]){filt, step, ident(p, pos, ACCU)}, 3, false);
    return compr(p, pos, target, iv, NULL, list_lit(p, pos, NULL, 0), const_bool(p, pos, true), step, ident(p, pos, ACCU));
  }
  bool tl = !strcmp(fn, "transformList"), tm = !strcmp(fn, "transformMap"), tme = !strcmp(fn, "transformMapEntry");
  if ((tl || tm || tme) && (n == 3 || n == 4)) {
    if (!(iv = iter_name(p, a[0], fn)) || !(iv2 = iter_name(p, a[1], fn))) return NULL;
    if (!strcmp(iv, iv2)) {
      syntax_error(p, a[1]->pos, "duplicate variable name: %s", iv);
      return NULL;
    }
    cel_node *val = a[n - 1], *filt = n == 4 ? a[2] : NULL, *step, *init;
    if (tl) {
      init = list_lit(p, pos, NULL, 0);
      step = call2(p, pos, "_+_", ident(p, pos, ACCU), list_lit(p, pos, (cel_node *[]){val}, 1));
    } else {
      init = node(p, N_MAP, pos);
      init->args = arena_calloc(p->ast->mem, 1, sizeof *init->args);
      if (tm)
        step = call(p, pos, "cel.@mapInsert", (cel_node *[]){ident(p, pos, ACCU), ident(p, pos, iv), val}, 3, false);
      else
        step = call2(p, pos, "cel.@mapInsert", ident(p, pos, ACCU), val);
    }
    if (filt) step = call(p, pos, "_?_:_", (cel_node *[]){filt, step, ident(p, pos, ACCU)}, 3, false);
    return compr(p, pos, target, iv, iv2, init, const_bool(p, pos, true), step, ident(p, pos, ACCU));
  }
  if ((!strcmp(fn, "optMap") || !strcmp(fn, "optFlatMap")) && n == 2) {
    if (!(iv = iter_name(p, a[0], fn))) return NULL;
    bool flat = fn[3] == 'F';
    cel_node *value = call(p, pos, "value", (cel_node *[]){target}, 1, true);
    cel_node *bound = compr(p, pos, list_lit(p, pos, NULL, 0), "#unused", NULL, value, const_bool(p, pos, false),
                            ident(p, pos, iv), a[1]);
    bound->accu_var = iv;
    cel_node *some = flat ? bound : call(p, pos, "optional.of", (cel_node *[]){bound}, 1, false);
    cel_node *none = call(p, pos, "optional.none", NULL, 0, false);
    cel_node *has = call(p, pos, "hasValue", (cel_node *[]){target}, 1, true);
    return call(p, pos, "_?_:_", (cel_node *[]){has, some, none}, 3, false);
  }
  if (!strcmp(fn, "sortBy") && n == 2) {
    if (!(iv = iter_name(p, a[0], fn))) return NULL;
    cel_node *keys = compr(p, pos, target, iv, NULL, list_lit(p, pos, NULL, 0), const_bool(p, pos, true),
                           call2(p, pos, "_+_", ident(p, pos, ACCU), list_lit(p, pos, (cel_node *[]){a[1]}, 1)),
                           ident(p, pos, ACCU));
    return call(p, pos, "@sortByAssociatedKeys", (cel_node *[]){target, keys}, 2, true);
  }
  return NULL;
}

/* ---- grammar ---- */

static cel_node *expr(parser *p);

static bool enter(parser *p) {
  if (++p->depth > MAX_DEPTH) {
    syntax_error(p, p->tok.pos, "expression recursion limit exceeded: %d", MAX_DEPTH);
    return false;
  }
  return true;
}

/* Parses "(" args ")" after an identifier or member name; returns count. */
static uint32_t arg_list(parser *p, cel_node ***out) {
  cel_node *buf[64], **v = buf;
  uint32_t n = 0, cap = 64;
  next(p); /* ( */
  if (p->tok.kind != T_RPAREN) {
    for (;;) {
      cel_node *e = expr(p);
      if (!e) return UINT32_MAX;
      if (n == cap) {
        cel_node **nv = arena_calloc(p->ast->mem, cap * 2, sizeof *nv);
        memcpy(nv, v, n * sizeof *v);
        v = nv;
        cap *= 2;
      }
      v[n++] = e;
      if (p->tok.kind != T_COMMA) break;
      next(p);
    }
  }
  if (!expect(p, T_RPAREN, "{')', ','}")) return UINT32_MAX;
  *out = arena_calloc(p->ast->mem, n ? n : 1, sizeof **out);
  if (n) memcpy(*out, v, n * sizeof *v);
  return n;
}

static cel_node *finish_call(parser *p, int32_t pos, cel_node *target, const char *fn, cel_node **args, uint32_t n) {
  if (p->macros) {
    cel_node *m = expand_macro(p, pos, target, fn, args, n);
    if (m || p->failed) return m;
  }
  if (!target) return call(p, pos, fn, args, n, false);
  cel_node **all = arena_calloc(p->ast->mem, n + 1, sizeof *all);
  all[0] = target;
  if (n) memcpy(all + 1, args, n * sizeof *args);
  return call(p, pos, fn, all, n + 1, true);
}

/* Optional-aware element/entry lists for [..] and {..}. */
static cel_node *aggregate(parser *p, bool is_map, int32_t pos) {
  cel_node *n = node(p, is_map ? N_MAP : N_LIST, pos);
  size_t per = is_map ? 2 : 1, cap = 8, cnt = 0;
  cel_node **v = arena_calloc(p->ast->mem, cap * per, sizeof *v);
  uint8_t *opt = arena_calloc(p->ast->mem, cap, 1);
  tok_kind close = is_map ? T_RBRACE : T_RBRACK;
  next(p);
  while (p->tok.kind != close) {
    bool o = false;
    if (p->tok.kind == T_QUEST) {
      o = true;
      next(p);
    }
    cel_node *k = expr(p), *val = NULL;
    if (!k) return NULL;
    if (is_map) {
      int32_t cpos = p->tok.pos;
      if (!expect(p, T_COLON, "':'")) return NULL;
      (void)cpos;
      if (!(val = expr(p))) return NULL;
    }
    if (cnt == cap) {
      v = arena_grow(p->ast->mem, v, cap * per * sizeof *v, cap * 2 * per * sizeof *v);
      opt = arena_grow(p->ast->mem, opt, cap, cap * 2);
      cap *= 2;
    }
    v[cnt * per] = k;
    if (is_map) v[cnt * per + 1] = val;
    opt[cnt] = o;
    cnt++;
    if (p->tok.kind != T_COMMA) break;
    next(p);
  }
  if (!expect(p, close, is_map ? "{'}', ','}" : "{']', ','}")) return NULL;
  n->args = v;
  n->nargs = (uint32_t)cnt;
  bool any = false;
  for (size_t i = 0; i < cnt; i++) any |= opt[i];
  n->optional = any ? opt : NULL;
  return n;
}

static cel_node *primary(parser *p) {
  token t = p->tok;
  cel_node *n;
  switch (t.kind) {
  case T_INT:
    if (t.u > INT64_MAX) {
      report_first(p, t.pos, "invalid int literal");
      return NULL;
    }
    next(p);
    return const_int(p, t.pos, (int64_t)t.u);
  case T_UINT:
    next(p);
    n = node(p, N_CONST, t.pos);
    n->cval = cel_uint(t.u);
    return n;
  case T_DOUBLE:
    next(p);
    n = node(p, N_CONST, t.pos);
    n->cval = cel_double(t.d);
    return n;
  case T_STRING:
  case T_BYTES:
    next(p);
    n = node(p, N_CONST, t.pos);
    n->cval = t.kind == T_STRING ? cel_string(t.s, t.len) : cel_bytes(t.s, t.len);
    return n;
  case T_TRUE:
  case T_FALSE:
    next(p);
    return const_bool(p, t.pos, t.kind == T_TRUE);
  case T_NULL:
    next(p);
    n = node(p, N_CONST, t.pos);
    n->cval = cel_null();
    return n;
  case T_LPAREN:
    next(p);
    n = expr(p);
    if (!n || !expect(p, T_RPAREN, "')'")) return NULL;
    return n;
  case T_LBRACK:
    return aggregate(p, false, t.pos);
  case T_LBRACE:
    return aggregate(p, true, t.pos);
  case T_DOT:
  case T_IDENT: {
    bool leading_dot = t.kind == T_DOT;
    if (t.reserved) {
      syntax_error(p, t.pos, "reserved identifier: %.*s", (int)t.len, t.s);
      return NULL;
    }
    if (leading_dot) {
      next(p);
      if (p->tok.kind != T_IDENT) {
        unexpected(p, "IDENTIFIER");
        return NULL;
      }
      t = p->tok;
      if (t.reserved) {
        syntax_error(p, t.pos, "reserved identifier: %.*s", (int)t.len, t.s);
        return NULL;
      }
    }
    next(p);
    const char *name = name_of(p, t.s, t.len);
    if (p->tok.kind == T_LPAREN) {
      cel_node **args;
      uint32_t na = arg_list(p, &args);
      if (na == UINT32_MAX) return NULL;
      return finish_call(p, t.pos, NULL, name, args, na);
    }
    if (p->tok.kind == T_LBRACE) {
      syntax_error(p, p->tok.pos, "message construction is not supported");
      return NULL;
    }
    return ident(p, t.pos, name);
  }
  case T_ERR:
    return NULL;
  default:
    unexpected(p, "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}");
    return NULL;
  }
}

static cel_node *member(parser *p) {
  cel_node *n = primary(p);
  int chain = 0;
  while (n) {
    if (chain && !enter(p)) { /* each suffix nests the tree one level deeper */
      n = NULL;
      break;
    }
    chain++;
    int32_t pos = p->tok.pos;
    if (p->tok.kind == T_DOT) {
      next(p);
      bool opt = false;
      if (p->tok.kind == T_QUEST) {
        opt = true;
        next(p);
      }
      if (p->tok.kind != T_IDENT) {
        unexpected(p, "IDENTIFIER");
        return NULL;
      }
      token f = p->tok;
      next(p);
      const char *fname = name_of(p, f.s, f.len);
      if (!opt && p->tok.kind == T_LPAREN) {
        cel_node **args;
        uint32_t na = arg_list(p, &args);
        if (na == UINT32_MAX) return NULL;
        n = finish_call(p, f.pos, n, fname, args, na);
        continue;
      }
      if (opt) {
        cel_node *fld = node(p, N_CONST, f.pos);
        fld->cval = cel_string(fname, f.len);
        n = call2(p, pos, "_?._", n, fld);
        continue;
      }
      cel_node *s = node(p, N_SELECT, pos);
      s->target = n;
      s->name = fname;
      n = s;
    } else if (p->tok.kind == T_LBRACK) {
      next(p);
      bool opt = false;
      if (p->tok.kind == T_QUEST) {
        opt = true;
        next(p);
      }
      cel_node *idx = expr(p);
      if (!idx || !expect(p, T_RBRACK, "']'")) return NULL;
      n = call2(p, pos, opt ? "_[?_]" : "_[_]", n, idx);
    } else {
      break;
    }
  }
  p->depth -= chain > 0 ? chain - 1 : 0;
  return n;
}

/* After a '-' (consumed; pos is its position) and at an int or double
 * token: the negative literal. -9223372036854775808 is valid. */
static cel_node *negative_literal(parser *p, int32_t pos) {
  token t = p->tok;
  if (t.kind == T_INT && t.u > (uint64_t)INT64_MAX + 1) {
    report_first(p, pos, "invalid int literal"); /* at the sign, as cel-go */
    return NULL;
  }
  next(p);
  cel_node *lit = node(p, N_CONST, pos);
  lit->cval = t.kind == T_INT ? cel_int((int64_t)(0 - t.u)) : cel_double(-t.d);
  return lit; /* member suffixes on a negative literal (-1.foo()) are not parsed */
}

/* At a '-' token: whether a digit follows it (after blanks). */
static bool digit_follows(const parser *p) {
  size_t i = p->at;
  while (i < p->len && (p->src[i] == ' ' || p->src[i] == '\t' || p->src[i] == '\n' || p->src[i] == '\r')) i++;
  return i < p->len && p->src[i] >= '0' && p->src[i] <= '9';
}

static cel_node *unary(parser *p) {
  if (!enter(p)) return NULL;
  cel_node *r;
  int32_t pos = p->tok.pos;
  if (p->tok.kind == T_NOT || p->tok.kind == T_MINUS) {
    tok_kind k = p->tok.kind;
    int count = 0;
    while (p->tok.kind == k) {
      if (p->depth + ++count > MAX_DEPTH) { /* each operator nests the tree */
        syntax_error(p, p->tok.pos, "expression recursion limit exceeded: %d", MAX_DEPTH);
        p->depth--;
        return NULL;
      }
      next(p);
    }
    if (k == T_MINUS && count == 1 && (p->tok.kind == T_INT || p->tok.kind == T_DOUBLE)) {
      /* a lone '-' belongs to the literal: -9223372036854775808 is valid;
       * with more, cel-go's grammar takes them all as operators */
      r = negative_literal(p, pos);
      count--;
    } else if (k == T_NOT && p->tok.kind == T_MINUS && digit_follows(p)) {
      /* !-1: the '-' is the literal's sign (cel-go's grammar: ops, then a member) */
      int32_t sign = p->tok.pos;
      next(p);
      r = p->tok.kind == T_INT || p->tok.kind == T_DOUBLE ? negative_literal(p, sign) : member(p);
    } else {
      r = member(p);
    }
    /* as cel-go's parser: an even run of the same operator cancels out, an
     * odd one is a single call (!!x is x; ---x is -x) */
    if (r && count % 2) r = call(p, pos, k == T_NOT ? "!_" : "-_", (cel_node *[]){r}, 1, false);
  } else {
    r = member(p);
  }
  p->depth--;
  return r;
}

typedef struct {
  tok_kind tok;
  const char *fn;
} binop;

static const binop mul_ops[] = {{T_STAR, "_*_"}, {T_SLASH, "_/_"}, {T_PERCENT, "_%_"}, {T_EOF, NULL}};
static const binop add_ops[] = {{T_PLUS, "_+_"}, {T_MINUS, "_-_"}, {T_EOF, NULL}};
static const binop rel_ops[] = {{T_LT, "_<_"}, {T_LE, "_<=_"}, {T_GT, "_>_"}, {T_GE, "_>=_"},
                                {T_EQ, "_==_"}, {T_NE, "_!=_"}, {T_IN, "@in"}, {T_EOF, NULL}};

static const char *match_op(parser *p, const binop *ops) {
  for (const binop *o = ops; o->fn; o++)
    if (p->tok.kind == o->tok) return o->fn;
  return NULL;
}

static cel_node *binary_level(parser *p, int level) {
  static const binop *const levels[] = {rel_ops, add_ops, mul_ops};
  cel_node *l = level == 3 ? unary(p) : binary_level(p, level + 1);
  if (level == 3) return l;
  const char *fn;
  int chain = 0;
  while (l && (fn = match_op(p, levels[level]))) {
    int32_t pos = p->tok.pos;
    next(p);
    if (!enter(p)) { /* a chain nests the tree one level per operator */
      l = NULL;
      break;
    }
    chain++;
    cel_node *r = binary_level(p, level + 1);
    l = r ? call2(p, pos, fn, l, r) : NULL;
  }
  p->depth -= chain;
  return l;
}

static cel_node *logical(parser *p, bool is_or) {
  cel_node *l = is_or ? logical(p, false) : binary_level(p, 0);
  tok_kind k = is_or ? T_OR : T_AND;
  int chain = 0;
  while (l && p->tok.kind == k) {
    int32_t pos = p->tok.pos;
    next(p);
    if (!enter(p)) {
      l = NULL;
      break;
    }
    chain++;
    cel_node *r = is_or ? logical(p, false) : binary_level(p, 0);
    l = r ? call2(p, pos, is_or ? "_||_" : "_&&_", l, r) : NULL;
  }
  p->depth -= chain;
  return l;
}

static cel_node *expr(parser *p) {
  if (!enter(p)) return NULL;
  cel_node *c = logical(p, true);
  if (c && p->tok.kind == T_QUEST) {
    int32_t pos = p->tok.pos;
    next(p);
    cel_node *a = logical(p, true);
    if (a && expect(p, T_COLON, "':'")) {
      cel_node *b = expr(p);
      c = b ? call(p, pos, "_?_:_", (cel_node *[]){c, a, b}, 3, false) : NULL;
    } else {
      c = NULL;
    }
  }
  p->depth--;
  return c;
}

bool cel_parse(cel_ast *ast, bool macros) {
  parser p = {.ast = ast, .src = ast->src, .len = ast->len, .macros = macros};
  if (ast->len > 100000) {
    syntax_error(&p, 0, "expression code point size exceeds limit: size: %zu, limit 100000", ast->len);
    return false;
  }
  next(&p);
  cel_node *root = p.failed ? NULL : expr(&p);
  if (root && p.tok.kind != T_EOF) {
    char buf[64];
    if (p.tok.kind != T_ERR)
      syntax_error(&p, p.tok.pos, "extraneous input '%s' expecting <EOF>", tok_text(&p, buf, sizeof buf));
    root = NULL;
  }
  if (!root && !p.failed) syntax_error(&p, p.tok.pos, "unexpected input");
  ast->root = root;
  return root != NULL;
}
