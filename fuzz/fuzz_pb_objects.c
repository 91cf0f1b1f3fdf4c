/* fuzz_pb_objects.c: libFuzzer target for the schema-driven protobuf
 * request-body reader (server/body_pb_workloads.c): the first byte picks
 * the kind (Pod, Deployment, Job, CronJob), the rest follows the "k8s\0"
 * magic; whatever reads is decoded strictly. */
#include "fuzz_pb_common.h"
#include "server/body_pb.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  static const api_kind kinds[] = {KIND_POD, KIND_DEPLOYMENT, KIND_JOB, KIND_CRON_JOB};
  api_kind kind = kinds[data[0] % (sizeof kinds / sizeof *kinds)];
  char *body = malloc(size + 3);
  memcpy(body, "k8s", 4);
  if (size > 1) memcpy(body + 4, data + 1, size - 1);
  strbuf err = STRBUF_INIT;
  json_t *root = srv_pb_object_json(kind, body, size + 3, &err);
  sb_free(&err);
  decode_and_free(root);
  free(body);
  return 0;
}
