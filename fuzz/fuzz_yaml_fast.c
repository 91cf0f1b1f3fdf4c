/* fuzz_yaml_fast.c: libFuzzer differential target for the YAML read
 * without libyaml (codec/yaml_fast.c): whatever it reads without giving up
 * must give the very tokens libyaml's events give (yaml_tokens.c); a
 * difference, or libyaml giving up where it did not, aborts. The input is
 * checked alone, then three times over (joined by line breaks), so that
 * its flow collections come again and are copied from the reader's memo
 * (codec/yaml_flow_memo.h). */
#include "../tests/unit/yaml_fast_differential.h"
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (yaml_fast_check((const char *)data, size) == 1) abort();
  if (size > 4096) return 0;
  char *thrice = malloc(3 * size + 2);
  for (int i = 0; i < 3; i++) {
    memcpy(thrice + i * (size + 1), data, size);
    if (i < 2) thrice[i * (size + 1) + size] = '\n';
  }
  int r = yaml_fast_check(thrice, 3 * size + 2);
  free(thrice);
  if (r == 1) abort();
  return 0;
}
