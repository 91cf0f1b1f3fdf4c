/* fuzz_json_skip.c: libFuzzer target for json_skip_value (codec/json_skip.h)
 * and the case splitting of `dra allocate --batch` it serves. Any input:
 * no read out of bounds, and every array or object jansson reads is
 * skipped to where jansson's reading ended (the skipper accepts all the
 * JSON jansson does; it may accept more, e.g. invalid UTF-8). Inputs with
 * a NUL byte are left out of that comparison: jansson ends a number at one
 * and reads on (`[0<NUL>]` is [0]), where the skipper, like JSON, refuses it. */
#include "codec/json_skip.h"
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *s = (const char *)data;
  size_t end = json_skip_value(s, size, 0);
  if (end > size) abort();
  size_t start = json_skip_blanks(s, size, 0);
  if (start < size && (s[start] == '{' || s[start] == '[') && !memchr(s, 0, size)) {
    json_error_t err;
    json_t *v = json_loadb(s, size, JSON_DISABLE_EOF_CHECK, &err);
    if (v && end != (size_t)err.position) abort();
    json_decref(v);
  }
  return 0;
}
