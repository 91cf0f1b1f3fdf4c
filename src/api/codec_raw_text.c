/* codec_raw_text.c: K_RAW_TEXT values (schema.h), a JSON value held as its
 * compact text: made from the value's tree when decoding, and read back
 * into a tree where something needs the value rather than its bytes
 * (codec_encode, pretty output, the field manager through
 * managed_fields_tree.c); and, for the restore, a stored one found by the
 * text it is read from. */
#include "api/codec.h"
#include <stdbool.h>

json_t *codec_raw_text(const json_t *v) {
  strbuf sb = STRBUF_INIT;
  json_t *text = codec_compact_tree(&sb, v) ? json_stringn_nocheck(sb.buf ? sb.buf : "", sb.len) : NULL;
  sb_free(&sb);
  return text;
}

json_t *codec_raw_text_tree(const json_t *text) {
  json_t *v = text ? json_loadb(json_string_value(text), json_string_length(text), JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL)
                   : NULL;
  return v ? v : json_null();
}

/* How many levels the compact JSON text of a value nests. */
static int nesting(const char *s, size_t n) {
  int depth = 0, deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (in_string) {
      if (c == '\\') i++;
      else if (c == '"') in_string = false;
    } else if (c == '"') in_string = true;
    else if (c == '{' || c == '[') deepest = ++depth > deepest ? depth : deepest;
    else if (c == '}' || c == ']') depth--;
  }
  return deepest;
}

json_t *codec_raw_text_stored(const char *s, size_t n, int room) {
  json_t *text = codec_share_string(s, n);
  if (text && nesting(s, n) > room) {
    json_decref(text);
    return NULL;
  }
  return text;
}
