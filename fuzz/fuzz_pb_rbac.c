/* fuzz_pb_rbac.c: libFuzzer target for the protobuf readers of the RBAC
 * kinds (server/body_pb_rbac.c) and of the authorization.k8s.io reviews
 * (server/access_reviews_pb.c): any bytes after the "k8s\0" magic, read as
 * each RBAC kind (then decoded strictly) and as each review. */
#include "fuzz_pb_common.h"
#include "server/access_reviews.h"
#include "server/body_pb.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const api_kind kinds[] = {KIND_ROLE, KIND_CLUSTER_ROLE, KIND_ROLE_BINDING, KIND_CLUSTER_ROLE_BINDING};
  static const char *const reviews[] = {"selfsubjectaccessreviews", "subjectaccessreviews", "selfsubjectrulesreviews"};
  char *body = malloc(size + 4);
  memcpy(body, "k8s", 4);
  if (size) memcpy(body + 4, data, size);
  for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
    strbuf err = STRBUF_INIT;
    json_t *root = srv_pb_rbac_json(kinds[i], body, size + 4, &err);
    sb_free(&err);
    decode_and_free(root);
  }
  for (size_t i = 0; i < sizeof reviews / sizeof *reviews; i++) {
    strbuf err = STRBUF_INIT;
    json_t *root = srv_access_review_pb(reviews[i], body, size + 4, &err);
    sb_free(&err);
    json_decref(root);
  }
  free(body);
  return 0;
}
