/* fielderr.c: field error construction and rendering; see fielderr.h. */
#include "util/fielderr.h"
#include "util/die.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Written in one reserve: validation pushes an index for every entry it
 * checks, error or not. */
size_t fp_index(fpath *p, size_t i) {
  size_t mark = p->sb.len;
  char digits[20], *d = digits + sizeof digits;
  do *--d = (char)('0' + i % 10);
  while (i /= 10);
  size_t n = (size_t)(digits + sizeof digits - d);
  char *at = sb_reserve(&p->sb, n + 2);
  at[0] = '[';
  memcpy(at + 1, d, n);
  at[n + 1] = ']';
  sb_commit(&p->sb, n + 2);
  return mark;
}

size_t fp_key(fpath *p, const char *key) {
  size_t mark = p->sb.len;
  sb_putc(&p->sb, '[');
  sb_puts(&p->sb, key);
  sb_putc(&p->sb, ']');
  return mark;
}

const char *fp_str(fpath *p) { return sb_str(&p->sb); }
void fp_free(fpath *p) { sb_free(&p->sb); }

char *fe_quote(const char *s) {
  strbuf sb = STRBUF_INIT;
  sb_go_quote(&sb, s ? s : "");
  return sb_detach(&sb);
}

void errlist_add(errlist *e, fe_type t, const char *field, const char *body) {
  e->items = xgrow(e->items, e->n, &e->cap, sizeof *e->items, 8);
  e->items[e->n].type = t;
  e->items[e->n].field = xstrdup(field ? field : "");
  e->items[e->n].body = xstrdup(body);
  e->n++;
}

static void add_fmt(errlist *e, fe_type t, fpath *p, strbuf *body) {
  errlist_add(e, t, p ? fp_str(p) : "", sb_str(body));
  sb_free(body);
}

static void with_detail(strbuf *sb, const char *detail) {
  if (detail && *detail) {
    sb_puts(sb, ": ");
    sb_puts(sb, detail);
  }
}

void fe_required(errlist *e, fpath *p, const char *detail) {
  strbuf sb = STRBUF_INIT;
  sb_puts(&sb, "Required value");
  with_detail(&sb, detail);
  add_fmt(e, FE_REQUIRED, p, &sb);
}

void fe_invalid(errlist *e, fpath *p, const char *rendered_value, const char *detail) {
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, "Invalid value: %s", rendered_value);
  with_detail(&sb, detail);
  add_fmt(e, FE_INVALID, p, &sb);
}

void fe_invalid_str(errlist *e, fpath *p, const char *value, const char *detail) {
  char *q = fe_quote(value);
  fe_invalid(e, p, q, detail);
  free(q);
}

void fe_invalid_int(errlist *e, fpath *p, int64_t value, const char *detail) {
  char buf[32];
  snprintf(buf, sizeof buf, "%" PRId64, value);
  fe_invalid(e, p, buf, detail);
}

void fe_not_supported(errlist *e, fpath *p, const char *value, const char *const *supported) {
  strbuf sb = STRBUF_INIT;
  sb_puts(&sb, "Unsupported value: ");
  sb_go_quote(&sb, value ? value : "");
  if (supported && supported[0]) {
    sb_puts(&sb, ": supported values: ");
    for (size_t i = 0; supported[i]; i++) {
      if (i) sb_puts(&sb, ", ");
      sb_go_quote(&sb, supported[i]);
    }
  }
  add_fmt(e, FE_NOT_SUPPORTED, p, &sb);
}

void fe_duplicate(errlist *e, fpath *p, const char *rendered_value) {
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, "Duplicate value: %s", rendered_value);
  add_fmt(e, FE_DUPLICATE, p, &sb);
}

void fe_duplicate_str(errlist *e, fpath *p, const char *value) {
  char *q = fe_quote(value);
  fe_duplicate(e, p, q);
  free(q);
}

void fe_not_found(errlist *e, fpath *p, const char *rendered_value, const char *detail) {
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, "Not found: %s", rendered_value);
  with_detail(&sb, detail);
  add_fmt(e, FE_NOT_FOUND, p, &sb);
}

void fe_forbidden(errlist *e, fpath *p, const char *detail) {
  strbuf sb = STRBUF_INIT;
  sb_puts(&sb, "Forbidden");
  with_detail(&sb, detail);
  add_fmt(e, FE_FORBIDDEN, p, &sb);
}

void fe_too_long(errlist *e, fpath *p, size_t max_bytes) {
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, "Too long: may not be more than %zu %s", max_bytes, max_bytes == 1 ? "byte" : "bytes");
  add_fmt(e, FE_TOO_LONG, p, &sb);
}

void fe_too_many(errlist *e, fpath *p, size_t actual, size_t max) {
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, "Too many: %zu: must have at most %zu %s", actual, max, max == 1 ? "item" : "items");
  add_fmt(e, FE_TOO_MANY, p, &sb);
}

void fe_internal(errlist *e, fpath *p, const char *detail) {
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, "Internal error: %s", detail ? detail : "");
  add_fmt(e, FE_INTERNAL, p, &sb);
}

void fe_decode(errlist *e, const char *field, const char *text) { errlist_add(e, FE_DECODE, field, text); }
void fe_unknown_field(errlist *e, const char *field, const char *text) { errlist_add(e, FE_UNKNOWN_FIELD, field, text); }

char *field_error_text(const field_error *fe) {
  strbuf sb = STRBUF_INIT;
  if (fe->type == FE_DECODE || fe->type == FE_UNKNOWN_FIELD || !fe->field[0]) {
    sb_puts(&sb, fe->body);
  } else {
    sb_puts(&sb, fe->field);
    sb_puts(&sb, ": ");
    sb_puts(&sb, fe->body);
  }
  return sb_detach(&sb);
}

char *errlist_aggregate(const errlist *e) {
  char **texts = xcalloc(e->n, sizeof *texts);
  size_t n = 0;
  for (size_t i = 0; i < e->n; i++) {
    char *t = field_error_text(&e->items[i]);
    bool dup = false;
    for (size_t j = 0; j < n && !dup; j++) dup = strcmp(texts[j], t) == 0;
    if (dup) free(t);
    else texts[n++] = t;
  }
  strbuf sb = STRBUF_INIT;
  if (n > 1) sb_putc(&sb, '[');
  for (size_t i = 0; i < n; i++) {
    if (i) sb_puts(&sb, ", ");
    sb_puts(&sb, texts[i]);
    free(texts[i]);
  }
  if (n > 1) sb_putc(&sb, ']');
  free(texts);
  return sb_detach(&sb);
}

const char *fe_reason(fe_type t) {
  switch (t) {
  case FE_REQUIRED: return "FieldValueRequired";
  case FE_INVALID: return "FieldValueInvalid";
  case FE_NOT_SUPPORTED: return "FieldValueNotSupported";
  case FE_DUPLICATE: return "FieldValueDuplicate";
  case FE_NOT_FOUND: return "FieldValueNotFound";
  case FE_FORBIDDEN: return "FieldValueForbidden";
  case FE_TOO_LONG: return "FieldValueTooLong";
  case FE_TOO_MANY: return "FieldValueTooMany";
  case FE_INTERNAL: return "InternalError";
  case FE_DECODE:
  case FE_UNKNOWN_FIELD: return "FieldValueInvalid";
  }
  return "FieldValueInvalid";
}

bool errlist_has_decode(const errlist *e) {
  for (size_t i = 0; i < e->n; i++)
    if (e->items[i].type == FE_DECODE || e->items[i].type == FE_UNKNOWN_FIELD) return true;
  return false;
}

void errlist_clear(errlist *e) {
  for (size_t i = 0; i < e->n; i++) {
    free(e->items[i].field);
    free(e->items[i].body);
  }
  e->n = 0;
}

void errlist_free(errlist *e) {
  errlist_clear(e);
  free(e->items);
  e->items = NULL;
  e->cap = 0;
}
