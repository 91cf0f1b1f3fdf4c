/* bench_watch.c: watch fan-out of `dra serve`. Opens WATCHERS pod watches
 * (raw HTTP/1.1, the chunked stream decoded here), then creates PODS pods
 * from one keep-alive connection and waits until every watcher has received
 * the ADDED event of every pod. Pods carry spec.nodeName, so the scheduler
 * adds no MODIFIED events and every watcher gets exactly PODS events.
 * Reports events/s delivered and, given the server's pid, the server's CPU
 * time (utime + stime of /proc/PID/stat) per delivered event.
 * usage: bench_watch HOST:PORT [WATCHERS] [PODS] [SERVER-PID] */
#include "util/strbuf.h"
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define POD_PREFIX "\"name\":\"pod-"

static struct sockaddr_in server;
static int n_watchers = 100, n_pods = 1000;

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int dial(void) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0 || connect(fd, (struct sockaddr *)&server, sizeof server)) {
    perror("bench_watch: connect");
    exit(1);
  }
  return fd;
}

/* Writes a whole request in one write(): a request split over two segments
 * would wait for Nagle and the peer's delayed ACK. */
static void send_all(int fd, const char *req, size_t n) {
  if (write(fd, req, n) != (ssize_t)n) {
    perror("bench_watch: write");
    exit(1);
  }
}

/* One watch stream: response headers, then chunked framing, then events,
 * one JSON object per line. */
typedef enum { IN_HEADERS, IN_SIZE, IN_DATA, IN_TRAILER } stream_state;

typedef struct watcher {
  int fd;
  stream_state state;
  strbuf head;  /* headers, then the current chunk-size line */
  size_t left;  /* bytes left in the current chunk */
  strbuf line;  /* the event being assembled */
  unsigned char *seen; /* one flag per pod */
  int added;    /* distinct pods seen ADDED */
  long events;  /* every event line */
} watcher;

static void on_event(watcher *w, const char *line) {
  w->events++;
  const char *name = strstr(line, POD_PREFIX);
  if (strncmp(line, "{\"type\":\"ADDED\"", 15) || !name) return;
  int i = atoi(name + strlen(POD_PREFIX));
  if (i >= 0 && i < n_pods && !w->seen[i]) {
    w->seen[i] = 1;
    w->added++;
  }
}

static void on_data(watcher *w, const char *p, size_t n) {
  for (const char *end = p + n; p < end;) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t take = nl ? (size_t)(nl - p) : (size_t)(end - p);
    sb_add(&w->line, p, take);
    p += take;
    if (!nl) break;
    on_event(w, sb_str(&w->line));
    sb_truncate(&w->line, 0);
    p++;
  }
}

/* Feeds bytes from the socket through the HTTP/1.1 framing. Returns false
 * when the stream is unusable or over. */
static bool feed(watcher *w, const char *p, size_t n) {
  const char *end = p + n;
  while (p < end) {
    switch (w->state) {
    case IN_HEADERS: {
      sb_putc(&w->head, *p++);
      if (w->head.len < 4 || memcmp(w->head.buf + w->head.len - 4, "\r\n\r\n", 4)) break;
      if (strncmp(w->head.buf, "HTTP/1.1 200", 12) || !strcasestr(w->head.buf, "Transfer-Encoding: chunked")) {
        fprintf(stderr, "bench_watch: watch refused:\n%s", w->head.buf);
        return false;
      }
      sb_truncate(&w->head, 0);
      w->state = IN_SIZE;
      break;
    }
    case IN_SIZE:
      if (*p != '\n') sb_putc(&w->head, *p++);
      else {
        p++;
        w->left = strtoul(sb_str(&w->head), NULL, 16);
        sb_truncate(&w->head, 0);
        if (!w->left) return false; /* the last chunk */
        w->state = IN_DATA;
      }
      break;
    case IN_DATA: {
      size_t take = (size_t)(end - p) < w->left ? (size_t)(end - p) : w->left;
      on_data(w, p, take);
      p += take;
      w->left -= take;
      if (!w->left) w->state = IN_TRAILER;
      break;
    }
    case IN_TRAILER: /* the CRLF after a chunk's data */
      if (*p++ == '\n') w->state = IN_SIZE;
      break;
    }
  }
  return true;
}

static void open_watch(watcher *w) {
  memset(w, 0, sizeof *w);
  w->fd = dial();
  w->seen = calloc((size_t)n_pods, 1);
  static const char req[] = "GET /api/v1/namespaces/default/pods?watch=1 HTTP/1.1\r\nHost: bench\r\n\r\n";
  send_all(w->fd, req, sizeof req - 1);
}

/* Reads every watcher until all have seen every pod, or until a stream
 * ends or nothing arrives for 30 s. Returns the watchers done. */
static int follow(watcher *ws, int n, bool (*until)(const watcher *)) {
  struct pollfd *pfd = calloc((size_t)n, sizeof *pfd);
  char buf[65536];
  int done = 0;
  for (int i = 0; i < n; i++) {
    pfd[i].fd = ws[i].fd;
    pfd[i].events = POLLIN;
  }
  for (int live = n; done < n && live > 0;) {
    int r = poll(pfd, (nfds_t)n, 30000);
    if (r <= 0) break;
    for (int i = 0; i < n; i++) {
      if (!(pfd[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t got = read(pfd[i].fd, buf, sizeof buf);
      bool was_done = until(&ws[i]);
      if (got <= 0 || !feed(&ws[i], buf, (size_t)got)) {
        pfd[i].fd = -1;
        live--;
      }
      if (!was_done && until(&ws[i])) done++;
    }
  }
  free(pfd);
  return done;
}

static bool streaming(const watcher *w) { return w->state != IN_HEADERS; }
static bool has_every_pod(const watcher *w) { return w->added == n_pods; }

/* Reads one response (headers and Content-Length body); returns the status. */
static int read_response(int fd) {
  strbuf in = STRBUF_INIT;
  char buf[8192];
  const char *body = NULL;
  size_t want = 0;
  while (!body || in.len < (size_t)(body - in.buf) + want) {
    ssize_t r = read(fd, buf, sizeof buf);
    if (r <= 0) break;
    sb_add(&in, buf, (size_t)r);
    const char *blank = body ? NULL : strstr(in.buf, "\r\n\r\n");
    if (blank) {
      body = blank + 4;
      const char *cl = strcasestr(in.buf, "Content-Length:");
      want = cl ? strtoul(cl + 15, NULL, 10) : 0;
    }
  }
  int status = in.len > 12 ? atoi(in.buf + 9) : -1;
  sb_free(&in);
  return status;
}

static void *create_pods(void *arg) {
  (void)arg;
  int fd = dial();
  strbuf body = STRBUF_INIT, req = STRBUF_INIT;
  for (int i = 0; i < n_pods; i++) {
    sb_truncate(&body, 0);
    sb_printf(&body,
              "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"pod-%d\"},"
              "\"spec\":{\"nodeName\":\"node-%d\",\"containers\":[{\"name\":\"c\",\"image\":\"pause\"}]}}",
              i, i % 10);
    sb_truncate(&req, 0);
    sb_printf(&req,
              "POST /api/v1/namespaces/default/pods HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
              "Content-Length: %zu\r\n\r\n%s",
              body.len, body.buf);
    send_all(fd, req.buf, req.len);
    int status = read_response(fd);
    if (status != 201) {
      fprintf(stderr, "bench_watch: create pod-%d: HTTP %d\n", i, status);
      exit(1);
    }
  }
  sb_free(&body);
  sb_free(&req);
  close(fd);
  return NULL;
}

/* utime + stime of a process, in seconds; -1 without /proc. */
static double cpu_seconds(const char *pid) {
  char path[64], text[1024];
  snprintf(path, sizeof path, "/proc/%s/stat", pid);
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  size_t n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = 0;
  const char *p = strrchr(text, ')'); /* the command name may hold spaces */
  unsigned long utime, stime;
  if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime) != 2) return -1;
  return (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
}

static double own_cpu_seconds(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
         (double)ru.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: bench_watch HOST:PORT [WATCHERS] [PODS] [SERVER-PID]\n");
    return 2;
  }
  char host[64];
  const char *colon = strrchr(argv[1], ':');
  if (!colon) return 2;
  snprintf(host, sizeof host, "%.*s", (int)(colon - argv[1]), argv[1]);
  server.sin_family = AF_INET;
  server.sin_port = htons((uint16_t)atoi(colon + 1));
  inet_pton(AF_INET, host, &server.sin_addr);
  if (argc > 2) n_watchers = atoi(argv[2]);
  if (argc > 3) n_pods = atoi(argv[3]);
  const char *pid = argc > 4 ? argv[4] : NULL;
  watcher *ws = calloc((size_t)n_watchers, sizeof *ws);
  for (int i = 0; i < n_watchers; i++) open_watch(&ws[i]);
  if (follow(ws, n_watchers, streaming) != n_watchers) {
    fprintf(stderr, "bench_watch: not every watch started\n");
    return 1;
  }
  double cpu0 = pid ? cpu_seconds(pid) : -1, own0 = own_cpu_seconds(), t0 = now_s();
  pthread_t creator;
  pthread_create(&creator, NULL, create_pods, NULL);
  int complete = follow(ws, n_watchers, has_every_pod);
  double t1 = now_s(), own1 = own_cpu_seconds(), cpu1 = pid ? cpu_seconds(pid) : -1;
  pthread_join(creator, NULL);
  long events = 0;
  for (int i = 0; i < n_watchers; i++) {
    events += ws[i].events;
    close(ws[i].fd);
    free(ws[i].seen);
    sb_free(&ws[i].head);
    sb_free(&ws[i].line);
  }
  free(ws);
  printf("watch: %d watchers x %d pods: %d/%d watchers got every pod, %ld events delivered in %.2f s\n", n_watchers,
         n_pods, complete, n_watchers, events, t1 - t0);
  printf("watch: %.0f events/s delivered, %.0f creates/s\n", (double)events / (t1 - t0), n_pods / (t1 - t0));
  if (cpu0 >= 0 && cpu1 >= 0 && events)
    printf("watch: server CPU %.2f s: %.1f us per event delivered, %.1f us per create\n", cpu1 - cpu0,
           (cpu1 - cpu0) * 1e6 / (double)events, (cpu1 - cpu0) * 1e6 / n_pods);
  printf("watch: client CPU %.2f s (%.1f us per event)\n", own1 - own0, (own1 - own0) * 1e6 / (double)(events ? events : 1));
  return complete == n_watchers ? 0 : 1;
}
