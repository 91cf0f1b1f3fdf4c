/* server_internal.h: the server's state, shared by server.c (transport,
 * auth) and the resource handlers. Not part of any public interface. */
#ifndef DRA_SRV_INTERNAL_H
#define DRA_SRV_INTERNAL_H
#include "api/admission.h"
#include "server/authz.h"
#include "server/delete_options.h"
#include "server/http.h"
#include "server/inflight.h"
#include "server/leader.h"
#include "server/route.h"
#include "server/served.h"
#include "server/server.h"
#include "sched/loop.h"
#include "util/heap_return.h"
#include "server/events.h"
#include "server/gc.h"
#include "server/metrics.h"
#include "server/namespace_controller.h"
#include "server/pki.h"
#include "store/store.h"
#include <pthread.h>
#include <stdbool.h>

struct dra_server {
  struct MHD_Daemon *daemon;
  srv_options opts;
  srv_served served; /* the API versions served (--runtime-config) */
  struct srv_tokens *tokens; /* --token-file (auth.c); NULL: no authentication */
  unsigned port;
  unsigned header_timeout, idle_timeout; /* seconds, see server.c */
  unsigned request_timeout;              /* seconds, see server.c */
  struct stream_hub *streams;            /* watch connections (streams.c) */
  struct deadline_keeper *deadlines;     /* connection deadlines (deadlines.c) */
  struct fresh_waiter *fresh;            /* reads waiting for a resourceVersion (fresh.c) */
  srv_inflight inflight;                 /* requests being served, per class (inflight.h) */
  char *tls_cert, *tls_key; /* PEM: the serving certificate and key */
  char *client_trust;        /* PEM: the CAs client certificates are checked against */
  srv_pki pki;               /* HTTPS: the certificates made at start (pki.h) */
  bool authn;                /* requests are authenticated and authorized (HTTPS or a token file) */
  authz authz;               /* --authorization-mode over the store (authz.h) */
  store *st;
  store *committed; /* store_committed(st): what GET, list and watch show (only what is on disk) */
  atomic_bool stopping; /* wakes watch streams and the control loop */
  /* The control loop runs on its own thread. loop_lock (recursive) is also
   * the store's write lock, so store events reach the loop one at a time. */
  sched_loop *loop;
  pthread_t loop_thread;
  bool loop_started;
  pthread_mutex_t loop_lock;
  pthread_cond_t loop_wake;
  bool loop_dirty;
  uint64_t loop_watch;
  heap_return heap; /* the loop gives freed memory back when it goes idle */
  event_recorder *events;
  garbage_collector *gc;
  namespace_controller *nsc;
  srv_metrics metrics; /* /metrics: requests served (metrics.h) */
  /* on etcd: the control loop runs only while this replica leads (leader.h) */
  leader *elector;
};

/* A handler of requests whose bodies and answers are JSON. */
typedef void (*srv_json_handler)(dra_server *s, const route *r, const http_request *req, http_response *resp);
/* Runs handler with the request's body as JSON and turns its answer into
 * the media type the client accepts (handlers.c; media.h). */
void srv_in_negotiated_media(dra_server *s, const route *r, const http_request *req, http_response *resp,
                             srv_json_handler handler);
/* Serves one ROUTE_RESOURCE request (handlers.c). */
void srv_resource_request(dra_server *s, const route *r, const http_request *req, http_response *resp);
/* An update of r's object to obj (taken) through admission and the store,
 * as PUT does; the stored object is handed out in *out (the caller
 * answers), or *out stays NULL and the failure was answered. */
void srv_update_object(dra_server *s, const route *r, const http_request *req, http_response *resp, api_object *obj,
                       store_obj **out);

/* The store a write request reads the objects it starts from in: the
 * store itself, whose latest state the write is ordered after, or for a
 * dry run, which writes nothing and so waits for no commit, the committed
 * view, so that its answer shows nothing a crash could still undo
 * (handlers.c). */
store *srv_reads_of(dra_server *s, const http_request *req);

/* The DeleteOptions of a DELETE or deletecollection (delete_options.h);
 * false with the 400 or 422 answered. o is freed by the caller on true. */
bool srv_delete_options(const http_request *req, http_response *resp, delete_options *o);

/* Namespace lifecycle, then the create; obj is taken. */
void srv_create_object(dra_server *s, const route *r, const http_request *req, http_response *resp,
                       api_object *obj);

#endif
