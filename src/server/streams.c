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
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

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
  pthread_mutex_t lock; /* guards the list and stop */
  pthread_cond_t cond;
  stream_conn *head;
  size_t n;
  bool stop;
  atomic_bool ending;
  pthread_t thread;
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
  pthread_mutex_lock(&h->lock); /* after this, no tick reaches the stream */
  if (sc->prev) sc->prev->next = sc->next;
  else h->head = sc->next;
  if (sc->next) sc->next->prev = sc->prev;
  h->n--;
  pthread_mutex_unlock(&h->lock);
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
  pthread_mutex_lock(&h->lock);
  sc->next = h->head;
  if (h->head) h->head->prev = sc;
  h->head = sc;
  h->n++;
  pthread_mutex_unlock(&h->lock);
  atomic_store(&st->waker, &sc->waker);
  return r;
}

static int64_t now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Ends the streams whose client hung up; with tick, lets every stream look
 * at its clocks. Called with h->lock held. */
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
  int64_t last_tick = now_ms();
  pthread_mutex_lock(&h->lock);
  while (!h->stop) {
    int64_t now = now_ms();
    bool tick = now - last_tick >= HUB_TICK_MS;
    if (tick) last_tick = now;
    hub_round(h, tick);
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += HUB_PERIOD_MS * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
      until.tv_sec++;
      until.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(&h->cond, &h->lock, &until);
  }
  pthread_mutex_unlock(&h->lock);
  return NULL;
}

stream_hub *stream_hub_start(void) {
  stream_hub *h = xcalloc(1, sizeof *h);
  pthread_mutex_init(&h->lock, NULL);
  pthread_cond_init(&h->cond, NULL);
  if (pthread_create(&h->thread, NULL, hub_main, h)) die_bug("cannot start the stream hub thread");
  return h;
}

void stream_hub_end_all(stream_hub *h) {
  atomic_store(&h->ending, true);
  pthread_mutex_lock(&h->lock);
  for (stream_conn *sc = h->head; sc; sc = sc->next) conn_wake(&sc->waker);
  pthread_mutex_unlock(&h->lock);
}

size_t stream_hub_count(stream_hub *h) {
  pthread_mutex_lock(&h->lock);
  size_t n = h->n;
  pthread_mutex_unlock(&h->lock);
  return n;
}

void stream_hub_free(stream_hub *h) {
  if (!h) return;
  pthread_mutex_lock(&h->lock);
  h->stop = true;
  pthread_cond_signal(&h->cond);
  pthread_mutex_unlock(&h->lock);
  pthread_join(h->thread, NULL);
  pthread_mutex_destroy(&h->lock);
  pthread_cond_destroy(&h->cond);
  free(h);
}
