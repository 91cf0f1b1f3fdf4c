/* metrics.h: what the control loop counts for dra serve's /metrics:
 * scheduling attempts by result and how long each took (kube-scheduler's
 * scheduler_schedule_attempts_total and
 * scheduler_scheduling_attempt_duration_seconds), and the allocator's runs
 * by outcome with their search steps and time (dra's own). One per loop,
 * behind its own lock: the server reads it while the loop runs. */
#ifndef DRA_SCHED_METRICS_H
#define DRA_SCHED_METRICS_H
#include "alloc/alloc.h"
#include "util/histogram.h"
#include <pthread.h>

typedef enum { SCHED_SCHEDULED, SCHED_UNSCHEDULABLE, SCHED_ERROR, SCHED_N_RESULTS } sched_attempt_result;
typedef enum { SCHED_ALLOC_ALLOCATED, SCHED_ALLOC_UNSATISFIABLE, SCHED_ALLOC_FAILED, SCHED_N_ALLOC } sched_alloc_result;
typedef enum { SCHED_JOINT_PLACED, SCHED_JOINT_NONE, SCHED_JOINT_ABORTED, SCHED_N_JOINT } sched_joint_result;

typedef struct sched_metrics {
  pthread_mutex_t lock;
  uint64_t attempts[SCHED_N_RESULTS];
  histogram attempt_seconds[SCHED_N_RESULTS];
  uint64_t allocations[SCHED_N_ALLOC];
  uint64_t allocation_steps;
  histogram allocation_seconds;
  uint64_t joint_searches[SCHED_N_JOINT]; /* joint.c's gang searches by result */
  uint64_t joint_steps;                   /* their steps (node trials plus allocator steps) */
  double joint_seconds;                   /* and their time */
} sched_metrics;

/* "scheduled", "unschedulable", "error": kube-scheduler's result label. */
const char *sched_attempt_result_name(sched_attempt_result r);
/* "allocated", "unsatisfiable", "error". */
const char *sched_alloc_result_name(sched_alloc_result r);

void sched_metrics_init(sched_metrics *m);
void sched_metrics_attempt(sched_metrics *m, sched_attempt_result r, double seconds);
void sched_metrics_allocation(sched_metrics *m, alloc_status s, uint64_t steps, double seconds);
void sched_metrics_joint(sched_metrics *m, sched_joint_result r, uint64_t steps, double seconds);
/* "placed", "unsatisfiable", "aborted". */
const char *sched_joint_result_name(sched_joint_result r);
void sched_metrics_free(sched_metrics *m);

#endif
