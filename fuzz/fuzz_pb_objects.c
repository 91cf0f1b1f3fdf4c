/* fuzz_pb_objects.c: libFuzzer target for the protobuf decoder
 * (codec/pb_codec.h), as a request body meets it: any bytes, with the
 * "k8s\0" magic put in front when they lack it; whatever decodes is
 * encoded back and decoded strictly into a typed object, as the server
 * would. */
#include "api/object.h"
#include "codec/pb_codec.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void use(json_t *root) {
  strbuf pb = STRBUF_INIT, err = STRBUF_INIT;
  pb_encode_object(root, &pb, &err);
  sb_free(&pb);
  sb_free(&err);
  errlist errs = {0};
  api_object *obj = api_object_decode(root, NULL, 0, &errs);
  errlist_free(&errs);
  if (obj) api_object_free(obj);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  bool has_magic = size >= 4 && !memcmp(data, "k8s", 4);
  unsigned char *body = malloc(size + 4);
  memcpy(body, "k8s", 4);
  if (size) memcpy(body + 4, data, size);
  strbuf err = STRBUF_INIT;
  json_t *root = has_magic ? pb_decode_object(data, size, &err) : pb_decode_object(body, size + 4, &err);
  sb_free(&err);
  if (root) use(root);
  json_decref(root);
  free(body);
  return 0;
}
