/* server.h: `dra serve`: the HTTP(S) front of the control plane. It owns the
 * listening socket (libmicrohttpd), authentication (bearer tokens from a
 * kube-apiserver-style token file, or loopback-only without one), the
 * kubeconfig it writes for kubectl, and request dispatch to discovery,
 * OpenAPI and the resource handlers. */
#ifndef DRA_SRV_SERVER_H
#define DRA_SRV_SERVER_H
#include "api/gates.h"
#include "server/authz.h"
#include "server/http.h"
#include "store/etcd.h"

typedef struct srv_options {
  const char *listen;   /* "127.0.0.1:6443" */
  const char *data_dir; /* "./dra-data" */
  const char *token_file;
  /* HTTPS unless insecure_http (plain HTTP, loopback only). Without a
   * serving certificate the one of pki.h is used. Client certificates are
   * trusted when signed by the pki CA or one in client_ca_file. */
  bool insecure_http;
  const char *tls_cert_file, *tls_key_file;
  const char *client_ca_file;
  /* --authorization-mode: RBAC (dra's default) or AlwaysAllow (authz.h) */
  authz_mode authorization_mode;
  feature_gates gates;
  unsigned disabled_controllers; /* sched_controller bits (sched/controllers.h) */
  bool gang_upstream; /* --gang-placement=upstream: no joint gang search (sched/loop.h) */
  /* --allocator-max-steps/--allocator-timeout and --gang-search-max-steps/
   * --gang-search-timeout: sched_options' budgets (sched/loop.h) */
  uint64_t alloc_max_steps, joint_max_steps;
  double alloc_timeout_seconds, joint_timeout_seconds;
  /* --runtime-config in kube-apiserver's syntax; NULL: 1.37's defaults (served.h) */
  const char *runtime_config;
  /* 0 for the defaults (docs/server.md, "Connections and threads"): seconds
   * a connection may stay silent while a request is read or served (32), or
   * kept alive between requests (90); connections at once (the open-file
   * limit, raised to its hard limit, less a reserve). */
  unsigned header_timeout, idle_timeout, max_connections;
  /* --etcd-servers and the other etcd flags; servers NULL: the SQLite
   * store in data_dir (docs/store.md) */
  etcd_options etcd;
  /* 0 for the default: kube-apiserver's --request-timeout (60 s), which
   * here bounds the time from a request's headers to the end of its body */
  unsigned request_timeout;
  /* kube-apiserver's --max-requests-inflight and
   * --max-mutating-requests-inflight (inflight.h); 0: no limit */
  unsigned max_requests_inflight, max_mutating_requests_inflight;
} srv_options;

typedef struct dra_server dra_server;

/* Starts listening. NULL on failure with the reason in err. */
dra_server *srv_start(const srv_options *opts, strbuf *err);
/* The bound port (useful with port 0). */
unsigned srv_port(const dra_server *s);
/* The first token of the token file (for the kubeconfig), or NULL. */
const char *srv_first_token(const dra_server *s);
/* Whether it serves HTTPS. */
bool srv_tls(const dra_server *s);
/* With HTTPS, the certificates it made (pki.h): the CA and the admin
 * client certificate the kubeconfig embeds. NULL with --insecure-http. */
const struct srv_pki *srv_pki_of(const dra_server *s);
void srv_stop(dra_server *s);
/* Transport-free dispatch of one request (used by the MHD glue and tests). */
void srv_handle(dra_server *s, const http_request *req, http_response *resp);

#endif
