/* metrics.h: /metrics, in Prometheus' text format (0.0.4): kube-apiserver's
 * apiserver_request_total and apiserver_request_duration_seconds, with its
 * labels (verb as its metrics normalize it, group, version, resource,
 * subresource, scope, component, dry_run, code), and what the control loop
 * counted (sched/metrics.h): kube-scheduler's scheduling attempts and dra's
 * allocator runs. */
#ifndef DRA_SRV_METRICS_H
#define DRA_SRV_METRICS_H
#include "sched/loop.h"
#include "server/httplog.h"
#include "server/route.h"
#include "store/strmap.h"
#include "util/strbuf.h"
#include <pthread.h>

typedef struct srv_metrics {
  pthread_mutex_t lock;
  strmap requests;  /* label values (code last) -> uint64_t count */
  strmap durations; /* label values -> histogram */
} srv_metrics;

void srv_metrics_init(srv_metrics *m);
/* One finished request; r is its route (any type). */
void srv_metrics_observe(srv_metrics *m, const srv_request_log *l, const route *r, bool dry_run);
/* The whole exposition; loop may be NULL. */
void srv_metrics_render(srv_metrics *m, sched_loop *loop, strbuf *out);
void srv_metrics_free(srv_metrics *m);

#endif
