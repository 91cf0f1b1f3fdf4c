/* fuzz_alloc.c: libFuzzer target for the allocator: manifests (as stored,
 * no admission) -> index -> allocate every unallocated claim on each Node,
 * with and without pruning, then explain. Nothing may crash or leak, and
 * pruning may never change the outcome (unless the unpruned search ran out
 * of its step budget). The first byte picks feature gates. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/alloc.h"
#include "load/objects.h"

#define MAX_OBJECTS 64

static void outcome_text(const alloc_outcome *res, strbuf *sb) {
  sb_printf(sb, "%d %s|", (int)res->status, res->error ? res->error : "");
  for (size_t c = 0; res->status == ALLOC_OK && c < res->n_allocations; c++)
    for (uint32_t i = 0; i < res->allocations[c]->devices->results.n; i++) {
      const device_request_allocation_result *r = &res->allocations[c]->devices->results.items[i];
      sb_printf(sb, " %zu:%s=%s/%s/%s", c, r->request, r->driver->str, r->pool->str, r->device->str);
    }
}

static void allocate_on(alloc_index *ix, const node *nd, const resource_claim *const *claims, size_t n) {
  strbuf with = STRBUF_INIT, without = STRBUF_INIT, explain = STRBUF_INIT;
  arena *a = arena_new();
  alloc_outcome res;
  alloc_limits lim = {.max_steps = 20000, .timeout_seconds = -1};
  alloc_run(ix, nd, claims, n, &lim, a, &res);
  outcome_text(&res, &with);
  lim.no_pruning = true;
  alloc_run(ix, nd, claims, n, &lim, a, &res);
  outcome_text(&res, &without);
  if (!strstr(sb_str(&without), "allocation aborted") && strcmp(sb_str(&with), sb_str(&without))) abort();
  alloc_explain_opts opts = {.json = (sb_str(&with)[0] & 1) != 0};
  alloc_explain(ix, nd, claims, n, &opts, &explain);
  arena_free(a);
  sb_free(&with);
  sb_free(&without);
  sb_free(&explain);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  alloc_input in = {0};
  gates_default(&in.gates);
  for (int g = 0; g < 8; g++)
    if (data[0] & (1u << g)) in.gates.on[g] = false;
  object_set set = {0};
  strbuf err = STRBUF_INIT;
  objects_load_buffer("fuzz.yaml", (const char *)data + 1, size - 1, &set, &err);
  sb_free(&err);
  const void *slices[MAX_OBJECTS], *classes[MAX_OBJECTS], *held[MAX_OBJECTS], *rules[MAX_OBJECTS];
  const resource_claim *claims[MAX_OBJECTS];
  const node *nodes[2];
  size_t n_claims = 0, n_nodes = 0;
  for (size_t i = 0; i < set.n && i < MAX_OBJECTS; i++) {
    const api_object *o = set.items[i].obj;
    if (!loaded_object_ok(&set.items[i])) continue;
    switch (o->info->kind) {
    case KIND_RESOURCE_SLICE: slices[in.n_slices++] = o->typed; break;
    case KIND_DEVICE_CLASS: classes[in.n_classes++] = o->typed; break;
    case KIND_DEVICE_TAINT_RULE: rules[in.n_taint_rules++] = o->typed; break;
    case KIND_NODE:
      if (n_nodes < 2) nodes[n_nodes++] = o->typed;
      break;
    case KIND_RESOURCE_CLAIM:
      if (((const resource_claim *)o->typed)->status.allocation) held[in.n_allocated++] = o->typed;
      else claims[n_claims++] = o->typed;
      break;
    default: break;
    }
  }
  in.slices = (const resource_slice *const *)slices;
  in.classes = (const device_class *const *)classes;
  in.allocated = (const resource_claim *const *)held;
  in.taint_rules = (const device_taint_rule *const *)rules;
  alloc_index *ix = alloc_index_new(&in);
  for (size_t i = 0; i < n_nodes; i++) allocate_on(ix, nodes[i], claims, n_claims);
  alloc_index_free(ix);
  object_set_free(&set);
  return 0;
}
