/* bench_gang.c: joint gang placement (src/sched/joint.c) next to
 * kube-scheduler's greedy pod-group cycle on 500 nodes, G of them GPU nodes
 * with 8 GPUs in two NVLink domains (attribute nvlinkDomain, devices
 * interleaved: gpu-0 in domain 0, gpu-1 in domain 1, ...) and room for 3
 * pods (cpu), the others CPU-only. One gang of P pods (minCount P) whose
 * claims ask for GPUs tied by matchAttribute on nvlinkDomain:
 *
 * - shape "fits": every pod 4 GPUs of one domain, on P/2 GPU nodes: greedy
 *   places the gang, so the joint search never runs (the cost of having it);
 * - shape "trap": pods 2, 2, 4, 2, 2, 4, ... GPUs on ceil(P/3) GPU nodes
 *   (the last with room for the P mod 3 pods left over, if any), which hold
 *   the gang only as 2 + 2 + 4 per node with both pairs in one domain. Greedy takes each pair's first free GPUs, so the second pair of
 *   a node lands in the other domain, no 4-GPU pod fits beside them and the
 *   gang misses minCount; the joint search re-allocates a node's claims
 *   together when its third pod arrives and places all;
 * - shape "sorted": the trap's pods with the 2-GPU ones queued first;
 * - shape "network": the trap with one more pool, shared by all nodes
 *   (allNodes: 8 NICs the gang's class does not select). Its presence
 *   switches on what pools shared between nodes need: the search tries a
 *   node's other device choices, and the device bounds and backjumping are
 *   off (joint.c);
 * - shape "partitions": the fits shape, each pod also taking one device of
 *   a pool shared by all nodes that publishes ceil(P/2) network GPUs each
 *   whole and as two halves drawing on one counter set (KEP-4815). The
 *   allocator's first choice is a whole GPU, so greedy strands half the
 *   gang; only a half for every pod places it all.
 *
 * Each run builds the objects, creates them in a fresh in-memory store and
 * runs the claim controller and scheduler until idle (timed), with
 * --gang-placement=upstream and with joint (best of two runs each); it
 * prints pods bound, the time, and the joint search's steps (node trials
 * plus allocator steps).
 * usage: bench_gang [--shape fits|trap|sorted|network|partitions] [pods]
 * (default: every shape, 8, 64 and 256 pods; partitions 4, 8 and 16) */
#include "fixture_cluster.h"
#include "sched/metrics.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NODES 500
#define GPUS 8

typedef enum { SHAPE_FITS, SHAPE_TRAP, SHAPE_SORTED, SHAPE_NETWORK, SHAPE_PARTITIONS, N_SHAPES } gang_shape;
static const char *const shape_names[] = {"fits", "trap", "sorted", "network", "partitions"};

/* GPUs of pod p's claim. */
static int pod_gpus(gang_shape shape, int p, int pods) {
  if (shape == SHAPE_FITS || shape == SHAPE_PARTITIONS) return 4;
  if (shape == SHAPE_TRAP || shape == SHAPE_NETWORK) return p % 3 == 2 ? 4 : 2;
  return p < pods - pods / 3 ? 2 : 4;
}

static void build_yaml(strbuf *y, gang_shape shape, int pods) {
  bool trap = shape != SHAPE_FITS && shape != SHAPE_PARTITIONS;
  int gpu_nodes = trap ? (pods + 2) / 3 : (pods + 1) / 2;
  sb_printf(y, "apiVersion: v1\nkind: Namespace\nmetadata: {name: ml}\n---\n"
               "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\n"
               "spec:\n  selectors:\n  - cel: {expression: 'device.driver == \"gpu.example.com\"'}\n");
  for (int n = 0; n < NODES; n++) {
    /* the trap's last GPU node has room for the pods left over only */
    int cpu = trap && n == gpu_nodes - 1 && pods % 3 ? pods % 3 : 3;
    sb_printf(y, "---\napiVersion: v1\nkind: Node\nmetadata: {name: node-%03d}\n"
                 "status:\n  allocatable: {cpu: \"%d\", memory: 64Gi, pods: \"110\"}\n", n, cpu);
    if (n >= gpu_nodes) continue;
    sb_printf(y, "---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: node-%03d-gpus}\n"
                 "spec:\n  driver: gpu.example.com\n  nodeName: node-%03d\n"
                 "  pool: {name: node-%03d, generation: 1, resourceSliceCount: 1}\n  devices:\n", n, n, n);
    for (int d = 0; d < GPUS; d++)
      sb_printf(y, "  - {name: gpu-%d, attributes: {nvlinkDomain: {int: %d}}}\n", d, d % 2);
  }
  if (shape == SHAPE_NETWORK) {
    sb_printf(y, "---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: fabric-nics}\n"
                 "spec:\n  driver: nic.example.com\n  allNodes: true\n"
                 "  pool: {name: fabric, generation: 1, resourceSliceCount: 1}\n  devices:\n");
    for (int d = 0; d < GPUS; d++) sb_printf(y, "  - {name: nic-%d}\n", d);
  }
  if (shape == SHAPE_PARTITIONS) {
    int net = (pods + 1) / 2;
    sb_printf(y, "---\napiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: fabric}\n"
                 "spec:\n  selectors:\n  - cel: {expression: 'device.driver == \"fabric.example.com\"'}\n");
    for (int part = 0; part < 2; part++) {
      sb_printf(y, "---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: fabric-%s}\n"
                   "spec:\n  driver: fabric.example.com\n  allNodes: true\n"
                   "  pool: {name: fabric, generation: 1, resourceSliceCount: 2}\n  %s:\n",
                part ? "gpus" : "counters", part ? "devices" : "sharedCounters");
      for (int g = 0; g < net; g++) {
        if (!part) sb_printf(y, "  - {name: gpu-%d, counters: {memory: {value: 80Gi}}}\n", g);
        for (int h = 0; part && h < 3; h++)
          sb_printf(y, "  - {name: gpu-%d%s, consumesCounters: [{counterSet: gpu-%d, counters: {memory: {value: %s}}}]}\n",
                    g, h ? h == 1 ? "-half-a" : "-half-b" : "", g, h ? "40Gi" : "80Gi");
      }
    }
  }
  for (int size = 2; size <= 4; size += 2)
    sb_printf(y, "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: gpus-%d, namespace: ml}\n"
                 "spec:\n  spec:\n    devices:\n      requests:\n      - name: gpus\n"
                 "        exactly: {deviceClassName: gpu, count: %d}\n"
                 "%s      constraints:\n      - {requests: [gpus], matchAttribute: gpu.example.com/nvlinkDomain}\n",
              size, size, shape == SHAPE_PARTITIONS ? "      - {name: fabric, exactly: {deviceClassName: fabric}}\n" : "");
  sb_printf(y, "---\napiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: training, namespace: ml}\n"
               "spec:\n  schedulingPolicy:\n    gang: {minCount: %d}\n", pods);
  for (int p = 0; p < pods; p++)
    sb_printf(y, "---\napiVersion: v1\nkind: Pod\nmetadata: {name: worker-%03d, namespace: ml}\n"
                 "spec:\n  schedulingGroup: {podGroupName: training}\n  containers:\n"
                 "  - name: trainer\n    image: trainer\n    resources:\n      requests: {cpu: \"1\"}\n"
                 "      claims: [{name: gpus}]\n  resourceClaims:\n  - {name: gpus, resourceClaimTemplateName: gpus-%d}\n",
              p, pod_gpus(shape, p, pods));
}

static int cmp_kind(const void *a, const void *b) {
  const api_object *x = *(api_object *const *)a, *y = *(api_object *const *)b;
  return (int)x->info->kind - (int)y->info->kind;
}

typedef struct run {
  size_t bound;
  double seconds;
  uint64_t joint_steps, searches, attempts;
  double joint_seconds;
} run;

static run schedule(const char *yaml, bool upstream) {
  size_t n;
  api_object **objs = fixture_admit(yaml, &n);
  qsort(objs, n, sizeof *objs, cmp_kind);
  int64_t now = FIXTURE_NOW;
  store *st = fixture_store_open(&now);
  sched_options opt = {.now = now, .gang_upstream = upstream}; /* the default budget: 10 s */
  gates_default(&opt.gates);
  sched_loop *l = sched_loop_new(st, &opt);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (size_t i = 0; i < n; i++) store_create(st, objs[i], NULL);
  sched_loop_run(l);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  run r = {.seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9};
  const sched_metrics *m = sched_loop_metrics(l);
  r.joint_steps = m->joint_steps;
  r.joint_seconds = m->joint_seconds;
  for (int k = 0; k < SCHED_N_JOINT; k++) r.searches += m->joint_searches[k];
  for (int k = 0; k < SCHED_N_RESULTS; k++) r.attempts += m->attempts[k];
  store_list lst = {0};
  store_query q = {.kind = KIND_POD, .order = STORE_BY_CREATION};
  store_list_query(st, &q, &lst);
  for (size_t i = 0; i < lst.n; i++) {
    const pod *p = lst.items[i]->object->typed;
    r.bound += p->spec.node_name && *p->spec.node_name;
  }
  store_list_free(&lst);
  sched_loop_free(l);
  store_close(st);
  free(objs);
  return r;
}

static void bench(gang_shape shape, int pods) {
  strbuf y = STRBUF_INIT;
  build_yaml(&y, shape, pods);
  /* best of two runs each, alternating, so neither side pays for warming up */
  run up = schedule(sb_str(&y), true), joint = schedule(sb_str(&y), false);
  run up2 = schedule(sb_str(&y), true), joint2 = schedule(sb_str(&y), false);
  if (up2.seconds < up.seconds) up = up2;
  if (joint2.seconds < joint.seconds) joint = joint2;
  printf("| %s | %d | %zu/%d in %.3f s, %llu attempts | %zu/%d in %.3f s, %llu attempts | %llu steps in %.3f s, %llu "
         "search%s |\n",
         shape_names[shape], pods, up.bound, pods, up.seconds, (unsigned long long)up.attempts, joint.bound, pods,
         joint.seconds, (unsigned long long)joint.attempts, (unsigned long long)joint.joint_steps, joint.joint_seconds,
         (unsigned long long)joint.searches, joint.searches == 1 ? "" : "es");
  fflush(stdout);
  sb_free(&y);
}

int main(int argc, char **argv) {
  int shape = -1; /* all */
  if (argc > 2 && !strcmp(argv[1], "--shape")) {
    for (int t = 0; t < N_SHAPES; t++)
      if (!strcmp(argv[2], shape_names[t])) shape = t;
    if (shape < 0) {
      fprintf(stderr, "unknown shape %s\n", argv[2]);
      return 2;
    }
    argc -= 2, argv += 2;
  }
  printf("| shape | pods | upstream (greedy): bound, time, pod attempts | joint: bound, time, pod attempts | joint search: steps, time |\n"
         "| --- | --- | --- | --- | --- |\n");
  /* the trap bites when a node's last pod is a 4-GPU one: multiples of 3 */
  /* partitions: the search's alternatives multiply past 8 pods (bench/README.md) */
  static const int sizes[N_SHAPES][3] = {{8, 64, 256}, {9, 66, 255}, {9, 66, 255}, {9, 66, 255}, {4, 8, 16}};
  for (int t = 0; t < N_SHAPES; t++) {
    if (shape >= 0 && shape != t) continue;
    if (argc > 1) bench(t, atoi(argv[1]));
    else
      for (size_t i = 0; i < 3; i++) bench(t, sizes[t][i]);
  }
  return 0;
}
