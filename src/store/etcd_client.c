/* etcd_client.c: the gateway client of etcd_client.h over libcurl. A call
 * takes an idle easy handle and its multi handle from the pool (the
 * connection stays open in the multi handle for the next call), tries the
 * endpoints from the one that last worked, and runs the transfer itself
 * so that it can give up at once (etcd_limit); the watch runs on a handle
 * of its own and reads newline-separated JSON messages as they stream in. */
#include "store/etcd_client.h"
#include "util/die.h"
#include "store/curl_api.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ENDPOINTS 16
#define CALL_TIMEOUT_MS 10000L
#define CONNECT_TIMEOUT_MS 2000L

struct etcd_client {
  char *endpoints[MAX_ENDPOINTS];
  size_t n_endpoints;
  atomic_size_t current; /* the endpoint that answered last */
  etcd_tls tls;
  pthread_mutex_t lock;
  struct pooled *idle; /* the pool */
  size_t n_idle, cap_idle;
};

/* An easy handle and the multi handle that runs it and keeps its connection. */
typedef struct pooled {
  CURL *easy;
  CURLM *multi;
} pooled;

/* libcurl, loaded by the first client made (curl_api.h). */
static const curl_api *curl;

etcd_client *etcd_client_new(const char *servers, const etcd_tls *tls, strbuf *err) {
  if (!curl && !(curl = curl_api_load(err))) return NULL;
  etcd_client *c = xcalloc(1, sizeof *c);
  char *copy = xstrdup(servers), *save = NULL;
  for (char *url = strtok_r(copy, ",", &save); url; url = strtok_r(NULL, ",", &save)) {
    size_t n = strlen(url);
    while (n && url[n - 1] == '/') url[--n] = 0;
    if (strncmp(url, "http://", 7) && strncmp(url, "https://", 8)) {
      sb_printf(err, "--etcd-servers: %s is not an http:// or https:// URL", url);
      break;
    }
    if (c->n_endpoints == MAX_ENDPOINTS) {
      sb_printf(err, "--etcd-servers: at most %d servers", MAX_ENDPOINTS);
      break;
    }
    c->endpoints[c->n_endpoints++] = xstrdup(url);
  }
  free(copy);
  if (!err->len && !c->n_endpoints) sb_puts(err, "--etcd-servers: no server given");
  if (err->len) {
    etcd_client_free(c);
    return NULL;
  }
  if (tls) c->tls = *tls;
  pthread_mutex_init(&c->lock, NULL);
  return c;
}

void etcd_client_free(etcd_client *c) {
  if (!c) return;
  for (size_t i = 0; i < c->n_endpoints; i++) free(c->endpoints[i]);
  for (size_t i = 0; i < c->n_idle; i++) {
    curl->multi_cleanup(c->idle[i].multi);
    curl->easy_cleanup(c->idle[i].easy);
  }
  free(c->idle);
  pthread_mutex_destroy(&c->lock);
  free(c);
}

static pooled take_handle(etcd_client *c) {
  pthread_mutex_lock(&c->lock);
  pooled p = c->n_idle ? c->idle[--c->n_idle] : (pooled){NULL, NULL};
  pthread_mutex_unlock(&c->lock);
  if (!p.easy) p = (pooled){curl->easy_init(), curl->multi_init()};
  if (!p.easy || !p.multi) die_oom(); /* libcurl fails to make a handle only out of memory */
  return p;
}

static void give_back(etcd_client *c, pooled p) {
  pthread_mutex_lock(&c->lock);
  c->idle = xgrow(c->idle, c->n_idle, &c->cap_idle, sizeof *c->idle, 4);
  c->idle[c->n_idle++] = p;
  pthread_mutex_unlock(&c->lock);
}

/* Runs p's transfer to its end, or until limit gives up
 * (CURLE_ABORTED_BY_CALLBACK: removing the unfinished transfer closes its
 * connection). */
static CURLcode perform(pooled p, const etcd_limit *limit) {
  CURLcode rc = CURLE_FAILED_INIT;
  if (curl->multi_add_handle(p.multi, p.easy) != CURLM_OK) return rc;
  for (;;) {
    int running = 0, left = 0;
    if (curl->multi_perform(p.multi, &running) != CURLM_OK) break;
    if (!running) {
      CURLMsg *m = curl->multi_info_read(p.multi, &left);
      if (m && m->msg == CURLMSG_DONE) rc = m->data.result;
      break;
    }
    if (limit && limit->give_up(limit->user)) {
      rc = CURLE_ABORTED_BY_CALLBACK;
      break;
    }
    if (curl->multi_poll(p.multi, NULL, 0, limit ? ETCD_GIVE_UP_POLL_MS : 1000, NULL) != CURLM_OK) break;
  }
  curl->multi_remove_handle(p.multi, p.easy);
  return rc;
}

static size_t collect(char *data, size_t size, size_t n, void *user) {
  sb_add((strbuf *)user, data, size * n);
  return size * n;
}

/* The options every request has: URL, JSON body, TLS, time limits. */
static void setup(etcd_client *c, CURL *h, const char *url, const char *body, struct curl_slist *headers) {
  curl->easy_setopt(h, CURLOPT_URL, url);
  curl->easy_setopt(h, CURLOPT_POSTFIELDS, body);
  curl->easy_setopt(h, CURLOPT_HTTPHEADER, headers);
  curl->easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl->easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, CONNECT_TIMEOUT_MS);
  curl->easy_setopt(h, CURLOPT_TCP_NODELAY, 1L);
  if (c->tls.ca_file) curl->easy_setopt(h, CURLOPT_CAINFO, c->tls.ca_file);
  if (c->tls.cert_file) curl->easy_setopt(h, CURLOPT_SSLCERT, c->tls.cert_file);
  if (c->tls.key_file) curl->easy_setopt(h, CURLOPT_SSLKEY, c->tls.key_file);
}

/* Errors after which another endpoint may do better. */
static bool endpoint_failed(CURLcode rc) {
  return rc == CURLE_COULDNT_CONNECT || rc == CURLE_COULDNT_RESOLVE_HOST || rc == CURLE_OPERATION_TIMEDOUT ||
         rc == CURLE_SEND_ERROR || rc == CURLE_RECV_ERROR || rc == CURLE_GOT_NOTHING || rc == CURLE_SSL_CONNECT_ERROR;
}

/* Whether h's request cannot have reached etcd: it could not connect, and
 * sent nothing before. libcurl sends a request again on a new connection
 * when the one it reused closes with nothing read, so "could not connect"
 * may come after the request went out on the old one (a member killed
 * while it answered: its connection reset, its port then refused); the
 * request size, counted over the whole transfer, tells. */
static bool not_sent(CURL *h, CURLcode rc) {
  long sent = 0;
  curl->easy_getinfo(h, CURLINFO_REQUEST_SIZE, &sent);
  return (rc == CURLE_COULDNT_CONNECT || rc == CURLE_COULDNT_RESOLVE_HOST || rc == CURLE_SSL_CONNECT_ERROR) &&
         sent == 0;
}

bool etcd_call(etcd_client *c, const char *path, json_t *body, etcd_reply *out, strbuf *err) {
  return etcd_call_limited(c, path, body, NULL, out, err);
}

bool etcd_call_limited(etcd_client *c, const char *path, json_t *body, const etcd_limit *limit, etcd_reply *out,
                       strbuf *err) {
  memset(out, 0, sizeof *out);
  char *text = json_dumps(body, JSON_COMPACT);
  json_decref(body);
  struct curl_slist *headers = curl->slist_append(NULL, "Content-Type: application/json");
  pooled p = take_handle(c);
  CURL *h = p.easy;
  strbuf reply = STRBUF_INIT;
  bool ok = false, answered = false;
  /* A write goes on to the next endpoint only when it cannot have reached
   * this one: after a reset or a timeout etcd may have applied it, and a
   * second try would be judged on its own effect (a create answered
   * AlreadyExists, found by tests/ha when an etcd member died). The caller
   * gets the error: the outcome is unknown, as etcd's Go client leaves it. */
  bool repeatable = !strcmp(path, "/v3/kv/range");
  size_t first = atomic_load(&c->current);
  for (size_t tried = 0; tried < c->n_endpoints && !answered; tried++) {
    size_t at = (first + tried) % c->n_endpoints;
    char url[512];
    snprintf(url, sizeof url, "%s%s", c->endpoints[at], path);
    sb_truncate(&reply, 0);
    setup(c, h, url, text, headers);
    curl->easy_setopt(h, CURLOPT_TIMEOUT_MS, CALL_TIMEOUT_MS);
    curl->easy_setopt(h, CURLOPT_WRITEFUNCTION, collect);
    curl->easy_setopt(h, CURLOPT_WRITEDATA, &reply);
    CURLcode rc = perform(p, limit);
    if (rc != CURLE_OK) {
      sb_truncate(err, 0);
      sb_printf(err, "etcd %s: %s", c->endpoints[at],
                rc == CURLE_ABORTED_BY_CALLBACK ? "given up by the caller" : curl->easy_strerror(rc));
      if (!endpoint_failed(rc)) break;
      /* the next call starts elsewhere: this member may be gone */
      size_t expected = at;
      atomic_compare_exchange_strong(&c->current, &expected, (at + 1) % c->n_endpoints);
      if (repeatable || not_sent(h, rc)) continue;
      break;
    }
    answered = true;
    atomic_store(&c->current, at);
    sb_truncate(err, 0);
    if (!etcd_reply_parse(reply.buf ? reply.buf : "", reply.len, out, err)) break;
    long status = 0;
    curl->easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
    if (out->error || status != 200) {
      sb_printf(err, "etcd %s: %s", c->endpoints[at], out->error ? out->error : "error without a message");
      etcd_reply_free(out);
      break;
    }
    ok = true;
  }
  give_back(c, p);
  curl->slist_free_all(headers);
  sb_free(&reply);
  free(text);
  return ok;
}

typedef struct stream {
  strbuf pending; /* bytes of a message not complete yet */
  etcd_watch_fn fn;
  void *user;
  atomic_bool *stop;
  bool done;    /* fn said stop */
  bool invalid; /* a message could not be read */
  strbuf *err;
} stream;

/* Hands every complete line to the caller; returning short aborts the transfer. */
static size_t on_stream(char *data, size_t size, size_t n, void *user) {
  stream *st = user;
  sb_add(&st->pending, data, size * n);
  char *line;
  while (!st->done && st->pending.len && (line = memchr(st->pending.buf, '\n', st->pending.len))) {
    size_t len = (size_t)(line - st->pending.buf);
    etcd_reply r;
    if (len && !etcd_reply_parse(st->pending.buf, len, &r, st->err)) {
      st->invalid = st->done = true;
      break;
    }
    if (len) {
      if (!st->fn(st->user, &r)) st->done = true;
      etcd_reply_free(&r);
    }
    memmove(st->pending.buf, line + 1, st->pending.len - len - 1);
    st->pending.len -= len + 1;
    st->pending.buf[st->pending.len] = 0;
  }
  return st->done ? 0 : size * n;
}

static int on_progress(void *user, curl_off_t a, curl_off_t b, curl_off_t c, curl_off_t d) {
  (void)a, (void)b, (void)c, (void)d;
  stream *st = user;
  return atomic_load(st->stop) ? 1 : 0;
}

/* POSTs text to path on the current endpoint and hands every message of
 * the streamed reply to st->fn; *at is the endpoint used. */
static CURLcode run_stream(etcd_client *c, const char *path, const char *text, stream *st, size_t *at,
                           long *status) {
  struct curl_slist *headers = curl->slist_append(NULL, "Content-Type: application/json");
  CURL *h = curl->easy_init();
  *at = atomic_load(&c->current);
  char url[512];
  snprintf(url, sizeof url, "%s%s", c->endpoints[*at], path);
  setup(c, h, url, text, headers);
  curl->easy_setopt(h, CURLOPT_WRITEFUNCTION, on_stream);
  curl->easy_setopt(h, CURLOPT_WRITEDATA, st);
  curl->easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
  curl->easy_setopt(h, CURLOPT_XFERINFOFUNCTION, on_progress);
  curl->easy_setopt(h, CURLOPT_XFERINFODATA, st);
  CURLcode rc = curl->easy_perform(h);
  *status = 0;
  curl->easy_getinfo(h, CURLINFO_RESPONSE_CODE, status);
  curl->easy_cleanup(h);
  curl->slist_free_all(headers);
  return rc;
}

bool etcd_watch(etcd_client *c, json_t *create_request, etcd_watch_fn fn, void *user, atomic_bool *stop,
                strbuf *err) {
  json_t *body = json_pack("{s:o}", "create_request", create_request);
  char *text = json_dumps(body, JSON_COMPACT);
  json_decref(body);
  stream st = {STRBUF_INIT, fn, user, stop, false, false, err};
  size_t at;
  long status;
  CURLcode rc = run_stream(c, "/v3/watch", text, &st, &at, &status);
  bool ok = st.done && !st.invalid;
  if (!ok && !st.invalid && !atomic_load(stop)) {
    sb_printf(err, "etcd %s: watch ended: %s", c->endpoints[at], rc == CURLE_OK ? "closed by etcd" : curl->easy_strerror(rc));
    if (rc == CURLE_OK || endpoint_failed(rc)) /* resume on the next endpoint */
      atomic_compare_exchange_strong(&c->current, &at, (at + 1) % c->n_endpoints);
  }
  sb_free(&st.pending);
  free(text);
  return ok;
}

bool etcd_stream(etcd_client *c, const char *path, json_t *body, etcd_watch_fn fn, void *user, strbuf *err) {
  char *text = json_dumps(body, JSON_COMPACT);
  json_decref(body);
  atomic_bool never = false;
  stream st = {STRBUF_INIT, fn, user, &never, false, false, err};
  size_t at;
  long status;
  CURLcode rc = run_stream(c, path, text, &st, &at, &status);
  bool ok = rc == CURLE_OK && status == 200 && !st.done && !st.pending.len;
  if (!ok && !st.invalid && !st.done) {
    if (rc != CURLE_OK) sb_printf(err, "etcd %s%s: %s", c->endpoints[at], path, curl->easy_strerror(rc));
    else {
      etcd_reply r; /* a refusal's body is one message, maybe without a newline */
      strbuf ignored = STRBUF_INIT;
      bool parsed = st.pending.len && etcd_reply_parse(st.pending.buf, st.pending.len, &r, &ignored);
      const char *why = parsed && r.error ? r.error : status != 200 ? "refused" : "cut off";
      sb_printf(err, "etcd %s%s: %s", c->endpoints[at], path, why);
      if (parsed) etcd_reply_free(&r);
      sb_free(&ignored);
    }
  }
  sb_free(&st.pending);
  free(text);
  return ok;
}
