/* devices.h: which devices are in use (claims that carry an allocation,
 * fed by store events) and the allocator over them: one alloc_index built
 * from the cluster's slices, classes, DeviceTaintRules (with
 * DRADeviceTaintRules on) and allocated claims, rebuilt only
 * after one of those changed. Per-node "epochs" let the scheduler remember
 * that a claim set did not fit a node until that node's devices change. */
#ifndef DRA_SCHED_DEVICES_H
#define DRA_SCHED_DEVICES_H
#include "api/types.h"
#include "sched/internal.h"
#include "util/arena.h"

typedef struct sched_devices sched_devices;

sched_devices *sched_devices_new(void);
void sched_devices_free(sched_devices *d);

/* Slices, classes, DeviceTaintRules or nodes changed: the index must be rebuilt. */
void sched_devices_topology_changed(sched_loop *l);
/* Tracks a claim event; true when devices were freed (allocation dropped). */
bool sched_devices_claim_changed(sched_loop *l, store_obj *claim, bool deleted);
/* Queues controller keys for claims reserved for PodGroup ns/group. */
void sched_devices_push_group_claims(sched_loop *l, const char *ns, const char *group);
/* Calls fn for every claim holding devices (in no particular order). */
void sched_devices_each_held(sched_loop *l, void (*fn)(void *ctx, store_obj *claim), void *ctx);
/* Whether any claim holds devices (cheap: no topology refresh). */
bool sched_devices_any_held(const sched_loop *l);
/* DeviceClasses in name order (borrowed). */
store_obj *const *sched_devices_classes(sched_loop *l, size_t *n);
/* DeviceTaintRules in name order (borrowed; none with DRADeviceTaintRules off). */
store_obj *const *sched_devices_taint_rules(sched_loop *l, size_t *n);
/* How many devices of the pools' newest slices the rule selects. */
size_t sched_devices_count_selected(sched_loop *l, const device_taint_rule *rule);
/* The device driver/pool/name as published in the newest slices, or NULL. */
const device *sched_devices_find(sched_loop *l, const atom *driver, const atom *pool, const atom *name);

typedef enum { SCHED_FIT, SCHED_NO_FIT, SCHED_NODE_ERROR, SCHED_ALLOC_ERROR } sched_fit;

/* Allocates claims together on node nd. SCHED_FIT: out[i] per claim, owned
 * by a. SCHED_NODE_ERROR / SCHED_ALLOC_ERROR: *err (malloc'd). */
sched_fit sched_devices_allocate(sched_loop *l, const node *nd, const resource_claim *const *claims, size_t n,
                                 arena *a, allocation_result ***out, char **err);
/* The same, taking of the devices no more than limits allow (alloc.h's
 * alloc_device_limit). */
sched_fit sched_devices_allocate_limited(sched_loop *l, const node *nd, const struct alloc_device_limit *limits,
                                         size_t n_limits, const resource_claim *const *claims, size_t n, arena *a,
                                         allocation_result ***out, char **err);
/* The same, as if the held claims in freed (preemption's victims' claims)
 * held no devices: on an index built for this call. */
sched_fit sched_devices_allocate_without(sched_loop *l, const node *nd, store_obj *const *freed, size_t n_freed,
                                         const resource_claim *const *claims, size_t n, arena *a,
                                         allocation_result ***out, char **err);
/* alloc_index_free_devices on the node's index (alloc/alloc.h). */
size_t sched_devices_free_count(sched_loop *l, const node *nd);
/* The allocator's explanation for these claims on nd. */
void sched_devices_explain(sched_loop *l, const node *nd, const resource_claim *const *claims, size_t n,
                           strbuf *out);
/* Whether some pool's slices are shared between nodes (allNodes, a
 * nodeSelector, or slices naming different nodes). */
bool sched_devices_any_shared_pool(sched_loop *l);
/* Whether the pool driver/pool is such a pool. */
bool sched_devices_pool_shared(sched_loop *l, const atom *driver, const atom *pool);
/* The device state of a node (stable for the loop's lifetime). */
struct node_devices *sched_devices_node(sched_loop *l, const char *node_name);
/* Whether claims with spec signature sig were found not to fit on the node
 * and nothing there changed since; remember records such a failure. */
bool sched_devices_known_misfit(sched_loop *l, const struct node_devices *nd, uint64_t sig);
void sched_devices_remember_misfit(sched_loop *l, struct node_devices *nd, uint64_t sig);
/* How many nodes at the start of the loop's node order (sched_nodes) are all
 * known misfits for sig, as last recorded by set_misfit_prefix (0 when devices
 * were freed, the nodes changed or another signature's misfit was recorded
 * since). Lets the scan skip filled nodes without visiting each. */
size_t sched_devices_misfit_prefix(sched_loop *l, uint64_t sig);
void sched_devices_set_misfit_prefix(sched_loop *l, uint64_t sig, size_t n);
/* Whether any published device or DeviceTaintRule carries a NoExecute taint. */
bool sched_devices_any_no_execute(sched_loop *l);

#endif
