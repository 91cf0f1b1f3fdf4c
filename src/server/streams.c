/* streams.c: streamed responses on libmicrohttpd without a thread per
 * stream (streams.h). A stream_conn sits between one MHD connection and one
 * http_stream: MHD calls conn_read from its polling threads; when the stream
 * has nothing, the connection is suspended until conn_wake (the producer's
 * http_stream_wake, the hub's tick or hang-up check, or shutdown) resumes
 * it. MHD does not watch a suspended connection's socket, so the hub polls
 * those sockets for a hang-up (POLLRDHUP) every HUB_PERIOD_MS and ends such
 * a stream with an error, which closes the connection and frees the watch:
 * Go's net/http notices the same with its background read.
 *
 * Locks: a stream_conn's lock is taken last (producer lock, then it, then
 * MHD's own); the hub's lock is taken before the producer's (tick). */
#include "server/streams.h"
#include "util/die.h"
#include "util/timing.h"
#include "util/worker.h"
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>

#define HUB_PERIOD_MS 200
#define HUB_TICK_MS 1000

typedef struct stream_conn {
  http_stream_waker waker; /* first, so a waker is its stream_conn */
  stream_hub *hub;
  struct MHD_Connection *conn;
  http_stream *stream;
  int fd;
  pthread_mutex_t lock; /* guards suspended, woken, gone */
  bool suspended;       /* MHD_suspend_connection called, not yet resumed */
  bool woken;           /* a wake came since conn_read last looked */
  bool gone;            /* the client hung up */
  struct stream_conn *prev, *next;
} stream_conn;

struct stream_hub {
  worker bg; /* its lock guards the list */
  stream_conn *head;
  size_t n;
  atomic_bool ending;
};

static void conn_wake(http_stream_waker *self) {
  stream_conn *sc = (stream_conn *)self;
  pthread_mutex_lock(&sc->lock);
  sc->woken = true;
  if (sc->suspended) {
    sc->suspended = false;
    MHD_resume_connection(sc->conn);
  }
  pthread_mutex_unlock(&sc->lock);
}

static ssize_t conn_read(void *cls, uint64_t pos, char *buf, size_t max) {
  (void)pos;
  stream_conn *sc = cls;
  for (;;) {
    pthread_mutex_lock(&sc->lock);
    bool gone = sc->gone;
    sc->woken = false;
    pthread_mutex_unlock(&sc->lock);
    if (gone) return MHD_CONTENT_READER_END_WITH_ERROR;
    ptrdiff_t n = sc->stream->read(sc->stream->ctx, buf, max);
    if (n == HTTP_STREAM_END) return MHD_CONTENT_READER_END_OF_STREAM;
    if (n > 0) return (ssize_t)n;
    pthread_mutex_lock(&sc->lock);
    if (sc->woken || sc->gone) { /* something came while reading: look again */
      pthread_mutex_unlock(&sc->lock);
      continue;
    }
    if (atomic_load(&sc->hub->ending)) {
      pthread_mutex_unlock(&sc->lock);
      return MHD_CONTENT_READER_END_OF_STREAM;
    }
    /* nothing to send: park the connection, no thread waits for it */
    sc->suspended = true;
    MHD_suspend_connection(sc->conn);
    pthread_mutex_unlock(&sc->lock);
    return 0;
  }
}

/* MHD destroys the response when the connection is done with it. */
static void conn_free(void *cls) {
  stream_conn *sc = cls;
  stream_hub *h = sc->hub;
  pthread_mutex_lock(&h->bg.lock); /* after this, no tick reaches the stream */
  if (sc->prev) sc->prev->next = sc->next;
  else h->head = sc->next;
  if (sc->next) sc->next->prev = sc->prev;
  h->n--;
  pthread_mutex_unlock(&h->bg.lock);
  sc->stream->close(sc->stream->ctx); /* after this, no wake either */
  free(sc->stream);
  pthread_mutex_destroy(&sc->lock);
  free(sc);
}

struct MHD_Response *stream_hub_response(stream_hub *h, struct MHD_Connection *c, http_stream *st) {
  stream_conn *sc = xcalloc(1, sizeof *sc);
  sc->waker.wake = conn_wake;
  sc->hub = h;
  sc->conn = c;
  sc->stream = st;
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
  sc->fd = info ? info->connect_fd : -1;
  pthread_mutex_init(&sc->lock, NULL);
  struct MHD_Response *r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16 * 1024, conn_read, sc, conn_free);
  if (!r) {
    st->close(st->ctx);
    free(st);
    pthread_mutex_destroy(&sc->lock);
    free(sc);
    return NULL;
  }
  pthread_mutex_lock(&h->bg.lock);
  sc->next = h->head;
  if (h->head) h->head->prev = sc;
  h->head = sc;
  h->n++;
  pthread_mutex_unlock(&h->bg.lock);
  atomic_store(&st->waker, &sc->waker);
  return r;
}

/* Ends the streams whose client hung up; with tick, lets every stream look
 * at its clocks. Called with h->bg.lock held. */
static void hub_round(stream_hub *h, bool tick) {
  size_t n = h->n, i = 0;
  if (!n) return;
  struct pollfd *fds = xcalloc(n, sizeof *fds);
  stream_conn **conns = xcalloc(n, sizeof *conns);
  for (stream_conn *sc = h->head; sc; sc = sc->next, i++) {
    conns[i] = sc;
    fds[i].fd = sc->fd;
    fds[i].events = POLLRDHUP;
  }
  if (poll(fds, n, 0) > 0)
    for (i = 0; i < n; i++)
      if (fds[i].revents & (POLLRDHUP | POLLHUP | POLLERR)) {
        pthread_mutex_lock(&conns[i]->lock);
        conns[i]->gone = true;
        pthread_mutex_unlock(&conns[i]->lock);
        conn_wake(&conns[i]->waker);
      }
  if (tick)
    for (i = 0; i < n; i++)
      if (conns[i]->stream->tick) conns[i]->stream->tick(conns[i]->stream->ctx);
  free(fds);
  free(conns);
}

static void *hub_main(void *arg) {
  stream_hub *h = arg;
  int64_t last_tick = timing_now_ms();
  pthread_mutex_lock(&h->bg.lock);
  while (!h->bg.stop) {
    int64_t now = timing_now_ms();
    bool tick = now - last_tick >= HUB_TICK_MS;
    if (tick) last_tick = now;
    hub_round(h, tick);
    timing_wait_ms(&h->bg.cond, &h->bg.lock, HUB_PERIOD_MS);
  }
  pthread_mutex_unlock(&h->bg.lock);
  return NULL;
}

stream_hub *stream_hub_start(void) {
  stream_hub *h = xcalloc(1, sizeof *h);
  worker_start(&h->bg, hub_main, h, "cannot start the stream hub thread");
  return h;
}

void stream_hub_end_all(stream_hub *h) {
  atomic_store(&h->ending, true);
  pthread_mutex_lock(&h->bg.lock);
  for (stream_conn *sc = h->head; sc; sc = sc->next) conn_wake(&sc->waker);
  pthread_mutex_unlock(&h->bg.lock);
}

size_t stream_hub_count(stream_hub *h) {
  pthread_mutex_lock(&h->bg.lock);
  size_t n = h->n;
  pthread_mutex_unlock(&h->bg.lock);
  return n;
}

void stream_hub_free(stream_hub *h) {
  if (!h) return;
  worker_stop(&h->bg);
  free(h);
}
