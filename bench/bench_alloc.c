/* bench_alloc.c: allocator benchmarks.
 *   bench_alloc filter   one node's Filter as a scheduler runs it: the index
 *                        is built once per cycle and has served node-1 already;
 *                        then node-2 (its own four GPUs, selector results not
 *                        memoised yet, so CEL runs) is filtered for one claim
 *                        for one device with a CEL selector. Measured function:
 *                        bench_alloc_filter_once (callgrind --toggle-collect).
 *   bench_alloc search   the exponential matchAttribute case (R requests, G
 *                        groups of R-1 devices) for R = 4..16: the pruned
 *                        search (unsatisfiable, and with one more group of R
 *                        devices) and upstream's plain search (step-capped):
 *                        steps and time; measured function
 *                        bench_alloc_search_once, one callgrind dump per call
 *                        (bench/alloc.sh), counts handed back with --ir. */
#include "alloc_fixture.h"
#include "bench_ir.h"
#include <math.h>
#include <stdio.h>

#define GPU(node, i, numa)                                                                                \
  "  - {name: gpu-" #i ", attributes: {model: {string: a100}, numa: {int: " #numa "}}, capacity: {memory: {value: 80Gi}}}\n"
#define NODE(n)                                                                                               \
  "apiVersion: v1\nkind: Node\nmetadata: {name: " n ", labels: {zone: a}}\n---\n"                                \
  "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: " n "-gpus}\n"                            \
  "spec:\n  driver: gpu.example.com\n  nodeName: " n "\n  pool: {name: " n ", generation: 1, resourceSliceCount: 1}\n" \
  "  devices:\n" GPU(n, 0, 0) GPU(n, 1, 0) GPU(n, 2, 1) GPU(n, 3, 1) "---\n"

static const char *filter_yaml =
    NODE("node-1") NODE("node-2")
    "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\n"
    "spec:\n  selectors:\n  - cel: {expression: 'device.driver == \"gpu.example.com\"'}\n---\n"
    "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: claim-0}\nspec:\n  devices:\n"
    "    requests:\n    - name: gpu\n      exactly:\n        deviceClassName: gpu\n"
    "        selectors: [{cel: {expression: 'device.attributes[\"gpu.example.com\"].model == \"a100\"'}}]\n";

static const node *node_named(const alloc_fixture *f, const char *name) {
  for (size_t i = 0; i < f->n; i++)
    if (f->objs[i]->info->kind == KIND_NODE && !strcmp(api_object_meta(f->objs[i])->name, name)) return f->objs[i]->typed;
  return NULL;
}

__attribute__((noinline)) alloc_status bench_alloc_filter_once(alloc_index *ix, const alloc_fixture *f, const node *nd,
                                                              arena *out, alloc_outcome *res) {
  return alloc_run(ix, nd, f->claims, f->n_claims, NULL, out, res);
}

static int filter(void) {
  alloc_fixture f;
  if (alloc_fixture_load(&f, filter_yaml, NULL)) return 1;
  alloc_outcome res;
  alloc_index *ix = alloc_index_new(&f.in);
  arena *out = arena_new();
  alloc_run(ix, node_named(&f, "node-1"), f.claims, f.n_claims, NULL, out, &res);
  arena_free(out);
  out = arena_new();
  alloc_status st = bench_alloc_filter_once(ix, &f, node_named(&f, "node-2"), out, &res);
  printf("filter: status %d, %llu steps\n", (int)st, (unsigned long long)res.steps);
  arena_free(out);
  alloc_index_free(ix);
  alloc_fixture_free(&f);
  return st != ALLOC_OK;
}

typedef struct search_figures {
  alloc_status st;
  uint64_t steps;
  double seconds;
} search_figures;

typedef alloc_status search_fn(alloc_index *ix, const alloc_fixture *f, const alloc_limits *lim, arena *out,
                               alloc_outcome *res);

static alloc_status search_unmeasured(alloc_index *ix, const alloc_fixture *f, const alloc_limits *lim, arena *out,
                                      alloc_outcome *res) {
  return alloc_run(ix, f->nd, f->claims, f->n_claims, lim, out, res);
}

__attribute__((noinline)) alloc_status bench_alloc_search_once(alloc_index *ix, const alloc_fixture *f,
                                                              const alloc_limits *lim, arena *out, alloc_outcome *res) {
  return search_unmeasured(ix, f, lim, out, res);
}

/* One run of the exponential case (R requests, G groups of R-1 devices, and
 * optionally one more group of R devices) through run; status ALLOC_ERROR
 * also when the step cap was hit. */
static search_figures search_case_run(int r, int groups, int extra, bool prune, uint64_t max_steps, search_fn *run) {
  search_figures fig = {ALLOC_ERROR, 0, 0};
  char *yaml = alloc_fixture_matching_groups(r, groups, r - 1, extra);
  alloc_fixture f;
  if (alloc_fixture_load(&f, yaml, NULL)) {
    fprintf(stderr, "fixture does not load\n");
  } else {
    alloc_index *ix = alloc_index_new(&f.in);
    arena *out = arena_new();
    alloc_limits lim = {.no_pruning = !prune, .max_steps = max_steps, .timeout_seconds = -1};
    alloc_outcome res;
    fig.st = run(ix, &f, &lim, out, &res);
    fig.steps = res.steps, fig.seconds = res.seconds;
    arena_free(out);
    alloc_index_free(ix);
  }
  alloc_fixture_free(&f);
  free(yaml);
  return fig;
}

static search_figures search_case(int r, int groups, int extra, bool prune, uint64_t max_steps) {
  return search_case_run(r, groups, extra, prune, max_steps, bench_alloc_search_once);
}

/* Prints one cell (status letter, steps, instructions, ms); returns the instructions (-1 unknown). */
static double search_cell(search_figures fig, ir_list *irs) {
  static const char status[] = "OUE"; /* allocated, unsatisfiable, error (here: step cap hit) */
  double ir = ir_take(irs);
  printf(" | %c %8llu", status[fig.st], (unsigned long long)fig.steps);
  ir_print(ir, 11);
  printf(" %9.3f", fig.seconds * 1e3);
  return ir;
}

#define UPSTREAM_CAP 100000

/* The exponential matchAttribute case as R grows: the pruned search
 * (unsatisfiable, and solvable with one extra group of R devices) next to
 * upstream's plain search, capped at UPSTREAM_CAP steps. */
static int search(ir_list *irs) {
  printf("exponential matchAttribute case: R requests, G groups of R-1 devices (status O allocated, U unsatisfiable,"
         " E step cap hit)\n");
  printf("%-8s | %-33s | %-33s | %s\n", "", "pruned, unsatisfiable", "pruned, + 1 group of R (solvable)",
         "upstream search, unsatisfiable, capped");
  printf("%-8s", "R G");
  for (int c = 0; c < 3; c++) printf(" | %-10s %11s %9s", "st steps", "Ir", "ms");
  putchar('\n');
  static const struct { int r, g; } rows[] = {{4, 2}, {5, 2}, {6, 2}, {7, 2}, {8, 2}, {9, 2}, {10, 2},
                                              {11, 2}, {12, 2}, {13, 2}, {14, 2}, {15, 2}, {16, 2}, {16, 4}};
  search_case_run(4, 2, 0, true, 0, search_unmeasured); /* warm-up: compiles and caches the class selector */
  double unsat_ir[2] = {-1, -1}; /* R = 8 and R = 16, G = 2 */
  int rc = 0;
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
    int r = rows[i].r, g = rows[i].g;
    printf("%2d %-5d", r, g);
    search_figures unsat = search_case(r, g, 0, true, 0), solvable = search_case(r, g, r, true, 0);
    double ir = search_cell(unsat, irs);
    search_cell(solvable, irs);
    if (g == 2) search_cell(search_case(r, g, 0, false, UPSTREAM_CAP), irs);
    putchar('\n');
    if (g == 2 && (r == 8 || r == 16)) unsat_ir[r == 16] = ir;
    if (unsat.st != ALLOC_UNSATISFIABLE || solvable.st != ALLOC_OK) rc = 1;
  }
  if (unsat_ir[0] > 0 && unsat_ir[1] > 0)
    printf("pruned, unsatisfiable: instructions grow as R^%.2f from R=8 to R=16\n", log2(unsat_ir[1] / unsat_ir[0]));
  return rc;
}

int main(int argc, char **argv) {
  int i = 1;
  ir_list irs;
  ir_list_from_args(&irs, argc, argv, &i);
  const char *mode = i < argc ? argv[i] : "search";
  if (!strcmp(mode, "filter")) return filter();
  if (!strcmp(mode, "search")) return search(&irs);
  fprintf(stderr, "usage: bench_alloc [--ir LIST] filter|search\n");
  return 2;
}
