/* gates.h: the feature gates dra honours, under Kubernetes' names. dra turns
 * every one on by default (on purpose: it is a tool for trying DRA), and
 * `--feature-gates A=true,B=false` sets each either way, locked GA gates too. */
#ifndef DRA_GATES_H
#define DRA_GATES_H
#include <stdbool.h>

#define DRA_GATES(X)                                        \
  X(ADMIN_ACCESS, "DRAAdminAccess")                         \
  X(PRIORITIZED_LIST, "DRAPrioritizedList")                 \
  X(DEVICE_TAINTS, "DRADeviceTaints")                       \
  X(PARTITIONABLE_DEVICES, "DRAPartitionableDevices")       \
  X(CONSUMABLE_CAPACITY, "DRAConsumableCapacity")           \
  X(DEVICE_BINDING_CONDITIONS, "DRADeviceBindingConditions") \
  X(RESOURCE_CLAIM_DEVICE_STATUS, "DRAResourceClaimDeviceStatus") \
  X(LIST_TYPE_ATTRIBUTES, "DRAListTypeAttributes")          \
  X(DERIVED_ATTRIBUTES, "DRADerivedAttributes")             \
  X(EXTENDED_RESOURCE, "DRAExtendedResource")               \
  X(WORKLOAD_RESOURCE_CLAIMS, "DRAWorkloadResourceClaims")  \
  X(DEVICE_TAINT_RULES, "DRADeviceTaintRules")              \
  X(GENERIC_WORKLOAD, "GenericWorkload")                    \
  X(RESOURCE_CLAIM_GRANULAR_STATUS_AUTHORIZATION, "DRAResourceClaimGranularStatusAuthorization")

typedef enum {
#define GATE_ENUM(id, name) GATE_##id,
  DRA_GATES(GATE_ENUM)
#undef GATE_ENUM
  GATE_COUNT
} gate_id;

typedef struct feature_gates {
  bool on[GATE_COUNT];
} feature_gates;

void gates_default(feature_gates *g); /* all on */
const char *gate_name(gate_id id);
/* Parses "A=true,B=false" onto g. On error returns false and writes
 * "unrecognized feature gate: X" (or a bad-value message) into err. */
bool gates_parse(feature_gates *g, const char *spec, char *err, unsigned err_len);
static inline bool gate_on(const feature_gates *g, gate_id id) { return g->on[id]; }

#endif
