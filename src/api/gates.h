/* gates.h: the feature gates dra honours, under Kubernetes' names. dra turns
 * every DRA gate and GenericWorkload on by default (on purpose: it is a tool
 * for trying DRA); the workload scheduling gates that only drop fields keep
 * upstream's default (off); WorkloadAwarePreemption (beta in 1.37) is on.
 * `--feature-gates A=true,B=false` sets each either
 * way, locked GA gates too. */
#ifndef DRA_GATES_H
#define DRA_GATES_H
#include <stdbool.h>

#define DRA_GATES(X)                                                              \
  X(ADMIN_ACCESS, "DRAAdminAccess", true)                                         \
  X(PRIORITIZED_LIST, "DRAPrioritizedList", true)                                 \
  X(DEVICE_TAINTS, "DRADeviceTaints", true)                                       \
  X(PARTITIONABLE_DEVICES, "DRAPartitionableDevices", true)                       \
  X(CONSUMABLE_CAPACITY, "DRAConsumableCapacity", true)                           \
  X(DEVICE_BINDING_CONDITIONS, "DRADeviceBindingConditions", true)                \
  X(RESOURCE_CLAIM_DEVICE_STATUS, "DRAResourceClaimDeviceStatus", true)           \
  X(LIST_TYPE_ATTRIBUTES, "DRAListTypeAttributes", true)                          \
  X(DERIVED_ATTRIBUTES, "DRADerivedAttributes", true)                             \
  X(EXTENDED_RESOURCE, "DRAExtendedResource", true)                               \
  X(WORKLOAD_RESOURCE_CLAIMS, "DRAWorkloadResourceClaims", true)                  \
  X(DEVICE_TAINT_RULES, "DRADeviceTaintRules", true)                              \
  X(GENERIC_WORKLOAD, "GenericWorkload", true)                                    \
  X(TOPOLOGY_AWARE_WORKLOAD_SCHEDULING, "TopologyAwareWorkloadScheduling", false) \
  X(POD_GROUP_PREEMPTION_POLICY, "PodGroupPreemptionPolicy", false)                 \
  X(WORKLOAD_AWARE_PREEMPTION, "WorkloadAwarePreemption", true)                   \
  X(RESOURCE_CLAIM_GRANULAR_STATUS_AUTHORIZATION, "DRAResourceClaimGranularStatusAuthorization", true)

typedef enum {
#define GATE_ENUM(id, name, on) GATE_##id,
  DRA_GATES(GATE_ENUM)
#undef GATE_ENUM
  GATE_COUNT
} gate_id;

typedef struct feature_gates {
  bool on[GATE_COUNT];
} feature_gates;

void gates_default(feature_gates *g); /* each gate's default of DRA_GATES */
const char *gate_name(gate_id id);
/* Parses "A=true,B=false" onto g. On error returns false and writes
 * "unrecognized feature gate: X" (or a bad-value message) into err. */
bool gates_parse(feature_gates *g, const char *spec, char *err, unsigned err_len);
static inline bool gate_on(const feature_gates *g, gate_id id) { return g->on[id]; }

#endif
