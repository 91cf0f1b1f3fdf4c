/* fresh.c: reads ahead of the store for fresh.h. The waiting connections
 * form one list under the waiter's lock; its thread looks at them every
 * FRESH_PERIOD_MS while there are any. */
#include "server/fresh.h"
#include "server/continue_token.h"
#include "server/status.h"
#include "util/die.h"
#include "util/timing.h"
#include "util/worker.h"
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* watch_cache.go blockTimeout and resourceVersionTooHighRetrySeconds */
#define FRESH_WAIT_MS 3000
#define FRESH_RETRY_SECONDS 1
#define FRESH_PERIOD_MS 10

uint64_t fresh_needed(const http_request *req) {
  if (strcmp(req->method, "GET")) return 0;
  bool watch = http_query_bool(req, "watch");
  if (watch && !http_query_bool(req, "sendInitialEvents")) return 0;
  const char *cont = http_query_get(req, "continue");
  if (!watch && cont && *cont) {
    char *start = NULL;
    int64_t rv = 0;
    bool ok = continue_token_parse(cont, &start, &rv);
    free(start);
    return ok && rv > 0 ? (uint64_t)rv : 0;
  }
  const char *rv = http_query_get(req, "resourceVersion");
  if (!rv || *rv < '0' || *rv > '9') return 0;
  char *end;
  errno = 0;
  unsigned long long n = strtoull(rv, &end, 10);
  return *end || errno ? 0 : (uint64_t)n;
}

json_t *fresh_too_large_status(uint64_t wanted, uint64_t current) {
  char msg[128];
  snprintf(msg, sizeof msg, "Timeout: Too large resource version: %llu, current: %llu", (unsigned long long)wanted,
           (unsigned long long)current);
  return json_pack("{s:s,s:s,s:{},s:s,s:s,s:s,s:{s:[{s:s,s:s}],s:i},s:i}", "kind", "Status", "apiVersion", "v1",
                   "metadata", "status", "Failure", "message", msg, "reason", "Timeout", "details", "causes",
                   "reason", "ResourceVersionTooLarge", "message", "Too large resource version", "retryAfterSeconds",
                   FRESH_RETRY_SECONDS, "code", 504);
}

bool fresh_check(store *st, const http_request *req, http_response *resp) {
  uint64_t wanted = fresh_needed(req), current = store_revision(st);
  if (wanted <= current) return true;
  srv_json_response(resp, 504, fresh_too_large_status(wanted, current));
  resp->retry_after = FRESH_RETRY_SECONDS;
  return false;
}

typedef struct fresh_conn {
  struct MHD_Connection *conn;
  uint64_t rv;
  int64_t until_ms;
  struct fresh_conn *next;
} fresh_conn;

struct fresh_waiter {
  store *st;
  worker bg; /* its lock guards the list and ending */
  fresh_conn *head;
  bool ending;
};

/* Resumes the connections whose version came or whose time is up (all of
 * them with everything). Called with w->bg.lock held. */
static void resume_due(fresh_waiter *w, bool everything) {
  uint64_t current = store_revision(w->st);
  int64_t now = timing_now_ms();
  for (fresh_conn **p = &w->head; *p;) {
    fresh_conn *f = *p;
    if (everything || current >= f->rv || now >= f->until_ms) {
      *p = f->next;
      MHD_resume_connection(f->conn);
      free(f);
    } else p = &f->next;
  }
}

static void *waiter_main(void *arg) {
  fresh_waiter *w = arg;
  pthread_mutex_lock(&w->bg.lock);
  while (!w->bg.stop) {
    if (!w->head) {
      pthread_cond_wait(&w->bg.cond, &w->bg.lock);
      continue;
    }
    resume_due(w, false);
    timing_wait_ms(&w->bg.cond, &w->bg.lock, FRESH_PERIOD_MS);
  }
  pthread_mutex_unlock(&w->bg.lock);
  return NULL;
}

fresh_waiter *fresh_waiter_start(store *st) {
  fresh_waiter *w = xcalloc(1, sizeof *w);
  w->st = st;
  worker_start(&w->bg, waiter_main, w, "cannot start the resourceVersion waiter thread");
  return w;
}

bool fresh_wait(fresh_waiter *w, struct MHD_Connection *c, uint64_t rv) {
  pthread_mutex_lock(&w->bg.lock);
  bool ok = !w->ending;
  if (ok) {
    fresh_conn *f = xcalloc(1, sizeof *f);
    *f = (fresh_conn){.conn = c, .rv = rv, .until_ms = timing_now_ms() + FRESH_WAIT_MS, .next = w->head};
    /* suspended before the waiter's thread can see it, hence under the lock */
    MHD_suspend_connection(c);
    w->head = f;
    pthread_cond_signal(&w->bg.cond);
  }
  pthread_mutex_unlock(&w->bg.lock);
  return ok;
}

void fresh_waiter_end_all(fresh_waiter *w) {
  pthread_mutex_lock(&w->bg.lock);
  w->ending = true;
  resume_due(w, true);
  pthread_mutex_unlock(&w->bg.lock);
}

void fresh_waiter_free(fresh_waiter *w) {
  if (!w) return;
  worker_stop(&w->bg);
  free(w);
}
