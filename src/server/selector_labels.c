/* selector_labels.c: label selectors as kube-apiserver reads them
 * (labels.Parse, k8s.io/apimachinery pkg/labels/selector.go): the tokens,
 * the grammar
 *   selector    := requirement ("," requirement)*
 *   requirement := ["!"] KEY [("in" | "notin") "(" values ")" |
 *                             ("=" | "==" | "!=" | ">" | "<") VALUE]
 * the checks of keys and values (a label key; label values; an integer
 * after > and <), and the words of each refusal. Matching is selector.c's. */
#include "server/selector.h"
#include "api/validate_names.h"
#include "util/die.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef enum {
  TOK_END,
  TOK_IDENT,
  TOK_NOT,    /* ! */
  TOK_EQ,     /* = */
  TOK_DEQ,    /* == */
  TOK_NEQ,    /* != */
  TOK_GT,     /* > */
  TOK_LT,     /* < */
  TOK_IN,     /* in */
  TOK_NOTIN,  /* notin */
  TOK_OPEN,   /* ( */
  TOK_CLOSE,  /* ) */
  TOK_COMMA,  /* , */
} tok_kind;

typedef struct token {
  tok_kind kind;
  char *text; /* as written; "" at the end */
} token;

typedef struct tokens {
  token *items;
  size_t n, at;
} tokens;

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
static bool is_symbol(char c) { return c && strchr("=!(),><", c); }

static void push(tokens *ts, tok_kind kind, const char *s, size_t n) {
  ts->items = xrealloc(ts->items, (ts->n + 1) * sizeof *ts->items);
  ts->items[ts->n++] = (token){kind, xstrndup(s, n)};
}

/* The whole text as tokens, ending with TOK_END. Symbols are read as the
 * longest operator they start ("===" is "==" then "="); words run to the
 * next blank or symbol, "in" and "notin" being keywords. */
static void scan(const char *s, tokens *ts) {
  for (;;) {
    while (is_blank(*s)) s++;
    if (!*s) break;
    if (is_symbol(*s)) {
      static const struct {
        const char *text;
        tok_kind kind;
      } symbols[] = {{"==", TOK_DEQ}, {"!=", TOK_NEQ}, {"=", TOK_EQ}, {"!", TOK_NOT}, {">", TOK_GT},
                     {"<", TOK_LT},   {"(", TOK_OPEN}, {")", TOK_CLOSE}, {",", TOK_COMMA}};
      for (size_t i = 0; i < sizeof symbols / sizeof *symbols; i++) {
        size_t n = strlen(symbols[i].text);
        if (!strncmp(s, symbols[i].text, n)) {
          push(ts, symbols[i].kind, s, n);
          s += n;
          break;
        }
      }
      continue;
    }
    const char *start = s;
    while (*s && !is_blank(*s) && !is_symbol(*s)) s++;
    size_t n = (size_t)(s - start);
    tok_kind kind = n == 2 && !strncmp(start, "in", 2) ? TOK_IN : n == 5 && !strncmp(start, "notin", 5) ? TOK_NOTIN : TOK_IDENT;
    push(ts, kind, start, n);
  }
  push(ts, TOK_END, "", 0);
}

/* Where keys and values are read, "in" and "notin" are words like others. */
static tok_kind as_value(tok_kind k) { return k == TOK_IN || k == TOK_NOTIN ? TOK_IDENT : k; }
static const token *peek(const tokens *ts) { return &ts->items[ts->at]; }
static const token *take(tokens *ts) { return &ts->items[ts->at < ts->n - 1 ? ts->at++ : ts->at]; }

static void add_value(sel_requirement *r, const char *v) {
  for (size_t i = 0; i < r->n_values; i++)
    if (!strcmp(r->values[i], v)) return; /* a set */
  r->values = xrealloc(r->values, (r->n_values + 1) * sizeof *r->values);
  r->values[r->n_values++] = xstrdup(v);
}

static int compare_values(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Go's strconv.ParseInt(v, 10, 64) succeeds. */
static bool parses_as_int64(const char *v, long long *out) {
  if (!*v || is_blank(*v)) return false;
  char *end;
  errno = 0;
  long long x = strtoll(v, &end, 10);
  if (errno || *end) return false;
  if (out) *out = x;
  return true;
}

/* One field error "<field>: Invalid value: "<v>": <detail>" into errs. */
static void invalid(strbuf *errs, size_t *n_errs, const char *field, const char *v, const char *detail) {
  errlist e = {0};
  fpath p = {STRBUF_INIT};
  fe_invalid_str(&e, &p, v, detail);
  sb_printf(errs, "%s%s: %s", (*n_errs)++ ? ", " : "", field, e.items[0].body);
  fp_free(&p);
  errlist_free(&e);
}

/* NewRequirement's checks of the values (the key was checked as read):
 * false with the error text (an aggregate of several in brackets). */
static bool check_values(const sel_requirement *r, strbuf *err) {
  strbuf errs = STRBUF_INIT;
  size_t n_errs = 0;
  char field[320];
  if (r->op == SEL_GT || r->op == SEL_LT)
    for (size_t i = 0; i < r->n_values; i++)
      if (!parses_as_int64(r->values[i], NULL)) {
        snprintf(field, sizeof field, "values[%zu]", i);
        invalid(&errs, &n_errs, field, r->values[i], "for 'Gt', 'Lt' operators, the value must be an integer");
      }
  for (size_t i = 0; i < r->n_values; i++) {
    strbuf why = STRBUF_INIT;
    if (!vn_label_value_messages(r->values[i], &why)) {
      snprintf(field, sizeof field, "values[%zu][%s]", i, r->key);
      invalid(&errs, &n_errs, field, r->values[i], sb_str(&why));
    }
    sb_free(&why);
  }
  if (n_errs == 1) sb_puts(err, sb_str(&errs));
  else if (n_errs) sb_printf(err, "[%s]", sb_str(&errs));
  sb_free(&errs);
  return !n_errs;
}

/* The values of "in" and "notin": "(" a, b, ... ")", where an empty
 * entry is the value "". */
static bool parse_set(tokens *ts, sel_requirement *r, strbuf *err) {
  const token *t = take(ts);
  if (as_value(t->kind) != TOK_OPEN) {
    sb_printf(err, "found '%s' expected: '('", t->text);
    return false;
  }
  t = peek(ts);
  tok_kind first = as_value(t->kind);
  if (first == TOK_CLOSE) {
    take(ts);
    add_value(r, "");
    return true;
  }
  if (first != TOK_IDENT && first != TOK_COMMA) {
    sb_printf(err, "found '%s', expected: ',', ')' or identifier", t->text);
    return false;
  }
  const char *opened_on = t->text;
  for (;;) {
    t = take(ts);
    tok_kind k = as_value(t->kind);
    if (k == TOK_IDENT) {
      add_value(r, t->text);
      const token *next = peek(ts);
      if (as_value(next->kind) == TOK_COMMA) continue;
      if (as_value(next->kind) == TOK_CLOSE) break;
      sb_printf(err, "found '%s', expected: ',' or ')'", next->text);
      return false;
    }
    if (k != TOK_COMMA) {
      sb_printf(err, "found '%s', expected: ',', or identifier", t->text);
      return false;
    }
    if (!r->n_values) add_value(r, ""); /* "(," */
    tok_kind next = as_value(peek(ts)->kind);
    if (next == TOK_CLOSE) {
      add_value(r, ""); /* ",)" */
      break;
    }
    if (next == TOK_COMMA) add_value(r, ""); /* ",," */
  }
  if (as_value(take(ts)->kind) != TOK_CLOSE) {
    sb_printf(err, "found '%s', expected: ')'", opened_on);
    return false;
  }
  return true;
}

/* One requirement, from its key on; err without "unable to parse
 * requirement: ", which the caller adds. */
static bool parse_requirement(tokens *ts, sel_requirement *r, strbuf *err) {
  const token *t = take(ts);
  bool negated = t->kind == TOK_NOT;
  if (negated) t = take(ts);
  if (as_value(t->kind) != TOK_IDENT) {
    sb_printf(err, "found '%s', expected: identifier", t->text);
    return false;
  }
  strbuf why = STRBUF_INIT;
  if (!vn_label_key_messages(t->text, &why)) {
    size_t n = 0;
    invalid(err, &n, "<nil>", t->text, sb_str(&why));
    sb_free(&why);
    return false;
  }
  sb_free(&why);
  r->key = xstrdup(t->text);
  tok_kind next = as_value(peek(ts)->kind);
  if (negated || next == TOK_END || next == TOK_COMMA) {
    r->op = negated ? SEL_DOES_NOT_EXIST : SEL_EXISTS;
    return true;
  }
  t = take(ts);
  switch (t->kind) {
  case TOK_IN: r->op = SEL_IN; break;
  case TOK_NOTIN: r->op = SEL_NOT_IN; break;
  case TOK_EQ:
  case TOK_DEQ: r->op = SEL_EQUALS; break;
  case TOK_NEQ: r->op = SEL_NOT_EQUALS; break;
  case TOK_GT: r->op = SEL_GT; break;
  case TOK_LT: r->op = SEL_LT; break;
  default: sb_printf(err, "found '%s', expected: in, notin, =, ==, !=, gt, lt", t->text); return false;
  }
  if (r->op == SEL_IN || r->op == SEL_NOT_IN) {
    if (!parse_set(ts, r, err)) return false;
  } else {
    next = as_value(peek(ts)->kind);
    if (next == TOK_END || next == TOK_COMMA) {
      add_value(r, "");
    } else {
      t = take(ts);
      if (as_value(t->kind) != TOK_IDENT) {
        sb_printf(err, "found '%s', expected: identifier", t->text);
        return false;
      }
      add_value(r, t->text);
    }
  }
  qsort(r->values, r->n_values, sizeof *r->values, compare_values); /* NewRequirement gets sets.List(): sorted */
  return check_values(r, err);
}

static bool parse_all(tokens *ts, selector *out, strbuf *err) {
  for (;;) {
    const token *t = peek(ts);
    tok_kind k = as_value(t->kind);
    if (k == TOK_END) return true;
    if (k != TOK_IDENT && k != TOK_NOT) {
      sb_printf(err, "found '%s', expected: !, identifier, or 'end of string'", t->text);
      return false;
    }
    out->reqs = xrealloc(out->reqs, (out->n + 1) * sizeof *out->reqs);
    sel_requirement *r = &out->reqs[out->n++];
    memset(r, 0, sizeof *r);
    strbuf why = STRBUF_INIT;
    if (!parse_requirement(ts, r, &why)) {
      sb_printf(err, "unable to parse requirement: %s", sb_str(&why));
      sb_free(&why);
      return false;
    }
    sb_free(&why);
    t = take(ts);
    if (t->kind == TOK_END) return true;
    if (t->kind != TOK_COMMA) {
      sb_printf(err, "found '%s', expected: ',' or 'end of string'", t->text);
      return false;
    }
    k = as_value(peek(ts)->kind);
    if (k != TOK_IDENT && k != TOK_NOT) {
      sb_printf(err, "found '%s', expected: identifier after ','", peek(ts)->text);
      return false;
    }
  }
}

bool label_selector_parse(const char *text, selector *out, strbuf *err) {
  memset(out, 0, sizeof *out);
  tokens ts = {0};
  scan(text ? text : "", &ts);
  bool ok = parse_all(&ts, out, err);
  for (size_t i = 0; i < ts.n; i++) free(ts.items[i].text);
  free(ts.items);
  if (!ok) selector_free(out);
  return ok;
}

bool label_selector_int_value(const char *v, long long *out) { return parses_as_int64(v, out); }
