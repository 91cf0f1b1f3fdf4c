/* fuzz_yaml.c: libFuzzer target for the YAML reader and both writers. */
#include <stdint.h>
#include <string.h>
#include "fuzz_doc_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* kubectl sniffs '{' as JSON; skip those so this target stays on YAML */
  size_t i = 0;
  while (i < size && strchr(" \t\r\n", data[i]) && data[i]) i++;
  if (i < size && data[i] == '{') return 0;
  fuzz_documents("fuzz.yaml", data, size);
  return 0;
}
