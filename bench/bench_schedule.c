/* bench_schedule.c: the control loop at scheduler_perf's shape: N nodes with
 * one ResourceSlice of D devices each, one DeviceClass, one template, P pods
 * each with a template claim (default 500 x 10, 5000 pods; pods carry uids as
 * in a kubectl dump). Documents are
 * parsed and admitted first, outside the measurement; bench_schedule_run
 * (the function callgrind counts, see bench/schedule.sh) creates the objects
 * in a store and runs the claim controller and scheduler until idle.
 * usage: bench_schedule [nodes devices pods] */
#include "api/admission.h"
#include "load/objects.h"
#include "sched/loop.h"
#include "store/store.h"
#include "util/strbuf.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void build_yaml(strbuf *y, int nodes, int devices, int pods) {
  sb_puts(y, "apiVersion: v1\nkind: Namespace\nmetadata: {name: perf}\n---\n"
             "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: test-class}\n"
             "spec:\n  selectors:\n  - cel: {expression: 'device.driver == \"test-driver.cdi.k8s.io\"'}\n---\n"
             "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: test-claim-template, namespace: perf}\n"
             "spec:\n  spec:\n    devices:\n      requests:\n      - name: req-0\n        exactly: {deviceClassName: test-class}\n---\n");
  for (int n = 0; n < nodes; n++) {
    sb_printf(y,
              "apiVersion: v1\nkind: Node\nmetadata: {name: scheduler-perf-node-%04d}\n"
              "status:\n  allocatable: {cpu: \"4\", memory: 32Gi, pods: \"110\"}\n---\n"
              "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: scheduler-perf-node-%04d-slice}\n"
              "spec:\n  driver: test-driver.cdi.k8s.io\n  nodeName: scheduler-perf-node-%04d\n"
              "  pool: {name: scheduler-perf-node-%04d, generation: 1, resourceSliceCount: 1}\n  devices:\n",
              n, n, n, n);
    for (int d = 0; d < devices; d++) sb_printf(y, "  - name: device-%d\n", d);
    sb_puts(y, "---\n");
  }
  for (int p = 0; p < pods; p++)
    sb_printf(y,
              "apiVersion: v1\nkind: Pod\nmetadata: {name: test-dra-%05d, namespace: perf, uid: 00000000-0000-4000-8000-%012d}\nspec:\n"
              "  containers:\n  - {name: pause, image: registry.k8s.io/pause:3.10, resources: {claims: [{name: resource}]}}\n"
              "  resourceClaims:\n  - {name: resource, resourceClaimTemplateName: test-claim-template}\n---\n",
              p, p);
}

static int cmp_kind(const void *a, const void *b) {
  const api_object *x = *(api_object *const *)a, *y = *(api_object *const *)b;
  return (int)x->info->kind - (int)y->info->kind;
}

static int64_t fixed_clock(void *user) { return *(const int64_t *)user; }

/* Creates the objects (already in kind order; the store takes them) and runs
 * the loop. Returns the number of loop steps. */
__attribute__((noinline)) size_t bench_schedule_run(store *st, sched_loop *l, api_object **objs, size_t n) {
  for (size_t i = 0; i < n; i++) store_create(st, objs[i], NULL);
  return sched_loop_run(l);
}

int main(int argc, char **argv) {
  int nodes = argc > 3 ? atoi(argv[1]) : 500, devices = argc > 3 ? atoi(argv[2]) : 10;
  int pods = argc > 3 ? atoi(argv[3]) : 5000;
  strbuf y = STRBUF_INIT, err = STRBUF_INIT;
  build_yaml(&y, nodes, devices, pods);
  object_set set = {0};
  if (objects_load_buffer("bench", sb_str(&y), y.len, &set, &err)) {
    fprintf(stderr, "%s\n", sb_str(&err));
    return 2;
  }
  sb_free(&y);
  sb_free(&err);
  admission_ctx ctx = {.now = "2026-01-01T00:00:00Z"};
  gates_default(&ctx.gates);
  api_object **objs = calloc(set.n, sizeof *objs);
  size_t n = 0;
  for (size_t i = 0; i < set.n; i++) {
    errlist errs = {0};
    if (!set.items[i].obj || !admit_object(&ctx, ADMIT_CREATE, set.items[i].obj, NULL, &errs)) {
      fprintf(stderr, "object %zu refused\n", i);
      return 2;
    }
    errlist_free(&errs);
    objs[n++] = set.items[i].obj;
    set.items[i].obj = NULL;
  }
  object_set_free(&set);
  qsort(objs, n, sizeof *objs, cmp_kind);
  int64_t now = 1767225600;
  store_options so = {.clock = fixed_clock, .clock_user = &now};
  store *st = store_memory_open(&so);
  sched_options opt = {.now = now};
  gates_default(&opt.gates);
  sched_loop *l = sched_loop_new(st, &opt);
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
  printf("schedule: %d nodes x %d devices, %d pods: %zu bound, %zu steps, %.3f s, %.1f us/pod\n", nodes, devices,
         pods, bound, steps, secs, secs * 1e6 / pods);
  sched_loop_free(l);
  store_close(st);
  free(objs);
  return bound == (size_t)(pods < nodes * devices ? pods : nodes * devices) ? 0 : 1;
}
