/* bench_alloc_cluster.c: the allocator on generated clusters at upstream
 * scheduler_perf's shape (N nodes, each with one ResourceSlice of 10
 * devices; N = 500 and 5,000) for six claim shapes: 1 device by class, 1
 * device with a CEL selector, 5 requests tied by matchAttribute
 * resource.kubernetes.io/pcieRoot (two roots of 5 devices per node), All
 * mode, a prioritized list whose first choice (12 devices) never fits, and
 * the backtracking case: 6 requests tied by pcieRoot, which no node can
 * satisfy (a plain search tries every arrangement of 5 within a root).
 *
 * Per shape, two scheduling-style passes run over every node, one Filter
 * (alloc_run of one claim against one node) each: pass 1 with a fresh index
 * (no selector result known), pass 2 with another claim of the same shape on
 * the same index. Selector evaluations are counted as the growth of the
 * index's (program, device) memo, which gains exactly one entry per CEL
 * evaluation: pass 2 must add none. A pass filters every node (what a
 * scheduler pays per pod when the pod fits only on the last node it tries,
 * or when it checks all nodes' feasibility); per node = pass / N. Heap
 * allocations are malloc/calloc/realloc/strdup/strndup calls made from
 * libdra during a pass (counted by the linker's --wrap, see CMakeLists.txt).
 *
 * The measured function is bench_alloc_pass; under callgrind
 * (--toggle-collect=bench_alloc_pass --dump-after=bench_alloc_pass, see
 * bench/alloc.sh) each pass is one dump. Given those counts back with
 * --ir n1,n2,... (in pass order) the table shows instructions next to time.
 * Times are the best of --reps runs (default 3; each on a fresh index);
 * under callgrind one run (--reps 1) is enough.
 *
 * The side-by-side comparison with upstream's allocator (bench/upstream.sh)
 * uses two more modes, so that both allocators read one file:
 *   --emit N      prints the cluster of N nodes with the claims as YAML;
 *   --side FILE   loads such a file and prints, per shape, one line
 *                 "shape fit nodes ns1 mallocs1 ns2 mallocs2 index_ms":
 *                 nanoseconds and heap allocations per alloc_run in pass 1
 *                 and pass 2, and the milliseconds alloc_index_new took.
 * usage: bench_alloc_cluster [--ir LIST] [--reps N] [nodes...]   (default 500 5000)
 *        bench_alloc_cluster --emit N | [--reps N] --side FILE */
#include "alloc/alloc_internal.h"
#include "alloc_fixture.h"
#include "bench_ir.h"
#include <stdio.h>
#include <time.h>

#define DEVICES_PER_NODE 10

typedef struct shape {
  const char *slug; /* the claims are <slug>-a and <slug>-b */
  const char *name;
  const char *request; /* the claim's spec.devices, YAML at indent 4 */
  bool fits;           /* on every node (else on none) */
} shape;

/* Requests as stored, defaults filled in: upstream's allocator reads them so. */
#define ONE_GPU "{deviceClassName: gpu, allocationMode: ExactCount, count: 1}"
#define FIVE_REQUESTS                                                                                         \
  "    - {name: r0, exactly: " ONE_GPU "}\n    - {name: r1, exactly: " ONE_GPU "}\n"  \
  "    - {name: r2, exactly: " ONE_GPU "}\n    - {name: r3, exactly: " ONE_GPU "}\n"  \
  "    - {name: r4, exactly: " ONE_GPU "}\n"
#define PCIE_ROOT_CONSTRAINT "    constraints:\n    - matchAttribute: resource.kubernetes.io/pcieRoot\n"

static const shape shapes[] = {
    {"class", "1 device by class", "    requests:\n    - name: gpu\n      exactly: " ONE_GPU "\n", true},
    {"cel", "1 device, CEL selector",
     "    requests:\n    - name: gpu\n      exactly:\n        deviceClassName: gpu\n        allocationMode: ExactCount\n"
     "        count: 1\n        selectors: [{cel: {expression: 'device.attributes[\"gpu.example.com\"].model == \"h100\"'}}]\n",
     true},
    {"match5", "5 x matchAttribute pcieRoot", "    requests:\n" FIVE_REQUESTS PCIE_ROOT_CONSTRAINT, true},
    {"all", "All mode", "    requests:\n    - name: gpu\n      exactly: {deviceClassName: gpu, allocationMode: All}\n",
     true},
    {"prioritized", "prioritized list (12, else 2)",
     "    requests:\n    - name: gpu\n      firstAvailable:\n"
     "      - {name: twelve, deviceClassName: gpu, allocationMode: ExactCount, count: 12}\n"
     "      - {name: two, deviceClassName: gpu, allocationMode: ExactCount, count: 2}\n",
     true},
    {"match6-unsat", "6 x matchAttribute, unsatisfiable",
     "    requests:\n" FIVE_REQUESTS "    - {name: r5, exactly: " ONE_GPU "}\n" PCIE_ROOT_CONSTRAINT, false},
};
enum { N_SHAPES = sizeof shapes / sizeof shapes[0] };

/* N nodes with one slice each, the class, and two claims per shape (<slug>-a, <slug>-b). */
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
      sb_printf(&y, "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: %s-%c}\nspec:\n  devices:\n%s---\n",
                shapes[s].slug, twin, shapes[s].request);
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

/* Heap allocations made through the linker's --wrap of the allocation
 * calls (CMakeLists.txt): every call from libdra lands here first. */
static size_t heap_allocs;
void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);
void *__wrap_malloc(size_t size) { return heap_allocs++, __real_malloc(size); }
void *__wrap_calloc(size_t n, size_t size) { return heap_allocs++, __real_calloc(n, size); }
void *__wrap_realloc(void *p, size_t size) { return heap_allocs++, __real_realloc(p, size); }
char *__wrap_strdup(const char *s) { return heap_allocs++, __real_strdup(s); }
char *__wrap_strndup(const char *s, size_t n) { return heap_allocs++, __real_strndup(s, n); }

typedef struct pass_figures {
  size_t fit;
  uint32_t evals; /* new (program, device) memo entries: CEL evaluations */
  double seconds;
  size_t heap_allocs;
} pass_figures;

static pass_figures timed_pass(alloc_index *ix, const node *const *nodes, size_t n_nodes, const resource_claim *claim) {
  uint32_t memo_before = ix->sel_memo.n;
  size_t allocs_before = heap_allocs;
  double t0 = now();
  size_t fit = bench_alloc_pass(ix, nodes, n_nodes, claim);
  double seconds = now() - t0;
  return (pass_figures){fit, ix->sel_memo.n - memo_before, seconds, heap_allocs - allocs_before};
}

/* One shape's figures: both passes (each the best of its runs) and the memo bytes each pass added. */
typedef struct shape_figures {
  pass_figures pass[2];
  size_t memo_bytes[2];
  size_t index_bytes;
  double index_seconds;
} shape_figures;

/* Runs shape s (claims 2s and 2s+1 of f) reps times, each on a fresh
 * index; returns 1 when a pass's fit is not the shape's, or pass 2
 * evaluated a selector. */
static int measure_shape(const alloc_fixture *f, const node *const *nodes, size_t n, int s, int reps,
                         shape_figures *out) {
  int rc = 0;
  for (int rep = 0; rep < reps; rep++) {
    double t0 = now();
    alloc_index *ix = alloc_index_new(&f->in);
    double build = now() - t0;
    if (rep == 0 || build < out->index_seconds) out->index_seconds = build;
    out->index_bytes = arena_used(ix->a);
    for (int pass = 0; pass < 2; pass++) {
      size_t before = arena_used(ix->a);
      pass_figures p = timed_pass(ix, nodes, n, f->claims[2 * s + pass]);
      out->memo_bytes[pass] = arena_used(ix->a) - before;
      if (rep == 0 || p.seconds < out->pass[pass].seconds) out->pass[pass] = p;
      if (p.fit != (shapes[s].fits ? n : 0) || (pass == 1 && p.evals)) rc = 1;
    }
    alloc_index_free(ix);
  }
  return rc;
}

/* A cluster of cluster_yaml's output, loaded. */
typedef struct loaded_cluster {
  char *yaml;
  alloc_fixture f;
  const node **nodes;
  size_t n;
} loaded_cluster;

/* Loads yaml (taken over, NULL when unreadable): every shape's claims,
 * <slug>-a then <slug>-b, in shape order. Returns 0, or 1 (said on stderr). */
static int cluster_load(loaded_cluster *c, char *yaml) {
  memset(c, 0, sizeof *c);
  c->yaml = yaml;
  int bad = !yaml || alloc_fixture_load(&c->f, yaml, NULL) || c->f.n_claims != 2 * N_SHAPES;
  for (int i = 0; !bad && i < 2 * N_SHAPES; i++) {
    char want[64];
    snprintf(want, sizeof want, "%s-%c", shapes[i / 2].slug, "ab"[i % 2]);
    bad = strcmp(c->f.claims[i]->metadata.name, want) != 0;
  }
  if (bad) {
    fputs(yaml ? "not a cluster of bench_alloc_cluster --emit (this version)\n" : "the cluster file cannot be read\n", stderr);
    if (yaml) alloc_fixture_free(&c->f);
    free(yaml);
    return 1;
  }
  fixture_collect(&c->f, KIND_NODE, -1, (const void ***)&c->nodes, &c->n);
  return 0;
}

static void cluster_free(loaded_cluster *c) {
  free((void *)c->nodes);
  alloc_fixture_free(&c->f);
  free(c->yaml);
}

static int cluster(int n_nodes, int reps, ir_list *irs) {
  loaded_cluster c;
  if (cluster_load(&c, cluster_yaml(n_nodes))) return 1;
  size_t n = c.n;
  printf("cluster: %d nodes x 1 ResourceSlice x %d devices\n", n_nodes, DEVICES_PER_NODE);
  int rc = 0;
  for (int s = 0; s < N_SHAPES; s++) {
    shape_figures fig = {0};
    rc |= measure_shape(&c.f, c.nodes, n, s, reps, &fig);
    if (s == 0) {
      printf("index: %zu B (%zu B/device, %zu B/node), built in %.1f ms\n", fig.index_bytes,
             fig.index_bytes / ((size_t)n_nodes * DEVICES_PER_NODE), fig.index_bytes / (size_t)n_nodes,
             fig.index_seconds * 1e3);
      printf("%-34s %4s %-5s %6s %10s %9s %9s %7s %10s %9s %7s\n", "shape", "pass", "fit", "evals", "us/claim", "us/node",
             "memo B", "mallocs", "Ir/claim", "Ir/node", "Ir 2/1");
    }
    double first_ir = -1;
    for (int pass = 0; pass < 2; pass++) {
      const pass_figures *p = &fig.pass[pass];
      double ir = ir_take(irs);
      printf("%-34s %4d %-5zu %6u %10.1f %9.2f %9zu %7zu", pass ? "" : shapes[s].name, pass + 1, p->fit, p->evals,
             p->seconds * 1e6, p->seconds * 1e6 / (double)n, fig.memo_bytes[pass], p->heap_allocs);
      ir_print(ir, 10);
      ir_print(ir < 0 ? ir : ir / (double)n, 9);
      if (pass == 1 && ir >= 0 && first_ir > 0) printf(" %7.2f", ir / first_ir);
      putchar('\n');
      first_ir = ir;
    }
  }
  cluster_free(&c);
  if (rc) fprintf(stderr, "a node's fit was not the shape's, or pass 2 evaluated a selector\n");
  return rc;
}

/* --side FILE: per shape, one line of per-alloc_run figures (see the top). */
static int side(const char *path, int reps) {
  size_t len;
  loaded_cluster c;
  if (cluster_load(&c, sb_read_file(path, &len))) return 1;
  size_t n = c.n;
  int rc = 0;
  for (int s = 0; s < N_SHAPES; s++) {
    shape_figures fig = {0};
    rc |= measure_shape(&c.f, c.nodes, n, s, reps, &fig);
    double per = 1e9 / (double)n;
    printf("%s %zu %zu %.0f %.2f %.0f %.2f %.1f\n", shapes[s].slug, fig.pass[0].fit, n, fig.pass[0].seconds * per,
           (double)fig.pass[0].heap_allocs / (double)n, fig.pass[1].seconds * per,
           (double)fig.pass[1].heap_allocs / (double)n, fig.index_seconds * 1e3);
  }
  cluster_free(&c);
  return rc;
}

int main(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[1], "--emit")) {
    char *yaml = cluster_yaml(atoi(argv[2]));
    fputs(yaml, stdout);
    free(yaml);
    return 0;
  }
  ir_list irs;
  int i = 1;
  ir_list_from_args(&irs, argc, argv, &i);
  int reps = 3;
  if (i + 1 < argc && !strcmp(argv[i], "--reps")) reps = atoi(argv[i + 1]), i += 2;
  if (reps < 1) reps = 1;
  if (i + 2 == argc && !strcmp(argv[i], "--side")) return side(argv[i + 1], reps);
  static const int defaults[] = {500, 5000};
  int rc = 0;
  if (i == argc)
    for (size_t d = 0; d < sizeof defaults / sizeof *defaults; d++) rc |= cluster(defaults[d], reps, &irs);
  for (; i < argc; i++) rc |= cluster(atoi(argv[i]), reps, &irs);
  return rc;
}
