/* bench_schedule.c: the control loop at scheduler_perf's shapes. Shape
 * "template" (default): N nodes with one ResourceSlice of D devices each, one
 * DeviceClass, one template, P pods each with a template claim (default 500 x
 * 10, 5000 pods; pods carry uids as in a kubectl dump). Shape "match": the
 * same with five requests per claim tied by a matchAttribute constraint on a
 * numa attribute that splits each node's devices in two (default 500 x 10,
 * 1000 pods). Shape "podgroup": P/50 PodGroups of 50 pods sharing one group
 * claim (default 50 x 10, 5000 pods). Documents are parsed and admitted
 * first, outside the measurement; bench_schedule_run (the function callgrind
 * counts, see bench/schedule.sh) creates the objects in a store and runs the
 * claim controller and scheduler until idle. The cluster itself comes from
 * tests/unit/fixture_cluster.c, which the unit tests share.
 * With --emit it prints that YAML instead, for benchmarks of the whole
 * dra command on the same input (bench/codec.sh).
 * usage: bench_schedule [--emit] [--shape template|match|podgroup] [nodes devices pods] */
#include "fixture_cluster.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef enum { SHAPE_TEMPLATE, SHAPE_MATCH, SHAPE_PODGROUP } bench_shape;

#define MATCH_REQUESTS 5
#define GROUP_PODS 50

/* Pod capacity of a node: kubelet's default, or room for a group per device. */
static int node_pods(bench_shape shape, int devices) { return shape == SHAPE_PODGROUP ? devices * GROUP_PODS : 110; }

static void build_yaml(strbuf *y, bench_shape shape, int nodes, int devices, int pods) {
  fixture_cluster c = {nodes, devices, node_pods(shape, devices), shape == SHAPE_MATCH ? MATCH_REQUESTS : 0};
  fixture_cluster_yaml(y, &c);
  for (int p = 0; p < pods; p++) {
    char group[32], name[32], uid[64];
    snprintf(group, sizeof group, "group-%04d", p / GROUP_PODS);
    if (shape == SHAPE_PODGROUP && p % GROUP_PODS == 0) fixture_group_yaml(y, group);
    snprintf(name, sizeof name, "test-dra-%05d", p);
    snprintf(uid, sizeof uid, "00000000-0000-4000-8000-%012d", p);
    fixture_pod_yaml(y, name, uid, shape == SHAPE_PODGROUP ? group : NULL);
  }
}

/* Pods that can be bound: one per device, MATCH_REQUESTS devices of one numa
 * half per pod in the match shape; a group's pods share one device on one
 * node, which takes a group per device (node_pods). */
static int expected_bound(bench_shape shape, int nodes, int devices, int pods) {
  int fit = shape == SHAPE_MATCH      ? nodes * 2 * (devices / 2 / MATCH_REQUESTS)
            : shape == SHAPE_PODGROUP ? nodes * devices * GROUP_PODS
                                      : nodes * devices;
  return pods < fit ? pods : fit;
}

static int cmp_kind(const void *a, const void *b) {
  const api_object *x = *(api_object *const *)a, *y = *(api_object *const *)b;
  return (int)x->info->kind - (int)y->info->kind;
}

/* Creates the objects (already in kind order; the store takes them) and runs
 * the loop. Returns the number of loop steps. */
__attribute__((noinline)) size_t bench_schedule_run(store *st, sched_loop *l, api_object **objs, size_t n) {
  for (size_t i = 0; i < n; i++) store_create(st, objs[i], NULL);
  return sched_loop_run(l);
}

int main(int argc, char **argv) {
  bench_shape shape = SHAPE_TEMPLATE;
  bool emit = argc > 1 && !strcmp(argv[1], "--emit");
  if (emit) argc--, argv++;
  if (argc > 2 && !strcmp(argv[1], "--shape")) {
    shape = !strcmp(argv[2], "match") ? SHAPE_MATCH : !strcmp(argv[2], "podgroup") ? SHAPE_PODGROUP : SHAPE_TEMPLATE;
    if (shape == SHAPE_TEMPLATE && strcmp(argv[2], "template")) {
      fprintf(stderr, "unknown shape %s\n", argv[2]);
      return 2;
    }
    argc -= 2, argv += 2;
  }
  int nodes = argc > 3 ? atoi(argv[1]) : shape == SHAPE_PODGROUP ? 50 : 500;
  int devices = argc > 3 ? atoi(argv[2]) : 10;
  int pods = argc > 3 ? atoi(argv[3]) : shape == SHAPE_MATCH ? 1000 : 5000;
  strbuf y = STRBUF_INIT;
  build_yaml(&y, shape, nodes, devices, pods);
  if (emit) {
    fwrite(y.buf, 1, y.len, stdout);
    sb_free(&y);
    return 0;
  }
  size_t n;
  api_object **objs = fixture_admit(sb_str(&y), &n);
  sb_free(&y);
  qsort(objs, n, sizeof *objs, cmp_kind);
  int64_t now = FIXTURE_NOW;
  store *st = fixture_store_open(&now);
  sched_loop *l = fixture_loop_new(st, now);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  size_t steps = bench_schedule_run(st, l, objs, n);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  store_list lst = {0};
  store_query q = {.kind = KIND_POD, .order = STORE_BY_CREATION};
  store_list_query(st, &q, &lst);
  size_t bound = 0;
  for (size_t i = 0; i < lst.n; i++) {
    const pod *p = lst.items[i]->object->typed;
    bound += p->spec.node_name != NULL;
  }
  store_list_free(&lst);
  double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
  static const char *const shape_names[] = {"template", "match", "podgroup"};
  printf("schedule: %s, %d nodes x %d devices, %d pods: %zu bound, %zu steps, %.3f s, %.1f us/pod\n",
         shape_names[shape], nodes, devices, pods, bound, steps, secs, secs * 1e6 / pods);
  sched_loop_free(l);
  store_close(st);
  free(objs);
  return bound == (size_t)expected_bound(shape, nodes, devices, pods) ? 0 : 1;
}
