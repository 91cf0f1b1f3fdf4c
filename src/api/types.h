/* types.h: the typed API objects dra works on: resource.k8s.io/v1
 * DeviceClass, ResourceClaim, ResourceClaimTemplate, ResourceSlice,
 * DeviceTaintRule, the DRA
 * parts of core/v1 Pod, Node and Namespace, and scheduling.k8s.io/v1beta1
 * PodGroup. Each struct is declared from one field list (see schema.h), in
 * the API's JSON field order; types.c builds the descriptor tables.
 * Pod, Node and Namespace parts outside DRA are T_OPEN: fields dra
 * does not model pass through verbatim in _extra. */
#ifndef DRA_TYPES_H
#define DRA_TYPES_H
#include "api/schema.h"

/* ---- forward declarations of every struct and its containers ---- */
#define API_STRUCTS(X)                                                                       \
  X(owner_reference) X(managed_fields_entry) X(object_meta) X(node_selector_requirement) X(node_selector_term)      \
  X(node_selector) X(cel_device_selector) X(device_selector) X(opaque_device_configuration) \
  X(device_class_configuration) X(device_class_spec) X(device_class)                      \
  X(device_toleration) X(capacity_requirements) X(device_derived_attribute)               \
  X(exact_device_request) X(device_sub_request) X(device_request) X(device_constraint)    \
  X(device_claim_configuration) X(device_claim) X(resource_claim_spec)                    \
  X(device_request_allocation_result) X(device_allocation_configuration)                  \
  X(device_allocation_result) X(allocation_result) X(resource_claim_consumer_reference)   \
  X(condition) X(network_device_data) X(allocated_device_status) X(resource_claim_status)  \
  X(resource_claim) X(resource_claim_template_spec) X(resource_claim_template)            \
  X(resource_pool) X(device_attribute) X(capacity_request_policy_range)                   \
  X(capacity_request_policy) X(device_capacity) X(counter) X(counter_set)                 \
  X(device_counter_consumption) X(device_taint) X(device) X(resource_slice_spec)          \
  X(resource_slice) X(pod_resource_claim) X(container_resource_claim)                     \
  X(resource_requirements) X(container) X(toleration) X(node_affinity) X(affinity)        \
  X(pod_scheduling_group) X(pod_spec) X(pod_condition) X(pod_resource_claim_status)       \
  X(container_extended_resource_request) X(pod_extended_resource_claim_status)            \
  X(host_ip) X(pod_ip) X(pod_status) X(pod) X(taint) X(node_spec) X(node_status) X(node) X(namespace_obj)      \
  X(pod_group_resource_claim) X(pod_group_resource_claim_status) X(pod_group_spec)        \
  X(pod_group_status) X(pod_group) X(object_reference) X(event_source) X(event)            \
  X(device_taint_selector) X(device_taint_rule_spec) X(device_taint_rule_status)          \
  X(device_taint_rule) X(empty_object) X(gang_scheduling_policy)                          \
  X(pod_group_scheduling_policy) X(topology_constraint) X(pod_group_scheduling_constraints) \
  X(disruption_mode) X(workload_reference) X(typed_local_object_reference)                \
  X(pod_group_template) X(workload_spec) X(workload)

#define API_DECLARE_CONTAINERS(T) typedef struct T T; DECLARE_CONTAINERS(T)
API_STRUCTS(API_DECLARE_CONTAINERS)

/* ---- metav1 ---- */
#define owner_reference_FIELDS(X, S)                 \
  X(S, STR, api_version, "apiVersion", _, F_KEEP_EMPTY) \
  X(S, STR, kind, "kind", _, F_KEEP_EMPTY)           \
  X(S, STR, name, "name", _, F_KEEP_EMPTY)           \
  X(S, STR, uid, "uid", _, F_KEEP_EMPTY)             \
  X(S, BOOL, controller, "controller", _, 0)         \
  X(S, BOOL, block_owner_deletion, "blockOwnerDeletion", _, 0)
DEFINE_STRUCT(owner_reference)

/* A metadata.managedFields entry, each string kept as it came (absent or
 * "", in metav1's field order): typed rather than one JSON tree per entry,
 * since every stored version has a few of them and a tree costs about 1 KB
 * beside their shared fieldsV1 (docs/server.md "Bounded memory").
 * managed_fields_tree.h gives the JSON the field manager reads and writes. */
#define managed_fields_entry_FIELDS(X, S)                  \
  X(S, STR, manager, "manager", _, F_KEEP_EMPTY)           \
  X(S, STR, operation, "operation", _, F_KEEP_EMPTY)       \
  X(S, STR, api_version, "apiVersion", _, F_KEEP_EMPTY)    \
  X(S, STR, time, "time", _, F_KEEP_EMPTY)                 \
  X(S, STR, fields_type, "fieldsType", _, F_KEEP_EMPTY)    \
  X(S, RAW_TEXT, fields_v1, "fieldsV1", _, 0)              \
  X(S, STR, subresource, "subresource", _, F_KEEP_EMPTY)
DEFINE_STRUCT(managed_fields_entry)

#define object_meta_FIELDS(X, S)                                   \
  X(S, STR, name, "name", _, 0)                                    \
  X(S, STR, generate_name, "generateName", _, 0)                   \
  X(S, STR, namespace_, "namespace", _, 0)                         \
  X(S, STR, self_link, "selfLink", _, 0)                           \
  X(S, STR, uid, "uid", _, 0)                                      \
  X(S, STR, resource_version, "resourceVersion", _, 0)             \
  X(S, INT, generation, "generation", _, 0)                        \
  X(S, STR, creation_timestamp, "creationTimestamp", _, 0)         \
  X(S, STR, deletion_timestamp, "deletionTimestamp", _, 0)         \
  X(S, INT, deletion_grace_period_seconds, "deletionGracePeriodSeconds", _, 0) \
  X(S, MAP, labels, "labels", dstr, 0)                             \
  X(S, MAP, annotations, "annotations", dstr, 0)                   \
  X(S, LIST, owner_references, "ownerReferences", owner_reference, 0) \
  X(S, LIST, finalizers, "finalizers", dstr, 0)                    \
  X(S, LIST, managed_fields, "managedFields", managed_fields_entry, F_KEEP_EMPTY)
DEFINE_STRUCT(object_meta)

#define condition_FIELDS(X, S)                                  \
  X(S, STR, type, "type", _, F_KEEP_EMPTY)                      \
  X(S, STR, status, "status", _, F_KEEP_EMPTY)                  \
  X(S, INT, observed_generation, "observedGeneration", _, 0)    \
  X(S, STR, last_transition_time, "lastTransitionTime", _, F_KEEP_EMPTY) \
  X(S, STR, reason, "reason", _, F_KEEP_EMPTY)                  \
  X(S, STR, message, "message", _, F_KEEP_EMPTY)
DEFINE_STRUCT(condition)

/* ---- core/v1 node selection ---- */
#define node_selector_requirement_FIELDS(X, S) \
  X(S, STR, key, "key", _, F_KEEP_EMPTY)       \
  X(S, STR, operator_, "operator", _, F_KEEP_EMPTY) \
  X(S, LIST, values, "values", dstr, 0)
DEFINE_STRUCT(node_selector_requirement)

#define node_selector_term_FIELDS(X, S)                                        \
  X(S, LIST, match_expressions, "matchExpressions", node_selector_requirement, 0) \
  X(S, LIST, match_fields, "matchFields", node_selector_requirement, 0)
DEFINE_STRUCT(node_selector_term)

#define node_selector_FIELDS(X, S) \
  X(S, LIST, node_selector_terms, "nodeSelectorTerms", node_selector_term, F_KEEP_EMPTY)
DEFINE_STRUCT(node_selector)

/* ---- DeviceClass ---- */
#define cel_device_selector_FIELDS(X, S) X(S, STR, expression, "expression", _, F_KEEP_EMPTY)
DEFINE_STRUCT(cel_device_selector)

#define device_selector_FIELDS(X, S) X(S, OBJ, cel, "cel", cel_device_selector, 0)
DEFINE_STRUCT(device_selector)

#define opaque_device_configuration_FIELDS(X, S) \
  X(S, ATOM, driver, "driver", _, F_KEEP_EMPTY)   \
  X(S, RAW, parameters, "parameters", _, 0)
DEFINE_STRUCT(opaque_device_configuration)

#define device_class_configuration_FIELDS(X, S) X(S, OBJ, opaque, "opaque", opaque_device_configuration, 0)
DEFINE_STRUCT(device_class_configuration)

#define device_class_spec_FIELDS(X, S)                             \
  X(S, LIST, selectors, "selectors", device_selector, 0)           \
  X(S, LIST, config, "config", device_class_configuration, 0)      \
  X(S, STR, extended_resource_name, "extendedResourceName", _, 0)
DEFINE_STRUCT(device_class_spec)

#define device_class_FIELDS(X, S)               \
  X(S, STR, api_version, "apiVersion", _, 0)    \
  X(S, STR, kind, "kind", _, 0)                 \
  X(S, EMB, metadata, "metadata", object_meta, 0) \
  X(S, EMB, spec, "spec", device_class_spec, 0)
DEFINE_STRUCT(device_class)

/* ---- ResourceClaim spec ---- */
#define device_toleration_FIELDS(X, S)                   \
  X(S, STR, key, "key", _, 0)                            \
  X(S, STR, operator_, "operator", _, 0)                 \
  X(S, STR, value, "value", _, 0)                        \
  X(S, STR, effect, "effect", _, 0)                      \
  X(S, INT, toleration_seconds, "tolerationSeconds", _, 0)
DEFINE_STRUCT(device_toleration)

#define capacity_requirements_FIELDS(X, S) X(S, MAP, requests, "requests", quantity, 0)
DEFINE_STRUCT(capacity_requirements)

#define device_derived_attribute_FIELDS(X, S) \
  X(S, ATOM, name, "name", _, F_KEEP_EMPTY)    \
  X(S, STR, expression, "expression", _, F_KEEP_EMPTY)
DEFINE_STRUCT(device_derived_attribute)

#define exact_device_request_FIELDS(X, S)                                   \
  X(S, ATOM, device_class_name, "deviceClassName", _, F_KEEP_EMPTY)         \
  X(S, LIST, selectors, "selectors", device_selector, 0)                    \
  X(S, STR, allocation_mode, "allocationMode", _, 0)                        \
  X(S, INT, count, "count", _, 0)                                           \
  X(S, BOOL, admin_access, "adminAccess", _, 0)                             \
  X(S, LIST, tolerations, "tolerations", device_toleration, 0)              \
  X(S, OBJ, capacity, "capacity", capacity_requirements, 0)                 \
  X(S, LIST, derived_attributes, "derivedAttributes", device_derived_attribute, 0)
DEFINE_STRUCT(exact_device_request)

#define device_sub_request_FIELDS(X, S)                                     \
  X(S, ATOM, name, "name", _, F_KEEP_EMPTY)                                 \
  X(S, ATOM, device_class_name, "deviceClassName", _, F_KEEP_EMPTY)         \
  X(S, LIST, selectors, "selectors", device_selector, 0)                    \
  X(S, STR, allocation_mode, "allocationMode", _, 0)                        \
  X(S, INT, count, "count", _, 0)                                           \
  X(S, LIST, tolerations, "tolerations", device_toleration, 0)              \
  X(S, OBJ, capacity, "capacity", capacity_requirements, 0)                 \
  X(S, LIST, derived_attributes, "derivedAttributes", device_derived_attribute, 0)
DEFINE_STRUCT(device_sub_request)

#define device_request_FIELDS(X, S)                                  \
  X(S, ATOM, name, "name", _, F_KEEP_EMPTY)                          \
  X(S, OBJ, exactly, "exactly", exact_device_request, 0)             \
  X(S, LIST, first_available, "firstAvailable", device_sub_request, 0)
DEFINE_STRUCT(device_request)

#define device_constraint_FIELDS(X, S)                          \
  X(S, LIST, requests, "requests", dstr, 0)                     \
  X(S, ATOM, match_attribute, "matchAttribute", _, 0)           \
  X(S, ATOM, distinct_attribute, "distinctAttribute", _, 0)
DEFINE_STRUCT(device_constraint)

#define device_claim_configuration_FIELDS(X, S)          \
  X(S, LIST, requests, "requests", dstr, 0)              \
  X(S, OBJ, opaque, "opaque", opaque_device_configuration, 0)
DEFINE_STRUCT(device_claim_configuration)

#define device_claim_FIELDS(X, S)                                \
  X(S, LIST, requests, "requests", device_request, 0)            \
  X(S, LIST, constraints, "constraints", device_constraint, 0)   \
  X(S, LIST, config, "config", device_claim_configuration, 0)
DEFINE_STRUCT(device_claim)

#define resource_claim_spec_FIELDS(X, S) X(S, EMB, devices, "devices", device_claim, 0)
DEFINE_STRUCT(resource_claim_spec)

/* ---- ResourceClaim status ---- */
#define device_request_allocation_result_FIELDS(X, S)                         \
  X(S, STR, request, "request", _, F_KEEP_EMPTY)                              \
  X(S, ATOM, driver, "driver", _, F_KEEP_EMPTY)                               \
  X(S, ATOM, pool, "pool", _, F_KEEP_EMPTY)                                   \
  X(S, ATOM, device, "device", _, F_KEEP_EMPTY)                               \
  X(S, BOOL, admin_access, "adminAccess", _, 0)                               \
  X(S, LIST, tolerations, "tolerations", device_toleration, 0)                \
  X(S, LIST, binding_conditions, "bindingConditions", dstr, 0)                \
  X(S, LIST, binding_failure_conditions, "bindingFailureConditions", dstr, 0) \
  X(S, STR, share_id, "shareID", _, 0)                                        \
  X(S, MAP, consumed_capacity, "consumedCapacity", quantity, 0)
DEFINE_STRUCT(device_request_allocation_result)

#define device_allocation_configuration_FIELDS(X, S)     \
  X(S, STR, source, "source", _, F_KEEP_EMPTY)           \
  X(S, LIST, requests, "requests", dstr, 0)              \
  X(S, OBJ, opaque, "opaque", opaque_device_configuration, 0)
DEFINE_STRUCT(device_allocation_configuration)

#define device_allocation_result_FIELDS(X, S)                                  \
  X(S, LIST, results, "results", device_request_allocation_result, 0)          \
  X(S, LIST, config, "config", device_allocation_configuration, 0)
DEFINE_STRUCT(device_allocation_result)

#define allocation_result_FIELDS(X, S)                                \
  X(S, OBJ, devices, "devices", device_allocation_result, 0)          \
  X(S, OBJ, node_selector, "nodeSelector", node_selector, 0)          \
  X(S, STR, allocation_timestamp, "allocationTimestamp", _, 0)
DEFINE_STRUCT(allocation_result)

#define resource_claim_consumer_reference_FIELDS(X, S) \
  X(S, STR, api_group, "apiGroup", _, 0)               \
  X(S, STR, resource, "resource", _, F_KEEP_EMPTY)     \
  X(S, STR, name, "name", _, F_KEEP_EMPTY)             \
  X(S, STR, uid, "uid", _, F_KEEP_EMPTY)
DEFINE_STRUCT(resource_claim_consumer_reference)

#define network_device_data_FIELDS(X, S)                 \
  X(S, STR, interface_name, "interfaceName", _, 0)       \
  X(S, LIST, ips, "ips", dstr, 0)                        \
  X(S, STR, hardware_address, "hardwareAddress", _, 0)
DEFINE_STRUCT(network_device_data)

#define allocated_device_status_FIELDS(X, S)                      \
  X(S, ATOM, driver, "driver", _, F_KEEP_EMPTY)                   \
  X(S, ATOM, pool, "pool", _, F_KEEP_EMPTY)                       \
  X(S, ATOM, device, "device", _, F_KEEP_EMPTY)                   \
  X(S, STR, share_id, "shareID", _, 0)                            \
  X(S, LIST, conditions, "conditions", condition, 0)              \
  X(S, RAW, data, "data", _, 0)                                   \
  X(S, OBJ, network_data, "networkData", network_device_data, 0)
DEFINE_STRUCT(allocated_device_status)

#define resource_claim_status_FIELDS(X, S)                                   \
  X(S, OBJ, allocation, "allocation", allocation_result, 0)                  \
  X(S, LIST, reserved_for, "reservedFor", resource_claim_consumer_reference, 0) \
  X(S, LIST, devices, "devices", allocated_device_status, 0)
DEFINE_STRUCT(resource_claim_status)

#define resource_claim_FIELDS(X, S)                      \
  X(S, STR, api_version, "apiVersion", _, 0)             \
  X(S, STR, kind, "kind", _, 0)                          \
  X(S, EMB, metadata, "metadata", object_meta, 0)        \
  X(S, EMB, spec, "spec", resource_claim_spec, 0)        \
  X(S, EMB, status, "status", resource_claim_status, 0)
DEFINE_STRUCT(resource_claim)

#define resource_claim_template_spec_FIELDS(X, S)   \
  X(S, EMB, metadata, "metadata", object_meta, 0)   \
  X(S, EMB, spec, "spec", resource_claim_spec, 0)
DEFINE_STRUCT(resource_claim_template_spec)

#define resource_claim_template_FIELDS(X, S)                \
  X(S, STR, api_version, "apiVersion", _, 0)                \
  X(S, STR, kind, "kind", _, 0)                             \
  X(S, EMB, metadata, "metadata", object_meta, 0)           \
  X(S, EMB, spec, "spec", resource_claim_template_spec, 0)
DEFINE_STRUCT(resource_claim_template)

/* ---- ResourceSlice ---- */
#define resource_pool_FIELDS(X, S)                                \
  X(S, ATOM, name, "name", _, F_KEEP_EMPTY)                       \
  X(S, INT, generation, "generation", _, F_KEEP_EMPTY)            \
  X(S, INT, resource_slice_count, "resourceSliceCount", _, F_KEEP_EMPTY)
DEFINE_STRUCT(resource_pool)

#define device_attribute_FIELDS(X, S)        \
  X(S, INT, int_, "int", _, 0)               \
  X(S, BOOL, bool_, "bool", _, 0)            \
  X(S, STR, string, "string", _, 0)          \
  X(S, STR, version, "version", _, 0)        \
  X(S, LIST, ints, "ints", i64, 0)           \
  X(S, LIST, bools, "bools", dbool, 0)       \
  X(S, LIST, strings, "strings", dstr, 0)    \
  X(S, LIST, versions, "versions", dstr, 0)
DEFINE_STRUCT(device_attribute)

#define capacity_request_policy_range_FIELDS(X, S) \
  X(S, QTY, min, "min", _, 0)                      \
  X(S, QTY, max, "max", _, 0)                      \
  X(S, QTY, step, "step", _, 0)
DEFINE_STRUCT(capacity_request_policy_range)

#define capacity_request_policy_FIELDS(X, S)                            \
  X(S, QTY, default_, "default", _, 0)                                  \
  X(S, LIST, valid_values, "validValues", quantity, 0)                  \
  X(S, OBJ, valid_range, "validRange", capacity_request_policy_range, 0)
DEFINE_STRUCT(capacity_request_policy)

#define device_capacity_FIELDS(X, S)                                 \
  X(S, QTY, value, "value", _, F_KEEP_EMPTY)                         \
  X(S, OBJ, request_policy, "requestPolicy", capacity_request_policy, 0)
DEFINE_STRUCT(device_capacity)

#define counter_FIELDS(X, S) X(S, QTY, value, "value", _, F_KEEP_EMPTY)
DEFINE_STRUCT(counter)

#define counter_set_FIELDS(X, S)                  \
  X(S, ATOM, name, "name", _, F_KEEP_EMPTY)       \
  X(S, MAP, counters, "counters", counter, 0)
DEFINE_STRUCT(counter_set)

#define device_counter_consumption_FIELDS(X, S)         \
  X(S, ATOM, counter_set, "counterSet", _, F_KEEP_EMPTY) \
  X(S, MAP, counters, "counters", counter, 0)
DEFINE_STRUCT(device_counter_consumption)

#define device_taint_FIELDS(X, S)                  \
  X(S, STR, key, "key", _, F_KEEP_EMPTY)           \
  X(S, STR, value, "value", _, 0)                  \
  X(S, STR, effect, "effect", _, F_KEEP_EMPTY)     \
  X(S, STR, time_added, "timeAdded", _, 0)
DEFINE_STRUCT(device_taint)

#define device_FIELDS(X, S)                                                        \
  X(S, ATOM, name, "name", _, F_KEEP_EMPTY)                                        \
  X(S, MAP, attributes, "attributes", device_attribute, 0)                         \
  X(S, MAP, capacity, "capacity", device_capacity, 0)                              \
  X(S, LIST, consumes_counters, "consumesCounters", device_counter_consumption, 0) \
  X(S, STR, node_name, "nodeName", _, F_KEEP_EMPTY)                                \
  X(S, OBJ, node_selector, "nodeSelector", node_selector, 0)                       \
  X(S, BOOL, all_nodes, "allNodes", _, 0)                                          \
  X(S, LIST, taints, "taints", device_taint, 0)                                    \
  X(S, BOOL, binds_to_node, "bindsToNode", _, 0)                                   \
  X(S, LIST, binding_conditions, "bindingConditions", dstr, 0)                     \
  X(S, LIST, binding_failure_conditions, "bindingFailureConditions", dstr, 0)      \
  X(S, BOOL, allow_multiple_allocations, "allowMultipleAllocations", _, 0)         \
  X(S, RAW, node_allocatable_resources, "nodeAllocatableResources", _, 0)
DEFINE_STRUCT(device)

#define resource_slice_spec_FIELDS(X, S)                                      \
  X(S, ATOM, driver, "driver", _, F_KEEP_EMPTY)                               \
  X(S, EMB, pool, "pool", resource_pool, 0)                                   \
  X(S, STR, node_name, "nodeName", _, F_KEEP_EMPTY)                           \
  X(S, OBJ, node_selector, "nodeSelector", node_selector, 0)                  \
  X(S, BOOL, all_nodes, "allNodes", _, 0)                                     \
  X(S, LIST, devices, "devices", device, 0)                                   \
  X(S, BOOL, per_device_node_selection, "perDeviceNodeSelection", _, 0)       \
  X(S, LIST, shared_counters, "sharedCounters", counter_set, 0)               \
  X(S, ATOM, partition_type_attribute, "partitionTypeAttribute", _, 0)        \
  X(S, LIST, skip_node_operations, "skipNodeOperations", dstr, 0)
DEFINE_STRUCT(resource_slice_spec)

#define resource_slice_FIELDS(X, S)                     \
  X(S, STR, api_version, "apiVersion", _, 0)            \
  X(S, STR, kind, "kind", _, 0)                         \
  X(S, EMB, metadata, "metadata", object_meta, 0)       \
  X(S, EMB, spec, "spec", resource_slice_spec, 0)
DEFINE_STRUCT(resource_slice)

/* ---- DeviceTaintRule ---- */
/* Driver, pool and device are Go *string: "" is kept when given. */
#define device_taint_selector_FIELDS(X, S)         \
  X(S, ATOM, driver, "driver", _, F_KEEP_EMPTY)    \
  X(S, ATOM, pool, "pool", _, F_KEEP_EMPTY)        \
  X(S, ATOM, device, "device", _, F_KEEP_EMPTY)
DEFINE_STRUCT(device_taint_selector)

#define device_taint_rule_spec_FIELDS(X, S)                               \
  X(S, OBJ, device_selector, "deviceSelector", device_taint_selector, 0)  \
  X(S, EMB, taint, "taint", device_taint, 0)
DEFINE_STRUCT(device_taint_rule_spec)

#define device_taint_rule_status_FIELDS(X, S) X(S, LIST, conditions, "conditions", condition, 0)
DEFINE_STRUCT(device_taint_rule_status)

#define device_taint_rule_FIELDS(X, S)                  \
  X(S, STR, api_version, "apiVersion", _, 0)            \
  X(S, STR, kind, "kind", _, 0)                         \
  X(S, EMB, metadata, "metadata", object_meta, 0)       \
  X(S, EMB, spec, "spec", device_taint_rule_spec, 0)    \
  X(S, EMB, status, "status", device_taint_rule_status, 0)
DEFINE_STRUCT(device_taint_rule)

/* ---- core/v1 Pod: DRA parts (T_OPEN structs keep the rest) ---- */
#define pod_resource_claim_FIELDS(X, S)                                     \
  X(S, ATOM, name, "name", _, F_KEEP_EMPTY)                                 \
  X(S, ATOM, resource_claim_name, "resourceClaimName", _, F_KEEP_EMPTY)     \
  X(S, ATOM, resource_claim_template_name, "resourceClaimTemplateName", _, F_KEEP_EMPTY)
DEFINE_STRUCT(pod_resource_claim)

#define container_resource_claim_FIELDS(X, S) \
  X(S, ATOM, name, "name", _, F_KEEP_EMPTY)     \
  X(S, ATOM, request, "request", _, 0)
DEFINE_STRUCT(container_resource_claim)

#define resource_requirements_FIELDS(X, S)               \
  X(S, MAP, limits, "limits", quantity, 0)               \
  X(S, MAP, requests, "requests", quantity, 0)           \
  X(S, LIST, claims, "claims", container_resource_claim, 0)
DEFINE_STRUCT(resource_requirements)

#define container_FIELDS(X, S)                             \
  X(S, STR, name, "name", _, F_KEEP_EMPTY)                 \
  X(S, OBJ, resources, "resources", resource_requirements, 0) \
  X(S, STR, restart_policy, "restartPolicy", _, 0)
DEFINE_STRUCT(container)

#define toleration_FIELDS(X, S)                          \
  X(S, STR, key, "key", _, 0)                            \
  X(S, STR, operator_, "operator", _, 0)                 \
  X(S, STR, value, "value", _, 0)                        \
  X(S, STR, effect, "effect", _, 0)                      \
  X(S, INT, toleration_seconds, "tolerationSeconds", _, 0)
DEFINE_STRUCT(toleration)

#define node_affinity_FIELDS(X, S) \
  X(S, OBJ, required, "requiredDuringSchedulingIgnoredDuringExecution", node_selector, 0)
DEFINE_STRUCT(node_affinity)

#define affinity_FIELDS(X, S) X(S, OBJ, node_affinity, "nodeAffinity", node_affinity, 0)
DEFINE_STRUCT(affinity)

#define pod_scheduling_group_FIELDS(X, S) X(S, ATOM, pod_group_name, "podGroupName", _, 0)
DEFINE_STRUCT(pod_scheduling_group)

#define pod_spec_FIELDS(X, S)                                            \
  X(S, LIST, init_containers, "initContainers", container, 0)           \
  X(S, LIST, containers, "containers", container, 0)                    \
  X(S, MAP, node_selector, "nodeSelector", dstr, 0)                     \
  X(S, STR, node_name, "nodeName", _, 0)                                \
  X(S, OBJ, affinity, "affinity", affinity, 0)                          \
  X(S, LIST, tolerations, "tolerations", toleration, 0)                 \
  X(S, INT, priority, "priority", _, 0)                                 \
  X(S, LIST, resource_claims, "resourceClaims", pod_resource_claim, 0)  \
  X(S, OBJ, resources, "resources", resource_requirements, 0)           \
  X(S, OBJ, scheduling_group, "schedulingGroup", pod_scheduling_group, 0)
DEFINE_STRUCT(pod_spec)

#define pod_condition_FIELDS(X, S)                              \
  X(S, STR, type, "type", _, F_KEEP_EMPTY)                      \
  X(S, STR, status, "status", _, F_KEEP_EMPTY)                  \
  X(S, STR, last_probe_time, "lastProbeTime", _, F_TIME)        \
  X(S, STR, last_transition_time, "lastTransitionTime", _, F_TIME) \
  X(S, STR, reason, "reason", _, 0)                             \
  X(S, STR, message, "message", _, 0)
DEFINE_STRUCT(pod_condition)

#define pod_resource_claim_status_FIELDS(X, S)              \
  X(S, ATOM, name, "name", _, F_KEEP_EMPTY)                 \
  X(S, ATOM, resource_claim_name, "resourceClaimName", _, F_KEEP_EMPTY)
DEFINE_STRUCT(pod_resource_claim_status)

#define container_extended_resource_request_FIELDS(X, S)   \
  X(S, STR, container_name, "containerName", _, F_KEEP_EMPTY) \
  X(S, STR, resource_name, "resourceName", _, F_KEEP_EMPTY) \
  X(S, STR, request_name, "requestName", _, F_KEEP_EMPTY)
DEFINE_STRUCT(container_extended_resource_request)

#define pod_extended_resource_claim_status_FIELDS(X, S)                                 \
  X(S, LIST, request_mappings, "requestMappings", container_extended_resource_request, 0) \
  X(S, ATOM, resource_claim_name, "resourceClaimName", _, F_KEEP_EMPTY)
DEFINE_STRUCT(pod_extended_resource_claim_status)

/* hostIPs and podIPs entries. The status' strings are not atoms, though
 * many pods share some (the host's IP, the QoS class): interning takes the
 * atom table's lock, and holding them cost a server creating pods at full
 * speed a sixth more CPU for a few bytes a pod. */
#define host_ip_FIELDS(X, S) X(S, STR, ip, "ip", _, F_KEEP_EMPTY)
DEFINE_STRUCT(host_ip)

#define pod_ip_FIELDS(X, S) X(S, STR, ip, "ip", _, F_KEEP_EMPTY)
DEFINE_STRUCT(pod_ip)

/* core/v1 PodStatus in Go's field order. The container statuses, unique
 * to each pod and only written out again, are kept as their compact text
 * (K_RAW_TEXT), checked against their schema as unknown fields are
 * (F_SCHEMA, open_fields.h); a tree of them costs several times their text
 * (docs/server.md "Bounded memory"). Fields newer than these stay in _extra.
 * F_UNSCHEDULED: what a scheduling-only load leaves out, as it did when
 * these were unknown fields. */
#define pod_status_FIELDS(X, S)                                                                      \
  X(S, INT, observed_generation, "observedGeneration", _, F_UNSCHEDULED)                             \
  X(S, STR, phase, "phase", _, 0)                                                                    \
  X(S, LIST, conditions, "conditions", pod_condition, 0)                                             \
  X(S, STR, message, "message", _, F_UNSCHEDULED)                                                    \
  X(S, STR, reason, "reason", _, F_UNSCHEDULED)                                                      \
  X(S, STR, nominated_node_name, "nominatedNodeName", _, 0)                                          \
  X(S, STR, host_ip, "hostIP", _, F_UNSCHEDULED)                                                     \
  X(S, LIST, host_ips, "hostIPs", host_ip, F_UNSCHEDULED)                                                  \
  X(S, STR, pod_ip, "podIP", _, F_UNSCHEDULED)                                                       \
  X(S, LIST, pod_ips, "podIPs", pod_ip, F_UNSCHEDULED)                                                     \
  X(S, STR, start_time, "startTime", _, 0)                                                           \
  X(S, RAW_TEXT, init_container_statuses, "initContainerStatuses", _, F_SCHEMA | F_UNSCHEDULED)      \
  X(S, RAW_TEXT, container_statuses, "containerStatuses", _, F_SCHEMA | F_UNSCHEDULED)               \
  X(S, STR, qos_class, "qosClass", _, F_UNSCHEDULED)                                                 \
  X(S, RAW_TEXT, ephemeral_container_statuses, "ephemeralContainerStatuses", _, F_SCHEMA | F_UNSCHEDULED) \
  X(S, STR, resize, "resize", _, F_UNSCHEDULED)                                                      \
  X(S, LIST, resource_claim_statuses, "resourceClaimStatuses", pod_resource_claim_status, 0)         \
  X(S, OBJ, extended_resource_claim_status, "extendedResourceClaimStatus", pod_extended_resource_claim_status, 0)
DEFINE_STRUCT(pod_status)

#define pod_FIELDS(X, S)                            \
  X(S, STR, api_version, "apiVersion", _, 0)        \
  X(S, STR, kind, "kind", _, 0)                     \
  X(S, EMB, metadata, "metadata", object_meta, 0)   \
  X(S, EMB, spec, "spec", pod_spec, 0)              \
  X(S, EMB, status, "status", pod_status, 0)
DEFINE_STRUCT(pod)

/* ---- core/v1 Node and Namespace ---- */
#define taint_FIELDS(X, S)                         \
  X(S, STR, key, "key", _, F_KEEP_EMPTY)           \
  X(S, STR, value, "value", _, 0)                  \
  X(S, STR, effect, "effect", _, F_KEEP_EMPTY)     \
  X(S, STR, time_added, "timeAdded", _, 0)
DEFINE_STRUCT(taint)

#define node_spec_FIELDS(X, S)                    \
  X(S, BOOL, unschedulable, "unschedulable", _, 0) \
  X(S, LIST, taints, "taints", taint, 0)
DEFINE_STRUCT(node_spec)

#define node_status_FIELDS(X, S)                    \
  X(S, MAP, capacity, "capacity", quantity, 0)      \
  X(S, MAP, allocatable, "allocatable", quantity, 0)
DEFINE_STRUCT(node_status)

#define node_FIELDS(X, S)                           \
  X(S, STR, api_version, "apiVersion", _, 0)        \
  X(S, STR, kind, "kind", _, 0)                     \
  X(S, EMB, metadata, "metadata", object_meta, 0)   \
  X(S, EMB, spec, "spec", node_spec, 0)             \
  X(S, EMB, status, "status", node_status, 0)
DEFINE_STRUCT(node)

#define namespace_obj_FIELDS(X, S)                  \
  X(S, STR, api_version, "apiVersion", _, 0)        \
  X(S, STR, kind, "kind", _, 0)                     \
  X(S, EMB, metadata, "metadata", object_meta, 0)   \
  X(S, RAW, spec, "spec", _, F_SCHEMA)              \
  X(S, RAW, status, "status", _, F_SCHEMA)
DEFINE_STRUCT(namespace_obj)

/* ---- scheduling.k8s.io/v1beta1 PodGroup and Workload (k8s.io/api
 * scheduling/v1beta1 types.go) ---- */
/* An intentionally empty struct (BasicSchedulingPolicy, SingleDisruptionMode,
 * AllDisruptionMode): being present is its meaning. */
#define empty_object_FIELDS(X, S)
DEFINE_STRUCT(empty_object)

#define gang_scheduling_policy_FIELDS(X, S) X(S, INT, min_count, "minCount", _, F_KEEP_EMPTY | F_INT32)
DEFINE_STRUCT(gang_scheduling_policy)

/* A union: exactly one of basic and gang. */
#define pod_group_scheduling_policy_FIELDS(X, S) \
  X(S, OBJ, basic, "basic", empty_object, 0)     \
  X(S, OBJ, gang, "gang", gang_scheduling_policy, 0)
DEFINE_STRUCT(pod_group_scheduling_policy)

#define topology_constraint_FIELDS(X, S) X(S, STR, key, "key", _, F_KEEP_EMPTY)
DEFINE_STRUCT(topology_constraint)

#define pod_group_scheduling_constraints_FIELDS(X, S) \
  X(S, LIST, topology, "topology", topology_constraint, 0)
DEFINE_STRUCT(pod_group_scheduling_constraints)

/* A union: one of single and all. */
#define disruption_mode_FIELDS(X, S)               \
  X(S, OBJ, single, "single", empty_object, 0)     \
  X(S, OBJ, all, "all", empty_object, 0)
DEFINE_STRUCT(disruption_mode)

#define workload_reference_FIELDS(X, S)                          \
  X(S, STR, workload_name, "workloadName", _, F_KEEP_EMPTY)      \
  X(S, STR, template_name, "templateName", _, F_KEEP_EMPTY)
DEFINE_STRUCT(workload_reference)

#define pod_group_resource_claim_FIELDS(X, S)                               \
  X(S, ATOM, name, "name", _, F_KEEP_EMPTY)                                 \
  X(S, ATOM, resource_claim_name, "resourceClaimName", _, F_KEEP_EMPTY)     \
  X(S, ATOM, resource_claim_template_name, "resourceClaimTemplateName", _, F_KEEP_EMPTY)
DEFINE_STRUCT(pod_group_resource_claim)

#define pod_group_resource_claim_status_FIELDS(X, S)        \
  X(S, ATOM, name, "name", _, F_KEEP_EMPTY)                 \
  X(S, ATOM, resource_claim_name, "resourceClaimName", _, F_KEEP_EMPTY)
DEFINE_STRUCT(pod_group_resource_claim_status)

/* parentCompositePodGroupName belongs to CompositePodGroup (alpha, off):
 * decoded, then dropped on create as kube-apiserver drops it. */
/* What a PodGroup's spec shares with a Workload's PodGroupTemplate, from
 * schedulingPolicy on; CONSTRAINTS_FLAGS: the template's
 * schedulingConstraints has no omitempty (null when absent). */
#define POD_GROUP_POLICY_FIELDS(X, S, CONSTRAINTS_FLAGS)                                             \
  X(S, EMB, scheduling_policy, "schedulingPolicy", pod_group_scheduling_policy, 0)                   \
  X(S, OBJ, scheduling_constraints, "schedulingConstraints", pod_group_scheduling_constraints,       \
    CONSTRAINTS_FLAGS)                                                                               \
  X(S, LIST, resource_claims, "resourceClaims", pod_group_resource_claim, 0)                         \
  X(S, OBJ, disruption_mode, "disruptionMode", disruption_mode, 0)                                   \
  X(S, STR, priority_class_name, "priorityClassName", _, 0)                                          \
  X(S, INT, priority, "priority", _, F_INT32)                                                        \
  X(S, STR, preemption_policy, "preemptionPolicy", _, 0)

#define pod_group_spec_FIELDS(X, S)                                                                  \
  X(S, STR, parent_composite_pod_group_name, "parentCompositePodGroupName", _, 0)                    \
  X(S, OBJ, workload_ref, "workloadRef", workload_reference, 0)                                      \
  POD_GROUP_POLICY_FIELDS(X, S, 0)
DEFINE_STRUCT(pod_group_spec)

#define pod_group_status_FIELDS(X, S)                      \
  X(S, LIST, conditions, "conditions", condition, 0)       \
  X(S, LIST, resource_claim_statuses, "resourceClaimStatuses", pod_group_resource_claim_status, 0)
DEFINE_STRUCT(pod_group_status)

#define pod_group_FIELDS(X, S)                      \
  X(S, STR, api_version, "apiVersion", _, 0)        \
  X(S, STR, kind, "kind", _, 0)                     \
  X(S, EMB, metadata, "metadata", object_meta, 0)   \
  X(S, EMB, spec, "spec", pod_group_spec, 0)        \
  X(S, EMB, status, "status", pod_group_status, 0)
DEFINE_STRUCT(pod_group)

#define typed_local_object_reference_FIELDS(X, S) \
  X(S, STR, api_group, "apiGroup", _, 0)          \
  X(S, STR, kind, "kind", _, F_KEEP_EMPTY)        \
  X(S, STR, name, "name", _, F_KEEP_EMPTY)
DEFINE_STRUCT(typed_local_object_reference)

#define pod_group_template_FIELDS(X, S)   \
  X(S, ATOM, name, "name", _, F_KEEP_EMPTY) \
  POD_GROUP_POLICY_FIELDS(X, S, F_KEEP_EMPTY)
DEFINE_STRUCT(pod_group_template)

/* compositePodGroupTemplates belongs to CompositePodGroup (alpha, off): kept
 * as it came, then dropped on create as kube-apiserver drops it. */
#define workload_spec_FIELDS(X, S)                                                    \
  X(S, OBJ, controller_ref, "controllerRef", typed_local_object_reference, 0)         \
  X(S, LIST, pod_group_templates, "podGroupTemplates", pod_group_template, 0)         \
  X(S, RAW, composite_pod_group_templates, "compositePodGroupTemplates", _, 0)
DEFINE_STRUCT(workload_spec)

#define workload_FIELDS(X, S)                       \
  X(S, STR, api_version, "apiVersion", _, 0)        \
  X(S, STR, kind, "kind", _, 0)                     \
  X(S, EMB, metadata, "metadata", object_meta, 0)   \
  X(S, EMB, spec, "spec", workload_spec, 0)
DEFINE_STRUCT(workload)

/* ---- core/v1 Event (written by the scheduler and controllers) ---- */
#define object_reference_FIELDS(X, S)                    \
  X(S, STR, kind, "kind", _, 0)                          \
  X(S, STR, namespace_, "namespace", _, 0)               \
  X(S, STR, name, "name", _, 0)                          \
  X(S, STR, uid, "uid", _, 0)                            \
  X(S, STR, api_version, "apiVersion", _, 0)             \
  X(S, STR, resource_version, "resourceVersion", _, 0)   \
  X(S, STR, field_path, "fieldPath", _, 0)
DEFINE_STRUCT(object_reference)

#define event_source_FIELDS(X, S)           \
  X(S, STR, component, "component", _, 0)   \
  X(S, STR, host, "host", _, 0)
DEFINE_STRUCT(event_source)

#define event_FIELDS(X, S)                                              \
  X(S, STR, api_version, "apiVersion", _, 0)                            \
  X(S, STR, kind, "kind", _, 0)                                         \
  X(S, EMB, metadata, "metadata", object_meta, 0)                       \
  X(S, EMB, involved_object, "involvedObject", object_reference, 0)     \
  X(S, STR, reason, "reason", _, 0)                                     \
  X(S, STR, message, "message", _, 0)                                   \
  X(S, EMB, source, "source", event_source, 0)                          \
  X(S, STR, first_timestamp, "firstTimestamp", _, F_TIME)               \
  X(S, STR, last_timestamp, "lastTimestamp", _, F_TIME)                 \
  X(S, INT, count, "count", _, 0)                                       \
  X(S, STR, type, "type", _, 0)                                         \
  X(S, STR, event_time, "eventTime", _, F_TIME)                         \
  X(S, STR, reporting_component, "reportingComponent", _, F_ALWAYS)     \
  X(S, STR, reporting_instance, "reportingInstance", _, F_ALWAYS)
DEFINE_STRUCT(event)

#endif
