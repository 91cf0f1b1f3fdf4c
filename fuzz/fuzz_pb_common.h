/* fuzz_pb_common.h: what both protobuf-body fuzzers do with a tree the
 * reader produced: decode it strictly as the server would, then free it. */
#ifndef DRA_FUZZ_PB_COMMON_H
#define DRA_FUZZ_PB_COMMON_H
#include "api/object.h"

static void decode_and_free(json_t *root) {
  if (!root) return;
  errlist errs = {0};
  api_object *obj = api_object_decode(root, NULL, 0, &errs);
  errlist_free(&errs);
  if (obj) api_object_free(obj);
  json_decref(root);
}
#endif
