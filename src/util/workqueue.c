/* workqueue.c: the mutex-guarded batch queue of workqueue.h. */
#include "util/workqueue.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

void wq_init(workqueue *q, size_t item_size) {
  memset(q, 0, sizeof *q);
  q->item_size = item_size;
  pthread_mutex_init(&q->lock, NULL);
  pthread_cond_init(&q->work, NULL);
}

void wq_push(workqueue *q, const void *item) {
  pthread_mutex_lock(&q->lock);
  q->items = xgrow(q->items, q->n, &q->cap, q->item_size, 16);
  memcpy(q->items + q->n++ * q->item_size, item, q->item_size);
  pthread_cond_signal(&q->work);
  pthread_mutex_unlock(&q->lock);
}

/* Hands the queued items over; called with the lock held. */
static void *detach(workqueue *q, size_t *n) {
  void *batch = q->items;
  *n = q->n;
  q->items = NULL;
  q->n = q->cap = 0;
  return batch;
}

void *wq_take(workqueue *q, size_t *n) {
  pthread_mutex_lock(&q->lock);
  void *batch = detach(q, n);
  pthread_mutex_unlock(&q->lock);
  return batch;
}

void *wq_wait_take(workqueue *q, size_t *n) {
  pthread_mutex_lock(&q->lock);
  while (!q->n && !q->closing) pthread_cond_wait(&q->work, &q->lock);
  void *batch = detach(q, n);
  pthread_mutex_unlock(&q->lock);
  return batch;
}

void *wq_wait_take_for(workqueue *q, size_t *n, int ms) {
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += ms / 1000;
  until.tv_nsec += (long)(ms % 1000) * 1000000L;
  if (until.tv_nsec >= 1000000000L) {
    until.tv_sec++;
    until.tv_nsec -= 1000000000L;
  }
  pthread_mutex_lock(&q->lock);
  while (!q->n && !q->closing)
    if (pthread_cond_timedwait(&q->work, &q->lock, &until)) break;
  void *batch = detach(q, n);
  pthread_mutex_unlock(&q->lock);
  return batch;
}

bool wq_closed(workqueue *q) {
  pthread_mutex_lock(&q->lock);
  bool closed = q->closing;
  pthread_mutex_unlock(&q->lock);
  return closed;
}

void wq_close(workqueue *q) {
  pthread_mutex_lock(&q->lock);
  q->closing = true;
  pthread_cond_broadcast(&q->work);
  pthread_mutex_unlock(&q->lock);
}

void wq_free_batch(void *batch, size_t n, size_t item_size, void (*free_item)(void *item)) {
  if (free_item)
    for (size_t i = 0; i < n; i++) free_item((unsigned char *)batch + i * item_size);
  free(batch);
}

void wq_destroy(workqueue *q, void (*free_item)(void *item)) {
  wq_free_batch(q->items, q->n, q->item_size, free_item);
  q->items = NULL;
  q->n = q->cap = 0;
  pthread_mutex_destroy(&q->lock);
  pthread_cond_destroy(&q->work);
}
