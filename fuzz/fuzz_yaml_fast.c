/* fuzz_yaml_fast.c: libFuzzer differential target for the YAML read
 * without libyaml (codec/yaml_fast.c): whatever it reads without giving up
 * must give the very tokens libyaml's events give (yaml_tokens.c); a
 * difference, or libyaml giving up where it did not, aborts. */
#include "../tests/unit/yaml_fast_differential.h"
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (yaml_fast_check((const char *)data, size) == 1) abort();
  return 0;
}
