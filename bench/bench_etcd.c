/* bench_etcd.c: etcd's gRPC gateway as dra's etcd backend uses it
 * (store/etcd_client.h): N transactions put from one thread, each a
 * create-if-absent (compare create_revision 0) of a ~1 KB value, as a
 * create of dra serve writes it; then watch latency: a watch on the keys,
 * and the time from sending each of 200 puts to its event arriving.
 * Usage: bench_etcd ETCD-URL [N=1000] (bench/etcd.sh starts an etcd). */
#include "store/etcd_client.h"
#include "util/die.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WATCHED_PUTS 200

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static json_t *b64(const char *s) {
  char *text = etcd_base64(s, strlen(s));
  json_t *j = json_string(text);
  free(text);
  return j;
}

static bool create(etcd_client *c, const char *key, const char *value) {
  json_t *txn = json_pack("{s:[{s:o,s:s,s:s,s:s}],s:[{s:{s:o,s:o}}]}", "compare", "key", b64(key), "target", "CREATE",
                          "result", "EQUAL", "create_revision", "0", "success", "request_put", "key", b64(key), "value",
                          b64(value));
  etcd_reply r;
  strbuf err = STRBUF_INIT;
  bool ok = etcd_call(c, "/v3/kv/txn", txn, &r, &err);
  if (ok) etcd_reply_free(&r);
  else fprintf(stderr, "bench_etcd: %s\n", sb_str(&err));
  sb_free(&err);
  return ok;
}

typedef struct watch_state {
  etcd_client *c;
  atomic_bool stop, ready;
  double sent[WATCHED_PUTS], got[WATCHED_PUTS];
  atomic_int seen;
} watch_state;

static bool on_message(void *user, const etcd_reply *m) {
  watch_state *w = user;
  if (m->created) atomic_store(&w->ready, true);
  for (size_t i = 0; i < m->n_events; i++) {
    int at = atomic_load(&w->seen);
    if (at < WATCHED_PUTS) w->got[at] = now_ms();
    atomic_store(&w->seen, at + 1);
  }
  return !atomic_load(&w->stop);
}

static void *watch_main(void *arg) {
  watch_state *w = arg;
  strbuf err = STRBUF_INIT;
  etcd_watch(w->c, json_pack("{s:o,s:o}", "key", b64("/bench/w/"), "range_end", b64("/bench/w0")), on_message, w,
             &w->stop, &err);
  sb_free(&err);
  return NULL;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: bench_etcd ETCD-URL [N]\n");
    return 2;
  }
  int n = argc > 2 ? atoi(argv[2]) : 1000;
  strbuf err = STRBUF_INIT;
  etcd_client *c = etcd_client_new(argv[1], NULL, &err);
  if (!c) {
    fprintf(stderr, "bench_etcd: %s\n", sb_str(&err));
    return 2;
  }
  char value[1024];
  memset(value, 'x', sizeof value - 1);
  value[sizeof value - 1] = 0;
  char key[64];
  unsigned run = (unsigned)time(NULL);
  double t0 = now_ms();
  for (int i = 0; i < n; i++) {
    snprintf(key, sizeof key, "/bench/%u/%d", run, i);
    if (!create(c, key, value)) return 1;
  }
  double t1 = now_ms();
  printf("puts: %d transactions from one thread in %.0f ms: %.0f/s\n", n, t1 - t0, n / ((t1 - t0) / 1e3));

  watch_state w = {.c = c};
  pthread_t th;
  pthread_create(&th, NULL, watch_main, &w);
  while (!atomic_load(&w.ready)) {
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
  }
  for (int i = 0; i < WATCHED_PUTS; i++) {
    snprintf(key, sizeof key, "/bench/w/%u/%d", run, i);
    w.sent[i] = now_ms();
    if (!create(c, key, value)) return 1;
    while (atomic_load(&w.seen) <= i) {
      struct timespec us = {0, 20000};
      nanosleep(&us, NULL);
    }
  }
  atomic_store(&w.stop, true);
  pthread_join(th, NULL);
  double lat[WATCHED_PUTS];
  for (int i = 0; i < WATCHED_PUTS; i++) lat[i] = w.got[i] - w.sent[i];
  qsort(lat, WATCHED_PUTS, sizeof *lat, cmp_double);
  printf("watch: put sent to event received, %d puts: median %.2f ms, p99 %.2f ms\n", WATCHED_PUTS,
         lat[WATCHED_PUTS / 2], lat[WATCHED_PUTS * 99 / 100]);
  etcd_client_free(c);
  sb_free(&err);
  return 0;
}
