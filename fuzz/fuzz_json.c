/* fuzz_json.c: libFuzzer target for the JSON reader and both writers. */
#include <stdint.h>
#include "fuzz_doc_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* the loader sends text to the JSON reader when it starts with '{' */
  strbuf text = STRBUF_INIT;
  sb_putc(&text, '{');
  sb_add(&text, (const char *)data, size);
  fuzz_documents("fuzz.json", (const uint8_t *)text.buf, text.len);
  sb_free(&text);
  return 0;
}
