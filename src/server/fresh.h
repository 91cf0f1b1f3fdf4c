/* fresh.h: reads at a resourceVersion the store has not reached yet.
 * kube-apiserver's watch cache waits up to 3 s for such a version, then
 * answers "Too large resource version" (k8s.io/apiserver pkg/storage/cacher
 * watch_cache.go waitUntilFreshAndBlock, storage.NewTooLargeResourceVersionError):
 * a GET or list with resourceVersion N > 0 (whatever resourceVersionMatch),
 * a list continued on the state at N (its continue token's: another
 * replica may have handed it out) and a watch with sendInitialEvents. A plain watch from a future version
 * is no such read: it starts and waits for its events. Here the wait does
 * not hold a thread: server.c suspends the connection (fresh_wait) and the
 * waiter's thread resumes it once the committed store is there or the time
 * is up; the handler then answers, or refuses with fresh_refuse. See
 * docs/server.md, "Reads ahead of the store". */
#ifndef DRA_SRV_FRESH_H
#define DRA_SRV_FRESH_H
#include "server/http.h"
#include "store/store.h"
#include <jansson.h>
#include <microhttpd.h>
#include <stdint.h>

/* The resourceVersion the store must have reached before req (a request on
 * a resource) can be answered; 0 when any will do. */
uint64_t fresh_needed(const http_request *req);
/* false, with the answer in resp, when st has not reached what req needs
 * (a 504 Timeout, its cause ResourceVersionTooLarge, Retry-After 1). */
bool fresh_check(store *st, const http_request *req, http_response *resp);
/* The Status of that refusal (new reference), for a watch's ERROR event. */
json_t *fresh_too_large_status(uint64_t wanted, uint64_t current);

typedef struct fresh_waiter fresh_waiter;

fresh_waiter *fresh_waiter_start(store *st);
/* From the handler of c's request: suspends c until st reaches rv, at most
 * FRESH_WAIT_MS; libmicrohttpd then calls the handler again. false (and
 * nothing suspended) once the waiter is ending. */
bool fresh_wait(fresh_waiter *w, struct MHD_Connection *c, uint64_t rv);
/* Resumes every waiting connection and takes no more: call before
 * MHD_stop_daemon, which must find no suspended connection. */
void fresh_waiter_end_all(fresh_waiter *w);
/* After MHD_stop_daemon: stops the thread. */
void fresh_waiter_free(fresh_waiter *w);

#endif
