/* worker.c: start and stop of a background thread (worker.h). */
#include "util/worker.h"
#include "util/die.h"

void worker_start(worker *w, void *(*main_fn)(void *), void *arg, const char *cannot_start) {
  pthread_mutex_init(&w->lock, NULL);
  pthread_cond_init(&w->cond, NULL);
  w->stop = false;
  if (pthread_create(&w->thread, NULL, main_fn, arg)) die_bug(cannot_start);
}

void worker_stop(worker *w) {
  pthread_mutex_lock(&w->lock);
  w->stop = true;
  pthread_cond_signal(&w->cond);
  pthread_mutex_unlock(&w->lock);
  pthread_join(w->thread, NULL);
  pthread_mutex_destroy(&w->lock);
  pthread_cond_destroy(&w->cond);
}
