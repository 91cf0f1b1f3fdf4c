/* httplog.h: kube-apiserver's line per request (its httplog, at -v=3):
 * I... httplog.c:N] "HTTP" verb="LIST" URI="/api/v1/pods?limit=500"
 * latency="1.234ms" userAgent="kubectl/..." contentType="" audit-ID=""
 * srcIP="127.0.0.1:5555" resp=200. */
#ifndef DRA_SRV_HTTPLOG_H
#define DRA_SRV_HTTPLOG_H
#include <stdbool.h>
#include <stdint.h>

typedef struct srv_request_log {
  const char *method;       /* as sent: "GET" */
  const char *uri;          /* path and query as sent */
  bool named, watch;        /* an object's path (not a collection); ?watch=true */
  bool resource;            /* a resource path (not /api, /version, ...) */
  const char *user_agent;   /* may be NULL */
  const char *content_type; /* the request's; may be NULL */
  const char *src;          /* "ip:port" */
  int status;
  int64_t latency_ns;
} srv_request_log;

/* The verb as kube-apiserver's metrics name it (NormalizedVerb): GET of a
 * collection is LIST, a watch WATCH, an apply-patch APPLY. */
const char *srv_normalized_verb(const srv_request_log *l);
/* Logs the line when -v is 3 or more. */
void srv_httplog(const srv_request_log *l);

#endif
