/* fuzz_codec_direct.c: libFuzzer differential target for the direct decoder
 * (text -> typed structs with no tree): whatever a buffer decodes to
 * straight from its text must be exactly what the document tree gives
 * (tests/unit/objects_differential.h); a difference aborts. The input is
 * tried as given (YAML, or JSON when it starts with '{') and, when the tree
 * reads it, again as the JSON stream kubectl would print. Both paths are
 * also compared leaving managedFields out (kubectl dra's snapshot). */
#include "../tests/unit/objects_differential.h"
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (differential_check("fuzz", (const char *)data, size) == 1) abort();
  if (differential_check_skipping("fuzz", (const char *)data, size, CODEC_SKIP_MANAGED_FIELDS) == 1) abort();
  docset ds = {0};
  strbuf err = STRBUF_INIT, json = STRBUF_INIT;
  docs_load_buffer("fuzz", (const char *)data, size, &ds, &err);
  for (size_t i = 0; i < ds.n; i++) doc_write_json(&json, ds.items[i].root);
  if (json.len && differential_check("fuzz.json", json.buf, json.len) == 1) abort();
  if (json.len && differential_check_skipping("fuzz.json", json.buf, json.len, CODEC_SKIP_MANAGED_FIELDS) == 1) abort();
  docset_free(&ds);
  sb_free(&err);
  sb_free(&json);
  return 0;
}
