/* alloc.h: the structured device allocator (docs/allocator.md; upstream,
 * k8s.io/dynamic-resource-allocation/structured) as embedders use it. An
 * alloc_index is built once from the cluster's ResourceSlices, DeviceClasses
 * and already-allocated claims; it owns a device index and a memo of selector
 * results per (selector program, device) that stays valid until the index is
 * rebuilt (i.e. until a slice changes). alloc_run then allocates an ordered
 * set of claims together for one node. Concurrent alloc_run and alloc_explain
 * calls on one index are safe (the shared memo is locked; everything else a
 * call changes is its own). */
#ifndef DRA_ALLOC_H
#define DRA_ALLOC_H
#include "api/gates.h"
#include "api/types.h"
#include "cel/cel_device.h"
#include "util/arena.h"
#include "util/strbuf.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct alloc_index alloc_index;

typedef struct alloc_input {
  feature_gates gates;
  const resource_slice *const *slices;
  size_t n_slices;
  const device_class *const *classes;
  size_t n_classes;
  /* Claims that carry status.allocation: their devices are in use, except admin-access
   * results (docs/allocator.md, 'The device index'). */
  const resource_claim *const *allocated;
  size_t n_allocated;
  /* DeviceTaintRules: with DRADeviceTaints and DRADeviceTaintRules on, every
   * device a rule selects carries the rule's taint after its own
   * (docs/allocator.md, 'Counters, capacity and taints'). */
  const device_taint_rule *const *taint_rules;
  size_t n_taint_rules;
} alloc_input;

/* alloc_taint_rules.c: whether rule selects the device driver/pool/name
 * (every selector field set must match; no selector selects nothing). */
bool alloc_rule_selects(const device_taint_rule *rule, const atom *driver, const atom *pool, const atom *name);

/* The index keeps pointers into the input objects: they must outlive it. */
alloc_index *alloc_index_new(const alloc_input *in);
void alloc_index_free(alloc_index *ix);
/* Marks the devices of one more allocated claim in use, exactly as if it had
 * been the last of in->allocated; cheaper than building a new index. The
 * index keeps no pointer into the claim. Not concurrent with alloc_run. */
void alloc_index_hold(alloc_index *ix, const resource_claim *claim);
/* The inverse of alloc_index_hold for a claim the index holds (from
 * in->allocated or alloc_index_hold): its devices are free again, and the
 * index is what alloc_index_new without the claim would build. False (and
 * nothing changed) when the index cannot tell that in place, e.g. the
 * claim was the named holder of a device another claim holds too: then
 * build a new one. Not concurrent with alloc_run. */
bool alloc_index_release(alloc_index *ix, const resource_claim *claim);

/* An upper bound on how many devices of the index a node can still be
 * given: those of the slices naming node_name that no allocated claim
 * holds (every generation counted); SIZE_MAX when some slice is shared
 * between nodes or a device allows multiple allocations. The pod-group
 * search's counting bound (sched/joint.c). */
size_t alloc_index_free_devices(const alloc_index *ix, const char *node_name);

/* A device as CEL selectors see it (attributes, capacity, driver), built in
 * a; an attribute that cannot be converted sets view->error with
 * Kubernetes' text, which every evaluation on the device then fails with. */
void alloc_device_view(arena *a, const atom *driver, const device *d, cel_device *view);

#define ALLOC_DEFAULT_MAX_STEPS 100000000ull
#define ALLOC_DEFAULT_TIMEOUT_SECONDS 10.0

/* What one alloc_run may not take of a device, beyond what the index
 * holds. Without capacity the device is not used at all, and nothing else
 * changes: its shared counters stay free for the other devices drawing on
 * them, unless spend_counters (then the call sees them spent, as a claim
 * holding the device would make them). With capacity (a device that allows
 * multiple allocations), the call's requests together consume less than
 * below (in nanos) of it. The pod-group search uses these for its
 * alternatives (sched/joint.c). */
typedef struct alloc_device_limit {
  const atom *driver, *pool, *device;
  const atom *capacity;
  __int128 below;
  bool spend_counters;
} alloc_device_limit;

typedef struct alloc_limits {
  uint64_t max_steps;     /* 0: ALLOC_DEFAULT_MAX_STEPS */
  double timeout_seconds; /* 0: ALLOC_DEFAULT_TIMEOUT_SECONDS; < 0: none */
  bool no_pruning;        /* search exactly as upstream does (tests, benchmarks) */
  const alloc_device_limit *devices;
  size_t n_devices;
} alloc_limits;

typedef enum { ALLOC_OK = 0, ALLOC_UNSATISFIABLE = 1, ALLOC_ERROR = 2 } alloc_status;

typedef struct alloc_outcome {
  alloc_status status;
  /* ALLOC_OK: one result per claim, in claim order, owned by the arena passed to alloc_run. */
  allocation_result **allocations;
  size_t n_allocations;
  char *error;     /* ALLOC_ERROR: message (arena-owned) */
  bool node_local; /* ALLOC_ERROR: only this node is unusable (invalid pools) */
  uint64_t steps;  /* search steps: entries into the placing procedure */
  double seconds;
} alloc_outcome;

/* A NodeSelector as kube-scheduler reads a pod's required node affinity
 * (nodeaffinity.LazyErrorNodeSelector): terms ORed, a term's expressions
 * and fields ANDed, an empty term or one with a malformed requirement
 * matching nothing while the other terms still count. The allocator's own
 * node selection refuses the whole selector instead. */
bool alloc_node_selector_matches_lazily(const node_selector *sel, const node *nd);

/* Allocates claims[0..n) together on node nd (claims are taken as unallocated). */
alloc_status alloc_run(alloc_index *ix, const node *nd, const resource_claim *const *claims, size_t n,
                       const alloc_limits *lim, arena *out, alloc_outcome *res);

/* How alloc_explain writes and names things. */
typedef struct alloc_explain_opts {
  bool json; /* one JSON document instead of text */
  /* Appends what an allocated claim ("ns/name") is reserved for, e.g.
   * "pod team-a/train-0", to out (nothing when it is not reserved); NULL:
   * holders are named without their consumers. */
  void (*claim_consumers)(void *user, const char *claim, strbuf *out);
  void *user;
} alloc_explain_opts;

/* Why the claims do not fit: per claim, request and subrequest, how many
 * devices survive each filter, why the request's selectors refuse devices
 * (cel/cel_why.h), the nearest miss, the device pairs each constraint
 * refuses with their values, and what would make the claims fit now
 * (alloc_explain_fit.c). Appends text or one JSON document (opts->json) to
 * sb. */
void alloc_explain(alloc_index *ix, const node *nd, const resource_claim *const *claims, size_t n,
                   const alloc_explain_opts *opts, strbuf *sb);

#endif
