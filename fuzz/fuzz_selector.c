/* fuzz_selector.c: libFuzzer target for the label and field selector
 * parsers and the continue-token parser of dra serve: any input either
 * parses or is refused with a message, never a crash or leak. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "server/continue_token.h"
#include "server/selector.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  memcpy(text, data, size);
  text[size] = 0;
  selector sel;
  strbuf err = STRBUF_INIT;
  if (label_selector_parse(text, &sel, &err)) {
    object_meta m = {0};
    label_selector_matches(&sel, &m);
    selector_free(&sel);
  } else if (!err.len) abort();
  sb_truncate(&err, 0);
  if (field_selector_parse(text, &sel, &err)) selector_free(&sel);
  else if (!err.len) abort();
  char *start = NULL;
  if (continue_token_parse(text, &start)) free(start);
  sb_free(&err);
  free(text);
  return 0;
}
