/* doc_tokens.c: which token source reads a buffer, and the token helpers
 * both sources share (see doc_tokens.h). */
#include "codec/doc_tokens.h"
#include "codec/doc_reader.h"

tk_source *doc_tokens_open(const char *data, size_t len, bool careful) {
  if (len > DOC_MAX_BYTES) return NULL;
  if (doc_looks_like_json(data, len)) return careful ? NULL : json_tokens_open(data, len);
  return careful ? yaml_tokens_open(data, len) : yaml_fast_open(data, len);
}

void tk_set_number(tk *t, double f) {
  json_t *v = doc_number(f);
  if (json_is_integer(v)) t->kind = TK_INTEGER, t->i = json_integer_value(v);
  else t->kind = TK_REAL, t->f = json_real_value(v);
  json_decref(v);
}

json_t *tk_scalar_json(const tk *t) {
  switch (t->kind) {
  case TK_STRING: return json_stringn_nocheck(t->s, t->len);
  case TK_INTEGER: return json_integer(t->i);
  case TK_REAL: return json_real(t->f);
  case TK_TRUE: return json_true();
  case TK_FALSE: return json_false();
  case TK_NULL: return json_null();
  default: return NULL;
  }
}

bool tk_skip_value(tk_source *src, tk *t) {
  if (src->skip && t->kind != TK_GIVE_UP) {
    src->skip(src, t);
    return t->kind != TK_GIVE_UP;
  }
  for (int depth = 0;; src->next(src, t)) {
    if (t->kind == TK_GIVE_UP) return false;
    if (t->kind == TK_OBJECT || t->kind == TK_ARRAY) depth++;
    else if (t->kind == TK_END) depth--;
    if (depth == 0) return true;
  }
}
