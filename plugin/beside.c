/* beside.c: a call on a second thread (see beside.h). */
#include "beside.h"

void beside_start(beside *b, void *(*fn)(void *arg), void *arg) {
  b->started = !pthread_create(&b->thread, NULL, fn, arg);
  if (!b->started) fn(arg);
}

void beside_wait(beside *b) {
  if (b->started) pthread_join(b->thread, NULL);
  b->started = false;
}
