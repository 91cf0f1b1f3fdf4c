/* deadlines.c: connection deadlines for deadlines.h. Every connection has a
 * record, made when libmicrohttpd starts the connection and dropped when it
 * closes it (before it closes the socket, so a record's descriptor is
 * always the connection's own); the records form one list under the
 * keeper's lock, which one thread scans. */
#include "server/deadlines.h"
#include "util/die.h"
#include "util/timing.h"
#include "util/worker.h"
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/socket.h>

#define DEADLINE_PERIOD_MS 250

typedef struct conn_deadline {
  deadline_keeper *keeper;
  int fd;
  int64_t due_ms; /* CLOCK_MONOTONIC; 0: none */
  bool cut;       /* shut down already */
  struct conn_deadline *prev, *next;
} conn_deadline;

struct deadline_keeper {
  worker bg; /* its lock guards the list and every record's due_ms and cut */
  conn_deadline *head;
  unsigned first_seconds;
};

static void *keeper_main(void *arg) {
  deadline_keeper *k = arg;
  pthread_mutex_lock(&k->bg.lock);
  while (!k->bg.stop) {
    int64_t now = timing_now_ms();
    for (conn_deadline *d = k->head; d; d = d->next)
      if (d->due_ms && now >= d->due_ms && !d->cut) {
        shutdown(d->fd, SHUT_RDWR); /* libmicrohttpd sees the end and closes it */
        d->cut = true;
      }
    timing_wait_ms(&k->bg.cond, &k->bg.lock, DEADLINE_PERIOD_MS);
  }
  pthread_mutex_unlock(&k->bg.lock);
  return NULL;
}

deadline_keeper *deadlines_start(void) {
  deadline_keeper *k = xcalloc(1, sizeof *k);
  worker_start(&k->bg, keeper_main, k, "cannot start the connection deadline thread");
  return k;
}

void deadlines_set_first(deadline_keeper *k, unsigned header_seconds) { k->first_seconds = header_seconds; }

void deadlines_on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
                             enum MHD_ConnectionNotificationCode code) {
  deadline_keeper *k = cls;
  if (code == MHD_CONNECTION_NOTIFY_STARTED) {
    conn_deadline *d = xcalloc(1, sizeof *d);
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    d->keeper = k;
    d->fd = info ? info->connect_fd : -1;
    pthread_mutex_lock(&k->bg.lock);
    d->due_ms = d->fd >= 0 ? timing_now_ms() + (int64_t)k->first_seconds * 1000 : 0;
    d->next = k->head;
    if (k->head) k->head->prev = d;
    k->head = d;
    pthread_mutex_unlock(&k->bg.lock);
    *socket_context = d;
    return;
  }
  conn_deadline *d = *socket_context;
  if (!d) return;
  pthread_mutex_lock(&k->bg.lock);
  if (d->prev) d->prev->next = d->next;
  else k->head = d->next;
  if (d->next) d->next->prev = d->prev;
  pthread_mutex_unlock(&k->bg.lock);
  free(d);
  *socket_context = NULL;
}

static conn_deadline *of(struct MHD_Connection *c) {
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  return info ? info->socket_context : NULL;
}

static void set_due(struct MHD_Connection *c, unsigned seconds, bool only_sooner) {
  conn_deadline *d = of(c);
  if (!d) return;
  int64_t due = seconds ? timing_now_ms() + (int64_t)seconds * 1000 : 0;
  pthread_mutex_lock(&d->keeper->bg.lock);
  if (!only_sooner || !d->due_ms || (due && due < d->due_ms)) d->due_ms = due;
  pthread_mutex_unlock(&d->keeper->bg.lock);
}

void deadlines_set(struct MHD_Connection *c, unsigned seconds) { set_due(c, seconds, false); }

void deadlines_tighten(struct MHD_Connection *c, unsigned seconds) { set_due(c, seconds, true); }

void deadlines_free(deadline_keeper *k) {
  if (!k) return;
  worker_stop(&k->bg);
  free(k);
}
