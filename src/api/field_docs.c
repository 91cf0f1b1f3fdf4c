/* field_docs.c: see field_docs.h. One row per field: the C type name of
 * types.h, the JSON field name, the text. The texts are the project's own;
 * limits and defaults are those the validators in src/api enforce. */
#include "api/field_docs.h"
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

typedef struct field_doc_row {
  const char *type; /* NULL: any type */
  const char *json; /* NULL: the type itself */
  const char *text;
} field_doc_row;

#define DEVICE_CLASS_NAME_DOC                                                                                        \
  "Name of the DeviceClass the devices must belong to. The class's selectors and configuration apply to the request " \
  "as well."
#define SELECTORS_DOC                                                                                                \
  "CEL selectors that a device must all satisfy to be picked, in addition to those of the DeviceClass. At most 32."
#define ALLOCATION_MODE_DOC                                                                                          \
  "How many devices to allocate: ExactCount (the default) allocates exactly `count` devices; All allocates every "  \
  "matching device in the pools and fails if any of them is unavailable."
#define COUNT_DOC "The number of devices to allocate when allocationMode is ExactCount. Defaults to 1."
#define REQUEST_TOLERATIONS_DOC                                                                                      \
  "Device taints this request accepts. A device with a NoSchedule or NoExecute taint is only picked if a "          \
  "toleration matches it. At most 16."
#define CAPACITY_DOC                                                                                                 \
  "How much of each capacity of a shareable device (allowMultipleAllocations) this request takes. Without it, the " \
  "request takes the device's default share, or all of it when there is no request policy."
#define DERIVED_ATTRIBUTES_DOC                                                                                       \
  "Attributes computed per candidate device by CEL expressions, which constraints can then name like ordinary "     \
  "attributes. At most 32. Alpha, behind the DRADerivedAttributes feature gate."
#define DRIVER_DOC                                                                                                   \
  "Name of the DRA driver, a DNS subdomain of at most 63 characters, normally a domain the driver's vendor owns "    \
  "(gpu.example.com)."
#define POOL_DOC "Name of the resource pool within the driver: at most 253 characters, DNS subdomains joined by `/`."
#define DEVICE_NAME_DOC "Name of the device within its pool: a DNS label."
#define SHARE_ID_DOC                                                                                                 \
  "Identifies one share of a device that may be allocated several times at once (allowMultipleAllocations); a "     \
  "UUID. Absent for devices that are allocated whole."
#define BINDING_CONDITIONS_DOC                                                                                       \
  "Condition types that must become True in the claim's device status before the scheduler binds the pod, for "     \
  "devices that need to be attached first. At most 4."
#define BINDING_FAILURE_CONDITIONS_DOC                                                                               \
  "Condition types that, once True in the claim's device status, tell the scheduler that preparing the device "     \
  "failed, so it clears the allocation and tries again. At most 4."
#define TAINT_KEY_DOC "The taint's key, a label key (an optional DNS prefix, `/`, and a name of at most 63 characters)."
#define TAINT_EFFECT_DOC                                                                                             \
  "What the taint does to claims that don't tolerate it: NoSchedule stops new allocations of the device; NoExecute " \
  "also evicts pods already using it; None only records the taint."
#define NODE_NAME_DOC "The node these devices are reachable from; the slice then holds only that node's devices."
#define NODE_SELECTOR_DOC "The nodes these devices are reachable from, as a node selector with exactly one term."
#define ALL_NODES_DOC "True when these devices are reachable from every node of the cluster."
#define CONFIG_REQUESTS_DOC                                                                                          \
  "Names of the requests (or `request/subrequest`) this configuration applies to. Empty means every request of "     \
  "the claim."
#define OPAQUE_DOC "Configuration in a format only the named driver understands."
#define CLAIM_NAME_IN_POD_DOC                                                                                        \
  "Name of this entry, unique within the pod; containers refer to the claim by it. A DNS label."
#define CLAIM_REF_DOC                                                                                                \
  "Name of an existing ResourceClaim in the same namespace to use. Exactly one of resourceClaimName and "            \
  "resourceClaimTemplateName is set."
#define TEMPLATE_REF_DOC                                                                                             \
  "Name of a ResourceClaimTemplate in the same namespace: a new claim is made from it for this pod and deleted "      \
  "with the pod. Exactly one of resourceClaimName and resourceClaimTemplateName is set."
#define CLAIM_STATUS_NAME_DOC "The name of the resourceClaims entry this status is for."
#define GENERATED_CLAIM_DOC                                                                                          \
  "Name of the ResourceClaim made from the entry's template. Unset while there is none, or when none is needed."

/* The policy fields a PodGroup shares with the templates of a Workload. */
#define POD_GROUP_POLICY_ROWS(T) \
    {T, "schedulingPolicy", \
     "How the pods are admitted: basic (each pod on its own) or gang (all or nothing). Exactly one is set."}, \
    {T, "schedulingConstraints", "Placement constraints for the group as a whole, such as topology."}, \
    {T, "resourceClaims", \
     "ResourceClaims shared by all pods of the group, named as in a pod's resourceClaims. At most 4."}, \
    {T, "disruptionMode", \
     "Whether the group's pods may be disrupted one by one (single) or only all together (all)."}, \
    {T, "priorityClassName", "The PriorityClass of the group; its value becomes priority."}, \
    {T, "priority", "The group's priority, set from priorityClassName. Higher goes first."}, \
    {T, "preemptionPolicy", \
     "PreemptLowerPriority (the default) lets the group evict lower-priority pods to fit; Never does not."},

static const field_doc_row rows[] = {
    /* every kind documented here */
    {NULL, "apiVersion", "The group and version of this object's schema, such as resource.k8s.io/v1."},
    {NULL, "kind", "The type of object, in CamelCase, such as ResourceClaim."},
    {NULL, "metadata", "Standard object metadata: name, namespace, labels, annotations and the server's bookkeeping."},

    /* the kinds themselves */
    {"device_class", NULL,
     "A DeviceClass names a kind of device, with selectors and configuration, that claims ask for by name."},
    {"resource_claim", NULL,
     "A ResourceClaim asks for devices. The scheduler allocates them when a pod using the claim is scheduled, and "
     "the pods listed in reservedFor use them."},
    {"resource_claim_template", NULL,
     "A ResourceClaimTemplate is the pattern of a claim made for each pod (or pod group) that refers to it."},
    {"resource_slice", NULL, "A ResourceSlice is a driver's list of the devices of one pool, or of part of it."},
    {"device_taint_rule", NULL, "A DeviceTaintRule adds a taint to every device it selects, without editing slices."},
    {"pod_group", NULL, "A PodGroup is a set of pods the scheduler places together, for example all or nothing."},

    /* DeviceClass */
    {"device_class", "spec", "What the class selects and how its devices are configured. Changing it does not affect "
                             "devices already allocated."},
    {"device_class_spec", "selectors",
     "CEL selectors every device of this class must satisfy. Requests naming the class add their own. At most 32."},
    {"device_class_spec", "config",
     "Configuration passed to the driver for every device allocated through this class, before the claim's own. At "
     "most 32 entries."},
    {"device_class_spec", "extendedResourceName",
     "An extended resource name (such as example.com/gpu) that pods may ask for under resources.requests; the "
     "scheduler then allocates devices of this class for them."},
    {"device_class_configuration", "opaque", OPAQUE_DOC},
    {"opaque_device_configuration", "driver",
     "The driver this configuration is for. Other drivers ignore it. " DRIVER_DOC},
    {"opaque_device_configuration", "parameters",
     "The configuration itself: any JSON object, usually with apiVersion and kind of the driver's own, which the "
     "driver checks when it prepares the device. At most 10 KiB."},
    {"device_selector", "cel", "A selector written as a CEL expression."},
    {"cel_device_selector", "expression",
     "A CEL expression that is true for the devices to pick. It sees the device as `device`, with `device.driver`, "
     "`device.attributes[\"domain\"].name` and `device.capacity[\"domain\"].name`. At most 10 KiB."},

    /* ResourceClaim */
    {"resource_claim", "spec", "What the claim asks for. It cannot be changed after creation."},
    {"resource_claim", "status", "What was allocated for the claim, and which consumers use it."},
    {"resource_claim_spec", "devices", "The devices the claim asks for, how they relate, and their configuration."},
    {"device_claim", "requests",
     "The device requests of the claim, each with a unique name. At most 32. A claim with no requests allocates "
     "nothing."},
    {"device_claim", "constraints",
     "Conditions that must hold between the devices allocated for several requests, such as sharing an attribute "
     "value. At most 32."},
    {"device_claim", "config", "Configuration for the drivers of the allocated devices, per request. At most 32."},
    {"device_request", "name",
     "Name of the request, a DNS label unique in the claim. Containers, constraints and configuration refer to it."},
    {"device_request", "exactly",
     "The request for devices of one kind. Exactly one of exactly and firstAvailable is set."},
    {"device_request", "firstAvailable",
     "Alternatives tried in order: the first one that can be satisfied is allocated. At most 8. Exactly one of "
     "exactly and firstAvailable is set."},
    {"exact_device_request", "deviceClassName", DEVICE_CLASS_NAME_DOC " Required."},
    {"exact_device_request", "selectors", SELECTORS_DOC},
    {"exact_device_request", "allocationMode", ALLOCATION_MODE_DOC},
    {"exact_device_request", "count", COUNT_DOC},
    {"exact_device_request", "adminAccess",
     "Asks for access to devices that may already be in use, for monitoring or maintenance, without counting as "
     "their user. Only allowed in namespaces labelled resource.kubernetes.io/admin-access=true."},
    {"exact_device_request", "tolerations", REQUEST_TOLERATIONS_DOC},
    {"exact_device_request", "capacity", CAPACITY_DOC},
    {"exact_device_request", "derivedAttributes", DERIVED_ATTRIBUTES_DOC},
    {"device_sub_request", "name",
     "Name of the alternative, a DNS label unique within its request. It is referred to as `request/name`."},
    {"device_sub_request", "deviceClassName", DEVICE_CLASS_NAME_DOC " Required."},
    {"device_sub_request", "selectors", SELECTORS_DOC},
    {"device_sub_request", "allocationMode", ALLOCATION_MODE_DOC},
    {"device_sub_request", "count", COUNT_DOC},
    {"device_sub_request", "tolerations", REQUEST_TOLERATIONS_DOC},
    {"device_sub_request", "capacity", CAPACITY_DOC},
    {"device_sub_request", "derivedAttributes", DERIVED_ATTRIBUTES_DOC},
    {"device_toleration", "key", "The taint key it matches. Empty matches every key, with operator Exists."},
    {"device_toleration", "operator",
     "Equal (the default) matches a taint with this key and value; Exists matches any value of the key."},
    {"device_toleration", "value", "The taint value it matches with operator Equal. Empty with Exists."},
    {"device_toleration", "effect", "The taint effect it matches. Empty matches every effect."},
    {"device_toleration", "tolerationSeconds",
     "For NoExecute taints: how long a pod may keep running on the tainted device before eviction. Unset means "
     "forever; zero or less means evict at once."},
    {"capacity_requirements", "requests",
     "The amount of each named capacity of the device this request takes. The server rounds it up to what the "
     "device's request policy allows."},
    {"device_derived_attribute", "name",
     "Name of the computed attribute, fully qualified (domain/name) as attributes are when constraints name them."},
    {"device_derived_attribute", "expression",
     "CEL expression computing the attribute's value from `device`. It must yield a string, integer, boolean or "
     "version."},
    {"device_constraint", "requests",
     "The requests (or `request/subrequest`) whose devices the constraint applies to. Empty means all requests."},
    {"device_constraint", "matchAttribute",
     "A fully qualified attribute name (domain/name) that all the devices must have, with the same value. Devices "
     "lacking it can't be picked."},
    {"device_constraint", "distinctAttribute",
     "A fully qualified attribute name whose value must differ between all the devices."},
    {"device_claim_configuration", "requests", CONFIG_REQUESTS_DOC},
    {"device_claim_configuration", "opaque", OPAQUE_DOC},

    /* ResourceClaim status */
    {"resource_claim_status", "allocation",
     "The devices allocated for the claim and the nodes they can be used on. Set by the scheduler; a claim is "
     "allocated once."},
    {"resource_claim_status", "reservedFor",
     "The consumers (usually pods) currently using the claim. The claim can't be deallocated or deleted while this "
     "list is not empty. At most 256."},
    {"resource_claim_status", "devices",
     "Status reported by the drivers for each allocated device, such as conditions and network data."},
    {"allocation_result", "devices", "The allocated devices and the configuration that goes with them."},
    {"allocation_result", "nodeSelector",
     "The nodes the allocated devices can be reached from. Pods using the claim run only there. Unset means any "
     "node."},
    {"allocation_result", "allocationTimestamp", "When the allocation was made."},
    {"device_allocation_result", "results", "One entry per allocated device. At most 32."},
    {"device_allocation_result", "config",
     "The configuration of the class and of the claim that applies to the allocated devices, in the order drivers "
     "apply it."},
    {"device_request_allocation_result", "request",
     "The request the device was allocated for: the request's name, or `request/subrequest` for an alternative of "
     "firstAvailable."},
    {"device_request_allocation_result", "driver", "The driver of the device. " DRIVER_DOC},
    {"device_request_allocation_result", "pool", "The pool of the device. " POOL_DOC},
    {"device_request_allocation_result", "device", DEVICE_NAME_DOC},
    {"device_request_allocation_result", "adminAccess",
     "Copied from the request: the device is used for administration and was not exclusively allocated."},
    {"device_request_allocation_result", "tolerations",
     "The request's tolerations at allocation time; they decide whether a later taint evicts the claim's pods."},
    {"device_request_allocation_result", "bindingConditions", BINDING_CONDITIONS_DOC},
    {"device_request_allocation_result", "bindingFailureConditions", BINDING_FAILURE_CONDITIONS_DOC},
    {"device_request_allocation_result", "shareID", SHARE_ID_DOC},
    {"device_request_allocation_result", "consumedCapacity",
     "The capacity of a shareable device this allocation takes, after rounding up to the device's request policy. "
     "Every capacity of the device is listed, even when zero."},
    {"device_allocation_configuration", "source",
     "Where the configuration comes from: FromClass (the DeviceClass) or FromClaim (the claim)."},
    {"device_allocation_configuration", "requests", CONFIG_REQUESTS_DOC},
    {"device_allocation_configuration", "opaque", OPAQUE_DOC},
    {"resource_claim_consumer_reference", "apiGroup", "API group of the consumer; empty for core kinds such as Pod."},
    {"resource_claim_consumer_reference", "resource", "The consumer's resource, such as pods."},
    {"resource_claim_consumer_reference", "name", "The consumer's name."},
    {"resource_claim_consumer_reference", "uid", "The consumer's UID, which tells apart objects of the same name."},
    {"allocated_device_status", "driver", "The device's driver. " DRIVER_DOC},
    {"allocated_device_status", "pool", "The device's pool. " POOL_DOC},
    {"allocated_device_status", "device", DEVICE_NAME_DOC},
    {"allocated_device_status", "shareID", SHARE_ID_DOC},
    {"allocated_device_status", "conditions",
     "Conditions the driver reports for the device, such as Ready, and the binding conditions. At most 8."},
    {"allocated_device_status", "data", "Anything else the driver wants to report about the device, as JSON."},
    {"allocated_device_status", "networkData", "Network settings of the device, for network devices."},
    {"network_device_data", "interfaceName",
     "Name of the network interface inside the pod for this device. At most 256 characters."},
    {"network_device_data", "ips",
     "IP addresses of the interface, each in CIDR form (192.0.2.5/24). At most 16, no duplicates."},
    {"network_device_data", "hardwareAddress", "The interface's hardware (MAC) address. At most 128 characters."},

    /* ResourceClaimTemplate */
    {"resource_claim_template", "spec", "The claim made for each pod that refers to this template."},
    {"resource_claim_template_spec", "metadata",
     "Labels and annotations copied to each claim made from the template. Other fields are not allowed."},
    {"resource_claim_template_spec", "spec", "The spec each claim made from the template gets, as is."},

    /* ResourceSlice */
    {"resource_slice", "spec", "The devices of one pool (or part of a pool) that a driver publishes."},
    {"resource_slice_spec", "driver", "The driver publishing these devices. " DRIVER_DOC " Cannot be changed."},
    {"resource_slice_spec", "pool",
     "The pool these devices belong to, and how many slices it has: the scheduler only uses a pool once it has seen "
     "all of them."},
    {"resource_slice_spec", "nodeName",
     NODE_NAME_DOC " A slice sets one, and only one, of nodeName, nodeSelector, allNodes and "
     "perDeviceNodeSelection."},
    {"resource_slice_spec", "nodeSelector", NODE_SELECTOR_DOC},
    {"resource_slice_spec", "allNodes", ALL_NODES_DOC},
    {"resource_slice_spec", "devices",
     "The devices of this slice. At most 128, or 64 when a device has taints, consumes counters or has list-valued "
     "attributes."},
    {"resource_slice_spec", "perDeviceNodeSelection",
     "True when each device says itself which nodes can reach it (nodeName, nodeSelector or allNodes)."},
    {"resource_slice_spec", "sharedCounters",
     "Counter sets that the devices of the pool draw from, so that overlapping partitions of one device are not "
     "allocated together. At most 8 sets."},
    {"resource_slice_spec", "partitionTypeAttribute",
     "Fully qualified name of an attribute that labels each partitionable device with its partition type; devices "
     "of one type must consume the same counters."},
    {"resource_slice_spec", "skipNodeOperations",
     "Node-side driver calls the kubelet skips for these devices: NodePrepareResources, NodeUnprepareResources, or "
     "`*` for both."},
    {"resource_pool", "name", POOL_DOC},
    {"resource_pool", "generation",
     "Raised by the driver when the pool changes; the scheduler ignores slices of an older generation."},
    {"resource_pool", "resourceSliceCount", "How many slices the pool has at this generation. At least 1."},
    {"device", "name", "Name of the device, a DNS label unique in the pool."},
    {"device", "basic", "(v1beta1) Where v1 has them on the device itself: the device's attributes, capacity and "
                        "other fields."},
    {"device", "attributes",
     "Facts about the device that selectors and constraints can test, keyed by name (fully qualified, or short "
     "for the driver's domain). At most 32 attributes and capacities together."},
    {"device", "capacity",
     "Amounts the device has, such as memory, keyed like attributes. At most 32 attributes and capacities "
     "together."},
    {"device", "consumesCounters",
     "What allocating this device takes from the slice's shared counter sets. At most 2 sets."},
    {"device", "nodeName", NODE_NAME_DOC " Only with perDeviceNodeSelection."},
    {"device", "nodeSelector", NODE_SELECTOR_DOC " Only with perDeviceNodeSelection."},
    {"device", "allNodes", ALL_NODES_DOC " Only with perDeviceNodeSelection."},
    {"device", "taints", "Taints of the device, which claims must tolerate. At most 16."},
    {"device", "bindsToNode",
     "True when the allocation must pin the claim to the node chosen for the first pod, even if the device could "
     "be reached from others."},
    {"device", "bindingConditions", BINDING_CONDITIONS_DOC},
    {"device", "bindingFailureConditions", BINDING_FAILURE_CONDITIONS_DOC},
    {"device", "allowMultipleAllocations",
     "True when the device may be allocated to several requests at once, each taking part of its capacity."},
    {"device", "nodeAllocatableResources",
     "Node resources such as cpu or memory that allocating this device also takes from the node, keyed by "
     "resource name. Extended resources are not allowed."},
    {"device_attribute", "int", "An integer value."},
    {"device_attribute", "bool", "A boolean value."},
    {"device_attribute", "string", "A string value of at most 64 characters."},
    {"device_attribute", "version", "A semantic version (semver 2.0.0) of at most 64 characters."},
    {"device_attribute", "ints", "A list of integers (at most 48 values). Exactly one value field is set."},
    {"device_attribute", "bools", "A list of booleans (at most 48 values). Exactly one value field is set."},
    {"device_attribute", "strings",
     "A list of strings of at most 64 characters (at most 48 values). Exactly one value field is set."},
    {"device_attribute", "versions", "A list of semantic versions (at most 48 values). Exactly one value field is set."},
    {"device_capacity", "value", "The amount the device has."},
    {"device_capacity", "requestPolicy",
     "For shareable devices: the default amount a request takes and which amounts it may ask for. Unset means any "
     "amount, and all of it by default."},
    {"capacity_request_policy", "default", "The amount taken when a request does not say."},
    {"capacity_request_policy", "validValues",
     "The only amounts a request may take, ascending; a request is rounded up to the next one. At most 10."},
    {"capacity_request_policy", "validRange", "The range of amounts a request may take."},
    {"capacity_request_policy_range", "min", "The smallest amount a request takes; smaller requests are rounded up."},
    {"capacity_request_policy_range", "max", "The largest amount a request may take."},
    {"capacity_request_policy_range", "step", "Amounts above min go up in steps of this size; requests round up."},
    {"counter_set", "name", "Name of the counter set, a DNS label unique in the slice."},
    {"counter_set", "counters", "The counters and how much each holds, keyed by a DNS label. At most 32."},
    {"counter", "value", "An amount of the counter."},
    {"device_counter_consumption", "counterSet", "The name of a counter set of the slice."},
    {"device_counter_consumption", "counters", "How much of each counter of the set the device takes. At most 32."},
    {"device_taint", "key", TAINT_KEY_DOC},
    {"device_taint", "value", "The taint's value, a label value of at most 63 characters."},
    {"device_taint", "effect", TAINT_EFFECT_DOC},
    {"device_taint", "timeAdded", "When the taint was added; set by the server if empty."},

    /* the node selectors of slices, devices and allocations */
    {"node_selector", "nodeSelectorTerms", "Terms of which a node must match at least one."},
    {"node_selector_term", "matchExpressions", "Requirements on the node's labels, all of which must hold."},
    {"node_selector_term", "matchFields", "Requirements on the node's fields (only metadata.name), all of which must hold."},
    {"node_selector_requirement", "key", "The label key (or field name) the requirement tests."},
    {"node_selector_requirement", "operator", "How the value is tested: In, NotIn, Exists, DoesNotExist, Gt or Lt."},
    {"node_selector_requirement", "values",
     "The values to compare with: one or more for In and NotIn, none for Exists and DoesNotExist, one integer for Gt "
     "and Lt."},

    /* DeviceTaintRule */
    {"device_taint_rule", "spec", "The devices to taint and the taint they get."},
    {"device_taint_rule", "status", "How far the rule has been applied, as conditions."},
    {"device_taint_rule_spec", "deviceSelector",
     "The devices the taint applies to: all that match every field set. Unset taints every device."},
    {"device_taint_rule_spec", "taint", "The taint the devices get, as if their slice listed it."},
    {"device_taint_selector", "driver", "Only devices of this driver."},
    {"device_taint_selector", "pool", "Only devices of this pool."},
    {"device_taint_selector", "device", "Only the device of this name (with driver and pool, one device)."},
    {"device_taint_rule_status", "conditions",
     "Conditions of the rule, such as EvictionInProgress while pods of tainted devices are being evicted. At most 8."},

    /* Pod: the DRA parts */
    {"pod_spec", "resourceClaims",
     "The ResourceClaims the pod uses, each under a name its containers refer to. The pod is not scheduled until "
     "they exist and can be allocated. Cannot be changed."},
    {"pod_spec", "schedulingGroup", "The PodGroup the pod belongs to, so that the group is scheduled together."},
    {"pod_scheduling_group", "podGroupName", "Name of the PodGroup, in the pod's namespace."},
    {"pod_resource_claim", "name", CLAIM_NAME_IN_POD_DOC},
    {"pod_resource_claim", "resourceClaimName", CLAIM_REF_DOC},
    {"pod_resource_claim", "resourceClaimTemplateName", TEMPLATE_REF_DOC},
    {"resource_requirements", "claims",
     "Which of the pod's resourceClaims (by entry name, and optionally one request) this container uses. Only "
     "those devices are made available to it."},
    {"container_resource_claim", "name", "The name of an entry of the pod's spec.resourceClaims."},
    {"container_resource_claim", "request",
     "The name of one request of that claim, to use only its devices. Empty means all of the claim's devices."},
    {"pod_status", "resourceClaimStatuses", "The claims made from templates for this pod, one per resourceClaims entry."},
    {"pod_status", "extendedResourceClaimStatus",
     "The claim the scheduler made for the extended resources the pod asked for, and which request serves which "
     "container."},
    {"pod_resource_claim_status", "name", CLAIM_STATUS_NAME_DOC},
    {"pod_resource_claim_status", "resourceClaimName", GENERATED_CLAIM_DOC},
    {"pod_extended_resource_claim_status", "requestMappings",
     "For each container and extended resource, the request of the claim that provides it."},
    {"pod_extended_resource_claim_status", "resourceClaimName", "Name of the claim the scheduler made."},
    {"container_extended_resource_request", "containerName", "Name of the container (or init container)."},
    {"container_extended_resource_request", "resourceName", "The extended resource name the container asked for."},
    {"container_extended_resource_request", "requestName", "The request of the claim that provides it."},

    /* PodGroup */
    {"pod_group", "spec", "How the group's pods are scheduled together."},
    {"pod_group", "status", "The group's scheduling state and the claims made for it."},
    {"pod_group_spec", "parentCompositePodGroupName",
     "Name of the composite group this group is part of, if any. Cannot be changed."},
    {"pod_group_spec", "workloadRef", "The Workload and its template this group was made from, if any."},
    POD_GROUP_POLICY_ROWS("pod_group_spec")
    POD_GROUP_POLICY_ROWS("pod_group_template")
    {"pod_group_template", "name", "Name of the template, a DNS label unique in the Workload; PodGroups refer to it."},
    {"pod_group_scheduling_policy", "basic", "Each pod is scheduled on its own, as if there were no group."},
    {"pod_group_scheduling_policy", "gang",
     "The group is scheduled all or nothing: no pod binds until at least minCount of them fit."},
    {"gang_scheduling_policy", "minCount",
     "How many pods of the group must be placeable at once before any is bound. At least 1."},
    {"pod_group_scheduling_constraints", "topology",
     "Topology the group's pods must share, such as one rack. At most 1 entry."},
    {"topology_constraint", "key", "A node label key: all of the group's pods go to nodes with the same value of it."},
    {"disruption_mode", "single", "The pods may be disrupted independently of each other."},
    {"disruption_mode", "all", "The pods may only be disrupted all together."},
    {"workload_reference", "workloadName", "Name of the Workload, in the group's namespace."},
    {"workload_reference", "templateName", "Name of the pod group template within that Workload."},
    {"pod_group_resource_claim", "name", "Name of this entry, unique within the group. A DNS label."},
    {"pod_group_resource_claim", "resourceClaimName", CLAIM_REF_DOC},
    {"pod_group_resource_claim", "resourceClaimTemplateName",
     "Name of a ResourceClaimTemplate in the same namespace: one claim is made from it for the whole group. "
     "Exactly one of resourceClaimName and resourceClaimTemplateName is set."},
    {"pod_group_status", "conditions",
     "Conditions of the group, such as PodGroupScheduled, set by the scheduler."},
    {"pod_group_status", "resourceClaimStatuses",
     "The claims made from templates for this group, one per resourceClaims entry."},
    {"pod_group_resource_claim_status", "name", CLAIM_STATUS_NAME_DOC},
    {"pod_group_resource_claim_status", "resourceClaimName", GENERATED_CLAIM_DOC},
};

static bool same_name(const char *a, const char *b) { return a == b || (a && b && !strcmp(a, b)); }

static const char *row_text(const char *type, const char *json) {
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
    if (same_name(rows[i].type, type) && same_name(rows[i].json, json)) return rows[i].text;
  return NULL;
}

/* The rows without a type are for the kinds documented here (those with a
 * text of their own): an ObjectReference's kind means something else. */
const char *field_doc(const char *type, const char *json) {
  const char *text = row_text(type, json);
  if (!text && json && row_text(type, NULL)) text = row_text(NULL, json);
  return text;
}
