/* test_heap_return.c: util/heap_return.h trims only after work was noted,
 * once the caller has been idle idle_ms or busy_ms have passed since the
 * last trim, and then gives freed memory in the middle of the heap back:
 * 60 MB of small blocks freed between kept ones stay in RSS until the trim
 * (glibc's malloc; under AddressSanitizer only the timing is checked). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "util/heap_return.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

static void sleep_ms(long ms) {
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&t, NULL);
}

static void trims_when_due(void **state) {
  (void)state;
  heap_return h = {.idle_ms = 50, .busy_ms = 200};
  assert_false(heap_return_maybe(&h)); /* no work yet */
  heap_return_note_work(&h);
  assert_false(heap_return_maybe(&h)); /* not idle long enough */
  sleep_ms(80);
  assert_true(heap_return_maybe(&h)); /* idle 50 ms after work */
  assert_false(heap_return_maybe(&h)); /* nothing since */
  /* busy: work noted every 20 ms, a trim once 200 ms have passed */
  int trims = 0;
  for (int i = 0; i < 15; i++) {
    heap_return_note_work(&h);
    trims += heap_return_maybe(&h);
    sleep_ms(20);
  }
  assert_int_equal(trims, 1);
}

#ifndef UNDER_ASAN
static long rss_kb(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long v = -1;
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "VmRSS:", 6)) v = atol(line + 6);
  if (f) fclose(f);
  return v;
}

#endif

#define BLOCKS 65536
#define BLOCK 1000

static void gives_freed_memory_back(void **state) {
  (void)state;
#ifdef UNDER_ASAN
  skip();
#else
  /* every 16th block stays, so the freed ones lie between live ones */
  char **blocks = malloc(BLOCKS * sizeof *blocks);
  unsigned sum = 0;
  for (int i = 0; i < BLOCKS; i++) {
    blocks[i] = malloc(BLOCK);
    memset(blocks[i], i, BLOCK);
    sum += (unsigned char)blocks[i][i % BLOCK]; /* the pages are touched, not optimized away */
  }
  for (int i = 0; i < BLOCKS; i++)
    if (i % 16) free(blocks[i]);
  long before = rss_kb();
  heap_return h = {.idle_ms = 0, .busy_ms = 0};
  heap_return_note_work(&h);
  assert_true(heap_return_maybe(&h));
  long after = rss_kb();
  printf("RSS %ld KB before the trim, %ld KB after (sum %u)\n", before, after, sum);
  assert_true(before - after > 32 * 1024);
  for (int i = 0; i < BLOCKS; i += 16) free(blocks[i]);
  free(blocks);
#endif
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(trims_when_due), cmocka_unit_test(gives_freed_memory_back)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
