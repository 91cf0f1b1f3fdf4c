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
  /* a token that parses names a state (> 0, or the latest) and makes the
   * same token again */
  char *start = NULL;
  int64_t rv = 0;
  if (continue_token_parse(text, &start, &rv)) {
    if (rv <= 0 && rv != CONTINUE_AT_LATEST) abort();
    char *again = continue_token_make(rv, start), *start_again = NULL;
    int64_t rv_again = 0;
    if (!continue_token_parse(again, &start_again, &rv_again) || rv_again != rv || strcmp(start_again, start)) abort();
    free(again);
    free(start_again);
    free(start);
  }
  sb_free(&err);
  free(text);
  return 0;
}
