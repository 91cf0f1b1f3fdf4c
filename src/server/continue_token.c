/* continue_token.c: list continuation tokens: base64url of
 * {"rv":N,"start":"<namespace>/<name>"}, the last key a page returned
 * and the resourceVersion of the state the list shows (-1: the latest). */
#include "server/continue_token.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>


static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

static void base64url(strbuf *out, const char *s, size_t n) {
  for (size_t i = 0; i < n; i += 3) {
    unsigned v = (unsigned char)s[i] << 16;
    if (i + 1 < n) v |= (unsigned char)s[i + 1] << 8;
    if (i + 2 < n) v |= (unsigned char)s[i + 2];
    sb_putc(out, b64[(v >> 18) & 63]);
    sb_putc(out, b64[(v >> 12) & 63]);
    if (i + 1 < n) sb_putc(out, b64[(v >> 6) & 63]);
    if (i + 2 < n) sb_putc(out, b64[v & 63]);
  }
}

static bool unbase64url(const char *s, strbuf *out) {
  unsigned v = 0;
  int bits = 0;
  for (; *s; s++) {
    const char *p = *s == '=' ? NULL : strchr(b64, *s);
    if (*s == '=') continue;
    if (!p || !*s) return false;
    v = (v << 6) | (unsigned)(p - b64);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      sb_putc(out, (char)((v >> bits) & 0xFF));
    }
  }
  return true;
}

char *continue_token_key(const object_meta *last) {
  strbuf key = STRBUF_INIT;
  sb_printf(&key, "%s/%s", last->namespace_ ? last->namespace_ : "", last->name ? last->name : "");
  return sb_detach(&key);
}

char *continue_token_make(int64_t rv, const char *start) {
  json_t *j = json_object();
  json_object_set_new(j, "rv", json_integer((json_int_t)rv));
  json_object_set_new(j, "start", json_string(start));
  char *text = json_dumps(j, JSON_COMPACT);
  json_decref(j);
  strbuf out = STRBUF_INIT;
  base64url(&out, text, strlen(text));
  free(text);
  return sb_detach(&out);
}

bool continue_token_parse(const char *token, char **start, int64_t *rv) {
  strbuf raw = STRBUF_INIT;
  bool ok = unbase64url(token, &raw);
  json_error_t err;
  json_t *j = ok ? json_loadb(raw.buf ? raw.buf : "", raw.len, 0, &err) : NULL;
  sb_free(&raw);
  const char *s = json_string_value(json_object_get(j, "start"));
  json_t *at = json_object_get(j, "rv");
  *rv = json_is_integer(at) ? (int64_t)json_integer_value(at) : 0;
  ok = s && (*rv > 0 || *rv == CONTINUE_AT_LATEST);
  *start = ok ? xstrdup(s) : NULL;
  json_decref(j);
  return ok;
}

