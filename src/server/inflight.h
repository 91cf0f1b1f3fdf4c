/* inflight.h: kube-apiserver's --max-requests-inflight and
 * --max-mutating-requests-inflight (k8s.io/apiserver
 * pkg/server/filters/maxinflight.go): how many read-only (get, list) and
 * mutating requests may be served at once; one more gets 429 with
 * Retry-After: 1. Watches and other long-running requests are not counted,
 * and system:masters is never refused. See docs/server.md, "Requests in
 * flight". */
#ifndef DRA_SRV_INFLIGHT_H
#define DRA_SRV_INFLIGHT_H
#include "server/authz.h"
#include "server/http.h"
#include <stdatomic.h>
#include <stdbool.h>

typedef struct srv_inflight {
  unsigned max_readonly, max_mutating; /* 0: no limit */
  atomic_uint readonly, mutating;      /* requests holding a slot */
} srv_inflight;

/* Which count a request holds while it is served. */
typedef enum { INFLIGHT_NONE, INFLIGHT_READONLY, INFLIGHT_MUTATING } inflight_slot;

/* Takes a slot for the request a describes (a->user may be NULL: no
 * user). false when its class is full; resp then has the 429. *slot says
 * what to give back with srv_inflight_release. */
bool srv_inflight_admit(srv_inflight *f, const authz_attrs *a, inflight_slot *slot, http_response *resp);
void srv_inflight_release(srv_inflight *f, inflight_slot slot);

#endif
