/* yaml_fast_differential.h: the check the fast YAML source's test and
 * fuzzer share: wherever yaml_fast.c reads a buffer without giving up, its
 * tokens, document by document with each document's line, are exactly the
 * ones yaml_tokens.c makes from libyaml's events. */
#ifndef DRA_YAML_FAST_DIFFERENTIAL_H
#define DRA_YAML_FAST_DIFFERENTIAL_H
#include "codec/doc_tokens.h"
#include "util/strbuf.h"
#include <stdio.h>
#include <string.h>

/* Every document's tokens as text; false when the source gives up. */
static bool yaml_token_text(tk_source *src, strbuf *out) {
  tk t;
  int line;
  while (src->next_doc(src, &t, &line)) {
    sb_printf(out, "doc %d\n", line);
    for (int depth = 0;; src->next(src, &t)) {
      switch (t.kind) {
      case TK_GIVE_UP: return false;
      case TK_OBJECT: sb_puts(out, "{\n"), depth++; break;
      case TK_ARRAY: sb_puts(out, "[\n"), depth++; break;
      case TK_END: sb_puts(out, "end\n"), depth--; break;
      case TK_STRING:
        sb_printf(out, "string %zu ", t.len);
        sb_add(out, t.s, t.len);
        sb_putc(out, '\n');
        break;
      case TK_INTEGER: sb_printf(out, "integer %lld\n", (long long)t.i); break;
      case TK_REAL: sb_printf(out, "real %.17g\n", t.f); break;
      case TK_TRUE: sb_puts(out, "true\n"); break;
      case TK_FALSE: sb_puts(out, "false\n"); break;
      case TK_NULL: sb_puts(out, "null\n"); break;
      }
      if (depth == 0) break;
    }
  }
  return t.kind != TK_GIVE_UP;
}

/* -1: the fast source gives up (nothing to compare); 0: both sources give
 * the same tokens; 1: they differ, or libyaml's gives up (said on stderr). */
static int yaml_fast_check(const char *data, size_t len) {
  strbuf fast = STRBUF_INIT, careful = STRBUF_INIT;
  tk_source *src = yaml_fast_open(data, len);
  bool fast_ok = yaml_token_text(src, &fast);
  src->close(src);
  int result = -1;
  if (fast_ok) {
    src = yaml_tokens_open(data, len);
    bool careful_ok = yaml_token_text(src, &careful);
    src->close(src);
    result = careful_ok && fast.len == careful.len && !memcmp(fast.buf, careful.buf, fast.len) ? 0 : 1;
    if (result)
      fprintf(stderr, "yaml_fast differs from libyaml%s\nfast:\n%s\nlibyaml:\n%s\n", careful_ok ? "" : " (which gives up)",
              sb_str(&fast), sb_str(&careful));
  }
  sb_free(&fast);
  sb_free(&careful);
  return result;
}

#endif
