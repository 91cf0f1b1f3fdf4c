/* fuzz_objects.c: libFuzzer target for the whole create path dra validate
 * takes: documents -> strict typed decoding -> admission (defaults, gate
 * drops, validation) -> encoding. Nothing may crash or leak, and an object
 * that was admitted must encode and decode again without errors. The input
 * then goes through the context module's load (dra_load_buffer) as well. */
#include <stdint.h>
#include <stdlib.h>

#include "dra.h"
#include "api/admission.h"
#include "load/objects.h"

static void ignore_warning(void *user, const char *line) {
  (void)user, (void)line;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  object_set set = {0};
  strbuf err = STRBUF_INIT;
  objects_load_buffer("fuzz.yaml", (const char *)data, size, &set, &err);
  admission_ctx ctx = {.now = "2026-01-02T03:04:05Z", .warn = ignore_warning};
  gates_default(&ctx.gates);
  for (size_t i = 0; i < set.n; i++) {
    loaded_object *lo = &set.items[i];
    if (lo->obj && lo->errs.n) free(api_decode_failure_message(lo->obj, &lo->errs));
    if (!loaded_object_ok(lo)) continue;
    errlist errs = {0};
    bool ok = admit_object(&ctx, ADMIT_CREATE, lo->obj, NULL, &errs);
    if (!ok) {
      char *msg = admission_invalid_message(lo->obj, &errs);
      free(msg);
    } else {
      json_t *j = api_object_encode(lo->obj);
      errlist again = {0};
      api_object *o = api_object_decode(j, NULL, 0, &again);
      if (!o || again.n) abort();
      api_object_free(o);
      errlist_free(&again);
      json_decref(j);
    }
    errlist_free(&errs);
  }
  object_set_free(&set);
  sb_free(&err);
  /* the same input through the context module: admitted and stored */
  dra_ctx *c = NULL;
  dra_open(&c, NULL);
  dra_set_time(c, 1767225600);
  dra_load_buffer(c, "fuzz.yaml", (const char *)data, size, 0);
  dra_close(c);
  return 0;
}
