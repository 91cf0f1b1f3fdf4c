/* loop.h: the control loop over an object store: the resourceclaim
 * controller (claims from templates, PodGroup claims, release and
 * deallocation), the scheduler (queue, filters, DRA allocation, scoring,
 * reservation, binding, extended resources), NoExecute device-taint
 * eviction with the DeviceTaintRule status it reports, the workload
 * controllers, the node simulator (a kubelet for every Node: nodesim.c)
 * and the pod garbage collector's orphan rule (podgc.c). It is driven only by the store's events, so `dra schedule` and
 * the HTTP server run the same loop: create objects, then sched_loop_run()
 * until nothing changes. Not thread-safe: one loop per store, one thread.
 *
 * Choices dra makes where the upstream controller and scheduler differ or
 * have no counterpart (docs/overview.md, 'Claim controller and scheduler'):
 * - Controller queue keys are "pod:<ns>/<name>", "claim:<ns>/<name>" and
 *   "podgroup:<ns>/<name>". No PodGroup finalizer is used: the store is read
 *   synchronously, so a deleted group's claims are released on its DELETED
 *   event (reservation dropped, deallocated, generated claim deleted).
 * - With DRAWorkloadResourceClaims off, admission drops PodGroup
 *   spec.resourceClaims, so no pod entry can match a group entry and pods get
 *   their own claims; a group claim is never made (1.37's "no stray claims"
 *   concerns objects stored while the gate was on, which a restore re-creates).
 * - No garbage collector runs beside `dra schedule`: claims whose owning pod
 *   or PodGroup is gone are deleted by syncClaim once unreserved.
 * - The pods in the queue run to completion one at a time: Reserve, PreBind
 *   and Bind are one step, so there are no in-flight allocations to share.
 * - A pod waiting for a missing claim (PreEnqueue) gets PodScheduled=False,
 *   reason Unschedulable, with the bare message; binding conditions not yet
 *   met leave it pending with reason BindingConditionsPending. */
#ifndef DRA_SCHED_LOOP_H
#define DRA_SCHED_LOOP_H
#include "api/gates.h"
#include "sched/controllers.h"
#include "sched/metrics.h"
#include "store/store.h"
#include "util/strbuf.h"
#include <stdbool.h>
#include <stdint.h>

typedef struct sched_options {
  feature_gates gates;
  int64_t now;       /* Unix seconds: condition times, eviction deadlines, allocationTimestamp */
  bool explain;      /* keep the allocator's per-node explanation of pending pods */
  unsigned disabled_controllers; /* sched_controller bits (controllers.h): 0 runs them all */
  /* A gang greedy placement cannot place is searched for jointly (joint.c)
   * unless gang_upstream; the search's budget: max_steps (0: the
   * allocator's default) and timeout_seconds (0: its default, < 0: none). */
  bool gang_upstream;
  /* Record the loop's writes in managedFields under upstream's component
   * names (writers.h), as dra serve does; `dra schedule` leaves them out. */
  bool managed_fields;
  uint64_t joint_max_steps;
  double joint_timeout_seconds;
  /* Each allocator call's budget (alloc/alloc.h's alloc_limits): 0 for its
   * defaults, as joint_*. */
  uint64_t alloc_max_steps;
  double alloc_timeout_seconds;
  /* Controller work comes before pods, but a ready pod waits behind at most
   * this many controller steps in a row, then one pod is tried: in a cluster
   * kube-scheduler runs beside kube-controller-manager, so work arriving
   * faster than the loop does it must not stop scheduling (docs/overview.md
   * "The control loop's order"). 0: controllers first until their queue is
   * empty, as `dra schedule` runs it (to idle, with no new work coming). */
  size_t controller_steps_per_pod;
} sched_options;

typedef struct sched_loop sched_loop;

/* Subscribes to the store. Objects already in the store are picked up too. */
sched_loop *sched_loop_new(store *s, const sched_options *opt);
/* The clock the loop reads (condition times, eviction deadlines). */
void sched_loop_set_now(sched_loop *l, int64_t now);
/* The next time (Unix seconds, after now) a NoExecute device taint evicts a
 * pod, a DeviceTaintRule's status is due, a pod's run time is over, a
 * missing node's quarantine ends or a CronJob is next due, or 0: a long-running loop sets its clock
 * and runs again then. */
int64_t sched_loop_next_deadline(sched_loop *l);
/* Processes work until every queue is empty. Returns the number of steps. */
size_t sched_loop_run(sched_loop *l);
/* Processes at most max_steps steps of the same work, so a caller can let
 * others at the store in between; returns the steps taken (max_steps: work
 * may remain). */
size_t sched_loop_run_some(sched_loop *l, size_t max_steps);
/* With opt.explain: "<ns>/<pod>" explanation text of each pod left pending,
 * in queue order, appended to out. */
void sched_loop_explain(sched_loop *l, strbuf *out);
/* What the loop counted (metrics.h); read it under its lock. */
sched_metrics *sched_loop_metrics(sched_loop *l);
void sched_loop_free(sched_loop *l);

#endif
