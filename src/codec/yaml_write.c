/* yaml_write.c: json_t -> YAML as kubectl -o yaml prints it. kubectl goes
 * json.Marshal -> go-yaml v2 Unmarshal -> go-yaml v2 Marshal; go-yaml's
 * emitter is a port of libyaml's, so libyaml's emitter does the layout here
 * (block style, indentless sequences, 80-column folding) and this file makes
 * go-yaml's choices: key order, scalar styles, number spelling. */
#include "codec/doc.h"
#include "codec/gofloat.h"
#include "codec/yaml_resolve.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

static int append_output(void *data, unsigned char *buffer, size_t size) {
  sb_add(data, (const char *)buffer, size);
  return 1;
}

static void emit(yaml_emitter_t *e, yaml_event_t *ev) {
  if (!yaml_emitter_emit(e, ev)) die_bug(e->problem ? e->problem : "yaml emitter failed");
}

static void emit_scalar(yaml_emitter_t *e, const char *text, size_t len, yaml_scalar_style_t style) {
  yaml_event_t ev;
  if (!yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)text, (int)len, 1, 1, style)) die_oom();
  emit(e, &ev);
}

/* go-yaml's encoder: multi-line strings as literal blocks, strings that would
 * read back as something else (or as a YAML 1.1 base-60 float) double-quoted,
 * the rest plain; the emitter still quotes what plain style cannot carry.
 * Unlike go-yaml, a "<<" key is quoted too, or it would read back as a merge. */
static void emit_string(yaml_emitter_t *e, const char *s, size_t len, bool is_key) {
  yr_value rv;
  yaml_scalar_style_t style = YAML_PLAIN_SCALAR_STYLE;
  if (memchr(s, '\n', len)) style = YAML_LITERAL_SCALAR_STYLE;
  else if (yaml_resolve_plain(s, len, &rv) != YR_STR || yaml_is_base60_float(s, len) || yaml_is_v2_letter_bool(s, len) || (is_key && len == 2 && !memcmp(s, "<<", 2)))
    style = YAML_DOUBLE_QUOTED_SCALAR_STYLE;
  emit_scalar(e, s, len, style);
}

/* A real as kubectl shows it: json.Marshal's text, read back by go-yaml (an
 * integral value becomes an int) and printed with FormatFloat 'g'. */
static void emit_real(yaml_emitter_t *e, double f) {
  strbuf json = STRBUF_INIT, text = STRBUF_INIT;
  go_format_float_json(&json, f);
  yr_value rv;
  switch (yaml_resolve_plain(json.buf, json.len, &rv)) {
  case YR_INT: sb_printf(&text, "%lld", (long long)rv.i); break;
  case YR_UINT: sb_printf(&text, "%llu", (unsigned long long)rv.u); break;
  default: go_format_float_g(&text, f, 64); break;
  }
  emit_scalar(e, text.buf, text.len, YAML_PLAIN_SCALAR_STYLE);
  sb_free(&json);
  sb_free(&text);
}

/* unicode.IsLetter, close enough: ASCII letters, and non-ASCII code points
 * outside the common punctuation/symbol blocks. */
static bool is_letter(unsigned c) {
  if (c < 0x80) return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
  if (c == 0xAA || c == 0xB5 || c == 0xBA) return true;
  if (c < 0xC0 || c == 0xD7 || c == 0xF7) return false;
  if ((c >= 0x2000 && c <= 0x2BFF) || (c >= 0x3000 && c <= 0x303F) || (c >= 0xE000 && c <= 0xF8FF) ||
      (c >= 0xFF00 && c <= 0xFF20) || (c >= 0x1F000 && c <= 0x1FFFF))
    return false;
  return true;
}

static bool is_digit(unsigned c) { return c >= '0' && c <= '9'; }

typedef struct key {
  const char *s;
  size_t len;
  unsigned *runes;
  size_t n;
} key;

/* UTF-8 -> code points, as Go's []rune(s) (invalid bytes become U+FFFD). */
static void to_runes(key *k) {
  k->runes = xmalloc((k->len + 1) * sizeof *k->runes);
  k->n = 0;
  const unsigned char *p = (const unsigned char *)k->s;
  for (size_t i = 0; i < k->len;) {
    unsigned c = p[i];
    size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (!n || i + n > k->len) {
      k->runes[k->n++] = 0xFFFD;
      i++;
      continue;
    }
    unsigned cp = n == 1 ? c : c & (0x7Fu >> n);
    for (size_t j = 1; j < n; j++) cp = (cp << 6) | (p[i + j] & 0x3Fu);
    k->runes[k->n++] = cp;
    i += n;
  }
}

/* go-yaml v2's keyList.Less for two string keys: letters after non-letters,
 * runs of digits compared by value. */
static int compare_keys(const void *pa, const void *pb) {
  const key *a = pa, *b = pb;
  const unsigned *ar = a->runes, *br = b->runes;
  for (size_t i = 0; i < a->n && i < b->n; i++) {
    if (ar[i] == br[i]) continue;
    bool al = is_letter(ar[i]), bl = is_letter(br[i]);
    if (al && bl) return ar[i] < br[i] ? -1 : 1;
    if (al || bl) return bl ? -1 : 1;
    uint64_t an = 0, bn = 0; /* Go's int64 arithmetic wraps; so does this */
    if (ar[i] == '0' || br[i] == '0') {
      for (size_t j = i; j-- > 0 && is_digit(ar[j]);) {
        if (ar[j] != '0') {
          an = bn = 1;
          break;
        }
      }
    }
    size_t ai = i, bi = i;
    for (; ai < a->n && is_digit(ar[ai]); ai++) an = an * 10 + (ar[ai] - '0');
    for (; bi < b->n && is_digit(br[bi]); bi++) bn = bn * 10 + (br[bi] - '0');
    if (an != bn) return (int64_t)an < (int64_t)bn ? -1 : 1;
    if (ai != bi) return ai < bi ? -1 : 1;
    return ar[i] < br[i] ? -1 : 1;
  }
  return a->n < b->n ? -1 : a->n > b->n ? 1 : 0;
}

static void emit_value(yaml_emitter_t *e, const json_t *v);

static void emit_object(yaml_emitter_t *e, const json_t *v) {
  yaml_event_t ev;
  if (!yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE)) die_oom();
  emit(e, &ev);
  size_t n = json_object_size(v), i = 0;
  key *keys = xmalloc((n ? n : 1) * sizeof *keys);
  const char *k;
  size_t klen;
  json_t *child;
  json_object_keylen_foreach((json_t *)v, k, klen, child) {
    keys[i] = (key){.s = k, .len = klen};
    to_runes(&keys[i++]);
  }
  qsort(keys, n, sizeof *keys, compare_keys);
  for (i = 0; i < n; i++) {
    emit_string(e, keys[i].s, keys[i].len, true);
    emit_value(e, json_object_getn(v, keys[i].s, keys[i].len));
    free(keys[i].runes);
  }
  free(keys);
  if (!yaml_mapping_end_event_initialize(&ev)) die_oom();
  emit(e, &ev);
}

static void emit_array(yaml_emitter_t *e, const json_t *v) {
  yaml_event_t ev;
  if (!yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE)) die_oom();
  emit(e, &ev);
  size_t i;
  json_t *child;
  json_array_foreach(v, i, child) emit_value(e, child);
  if (!yaml_sequence_end_event_initialize(&ev)) die_oom();
  emit(e, &ev);
}

static void emit_value(yaml_emitter_t *e, const json_t *v) {
  char num[32];
  switch (json_typeof(v)) {
  case JSON_OBJECT: emit_object(e, v); return;
  case JSON_ARRAY: emit_array(e, v); return;
  case JSON_STRING: emit_string(e, json_string_value(v), json_string_length(v), false); return;
  case JSON_INTEGER:
    snprintf(num, sizeof num, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
    emit_scalar(e, num, strlen(num), YAML_PLAIN_SCALAR_STYLE);
    return;
  case JSON_REAL: emit_real(e, json_real_value(v)); return;
  case JSON_TRUE: emit_scalar(e, "true", 4, YAML_PLAIN_SCALAR_STYLE); return;
  case JSON_FALSE: emit_scalar(e, "false", 5, YAML_PLAIN_SCALAR_STYLE); return;
  case JSON_NULL: emit_scalar(e, "null", 4, YAML_PLAIN_SCALAR_STYLE); return;
  }
}

void doc_write_yaml(strbuf *out, const json_t *v) {
  yaml_emitter_t e;
  yaml_event_t ev;
  if (!yaml_emitter_initialize(&e)) die_oom();
  yaml_emitter_set_output(&e, append_output, out);
  yaml_emitter_set_unicode(&e, 1);
  if (!yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING)) die_oom();
  emit(&e, &ev);
  if (!yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1)) die_oom();
  emit(&e, &ev);
  emit_value(&e, v);
  if (!yaml_document_end_event_initialize(&ev, 1)) die_oom();
  emit(&e, &ev);
  /* go-yaml's encoder clears this before STREAM-END, so a document ending in
   * a "|+" block gets no "..." line (libyaml would write one). */
  e.open_ended = 0;
  if (!yaml_stream_end_event_initialize(&ev)) die_oom();
  emit(&e, &ev);
  yaml_emitter_delete(&e);
}
