/* worker.h: a background thread with the mutex, condition and stop flag it
 * sleeps on. The owner's thread function loops while !stop under lock and
 * waits on cond; worker_stop() wakes it, waits for it to end and destroys
 * the lock and condition. */
#ifndef DRA_WORKER_H
#define DRA_WORKER_H
#include <pthread.h>
#include <stdbool.h>

typedef struct worker {
  pthread_mutex_t lock; /* guards stop and whatever the owner says it guards */
  pthread_cond_t cond;  /* signalled by worker_stop, and by the owner at will */
  bool stop;
  pthread_t thread;
} worker;

/* Initializes w and runs main_fn(arg) on a new thread; cannot_start is
 * the fatal error when the thread cannot be made. */
void worker_start(worker *w, void *(*main_fn)(void *), void *arg, const char *cannot_start);
/* Sets stop, wakes the thread, joins it and destroys the lock and cond. */
void worker_stop(worker *w);

#endif
