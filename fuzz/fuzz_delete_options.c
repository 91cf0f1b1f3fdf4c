/* fuzz_delete_options.c: libFuzzer target for the DeleteOptions reader of
 * DELETE requests (server/delete_options.h): the input is taken once as a
 * body and once as a query string; either way it is read, refused with a
 * 400 message, or refused with field errors, never a crash or leak, and a
 * refusal always says why. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "server/delete_options.h"

static void one(const char *body, size_t len, const http_query_param *q, size_t n) {
  delete_options o;
  strbuf msg = STRBUF_INIT;
  errlist errs = {0};
  switch (delete_options_parse(body, len, q, n, &o, &msg, &errs)) {
  case DELETE_OPTIONS_OK:
    if (msg.len || errs.n) abort();
    break;
  case DELETE_OPTIONS_BAD_REQUEST:
    if (!msg.len) abort();
    break;
  case DELETE_OPTIONS_INVALID:
    if (!errs.n) abort();
    break;
  }
  sb_free(&msg);
  errlist_free(&errs);
  delete_options_free(&o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  memcpy(text, data, size);
  text[size] = 0;
  if (size) one(text, size, NULL, 0);
  http_query_param *q = NULL;
  size_t n = 0;
  http_parse_query(text, &q, &n);
  one(NULL, 0, q, n);
  http_free_query(q, n);
  free(text);
  return 0;
}
