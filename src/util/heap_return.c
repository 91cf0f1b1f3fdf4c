/* heap_return.c: see heap_return.h. */
#include "util/heap_return.h"
#include "util/timing.h"
#ifdef __GLIBC__
#include <malloc.h>
#endif

void heap_return_note_work(heap_return *h) {
  h->worked_ms = timing_now_ms();
  if (!h->trimmed_ms) h->trimmed_ms = h->worked_ms;
}

bool heap_return_maybe(heap_return *h) {
  if (!h->worked_ms) return false;
  int64_t now = timing_now_ms();
  if (now - h->worked_ms < h->idle_ms && now - h->trimmed_ms < h->busy_ms) return false;
#ifdef __GLIBC__
  malloc_trim(0);
#endif
  h->worked_ms = 0;
  h->trimmed_ms = now;
  return true;
}
