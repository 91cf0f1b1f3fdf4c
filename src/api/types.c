/* types.c: descriptor tables for every struct of types.h, generated from the
 * same field lists, plus the scalar element descriptors. */
#include "api/types.h"
#include "api/schema_desc.h"

DEFINE_SCALAR_DESC(dstr, K_STR)
DEFINE_SCALAR_DESC(datom, K_ATOM)
DEFINE_SCALAR_DESC(i64, K_INT)
DEFINE_SCALAR_DESC(dbool, K_BOOL)
DEFINE_SCALAR_DESC(quantity, K_QTY)

/* Structs whose unknown fields pass through (outside DRA's subtrees). */
#define OPEN_pod_spec T_OPEN
#define OPEN_container T_OPEN
#define OPEN_affinity T_OPEN
#define OPEN_node_affinity T_OPEN
#define OPEN_pod_status T_OPEN
#define OPEN_pod_condition T_OPEN
#define OPEN_node_spec T_OPEN
#define OPEN_node_status T_OPEN
#define OPEN_pod_group_spec T_OPEN
#define OPEN_pod_group_status T_OPEN
#define OPEN_toleration T_OPEN

DEFINE_DESC(owner_reference, T_STRICT)
DEFINE_DESC(object_meta, T_STRICT)
DEFINE_DESC(condition, T_STRICT)
DEFINE_DESC(node_selector_requirement, T_STRICT)
DEFINE_DESC(node_selector_term, T_STRICT)
DEFINE_DESC(node_selector, T_STRICT)
DEFINE_DESC(cel_device_selector, T_STRICT)
DEFINE_DESC(device_selector, T_STRICT)
DEFINE_DESC(opaque_device_configuration, T_STRICT)
DEFINE_DESC(device_class_configuration, T_STRICT)
DEFINE_DESC(device_class_spec, T_STRICT)
DEFINE_DESC(device_class, T_STRICT)
DEFINE_DESC(device_toleration, T_STRICT)
DEFINE_DESC(capacity_requirements, T_STRICT)
DEFINE_DESC(device_derived_attribute, T_STRICT)
DEFINE_DESC(exact_device_request, T_STRICT)
DEFINE_DESC(device_sub_request, T_STRICT)
DEFINE_DESC(device_request, T_STRICT)
DEFINE_DESC(device_constraint, T_STRICT)
DEFINE_DESC(device_claim_configuration, T_STRICT)
DEFINE_DESC(device_claim, T_STRICT)
DEFINE_DESC(resource_claim_spec, T_STRICT)
DEFINE_DESC(device_request_allocation_result, T_STRICT)
DEFINE_DESC(device_allocation_configuration, T_STRICT)
DEFINE_DESC(device_allocation_result, T_STRICT)
DEFINE_DESC(allocation_result, T_STRICT)
DEFINE_DESC(resource_claim_consumer_reference, T_STRICT)
DEFINE_DESC(network_device_data, T_STRICT)
DEFINE_DESC(allocated_device_status, T_STRICT)
DEFINE_DESC(resource_claim_status, T_STRICT)
DEFINE_DESC(resource_claim, T_STRICT)
DEFINE_DESC(resource_claim_template_spec, T_STRICT)
DEFINE_DESC(resource_claim_template, T_STRICT)
DEFINE_DESC(resource_pool, T_STRICT)
DEFINE_DESC(device_attribute, T_STRICT)
DEFINE_DESC(capacity_request_policy_range, T_STRICT)
DEFINE_DESC(capacity_request_policy, T_STRICT)
DEFINE_DESC(device_capacity, T_STRICT)
DEFINE_DESC(counter, T_STRICT)
DEFINE_DESC(counter_set, T_STRICT)
DEFINE_DESC(device_counter_consumption, T_STRICT)
DEFINE_DESC(device_taint, T_STRICT)
DEFINE_DESC(device, T_STRICT)
DEFINE_DESC(resource_slice_spec, T_STRICT)
DEFINE_DESC(resource_slice, T_STRICT)
DEFINE_DESC(pod_resource_claim, T_STRICT)
DEFINE_DESC(container_resource_claim, T_STRICT)
DEFINE_DESC(resource_requirements, T_STRICT)
DEFINE_DESC(container, OPEN_container)
DEFINE_DESC(toleration, OPEN_toleration)
DEFINE_DESC(node_affinity, OPEN_node_affinity)
DEFINE_DESC(affinity, OPEN_affinity)
DEFINE_DESC(pod_scheduling_group, T_STRICT)
DEFINE_DESC(pod_spec, OPEN_pod_spec)
DEFINE_DESC(pod_condition, OPEN_pod_condition)
DEFINE_DESC(pod_resource_claim_status, T_STRICT)
DEFINE_DESC(container_extended_resource_request, T_STRICT)
DEFINE_DESC(pod_extended_resource_claim_status, T_STRICT)
DEFINE_DESC(pod_status, OPEN_pod_status)
DEFINE_DESC(pod, T_STRICT)
DEFINE_DESC(taint, T_STRICT)
DEFINE_DESC(node_spec, OPEN_node_spec)
DEFINE_DESC(node_status, OPEN_node_status)
DEFINE_DESC(node, T_STRICT)
DEFINE_DESC(namespace_obj, T_STRICT)
DEFINE_DESC(pod_group_resource_claim, T_STRICT)
DEFINE_DESC(pod_group_resource_claim_status, T_STRICT)
DEFINE_DESC(pod_group_spec, OPEN_pod_group_spec)
DEFINE_DESC(pod_group_status, OPEN_pod_group_status)
DEFINE_DESC(pod_group, T_STRICT)
DEFINE_DESC(object_reference, T_STRICT)
DEFINE_DESC(event_source, T_STRICT)
DEFINE_DESC(event, T_OPEN)
