/* heap_return.h: gives the memory malloc holds free back to the kernel
 * after bursts of work, as Go's scavenger does for kube-apiserver. glibc
 * returns only the free top of a heap by itself; objects freed in the
 * middle (finished pods' old versions, deleted claims) stay in RSS until
 * malloc_trim releases their pages. A caller notes its work and asks at
 * its quiet moments; the trim runs at most once per interval. */
#ifndef DRA_UTIL_HEAP_RETURN_H
#define DRA_UTIL_HEAP_RETURN_H
#include <stdbool.h>
#include <stdint.h>

typedef struct heap_return {
  int64_t idle_ms; /* after work, trim once the caller is idle this long */
  int64_t busy_ms; /* trim at least this often while work goes on */
  int64_t worked_ms; /* when work was last noted (0: none since the last trim) */
  int64_t trimmed_ms; /* when the last trim ran */
} heap_return;

#define HEAP_RETURN_INIT {.idle_ms = 2000, .busy_ms = 30000}

void heap_return_note_work(heap_return *h);
/* Trims when work was noted since the last trim and either the caller has
 * been idle idle_ms since it, or busy_ms have passed since the last trim.
 * Returns whether it trimmed. The trim takes malloc's locks for a few
 * milliseconds: call it without holding locks that others wait on. */
bool heap_return_maybe(heap_return *h);

#endif
