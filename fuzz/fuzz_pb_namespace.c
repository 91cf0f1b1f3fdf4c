/* fuzz_pb_namespace.c: libFuzzer target for the protobuf request-body
 * reader (server/body_pb.c): any bytes, with and without the "k8s\0"
 * magic; whatever reads is decoded as a Namespace. */
#include "api/object.h"
#include "server/body_pb.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *body = malloc(size + 4);
  memcpy(body, "k8s", 4);
  if (size) memcpy(body + 4, data, size);
  for (int with_magic = 0; with_magic < 2; with_magic++) {
    strbuf err = STRBUF_INIT;
    json_t *root = with_magic ? srv_pb_namespace_json(body, size + 4, &err)
                              : srv_pb_namespace_json((const char *)data, size, &err);
    sb_free(&err);
    if (!root) continue;
    errlist errs = {0};
    api_object *obj = api_object_decode(root, NULL, 0, &errs);
    errlist_free(&errs);
    if (obj) api_object_free(obj);
    json_decref(root);
  }
  free(body);
  return 0;
}
