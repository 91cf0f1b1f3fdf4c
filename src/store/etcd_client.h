/* etcd_client.h: etcd's v3 API through its gRPC gateway (HTTP/JSON over
 * libcurl): unary calls (range, txn, compaction, lease grant) and the
 * streaming watch and snapshot. Several endpoints: a read that cannot
 * reach one (connect error, reset, timeout) goes on to the next; a write
 * only when it cannot have reached it (nothing of it was sent: a reset or
 * a timeout leaves its outcome unknown: an error). The next call starts at
 * the endpoint after one that failed. Thread-safe: connections are pooled
 * and kept alive. See docs/store.md "etcd backend". */
#ifndef DRA_STORE_ETCD_CLIENT_H
#define DRA_STORE_ETCD_CLIENT_H
#include "store/etcd_json.h"
#include "util/strbuf.h"
#include <stdatomic.h>
#include <jansson.h>

typedef struct etcd_tls {
  const char *ca_file, *cert_file, *key_file; /* NULL: none */
} etcd_tls;

typedef struct etcd_client etcd_client;

/* servers: "URL[,URL...]" (http:// or https://). NULL with the reason in err. */
etcd_client *etcd_client_new(const char *servers, const etcd_tls *tls, strbuf *err);
void etcd_client_free(etcd_client *c);

/* POSTs body (taken) to path ("/v3/kv/range"). False with the reason in
 * err when no endpoint answered or etcd answered with an error. */
bool etcd_call(etcd_client *c, const char *path, json_t *body, etcd_reply *out, strbuf *err);

/* A caller's limit on a call: it gives up as soon as give_up(user) holds
 * (asked every ETCD_GIVE_UP_POLL_MS while etcd has not answered), with
 * the connection closed: an error, and for a write an unknown outcome. */
#define ETCD_GIVE_UP_POLL_MS 20
typedef struct etcd_limit {
  bool (*give_up)(void *user);
  void *user;
} etcd_limit;
/* etcd_call under limit (NULL: none but the usual 10 s timeout). */
bool etcd_call_limited(etcd_client *c, const char *path, json_t *body, const etcd_limit *limit, etcd_reply *out,
                       strbuf *err);

/* Watches with create_request (taken): fn gets every message until it
 * returns false, *stop becomes true, or the stream ends (false with the
 * reason in err; the caller resumes from its last revision). */
typedef bool (*etcd_watch_fn)(void *user, const etcd_reply *message);
bool etcd_watch(etcd_client *c, json_t *create_request, etcd_watch_fn fn, void *user, atomic_bool *stop,
                strbuf *err);

/* POSTs body (taken) to a streaming path ("/v3/maintenance/snapshot") of
 * the current endpoint: fn gets every message. False with the reason in
 * err when the stream did not end well: fn returned false (fn sets err
 * then), a message could not be read, or etcd refused or cut it. */
bool etcd_stream(etcd_client *c, const char *path, json_t *body, etcd_watch_fn fn, void *user, strbuf *err);

#endif
