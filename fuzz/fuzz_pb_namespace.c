/* fuzz_pb_namespace.c: libFuzzer target for the protobuf request-body
 * reader (server/body_pb.c): any bytes, with and without the "k8s\0"
 * magic; whatever reads is decoded as a Namespace. */
#include "fuzz_pb_common.h"
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
    decode_and_free(root);
  }
  free(body);
  return 0;
}
