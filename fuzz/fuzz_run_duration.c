/* fuzz_run_duration.c: libFuzzer target for sched_parse_run_duration (the
 * dra.k8s.io/run-duration annotation). Whatever parses is a whole number of
 * seconds within Go's range, reads back the same written as "<n>s", and
 * never shrinks when a further "1s" is appended (when that still parses). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/run_duration.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 3);
  memcpy(text, data, size);
  text[size] = 0;
  int64_t s, again;
  if (sched_parse_run_duration(text, &s)) {
    if (s < 0 || s > INT64_MAX / 1000000000 + 1) abort();
    char back[32];
    snprintf(back, sizeof back, "%" PRId64 "s", s);
    if (s <= INT64_MAX / 1000000000 && (!sched_parse_run_duration(back, &again) || again != s)) abort();
    if (!memchr(data, 0, size)) {
      strcpy(text + size, "1s");
      if (sched_parse_run_duration(text, &again) && again < s) abort();
    }
  }
  free(text);
  return 0;
}
