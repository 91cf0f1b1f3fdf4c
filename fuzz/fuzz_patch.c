/* fuzz_patch.c: libFuzzer target for the three patch types of dra serve,
 * applied to a fixed pod document: any patch applies or is refused with a
 * message, never a crash or leak. */
#include <stdint.h>
#include <stdlib.h>

#include "server/patch.h"

static const char base[] =
    "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"labels\":{\"a\":\"b\"}},"
    "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\",\"env\":[{\"name\":\"X\",\"value\":\"1\"}]}],"
    "\"resourceClaims\":[{\"name\":\"g\",\"resourceClaimName\":\"c\"}]},\"status\":{\"conditions\":[{\"type\":\"Ready\"}]}}";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  json_error_t jerr;
  json_t *doc = json_loads(base, 0, &jerr);
  for (int t = PATCH_MERGE; t <= PATCH_STRATEGIC; t++) {
    strbuf err = STRBUF_INIT;
    patch_failure why;
    json_t *out = patch_apply((patch_type)t, doc, (const char *)data, size, &err, &why);
    if (!out && !err.len) abort();
    json_decref(out);
    sb_free(&err);
  }
  json_decref(doc);
  return 0;
}
