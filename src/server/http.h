/* http.h: the server's transport-free request and response. Handlers take an
 * http_request and fill an http_response; server.c adapts libmicrohttpd to
 * them, and tests call handlers directly without sockets. */
#ifndef DRA_SRV_HTTP_H
#define DRA_SRV_HTTP_H
#include "util/strbuf.h"
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct http_query_param {
  char *key, *value; /* URL-decoded */
} http_query_param;

typedef struct http_request {
  const char *method;       /* "GET", ... */
  const char *path;         /* URL path, not decoded beyond %XX */
  http_query_param *query;  /* parsed query */
  size_t n_query;
  const char *body;
  size_t body_len;
  const char *content_type; /* may be NULL */
  const char *accept;       /* may be NULL */
  const char *user;         /* authenticated user name, NULL without authentication */
  const struct srv_user *user_info; /* the same with uid and groups (user.h) */
  const char *user_agent;   /* may be NULL */
} http_request;

/* A response body produced over time (watch). Nothing in it blocks: the
 * transport (server.c, streams.c) reads while read() has bytes, parks the
 * connection when it returns 0, and reads again when the producer calls
 * http_stream_wake() or about once a second, after tick(). No thread waits
 * on a stream. */
#define HTTP_STREAM_END ((ptrdiff_t)-1)
typedef struct http_stream_waker {
  void (*wake)(struct http_stream_waker *self);
} http_stream_waker;
typedef struct http_stream {
  /* The bytes copied into buf, 0 when nothing is ready yet, HTTP_STREAM_END
   * once everything was read and the stream is over. */
  ptrdiff_t (*read)(void *ctx, char *buf, size_t max);
  /* About once a second, from the transport's thread: lets the producer look
   * at its clocks (deadline, bookmarks, shutdown) and wake the stream. */
  void (*tick)(void *ctx);
  void (*close)(void *ctx);
  void *ctx;
  _Atomic(http_stream_waker *) waker; /* set by the transport */
} http_stream;

/* Tells the transport that read() has something new (bytes or the end).
 * Any thread, any lock held; does nothing before the transport took it. */
void http_stream_wake(http_stream *st);

typedef struct http_response {
  int status;
  http_stream *stream; /* when set, the body comes from it, chunked */
  const char *content_type; /* static string */
  strbuf body;
  strbuf warnings; /* "Warning" header values, one per line */
  unsigned retry_after; /* seconds for a Retry-After header; 0: none */
  bool no_sniff;         /* X-Content-Type-Options: nosniff, as Go's http.Error sends */
} http_response;

/* Parses "a=1&b=x%20y" into req->query (malloc'd). */
void http_parse_query(const char *raw, http_query_param **out, size_t *n);
void http_free_query(http_query_param *q, size_t n);
const char *http_query_get(const http_request *req, const char *key);
/* A boolean parameter as Go's strconv.ParseBool reads it (1, t, T, TRUE, true, True). */
bool http_query_bool(const http_request *req, const char *key);
/* Frees the body; a stream not handed to the transport is closed. */
void http_response_free(http_response *r);

#endif
