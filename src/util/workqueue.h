/* workqueue.h: deferred work handed from producers to one consumer. Any
 * thread queues fixed-size items under the queue's mutex; one thread takes
 * everything queued so far as a single batch (in queue order) and works
 * through it off the lock. */
#ifndef DRA_WORKQUEUE_H
#define DRA_WORKQUEUE_H
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct workqueue {
  pthread_mutex_t lock;
  pthread_cond_t work; /* signalled when an item is queued or the queue closes */
  unsigned char *items;
  size_t item_size, n, cap;
  bool closing;
} workqueue;

void wq_init(workqueue *q, size_t item_size);
/* Copies item_size bytes of item to the end of the queue. */
void wq_push(workqueue *q, const void *item);
/* Takes every queued item without blocking: an array of *n items the
 * caller frees (NULL when the queue was empty). */
void *wq_take(workqueue *q, size_t *n);
/* Like wq_take, but blocks until something is queued; returns NULL with
 * *n == 0 only once the queue is closed and empty. */
void *wq_wait_take(workqueue *q, size_t *n);
/* Like wq_wait_take, but waits at most ms milliseconds: NULL with *n == 0
 * when nothing came (or the queue is closed and empty). */
void *wq_wait_take_for(workqueue *q, size_t *n, int ms);
/* Whether wq_close was called. */
bool wq_closed(workqueue *q);
/* Wakes a consumer blocked in wq_wait_take; items still queued are taken
 * by its next calls. */
void wq_close(workqueue *q);
/* Frees the queue, calling free_item (if given) on each item left in it. */
void wq_destroy(workqueue *q, void (*free_item)(void *item));
/* Frees a batch from wq_take or wq_wait_take the same way. */
void wq_free_batch(void *batch, size_t n, size_t item_size, void (*free_item)(void *item));

#endif
