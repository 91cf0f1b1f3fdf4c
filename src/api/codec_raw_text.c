/* codec_raw_text.c: K_RAW_TEXT values (schema.h), a JSON value held as its
 * compact text: made from the value's tree when decoding, and read back
 * into a tree where something needs the value rather than its bytes
 * (codec_encode, pretty output, the field manager through
 * managed_fields_tree.c). */
#include "api/codec.h"

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
