/* alloc_fixture.h: allocator inputs for the allocator's unit tests and
 * benchmarks: manifests from YAML text, and generated search-stress cases.
 * Header-only (static functions) so tests/unit and bench/ share one copy. */
#ifndef DRA_ALLOC_FIXTURE_H
#define DRA_ALLOC_FIXTURE_H
#include "alloc/alloc.h"
#include "api/object.h"
#include "load/objects.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

typedef struct alloc_fixture {
  object_set set;
  api_object **objs;
  size_t n;
  alloc_input in;
  const node *nd;
  const resource_claim **claims; /* unallocated claims, in input order */
  size_t n_claims;
} alloc_fixture;

static inline void fixture_collect(alloc_fixture *f, api_kind kind, int allocated, const void ***out, size_t *n) {
  *out = xcalloc(f->n + 1, sizeof **out);
  *n = 0;
  for (size_t i = 0; i < f->n; i++) {
    if (f->objs[i]->info->kind != kind) continue;
    if (allocated >= 0 && (((resource_claim *)f->objs[i]->typed)->status.allocation != NULL) != allocated) continue;
    (*out)[(*n)++] = f->objs[i]->typed;
  }
}

/* Loads YAML text; returns 0, or -1 when it does not load or decode. */
static inline int alloc_fixture_load(alloc_fixture *f, const char *yaml, const char *gates) {
  memset(f, 0, sizeof *f);
  strbuf err = STRBUF_INIT;
  int rc = objects_load_buffer("fixture", yaml, strlen(yaml), &f->set, &err) ? -1 : 0;
  sb_free(&err);
  f->objs = xcalloc(f->set.n + 1, sizeof *f->objs);
  for (size_t i = 0; i < f->set.n; i++) {
    if (!loaded_object_ok(&f->set.items[i])) rc = -1;
    else f->objs[f->n++] = f->set.items[i].obj;
  }
  gates_default(&f->in.gates);
  char gerr[128];
  if (gates && !gates_parse(&f->in.gates, gates, gerr, sizeof gerr)) rc = -1;
  fixture_collect(f, KIND_RESOURCE_SLICE, -1, (const void ***)&f->in.slices, &f->in.n_slices);
  fixture_collect(f, KIND_DEVICE_CLASS, -1, (const void ***)&f->in.classes, &f->in.n_classes);
  fixture_collect(f, KIND_RESOURCE_CLAIM, 1, (const void ***)&f->in.allocated, &f->in.n_allocated);
  fixture_collect(f, KIND_RESOURCE_CLAIM, 0, (const void ***)&f->claims, &f->n_claims);
  for (size_t i = 0; i < f->n; i++)
    if (f->objs[i]->info->kind == KIND_NODE) f->nd = f->objs[i]->typed;
  return f->nd ? rc : -1;
}

static inline void alloc_fixture_free(alloc_fixture *f) {
  object_set_free(&f->set);
  free(f->objs);
  free((void *)f->in.slices);
  free((void *)f->in.classes);
  free((void *)f->in.allocated);
  free((void *)f->claims);
}

/* The exponential case: r single-device requests tied by one matchAttribute;
 * groups of group_size devices share a value. With every group smaller than
 * r it is unsatisfiable; upstream's search enumerates every arrangement. */
static inline char *alloc_fixture_matching_groups(int r, int groups, int group_size, int extra_group_size) {
  strbuf sb = STRBUF_INIT;
  sb_puts(&sb, "apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\n---\n"
               "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\n"
               "spec:\n  selectors:\n  - cel: {expression: 'device.driver == \"gpu.example.com\"'}\n---\n"
               "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: slice-1}\n"
               "spec:\n  driver: gpu.example.com\n  nodeName: node-1\n"
               "  pool: {name: pool-1, generation: 1, resourceSliceCount: 1}\n  devices:\n");
  for (int g = 0; g <= groups; g++) {
    int n = g < groups ? group_size : extra_group_size;
    for (int i = 0; i < n; i++) sb_printf(&sb, "  - name: dev-%d-%d\n    attributes: {group: {int: %d}}\n", g, i, g);
  }
  sb_puts(&sb, "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: claim-0}\n"
               "spec:\n  devices:\n    requests:\n");
  for (int i = 0; i < r; i++) sb_printf(&sb, "    - name: req-%d\n      exactly: {deviceClassName: gpu}\n", i);
  sb_puts(&sb, "    constraints:\n    - matchAttribute: gpu.example.com/group\n");
  return sb_detach(&sb);
}

#endif
