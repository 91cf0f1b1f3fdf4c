/* server.c: libmicrohttpd glue, authentication and dispatch for server.h.
 * Request bodies are limited to SRV_MAX_BODY (413 beyond), as kube-apiserver
 * limits them. Connections are not threads: a small pool of epoll threads
 * serves them all, watches are suspended connections (streams.c), and idle
 * connections are closed after a timeout (docs/server.md, "Connections and
 * threads"). */
#include "server/server_internal.h"
#include "server/access_reviews.h"
#include "server/auth.h"
#include "server/deadlines.h"
#include "server/discovery.h"
#include "server/fresh.h"
#include "server/httplog.h"
#include "server/impersonate.h"
#include "server/inflight.h"
#include "server/priority_classes.h"
#include "server/rbac_bootstrap.h"
#include "server/namespaces.h"
#include "server/openapi.h"
#include "server/reviews.h"
#include "server/route.h"
#include "server/status.h"
#include "server/streams.h"
#include "server/x509.h"
#include "store/sqlite.h"
#include "util/die.h"
#include "util/log.h"
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#define SRV_MAX_BODY (3u * 1024 * 1024)

/* Threads polling connections (epoll). A request handler runs on one of
 * them and may wait for the disk, so there are a few more than cores. */
#define SRV_POLL_THREADS 8
/* kube-apiserver's http.Server (apiserver/pkg/server/secure_serving.go):
 * ReadHeaderTimeout 32 s, IdleTimeout 90 s. libmicrohttpd has one inactivity
 * timeout per connection: 32 s until a request's headers are in and while it
 * is served, 90 s between requests on a kept-alive connection. */
#define SRV_HEADER_TIMEOUT 32
#define SRV_IDLE_TIMEOUT 90
/* kube-apiserver's --request-timeout default; here the time a request's
 * body may take after its headers. deadlines.h makes these and the header
 * timeout totals, not only inactivity limits. */
#define SRV_REQUEST_TIMEOUT 60
/* Go's net/http (server.go, maxPostHandlerReadBytes): when a handler
 * answers without reading the request's body, the server reads and drops
 * up to 256 KiB of it so that the connection can serve the next request;
 * a longer body, or one its client holds back for a 100 Continue, ends the
 * connection after the answer. kube-apiserver's 401, 403 and 429 are such
 * answers. */
#define SRV_MAX_DISCARD (256u * 1024)
/* File descriptors kept for the store, logs and the daemon's own. */
#define SRV_RESERVED_FDS 64

/* One request on a connection, from its URI (on_uri) to its end
 * (on_completed). */
typedef struct conn_state {
  struct timespec start; /* when the request line arrived (httplog latency) */
  char *uri;             /* as sent, path and query */
  char method[16];       /* the request's method, from on_request */
  bool headers_seen;     /* on_request has seen the headers */
  strbuf body;
  bool too_large;
  const srv_user *user; /* the authenticated user, NULL without authentication */
  srv_user *cert_user;  /* the user of a client certificate (user points here) */
  srv_user *impersonated; /* the user impersonated (user points here) */
  bool refused;       /* refused on its headers alone (401, 403, 429) */
  http_response refusal; /* that answer, sent once the body is dropped */
  bool refusal_sent;
  size_t dropped;     /* bytes of the refused request's body dropped so far */
  bool waited;        /* suspended once for the store to reach its resourceVersion (fresh.h) */
  inflight_slot slot; /* the in-flight count it holds until it is over (inflight.h) */
  int status;         /* the answer's status code */
} conn_state;

static void access_review(dra_server *s, const route *r, const http_request *req, http_response *resp) {
  srv_access_review(&s->authz, r, req, resp);
}

static void self_subject_review(dra_server *s, const route *r, const http_request *req, http_response *resp) {
  (void)s, (void)r;
  srv_self_subject_review(req, resp);
}

void srv_handle(dra_server *s, const http_request *req, http_response *resp) {
  route r;
  switch (route_parse(req->path, &s->served, &r)) {
  case ROUTE_OPENAPI_V2:
  case ROUTE_OPENAPI_ROOT:
  case ROUTE_OPENAPI_GV: srv_openapi(&s->served, &r, req, resp); return;
  case ROUTE_RESOURCE: srv_resource_request(s, &r, req, resp); return;
  case ROUTE_SELF_SUBJECT_REVIEW: srv_in_negotiated_media(s, &r, req, resp, self_subject_review); return;
  case ROUTE_ACCESS_REVIEW: srv_in_negotiated_media(s, &r, req, resp, access_review); return;
  case ROUTE_METRICS:
    resp->status = 200;
    resp->content_type = "text/plain; version=0.0.4; charset=utf-8";
    srv_metrics_render(&s->metrics, s->loop_started ? s->loop : NULL, &resp->body);
    return;
  case ROUTE_NOT_FOUND:
    srv_status(resp, 404, "NotFound", "the server could not find the requested resource", NULL);
    return;
  default: srv_discovery(&s->served, &r, req->accept, resp); return;
  }
}

static enum MHD_Result send_response(dra_server *s, struct MHD_Connection *c, conn_state *st, http_response *resp) {
  struct MHD_Response *r;
  st->status = resp->status;
  deadlines_set(c, 0); /* answered: the inactivity timeout bounds the rest */
  if (resp->stream) {
    r = stream_hub_response(s->streams, c, resp->stream);
    resp->stream = NULL; /* the transport closes it */
    if (!r) return MHD_NO;
  } else
    r = MHD_create_response_from_buffer(resp->body.len, resp->body.buf ? resp->body.buf : (void *)"",
                                        MHD_RESPMEM_MUST_COPY);
  MHD_add_response_header(r, "Content-Type", resp->content_type ? resp->content_type : "application/json");
  MHD_add_response_header(r, "Cache-Control", "no-cache, private");
  if (resp->no_sniff) MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
  /* each line is a whole header value (warning.c) */
  for (char *w = resp->warnings.buf, *nl; w && *w; w = nl ? nl + 1 : "") {
    if ((nl = strchr(w, '\n'))) *nl = 0;
    MHD_add_response_header(r, "Warning", w);
  }
  if (resp->retry_after) {
    char seconds[16];
    snprintf(seconds, sizeof seconds, "%u", resp->retry_after);
    MHD_add_response_header(r, "Retry-After", seconds);
  }
  enum MHD_Result ret = MHD_queue_response(c, (unsigned)resp->status, r);
  MHD_destroy_response(r);
  return ret;
}

static enum MHD_Result collect_query(void *cls, enum MHD_ValueKind kind, const char *key, const char *value) {
  (void)kind;
  http_request *req = cls;
  req->query = xrealloc(req->query, (req->n_query + 1) * sizeof *req->query);
  req->query[req->n_query].key = xstrdup(key);
  req->query[req->n_query].value = xstrdup(value ? value : "");
  req->n_query++;
  return MHD_YES;
}

/* The Impersonate-Group headers (there may be several). */
static enum MHD_Result collect_impersonated_group(void *cls, enum MHD_ValueKind kind, const char *key,
                                                  const char *value) {
  (void)kind;
  impersonation *imp = cls;
  if (value && !strcasecmp(key, "Impersonate-Group")) {
    imp->groups = xrealloc(imp->groups, (imp->n_groups + 1) * sizeof *imp->groups);
    imp->groups[imp->n_groups++] = value;
  }
  return MHD_YES;
}

static enum MHD_Result send_refusal(dra_server *s, struct MHD_Connection *c, conn_state *st) {
  st->refusal_sent = true;
  return send_response(s, c, st, &st->refusal);
}

/* A request refused on its headers (resp, taken): answered once its body,
 * if any, is read and dropped, so that the connection stays open for the
 * next request as with kube-apiserver (SRV_MAX_DISCARD); at once, ending
 * the connection, when the body is too long for that or its client waits
 * for a 100 Continue (libmicrohttpd closes a connection answered before
 * its request is read). The request gives back its in-flight slot now. */
static enum MHD_Result refuse(dra_server *s, struct MHD_Connection *c, conn_state *st, http_response *resp) {
  st->refused = true;
  st->refusal = *resp;
  srv_inflight_release(&s->inflight, st->slot);
  st->slot = INFLIGHT_NONE;
  const char *expect = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Expect");
  const char *length = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length");
  bool has_body = !length || strtoull(length, NULL, 10) > 0; /* without a length: chunked, or none */
  bool waits_for_continue = expect && !strcasecmp(expect, "100-continue") && has_body;
  bool too_long = length && strtoull(length, NULL, 10) > SRV_MAX_DISCARD;
  return waits_for_continue || too_long ? send_refusal(s, c, st) : MHD_YES;
}

/* The refused request's next piece of body (dropped), or its end. */
static enum MHD_Result drop_refused_body(dra_server *s, struct MHD_Connection *c, conn_state *st, size_t *upload_size) {
  bool more = *upload_size > 0;
  st->dropped += *upload_size;
  *upload_size = 0;
  if (st->refusal_sent || (more && st->dropped <= SRV_MAX_DISCARD)) return MHD_YES;
  return send_refusal(s, c, st);
}

/* The in-flight limit (inflight.h), then, when authorize, authorization of
 * st->user (NULL without authentication); the answer in resp when refused. */
static bool admit(dra_server *s, struct MHD_Connection *c, const char *url, const char *method, conn_state *st,
                  bool authorize, http_response *resp) {
  http_request req = {.method = method, .path = url};
  MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, collect_query, &req);
  authz_request ar;
  authz_request_parse(&req, st->user, &ar);
  bool ok = srv_inflight_admit(&s->inflight, &ar.attrs, &st->slot, resp);
  if (ok && authorize) {
    strbuf reason = STRBUF_INIT;
    ok = authz_allowed(&s->authz, &ar.attrs, &reason);
    if (!ok) authz_forbidden(resp, &ar.attrs, sb_str(&reason));
    sb_free(&reason);
  }
  authz_request_free(&ar);
  http_free_query(req.query, req.n_query);
  return ok;
}

/* Impersonation, then admit, of the authenticated st->user; the answer in
 * resp when refused. */
static bool authorize(dra_server *s, struct MHD_Connection *c, const char *url, const char *method, conn_state *st,
                      http_response *resp) {
  impersonation imp = {.user = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Impersonate-User")};
  MHD_get_connection_values(c, MHD_HEADER_KIND, collect_impersonated_group, &imp);
  bool ok = true;
  if (imp.user || imp.n_groups) {
    ok = srv_impersonate(&s->authz, st->user, &imp, &st->impersonated, resp);
    if (ok) st->user = st->impersonated;
  }
  free(imp.groups);
  return ok && admit(s, c, url, method, st, true, resp);
}

/* kube-apiserver's filters (DefaultBuildHandlerChain): authentication (a
 * client certificate, then a bearer token; 401 on bad credentials; none is
 * system:anonymous), impersonation, then authorization (403), all on the
 * headers alone. MHD_NO only when the answer cannot be queued. */
static enum MHD_Result check_access(dra_server *s, struct MHD_Connection *c, const char *url, const char *method,
                                    conn_state *st) {
  const char *warning = NULL;
  auth_outcome a = AUTH_ANONYMOUS;
  const union MHD_ConnectionInfo *tls = s->tls_cert ? MHD_get_connection_info(c, MHD_CONNECTION_INFO_GNUTLS_SESSION) : NULL;
  switch (srv_x509_user(tls ? tls->tls_session : NULL, &st->cert_user)) {
  case X509_USER:
    st->user = st->cert_user;
    a = AUTH_USER;
    break;
  case X509_INVALID: a = AUTH_INVALID; break;
  case X509_NO_CERT:
    a = srv_authenticate(s->tokens, MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Authorization"), &st->user,
                         &warning);
    break;
  }
  http_response resp = {0};
  if (a == AUTH_INVALID) {
    srv_status(&resp, 401, "Unauthorized", "Unauthorized", NULL);
  } else {
    if (a == AUTH_ANONYMOUS) st->user = srv_anonymous();
    if (authorize(s, c, url, method, st, &resp)) return MHD_YES;
  }
  if (warning) sb_printf(&resp.warnings, "%s\n", warning);
  return refuse(s, c, st, &resp);
}

/* Without authentication only the in-flight limit applies. */
static enum MHD_Result check_inflight(dra_server *s, struct MHD_Connection *c, const char *url, const char *method,
                                      conn_state *st) {
  http_response resp = {0};
  if (admit(s, c, url, method, st, false, &resp)) return MHD_YES;
  return refuse(s, c, st, &resp);
}

/* A read of a resource at a resourceVersion the store has not reached. */
static bool waits_for_store(dra_server *s, const http_request *req) {
  route r;
  return fresh_needed(req) > store_revision(s->committed) && route_parse(req->path, &s->served, &r) == ROUTE_RESOURCE;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                                  const char *version, const char *upload, size_t *upload_size, void **con_cls) {
  (void)version;
  dra_server *s = cls;
  conn_state *st = *con_cls; /* made by on_uri */
  if (!st->headers_seen) {
    st->headers_seen = true;
    snprintf(st->method, sizeof st->method, "%s", method);
    /* headers are in: serving it is bounded like reading them */
    MHD_set_connection_option(c, MHD_CONNECTION_OPTION_TIMEOUT, s->header_timeout);
    deadlines_set(c, s->request_timeout); /* and the body must be in in time */
    /* authentication and authorization come before the body is read */
    return s->authn ? check_access(s, c, url, method, st) : check_inflight(s, c, url, method, st);
  }
  if (st->refused) return drop_refused_body(s, c, st, upload_size);
  if (*upload_size) {
    if (st->body.len + *upload_size > SRV_MAX_BODY) st->too_large = true;
    else sb_add(&st->body, upload, *upload_size);
    *upload_size = 0;
    return MHD_YES;
  }
  http_response resp = {0};
  const srv_user *user = st->user;
  if (st->too_large) {
    srv_status(&resp, 413, "RequestEntityTooLarge", "Request entity too large: limit is 3145728", NULL);
  } else {
    http_request req = {.method = method,
                        .path = url,
                        .body = st->body.buf,
                        .body_len = st->body.len,
                        .user = user ? user->name : NULL,
                        .user_info = user};
    req.content_type = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Type");
    req.accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Accept");
    req.user_agent = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "User-Agent");
    MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, collect_query, &req);
    bool suspended = !st->waited && waits_for_store(s, &req) && fresh_wait(s->fresh, c, fresh_needed(&req));
    st->waited = true;
    if (!suspended) srv_handle(s, &req, &resp);
    http_free_query(req.query, req.n_query);
    if (suspended) return MHD_YES; /* resumed, this runs again */
  }
  enum MHD_Result ret = send_response(s, c, st, &resp);
  http_response_free(&resp);
  return ret;
}

/* MHD_OPTION_URI_LOG_CALLBACK: the first word of every request, with the
 * URI exactly as sent; what it returns is the request's *con_cls. */
static void *on_uri(void *cls, const char *uri, struct MHD_Connection *c) {
  dra_server *s = cls;
  deadlines_tighten(c, s->header_timeout); /* a kept-alive connection's next request */
  conn_state *st = xcalloc(1, sizeof *st);
  clock_gettime(CLOCK_MONOTONIC, &st->start);
  st->uri = xstrdup(uri);
  return st;
}

/* A request that is over: counted for /metrics and, at -v 3, logged as
 * kube-apiserver logs it (httplog.h). */
static void request_done(dra_server *s, struct MHD_Connection *c, const conn_state *st) {
  const char *q = strchr(st->uri, '?');
  char *path = xstrndup(st->uri, q ? (size_t)(q - st->uri) : strlen(st->uri));
  route r;
  bool resource = route_parse(path, &s->served, &r) == ROUTE_RESOURCE;
  free(path);
  const char *watch = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "watch");
  char src[INET_ADDRSTRLEN + 8] = "";
  const union MHD_ConnectionInfo *peer = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  if (peer && peer->client_addr && peer->client_addr->sa_family == AF_INET) {
    const struct sockaddr_in *in = (const struct sockaddr_in *)peer->client_addr;
    char ip[INET_ADDRSTRLEN];
    inet_ntop(AF_INET, &in->sin_addr, ip, sizeof ip);
    snprintf(src, sizeof src, "%s:%u", ip, ntohs(in->sin_port));
  }
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  srv_request_log l = {
      .method = st->method,
      .uri = st->uri,
      .named = resource && r.name[0],
      .watch = watch && (!strcmp(watch, "true") || !strcmp(watch, "1")),
      .resource = resource,
      .user_agent = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "User-Agent"),
      .content_type = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Type"),
      .src = src,
      .status = st->status,
      .latency_ns = (now.tv_sec - st->start.tv_sec) * 1000000000LL + (now.tv_nsec - st->start.tv_nsec),
  };
  const char *dry_run = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "dryRun");
  srv_metrics_observe(&s->metrics, &l, &r, dry_run && *dry_run);
  srv_httplog(&l);
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode toe) {
  dra_server *s = cls;
  /* served: the connection now waits for the next request, kept alive */
  if (toe == MHD_REQUEST_TERMINATED_COMPLETED_OK) {
    MHD_set_connection_option(c, MHD_CONNECTION_OPTION_TIMEOUT, s->idle_timeout);
    deadlines_set(c, s->idle_timeout + s->header_timeout);
  }
  conn_state *st = *con_cls;
  if (!st) return;
  srv_inflight_release(&s->inflight, st->slot);
  if (st->headers_seen) request_done(s, c, st);
  sb_free(&st->body);
  http_response_free(&st->refusal);
  srv_user_free(st->cert_user);
  srv_user_free(st->impersonated);
  free(st->uri);
  free(st);
  *con_cls = NULL;
}

/* libmicrohttpd's messages, less the one every dropped watch causes on
 * purpose (streams.c ends it with an error so the connection closes). */
static void mhd_log(void *cls, const char *fmt, va_list ap) {
  (void)cls;
  char msg[512];
  vsnprintf(msg, sizeof msg, fmt, ap);
  if (strstr(msg, "application error generating response")) return;
  log_warning("libmicrohttpd: %s", msg);
}

static bool parse_listen(const char *listen, struct sockaddr_in *addr, strbuf *err) {
  char host[64];
  const char *colon = strrchr(listen, ':');
  if (!colon || (size_t)(colon - listen) >= sizeof host) {
    sb_printf(err, "--listen %s: want HOST:PORT", listen);
    return false;
  }
  memcpy(host, listen, (size_t)(colon - listen));
  host[colon - listen] = 0;
  char *end;
  long port = strtol(colon + 1, &end, 10);
  memset(addr, 0, sizeof *addr);
  addr->sin_family = AF_INET;
  addr->sin_port = htons((uint16_t)port);
  if (*end || port < 0 || port > 65535 || inet_pton(AF_INET, host[0] ? host : "0.0.0.0", &addr->sin_addr) != 1) {
    sb_printf(err, "--listen %s: want an IPv4 HOST:PORT", listen);
    return false;
  }
  return true;
}

/* Store watcher: any change may give the control loop work. Runs under the
 * store's lock on the writing thread, which holds loop_lock. */
static void wake_loop(void *user, const store_event *ev) {
  (void)ev;
  dra_server *s = user;
  s->loop_dirty = true;
  pthread_cond_signal(&s->loop_wake);
}

/* The control loop holds loop_lock (the store's write lock) for at most
 * this many steps at a time, so creates are not held up by a long run. */
#define LOOP_SLICE_STEPS 32

/* After a step of the control loop: a refused (fenced) write means the
 * Lease moved on while this replica thought it led (it was paused or cut
 * off): it stops leading at once (docs/store.md "Fencing"). */
static void notice_fenced(dra_server *s, uint64_t *refused) {
  uint64_t now = s->elector ? store_etcd_fenced_writes(s->st) : 0;
  if (now == *refused) return;
  fprintf(stderr, "dra serve: %llu controller write(s) refused: the lease %s/%s moved on, stopping the controllers\n",
          (unsigned long long)(now - *refused), LEADER_LEASE_NAMESPACE, LEADER_LEASE_NAME);
  *refused = now;
  leader_lost(s->elector);
}

static void *loop_main(void *arg) {
  dra_server *s = arg;
  store_sqlite_no_wait_on_this_thread();
  store_etcd_fence_this_thread();
  uint64_t refused = 0;
  bool led = !s->elector; /* without an election it leads from the start */
  pthread_mutex_lock(&s->loop_lock);
  while (!atomic_load(&s->stopping)) {
    notice_fenced(s, &refused);
    bool leading = !s->elector || leader_is_leading(s->elector);
    if (leading && !led) { /* a new leader looks at everything again */
      event_recorder_drop(s->events); /* the last leader's work: its Events are its own */
      s->loop_dirty = true;
    }
    led = leading;
    if (!leading) { /* another replica runs the controllers */
      event_recorder_drop(s->events); /* and writes their Events */
      struct timespec until;
      clock_gettime(CLOCK_REALTIME, &until);
      until.tv_sec += 1;
      pthread_cond_timedwait(&s->loop_wake, &s->loop_lock, &until);
      continue;
    }
    int64_t due = s->loop_dirty ? 0 : sched_loop_next_deadline(s->loop);
    if (due && (int64_t)time(NULL) >= due) s->loop_dirty = true; /* an eviction or a rule status is due */
    if (!s->loop_dirty) {
      pthread_mutex_unlock(&s->loop_lock);
      bool trimmed = heap_return_maybe(&s->heap);
      pthread_mutex_lock(&s->loop_lock);
      if (trimmed) continue;
      struct timespec until;
      clock_gettime(CLOCK_REALTIME, &until);
      until.tv_sec += 1;
      pthread_cond_timedwait(&s->loop_wake, &s->loop_lock, &until);
      continue;
    }
    s->loop_dirty = false;
    sched_loop_set_now(s->loop, (int64_t)time(NULL));
    if (sched_loop_run_some(s->loop, LOOP_SLICE_STEPS) == LOOP_SLICE_STEPS) {
      /* more work: let HTTP writers at the store before the next slice */
      s->loop_dirty = true;
      heap_return_note_work(&s->heap);
      pthread_mutex_unlock(&s->loop_lock);
      heap_return_maybe(&s->heap);
      sched_yield();
      pthread_mutex_lock(&s->loop_lock);
      continue;
    }
    if (s->elector && !leader_is_leading(s->elector)) continue; /* lost during the slice: write nothing more */
    heap_return_note_work(&s->heap);
    event_recorder_flush(s->events);
    if (!(s->opts.disabled_controllers & CTRL_GARBAGE_COLLECTOR)) gc_collect(s->gc);
    if (!(s->opts.disabled_controllers & CTRL_NAMESPACE)) nsc_sync(s->nsc);
  }
  pthread_mutex_unlock(&s->loop_lock);
  return NULL;
}

/* The elector's news wakes the loop, which looks at leader_is_leading
 * itself: the elector must not wait for loop_lock, held for a whole slice
 * (a wake-up missed just before the loop waits costs it one second). */
static void on_leading(void *user, bool leading) {
  (void)leading;
  pthread_cond_signal(&((dra_server *)user)->loop_wake);
}

static void start_loop(dra_server *s) {
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&s->loop_lock, &attr);
  pthread_mutexattr_destroy(&attr);
  pthread_cond_init(&s->loop_wake, NULL);
  store_set_write_lock(s->st, &s->loop_lock);
  sched_options so = {
      .gates = s->opts.gates,
      .now = (int64_t)time(NULL),
      .disabled_controllers = s->opts.disabled_controllers,
      .gang_upstream = s->opts.gang_upstream,
      .alloc_max_steps = s->opts.alloc_max_steps,
      .alloc_timeout_seconds = s->opts.alloc_timeout_seconds,
      .joint_max_steps = s->opts.joint_max_steps,
      .joint_timeout_seconds = s->opts.joint_timeout_seconds,
      /* a ready pod is tried at least once in every slice */
      .controller_steps_per_pod = LOOP_SLICE_STEPS / 2,
      .managed_fields = true};
  s->loop = sched_loop_new(s->st, &so);
  s->events = event_recorder_new(s->st, s->opts.disabled_controllers);
  s->gc = gc_new(s->st);
  s->nsc = nsc_new(s->st);
  s->loop_dirty = true;
  s->heap = (heap_return)HEAP_RETURN_INIT;
  store_watch(s->st, 0, wake_loop, s, &s->loop_watch);
  if (store_is_etcd(s->st)) s->elector = leader_start(s->st, NULL, on_leading, s); /* before the loop reads it */
  pthread_create(&s->loop_thread, NULL, loop_main, s);
  s->loop_started = true;
}

/* Raises the open-file limit to its hard limit: every connection is a file
 * descriptor. Returns how many connections to allow. */
static unsigned max_connections(void) {
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl)) return 1000;
  if (rl.rlim_cur < rl.rlim_max) {
    rlim_t want = rl.rlim_max;
    rl.rlim_cur = want;
    if (setrlimit(RLIMIT_NOFILE, &rl)) getrlimit(RLIMIT_NOFILE, &rl);
  }
  rlim_t n = rl.rlim_cur;
  if (n == RLIM_INFINITY || n > 1000000) n = 1000000;
  return n > 2 * SRV_RESERVED_FDS ? (unsigned)(n - SRV_RESERVED_FDS) : (unsigned)(n / 2);
}

/* HTTPS: the serving certificate (given, or made with the CA of pki.h)
 * and the CAs that client certificates must chain to. */
static bool start_tls(dra_server *s, const srv_options *opts, const struct sockaddr_in *addr, strbuf *err) {
  if (MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
    sb_puts(err, "this libmicrohttpd was built without TLS support: cannot serve HTTPS (--insecure-http serves "
                 "plain HTTP on loopback)");
    return false;
  }
  if (!opts->tls_cert_file != !opts->tls_key_file) {
    sb_puts(err, "--tls-cert-file and --tls-private-key-file go together");
    return false;
  }
  char ip[INET_ADDRSTRLEN];
  inet_ntop(AF_INET, &addr->sin_addr, ip, sizeof ip);
  if (!srv_pki_ensure(opts->data_dir, ip, &s->pki, err)) return false;
  if (opts->tls_cert_file) {
    s->tls_cert = sb_read_file(opts->tls_cert_file, NULL);
    s->tls_key = sb_read_file(opts->tls_key_file, NULL);
    if (!s->tls_cert || !s->tls_key) {
      sb_printf(err, "cannot read the TLS certificate or key: %s", strerror(errno));
      return false;
    }
  } else {
    s->tls_cert = xstrdup(s->pki.serving_cert);
    s->tls_key = xstrdup(s->pki.serving_key);
  }
  strbuf trust = STRBUF_INIT;
  sb_puts(&trust, s->pki.ca_cert);
  if (opts->client_ca_file) {
    char *extra = sb_read_file(opts->client_ca_file, NULL);
    if (!extra) {
      sb_printf(err, "cannot read --client-ca-file %s: %s", opts->client_ca_file, strerror(errno));
      sb_free(&trust);
      return false;
    }
    sb_printf(&trust, "\n%s", extra);
    free(extra);
  }
  s->client_trust = sb_detach(&trust);
  return true;
}

dra_server *srv_start(const srv_options *opts, strbuf *err) {
  dra_server *s = xcalloc(1, sizeof *s);
  s->opts = *opts;
  srv_metrics_init(&s->metrics);
  srv_served_default(&s->served);
  if (!srv_served_parse(&s->served, opts->runtime_config, err)) {
    srv_metrics_free(&s->metrics);
    free(s);
    return NULL;
  }
  /* a file size limit makes writes fail (EFBIG), which the store survives,
   * instead of killing the process */
  signal(SIGXFSZ, SIG_IGN);
  strbuf db_path = STRBUF_INIT;
  sb_printf(&db_path, "%s/dra.db", opts->data_dir);
  s->st = opts->etcd.servers ? store_etcd_open(&opts->etcd, NULL, err) : store_sqlite_open(sb_str(&db_path), NULL, err);
  sb_free(&db_path);
  if (!s->st) goto fail;
  s->committed = store_committed(s->st);
  /* the bootstrap objects share a few SQLite transactions, not an fsync
   * each (etcd takes each write as its own transaction) */
  bool group_commit = !store_is_etcd(s->st);
  if (group_commit) store_sqlite_group_begin();
  srv_create_system_namespaces(s);
  /* RBAC reads roles and bindings as kube-apiserver's authorizer does from
   * its informers: only what is committed (docs/server.md, "Authorization") */
  s->authz = (authz){.mode = opts->authorization_mode, .st = s->committed};
  rbac_bootstrap(s->st, &s->opts.gates);
  srv_create_system_priority_classes(s->st, &s->opts.gates);
  if (group_commit && !store_sqlite_group_end(s->st))
    log_warning("the bootstrap objects are not on disk yet: the store retries");
  start_loop(s);
  struct sockaddr_in addr;
  if (!parse_listen(opts->listen, &addr, err)) goto fail;
  if (opts->token_file && !(s->tokens = srv_tokens_load(opts->token_file, err))) goto fail;
  bool loopback = ntohl(addr.sin_addr.s_addr) >> 24 == 127;
  if (opts->insecure_http && (opts->tls_cert_file || opts->tls_key_file || opts->client_ca_file)) {
    sb_puts(err, "--insecure-http serves plain HTTP: it does not go with --tls-cert-file, --tls-private-key-file "
                 "or --client-ca-file");
    goto fail;
  }
  if (opts->insecure_http && !loopback) {
    sb_printf(err, "refusing to listen on %s with --insecure-http: plain HTTP is for loopback only", opts->listen);
    goto fail;
  }
  unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG;
  flags |= MHD_is_feature_supported(MHD_FEATURE_EPOLL) == MHD_YES ? MHD_USE_EPOLL : MHD_USE_POLL;
  if (!opts->insecure_http && !start_tls(s, opts, &addr, err)) goto fail;
  if (s->tls_cert) flags |= MHD_USE_TLS;
  s->authn = s->tls_cert || s->tokens;
  s->inflight.max_readonly = opts->max_requests_inflight;
  s->inflight.max_mutating = opts->max_mutating_requests_inflight;
  if (!s->authn) s->authz.mode = AUTHZ_ALWAYS_ALLOW; /* no one is known: everyone may do everything */
  s->header_timeout = opts->header_timeout ? opts->header_timeout : SRV_HEADER_TIMEOUT;
  s->idle_timeout = opts->idle_timeout ? opts->idle_timeout : SRV_IDLE_TIMEOUT;
  s->request_timeout = opts->request_timeout ? opts->request_timeout : SRV_REQUEST_TIMEOUT;
  unsigned limit = opts->max_connections ? opts->max_connections : max_connections();
  s->streams = stream_hub_start();
  s->deadlines = deadlines_start();
  s->fresh = fresh_waiter_start(s->committed);
  deadlines_set_first(s->deadlines, s->header_timeout);
  struct MHD_OptionItem options[] = {
      {MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)mhd_log, NULL}, /* first, to get every message */
      {MHD_OPTION_SOCK_ADDR, 0, &addr},
      {MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)on_uri, s},
      {MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)on_completed, s},
      {MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)deadlines_on_connection, s->deadlines},
      {MHD_OPTION_THREAD_POOL_SIZE, SRV_POLL_THREADS, NULL},
      {MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)s->header_timeout, NULL},
      {MHD_OPTION_CONNECTION_LIMIT, (intptr_t)limit, NULL},
      {s->tls_cert ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END, 0, s->tls_cert},
      {s->tls_cert ? MHD_OPTION_HTTPS_MEM_KEY : MHD_OPTION_END, 0, s->tls_key},
      {s->tls_cert ? MHD_OPTION_HTTPS_MEM_TRUST : MHD_OPTION_END, 0, s->client_trust},
      {MHD_OPTION_END, 0, NULL},
  };
  s->daemon = MHD_start_daemon(flags, 0, NULL, NULL, on_request, s, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
  if (!s->daemon) {
    sb_printf(err, "cannot listen on %s%s", opts->listen, s->tls_cert ? " (or the TLS certificate and key are unusable)" : "");
    goto fail;
  }
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(s->daemon, MHD_DAEMON_INFO_BIND_PORT);
  s->port = info ? info->port : ntohs(addr.sin_port);
  return s;
fail:
  srv_stop(s);
  return NULL;
}

unsigned srv_port(const dra_server *s) { return s->port; }

const char *srv_first_token(const dra_server *s) { return srv_tokens_first(s->tokens); }

bool srv_tls(const dra_server *s) { return s->tls_cert != NULL; }

const srv_pki *srv_pki_of(const dra_server *s) { return s->pki.ca_cert ? &s->pki : NULL; }

void srv_stop(dra_server *s) {
  if (!s) return;
  atomic_store(&s->stopping, true);
  if (s->streams) stream_hub_end_all(s->streams); /* MHD must find none suspended */
  if (s->fresh) fresh_waiter_end_all(s->fresh);
  if (s->daemon) MHD_stop_daemon(s->daemon);
  stream_hub_free(s->streams);
  deadlines_free(s->deadlines);
  fresh_waiter_free(s->fresh);
  if (s->loop_started) {
    pthread_mutex_lock(&s->loop_lock);
    pthread_cond_signal(&s->loop_wake);
    pthread_mutex_unlock(&s->loop_lock);
    pthread_join(s->loop_thread, NULL);
    leader_stop(s->elector); /* the controllers stopped: release the lease, another replica takes over */
    /* under the lock: an etcd store's apply thread may still feed watchers */
    pthread_mutex_lock(&s->loop_lock);
    store_unwatch(s->st, s->loop_watch);
    sched_loop_free(s->loop);
    event_recorder_free(s->events);
    gc_free(s->gc);
    nsc_free(s->nsc);
    store_set_write_lock(s->st, NULL); /* the store's own again */
    pthread_mutex_unlock(&s->loop_lock);
    pthread_mutex_destroy(&s->loop_lock);
    pthread_cond_destroy(&s->loop_wake);
  }
  store_close(s->st);
  srv_tokens_free(s->tokens);
  free(s->tls_cert);
  free(s->tls_key);
  free(s->client_trust);
  srv_pki_free(&s->pki);
  srv_metrics_free(&s->metrics);
  free(s);
}
