/* beside.h: one call run on a second thread while the caller goes on (on
 * a 2-core machine the other core is idle once the pages are read), or at
 * once when no thread starts; beside_wait joins it. The call must touch
 * nothing the caller uses until then. */
#ifndef KDRA_BESIDE_H
#define KDRA_BESIDE_H
#include <pthread.h>
#include <stdbool.h>

typedef struct beside {
  pthread_t thread;
  bool started;
} beside;

void beside_start(beside *b, void *(*fn)(void *arg), void *arg);
void beside_wait(beside *b);

#endif
