/* bench_alloc.c: allocator benchmarks.
 *   bench_alloc filter   one node's Filter as a scheduler runs it: the index
 *                        is built once per cycle and has served node-1 already;
 *                        then node-2 (its own four GPUs, selector results not
 *                        memoised yet, so CEL runs) is filtered for one claim
 *                        for one device with a CEL selector. Measured function:
 *                        bench_alloc_filter_once (callgrind --toggle-collect).
 *   bench_alloc search   the exponential matchAttribute case (R requests, G
 *                        groups of R-1 devices) with and without pruning, and
 *                        with one more group of R devices: steps and time. */
#include "alloc_fixture.h"
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

static void search_case(const char *what, int r, int groups, int extra, bool prune, uint64_t max_steps) {
  char *yaml = alloc_fixture_matching_groups(r, groups, r - 1, extra);
  alloc_fixture f;
  if (alloc_fixture_load(&f, yaml, NULL)) {
    fprintf(stderr, "fixture does not load\n");
    free(yaml);
    return;
  }
  alloc_index *ix = alloc_index_new(&f.in);
  arena *out = arena_new();
  alloc_limits lim = {.no_pruning = !prune, .max_steps = max_steps, .timeout_seconds = -1};
  alloc_outcome res;
  alloc_status st = alloc_run(ix, f.nd, f.claims, f.n_claims, &lim, out, &res);
  static const char *const names[] = {"allocated", "unsatisfiable", "error"};
  printf("%-44s R=%d G=%d%s: %s, %llu steps, %.3f ms%s%s\n", what, r, groups, extra ? " +1 group of R" : "", names[st],
         (unsigned long long)res.steps, res.seconds * 1e3, st == ALLOC_ERROR ? ": " : "", st == ALLOC_ERROR ? res.error : "");
  arena_free(out);
  alloc_index_free(ix);
  alloc_fixture_free(&f);
  free(yaml);
}

static int search(void) {
  search_case("exponential, pruned", 12, 2, 0, true, 0);
  search_case("exponential + solvable group, pruned", 12, 2, 12, true, 0);
  search_case("exponential, upstream search (capped 1e6)", 12, 2, 0, false, 1000000);
  search_case("exponential, pruned", 16, 4, 0, true, 0);
  search_case("exponential + solvable group, pruned", 16, 4, 16, true, 0);
  return 0;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "search";
  if (!strcmp(mode, "filter")) return filter();
  if (!strcmp(mode, "search")) return search();
  fprintf(stderr, "usage: bench_alloc filter|search\n");
  return 2;
}
