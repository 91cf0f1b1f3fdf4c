/* fuzz_runtime_config.c: libFuzzer target for dra serve's --runtime-config
 * parser (server/served.h): any value either applies or is refused with a
 * message, never a crash or leak; an applied one leaves a served set whose
 * group versions all answer as served. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "server/served.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  memcpy(text, data, size);
  text[size] = 0;
  srv_served served;
  srv_served_default(&served);
  strbuf err = STRBUF_INIT;
  if (srv_served_parse(&served, text, &err)) {
    srv_group_version gvs[32];
    size_t n = srv_served_group_versions(&served, gvs, 32);
    for (size_t i = 0; i < n; i++)
      if (!srv_group_version_served(&served, gvs[i].group, gvs[i].version)) abort();
  } else if (!err.len) abort();
  sb_free(&err);
  free(text);
  return 0;
}
