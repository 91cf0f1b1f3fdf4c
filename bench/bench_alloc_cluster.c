/* bench_alloc_cluster.c: the allocator on generated clusters at upstream
 * scheduler_perf's shape (N nodes, each with one ResourceSlice of 10
 * devices; N = 500 and 5,000) for five claim shapes: 1 device by class, 1
 * device with a CEL selector, 5 requests tied by matchAttribute
 * resource.kubernetes.io/pcieRoot (two roots of 5 devices per node), All
 * mode, and a prioritized list whose first choice (12 devices) never fits.
 *
 * Per shape, two scheduling-style passes run over every node, one Filter
 * (alloc_run of one claim against one node) each: pass 1 with a fresh index
 * (no selector result known), pass 2 with another claim of the same shape on
 * the same index. Selector evaluations are counted as the growth of the
 * index's (program, device) memo, which gains exactly one entry per CEL
 * evaluation: pass 2 must add none. A pass filters every node (what a
 * scheduler pays per pod when the pod fits only on the last node it tries,
 * or when it checks all nodes' feasibility); per node = pass / N.
 *
 * The measured function is bench_alloc_pass; under callgrind
 * (--toggle-collect=bench_alloc_pass --dump-after=bench_alloc_pass, see
 * bench/alloc.sh) each pass is one dump. Given those counts back with
 * --ir n1,n2,... (in pass order) the table shows instructions next to time.
 * Times are the best of --reps runs (default 3; each on a fresh index);
 * under callgrind one run (--reps 1) is enough.
 * usage: bench_alloc_cluster [--ir LIST] [--reps N] [nodes...]   (default 500 5000) */
#include "alloc/alloc_internal.h"
#include "alloc_fixture.h"
#include "bench_ir.h"
#include <stdio.h>
#include <time.h>

#define DEVICES_PER_NODE 10

typedef struct shape {
  const char *name;
  const char *request; /* the claim's spec.devices, YAML at indent 4 */
} shape;

static const shape shapes[] = {
    {"1 device by class", "    requests:\n    - name: gpu\n      exactly: {deviceClassName: gpu}\n"},
    {"1 device, CEL selector",
     "    requests:\n    - name: gpu\n      exactly:\n        deviceClassName: gpu\n"
     "        selectors: [{cel: {expression: 'device.attributes[\"gpu.example.com\"].model == \"h100\"'}}]\n"},
    {"5 x matchAttribute pcieRoot",
     "    requests:\n"
     "    - {name: r0, exactly: {deviceClassName: gpu}}\n    - {name: r1, exactly: {deviceClassName: gpu}}\n"
     "    - {name: r2, exactly: {deviceClassName: gpu}}\n    - {name: r3, exactly: {deviceClassName: gpu}}\n"
     "    - {name: r4, exactly: {deviceClassName: gpu}}\n"
     "    constraints:\n    - matchAttribute: resource.kubernetes.io/pcieRoot\n"},
    {"All mode", "    requests:\n    - name: gpu\n      exactly: {deviceClassName: gpu, allocationMode: All}\n"},
    {"prioritized list (12, else 2)",
     "    requests:\n    - name: gpu\n      firstAvailable:\n"
     "      - {name: twelve, deviceClassName: gpu, count: 12}\n      - {name: two, deviceClassName: gpu, count: 2}\n"},
};
enum { N_SHAPES = sizeof shapes / sizeof shapes[0] };

/* N nodes with one slice each, the class, and two claims per shape (claim-<s>-a, claim-<s>-b). */
static char *cluster_yaml(int nodes) {
  strbuf y = STRBUF_INIT;
  sb_puts(&y, "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\n"
              "spec:\n  selectors:\n  - cel: {expression: 'device.driver == \"gpu.example.com\"'}\n---\n");
  for (int n = 0; n < nodes; n++) {
    sb_printf(&y,
              "apiVersion: v1\nkind: Node\nmetadata: {name: node-%04d}\n---\n"
              "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: node-%04d-gpus}\n"
              "spec:\n  driver: gpu.example.com\n  nodeName: node-%04d\n"
              "  pool: {name: node-%04d, generation: 1, resourceSliceCount: 1}\n  devices:\n",
              n, n, n, n);
    for (int d = 0; d < DEVICES_PER_NODE; d++)
      sb_printf(&y,
                "  - name: gpu-%d\n    attributes:\n      model: {string: %s}\n"
                "      resource.kubernetes.io/pcieRoot: {string: \"pci0000:%02x\"}\n"
                "    capacity: {memory: {value: 80Gi}}\n",
                d, d % 2 ? "h100" : "a100", d * 2 / DEVICES_PER_NODE);
    sb_puts(&y, "---\n");
  }
  for (int s = 0; s < N_SHAPES; s++)
    for (char twin = 'a'; twin <= 'b'; twin++)
      sb_printf(&y, "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: claim-%d-%c}\nspec:\n  devices:\n%s---\n",
                s, twin, shapes[s].request);
  return sb_detach(&y);
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One scheduling-style pass: the claim against every node; returns how many fit. */
__attribute__((noinline)) size_t bench_alloc_pass(alloc_index *ix, const node *const *nodes, size_t n_nodes,
                                                  const resource_claim *claim) {
  size_t fit = 0;
  for (size_t i = 0; i < n_nodes; i++) {
    arena *out = arena_new();
    alloc_outcome res;
    fit += alloc_run(ix, nodes[i], &claim, 1, NULL, out, &res) == ALLOC_OK;
    arena_free(out);
  }
  return fit;
}

typedef struct pass_figures {
  size_t fit;
  uint32_t evals; /* new (program, device) memo entries: CEL evaluations */
  double seconds;
} pass_figures;

static pass_figures timed_pass(alloc_index *ix, const node *const *nodes, size_t n_nodes, const resource_claim *claim) {
  uint32_t memo_before = ix->sel_memo.n;
  double t0 = now();
  size_t fit = bench_alloc_pass(ix, nodes, n_nodes, claim);
  return (pass_figures){fit, ix->sel_memo.n - memo_before, now() - t0};
}

static int cluster(int n_nodes, int reps, ir_list *irs) {
  char *yaml = cluster_yaml(n_nodes);
  alloc_fixture f;
  if (alloc_fixture_load(&f, yaml, NULL) || f.n_claims != 2 * N_SHAPES) {
    fprintf(stderr, "cluster fixture does not load\n");
    alloc_fixture_free(&f);
    free(yaml);
    return 1;
  }
  const node **nodes;
  size_t n;
  fixture_collect(&f, KIND_NODE, -1, (const void ***)&nodes, &n);
  printf("cluster: %d nodes x 1 ResourceSlice x %d devices\n", n_nodes, DEVICES_PER_NODE);
  int rc = 0;
  for (int s = 0; s < N_SHAPES; s++) {
    pass_figures best[2] = {{0}, {0}};
    size_t memo_bytes[2] = {0, 0};
    for (int rep = 0; rep < reps; rep++) {
      double t0 = now();
      alloc_index *ix = alloc_index_new(&f.in);
      double build = now() - t0;
      size_t index_bytes = arena_used(ix->a);
      if (s == 0 && rep == 0) {
        printf("index: %zu B (%zu B/device, %zu B/node), built in %.1f ms\n", index_bytes,
               index_bytes / ((size_t)n_nodes * DEVICES_PER_NODE), index_bytes / (size_t)n_nodes, build * 1e3);
        printf("%-30s %4s %-5s %6s %10s %9s %9s %10s %9s %7s\n", "shape", "pass", "fit", "evals", "us/claim", "us/node",
               "memo B", "Ir/claim", "Ir/node", "Ir 2/1");
      }
      for (int pass = 0; pass < 2; pass++) {
        size_t before = arena_used(ix->a);
        pass_figures p = timed_pass(ix, nodes, n, f.claims[2 * s + pass]);
        memo_bytes[pass] = arena_used(ix->a) - before;
        if (rep == 0 || p.seconds < best[pass].seconds) best[pass] = p;
        if (p.fit != n || (pass == 1 && p.evals)) rc = 1;
      }
      alloc_index_free(ix);
    }
    double first_ir = -1;
    for (int pass = 0; pass < 2; pass++) {
      const pass_figures *p = &best[pass];
      double ir = ir_take(irs);
      printf("%-30s %4d %-5zu %6u %10.1f %9.2f %9zu", pass ? "" : shapes[s].name, pass + 1, p->fit, p->evals,
             p->seconds * 1e6, p->seconds * 1e6 / (double)n, memo_bytes[pass]);
      ir_print(ir, 10);
      ir_print(ir < 0 ? ir : ir / (double)n, 9);
      if (pass == 1 && ir >= 0 && first_ir > 0) printf(" %7.2f", ir / first_ir);
      putchar('\n');
      first_ir = ir;
    }
  }
  free((void *)nodes);
  alloc_fixture_free(&f);
  free(yaml);
  if (rc) fprintf(stderr, "a node did not fit, or pass 2 evaluated a selector\n");
  return rc;
}

int main(int argc, char **argv) {
  ir_list irs;
  int i = 1;
  ir_list_from_args(&irs, argc, argv, &i);
  int reps = 3;
  if (i + 1 < argc && !strcmp(argv[i], "--reps")) reps = atoi(argv[i + 1]), i += 2;
  if (reps < 1) reps = 1;
  static const int defaults[] = {500, 5000};
  int rc = 0;
  if (i == argc)
    for (size_t d = 0; d < sizeof defaults / sizeof *defaults; d++) rc |= cluster(defaults[d], reps, &irs);
  for (; i < argc; i++) rc |= cluster(atoi(argv[i]), reps, &irs);
  return rc;
}
