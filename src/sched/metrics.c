/* metrics.c: the counters and histograms of metrics.h. The attempt
 * buckets are kube-scheduler's (1 ms doubling 15 times); the allocation
 * buckets start at 10 µs, since most allocations take less than 1 ms. */
#include "sched/metrics.h"

static const double attempt_bounds[] = {0.001, 0.002, 0.004, 0.008, 0.016, 0.032, 0.064, 0.128,
                                        0.256, 0.512, 1.024, 2.048, 4.096, 8.192, 16.384};
static const double allocation_bounds[] = {0.00001, 0.00003, 0.0001, 0.0003, 0.001, 0.003,
                                           0.01,    0.03,    0.1,    0.3,    1,     3};
#define N(a) (sizeof a / sizeof a[0])

const char *sched_attempt_result_name(sched_attempt_result r) {
  static const char *const names[] = {"scheduled", "unschedulable", "error"};
  return names[r];
}

const char *sched_alloc_result_name(sched_alloc_result r) {
  static const char *const names[] = {"allocated", "unsatisfiable", "error"};
  return names[r];
}

void sched_metrics_init(sched_metrics *m) {
  *m = (sched_metrics){0};
  pthread_mutex_init(&m->lock, NULL);
  for (int r = 0; r < SCHED_N_RESULTS; r++) histogram_init(&m->attempt_seconds[r], attempt_bounds, N(attempt_bounds));
  histogram_init(&m->allocation_seconds, allocation_bounds, N(allocation_bounds));
}

void sched_metrics_attempt(sched_metrics *m, sched_attempt_result r, double seconds) {
  pthread_mutex_lock(&m->lock);
  m->attempts[r]++;
  histogram_observe(&m->attempt_seconds[r], seconds);
  pthread_mutex_unlock(&m->lock);
}

void sched_metrics_allocation(sched_metrics *m, alloc_status s, uint64_t steps, double seconds) {
  sched_alloc_result r = s == ALLOC_OK               ? SCHED_ALLOC_ALLOCATED
                         : s == ALLOC_UNSATISFIABLE ? SCHED_ALLOC_UNSATISFIABLE
                                                     : SCHED_ALLOC_FAILED;
  pthread_mutex_lock(&m->lock);
  m->allocations[r]++;
  m->allocation_steps += steps;
  histogram_observe(&m->allocation_seconds, seconds);
  pthread_mutex_unlock(&m->lock);
}

void sched_metrics_joint(sched_metrics *m, sched_joint_result r, uint64_t steps, double seconds) {
  pthread_mutex_lock(&m->lock);
  m->joint_searches[r]++;
  m->joint_steps += steps;
  m->joint_seconds += seconds;
  pthread_mutex_unlock(&m->lock);
}

const char *sched_joint_result_name(sched_joint_result r) {
  static const char *const names[] = {"placed", "unsatisfiable", "aborted"};
  return names[r];
}

void sched_metrics_free(sched_metrics *m) {
  for (int r = 0; r < SCHED_N_RESULTS; r++) histogram_free(&m->attempt_seconds[r]);
  histogram_free(&m->allocation_seconds);
  pthread_mutex_destroy(&m->lock);
}
