/* fuzz_access_review.c: libFuzzer target for the authorization.k8s.io
 * reviews' protobuf reader (server/access_reviews_pb.c): any bytes after
 * the "k8s\0" magic, read as each of the review kinds. */
#include "server/access_reviews.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char *const plurals[] = {"selfsubjectaccessreviews", "subjectaccessreviews", "selfsubjectrulesreviews"};
  char *body = malloc(size + 4);
  memcpy(body, "k8s", 4);
  if (size) memcpy(body + 4, data, size);
  for (size_t i = 0; i < sizeof plurals / sizeof *plurals; i++) {
    strbuf err = STRBUF_INIT;
    json_t *root = srv_access_review_pb(plurals[i], body, size + 4, &err);
    sb_free(&err);
    json_decref(root);
  }
  free(body);
  return 0;
}
