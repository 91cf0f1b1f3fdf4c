/* loop.h: the control loop over an object store: the resourceclaim
 * controller (claims from templates, PodGroup claims, release and
 * deallocation), the scheduler (queue, filters, DRA allocation, scoring,
 * reservation, binding, extended resources) and NoExecute device-taint
 * eviction. It is driven only by the store's events, so `dra schedule` and
 * the HTTP server run the same loop: create objects, then sched_loop_run()
 * until nothing changes. Not thread-safe: one loop per store, one thread. */
#ifndef DRA_SCHED_LOOP_H
#define DRA_SCHED_LOOP_H
#include "api/gates.h"
#include "store/store.h"
#include "util/strbuf.h"
#include <stdbool.h>
#include <stdint.h>

typedef struct sched_options {
  feature_gates gates;
  int64_t now;       /* Unix seconds: condition times, eviction deadlines, allocationTimestamp */
  bool explain;      /* keep the allocator's per-node explanation of pending pods */
} sched_options;

typedef struct sched_loop sched_loop;

/* Subscribes to the store. Objects already in the store are picked up too. */
sched_loop *sched_loop_new(store *s, const sched_options *opt);
/* Processes work until every queue is empty. Returns the number of steps. */
size_t sched_loop_run(sched_loop *l);
/* With opt.explain: "<ns>/<pod>" explanation text of each pod left pending,
 * in queue order, appended to out. */
void sched_loop_explain(sched_loop *l, strbuf *out);
void sched_loop_free(sched_loop *l);

#endif
