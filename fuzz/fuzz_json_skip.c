/* fuzz_json_skip.c: libFuzzer target for json_skip_value (codec/json_skip.h)
 * and the case splitting of `dra allocate --batch` it serves. Any input:
 * no read out of bounds, and every array or object jansson reads is
 * skipped to where jansson's reading ended (the skipper accepts all the
 * JSON jansson does; it may accept more, e.g. invalid UTF-8), and a member
 * or item found in place is the one jansson read. Inputs with
 * a NUL byte are left out of that comparison: jansson ends a number at one
 * and reads on (`[0<NUL>]` is [0]), where the skipper, like JSON, refuses it. */
#include "codec/json_skip.h"
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The member "a" (of an object) or item 0 (of an array) found in place is
 * the value jansson read there, unless a key has an escape. */
static void members_as_jansson(const char *s, size_t len, const json_t *v) {
  bool plain = true;
  const json_t *want = json_is_object(v) ? json_object_get(v, "a") : json_array_get(v, 0);
  size_t at = json_is_object(v) ? json_skip_to_member(s, len, 0, "a", &plain) : json_skip_to_item(s, len, 0, 0);
  if (!plain) return;
  if (!want != !at) abort();
  if (!at) return;
  json_t *got = json_loadb(s + at, json_skip_value(s, len, at) - at, JSON_DECODE_ANY, NULL);
  if (!got || !json_equal(got, want)) abort();
  json_decref(got);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *s = (const char *)data;
  size_t end = json_skip_value(s, size, 0);
  if (end > size) abort();
  size_t start = json_skip_blanks(s, size, 0);
  if (start < size && (s[start] == '{' || s[start] == '[') && !memchr(s, 0, size)) {
    json_error_t err;
    json_t *v = json_loadb(s, size, JSON_DISABLE_EOF_CHECK, &err);
    if (v && end != (size_t)err.position) abort();
    if (v) members_as_jansson(s, end, v);
    json_decref(v);
  }
  return 0;
}
