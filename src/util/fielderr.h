/* fielderr.h: Kubernetes field errors (apimachinery field.Error) and the path
 * builder that names where they are. One error = type + path + body, rendered
 * "<path>: <body>" exactly as kube-apiserver prints it (apimachinery
 * pkg/util/validation/field, errors.go). */
#ifndef DRA_FIELDERR_H
#define DRA_FIELDERR_H
#include "util/strbuf.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef enum {
  FE_REQUIRED,
  FE_INVALID,
  FE_NOT_SUPPORTED,
  FE_DUPLICATE,
  FE_NOT_FOUND,
  FE_FORBIDDEN,
  FE_TOO_LONG,
  FE_TOO_MANY,
  FE_INTERNAL,
  FE_DECODE,       /* a malformed value (wrong type, bad quantity): always refused, not a 422 */
  FE_UNKNOWN_FIELD /* an unknown or duplicate field: refused under fieldValidation=Strict */
} fe_type;

typedef struct field_error {
  fe_type type;
  char *field; /* "spec.devices.requests[0].name"; "" for whole-object */
  char *body;  /* "Invalid value: -1: must be greater than zero" */
} field_error;

typedef struct errlist {
  field_error *items;
  size_t n, cap;
} errlist;

/* The current field path. Push returns a mark; pop restores it. */
typedef struct fpath {
  strbuf sb;
} fpath;

/* ".name" (no dot at the root). Inline: validation pushes a field for
 * every member it checks, error or not, mostly a literal name whose length
 * and copy the compiler then works out. */
static inline size_t fp_field(fpath *p, const char *name) {
  size_t mark = p->sb.len, n = strlen(name), dot = mark != 0;
  char *at = sb_reserve(&p->sb, n + 1);
  at[0] = '.';
  memcpy(at + dot, name, n);
  sb_commit(&p->sb, n + dot);
  return mark;
}
size_t fp_index(fpath *p, size_t i);           /* "[i]" */
size_t fp_key(fpath *p, const char *key);      /* "[key]" unquoted */
/* Back to mark (inline: a pop follows every push). */
static inline void fp_pop(fpath *p, size_t mark) {
  if (mark < p->sb.len) {
    p->sb.len = mark;
    p->sb.buf[mark] = 0;
  }
}
/* Runs stmt (a check reporting at p) with p at p.key. */
#define AT(p, key, stmt)                \
  do {                                  \
    size_t mark_ = fp_field(p, key);    \
    stmt;                               \
    fp_pop(p, mark_);                   \
  } while (0)
const char *fp_str(fpath *p);
void fp_free(fpath *p);

/* Value renderers for Invalid/NotSupported/Duplicate bodies. */
char *fe_quote(const char *s);                 /* Go-quoted string, malloc'd */

void fe_required(errlist *e, fpath *p, const char *detail);
void fe_invalid(errlist *e, fpath *p, const char *rendered_value, const char *detail);
void fe_invalid_str(errlist *e, fpath *p, const char *value, const char *detail);
void fe_invalid_int(errlist *e, fpath *p, int64_t value, const char *detail);
void fe_not_supported(errlist *e, fpath *p, const char *value, const char *const *supported);
void fe_duplicate(errlist *e, fpath *p, const char *rendered_value);
void fe_duplicate_str(errlist *e, fpath *p, const char *value);
void fe_not_found(errlist *e, fpath *p, const char *rendered_value, const char *detail);
void fe_forbidden(errlist *e, fpath *p, const char *detail);
void fe_too_long(errlist *e, fpath *p, size_t max_bytes);
void fe_too_many(errlist *e, fpath *p, size_t actual, size_t max);
void fe_internal(errlist *e, fpath *p, const char *detail);
void fe_decode(errlist *e, const char *field, const char *text);
void fe_unknown_field(errlist *e, const char *field, const char *text);
/* Appends an error with an explicit path (no fpath). */
void errlist_add(errlist *e, fe_type t, const char *field, const char *body);

/* "path: body" for one error. malloc'd. */
char *field_error_text(const field_error *fe);
/* As ErrorList.ToAggregate does: de-duplicated texts joined by ", ", bracketed when >1. */
char *errlist_aggregate(const errlist *e);
/* The Status cause reason (FieldValueInvalid, ...). */
const char *fe_reason(fe_type t);
/* Whether any error is FE_DECODE or FE_UNKNOWN_FIELD. */
bool errlist_has_decode(const errlist *e);
void errlist_clear(errlist *e);
void errlist_free(errlist *e);

#endif
