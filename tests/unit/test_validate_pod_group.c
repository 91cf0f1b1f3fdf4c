/* test_validate_pod_group.c: PodGroup admission: the
 * declarative-validation texts of the whole spec (schedulingPolicy and its
 * update rules, workloadRef, constraints, claims, disruptionMode, priority,
 * preemptionPolicy) and of status.resourceClaimStatuses, immutability with
 * ratcheting, and the gated drops with their in-use exception. The texts
 * are kube-apiserver 1.37's (checked against it by tests/upstream validdiff). */
#include "validate_cases.h"

static const char base[] = "{'apiVersion':'scheduling.k8s.io/v1beta1','kind':'PodGroup',"
                           "'metadata':{'name':'pg','namespace':'default'},"
                           "'spec':{'schedulingPolicy':{'basic':{}},'disruptionMode':{'single':{}}}}";

#define CLAIMS "'resourceClaims':[{'name':'gpu','resourceClaimTemplateName':'tpl'},{'name':'net','resourceClaimName':'net-1'}]"
#define UNION "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`"
#define GANG(n) "'schedulingPolicy':{'basic':null,'gang':{'minCount':" #n "}}"
#define IMMUTABLE ": Invalid value: null: field is immutable"
#define LONG_NAME_MSG                                                                                              \
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start " \
  "and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "                    \
  "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"

static const validate_case cases[] = {
    {.name = "valid PodGroup without claims"},
    {.name = "valid PodGroup claims", .patch = "{'spec':{" CLAIMS "}}"},
    {.name = "too many claims",
     .patch = "{'spec':{'resourceClaims':[{'name':'a'},{'name':'b'},{'name':'c'},{'name':'d'},{'name':'e'}]}}",
     .errors = {"spec.resourceClaims: Too many: 5: must have at most 4 items"}},
    {.name = "claim entries",
     .patch = "{'spec':{'resourceClaims':[{'name':'a','resourceClaimName':'x'},{'name':'a','resourceClaimName':'y'},"
              "{'resourceClaimName':'z'},{'name':'B','resourceClaimTemplateName':'T_1'}]}}",
     .errors = {"spec.resourceClaims[1]: Duplicate value: {\"name\":\"a\",\"resourceClaimName\":\"y\"}",
                "spec.resourceClaims[2].name: Required value",
                "spec.resourceClaims[3].name: Invalid value: \"B\": " MSG_LABEL,
                "spec.resourceClaims[3].resourceClaimTemplateName: Invalid value: \"T_1\": " MSG_SUBDOMAIN}},
    /* the versioned type's name has no omitempty (found by validdiff) */
    {.name = "duplicate nameless claims",
     .patch = "{'spec':{'resourceClaims':[{'resourceClaimName':'x'},{'resourceClaimName':'x'}]}}",
     .errors = {"spec.resourceClaims[1]: Duplicate value: {\"name\":\"\",\"resourceClaimName\":\"x\"}",
                "spec.resourceClaims[0].name: Required value", "spec.resourceClaims[1].name: Required value"}},
    /* an optional name set to "" is a Go *string: it shows in the duplicate (found by validdiff) */
    {.name = "duplicate claims with an empty template name",
     .patch = "{'spec':{'resourceClaims':[{'name':'a','resourceClaimTemplateName':''},"
              "{'name':'a','resourceClaimTemplateName':''}]}}",
     .errors = {"spec.resourceClaims[1]: Duplicate value: {\"name\":\"a\",\"resourceClaimTemplateName\":\"\"}",
                "spec.resourceClaims[0].resourceClaimTemplateName: Invalid value: \"\": " MSG_SUBDOMAIN,
                "spec.resourceClaims[1].resourceClaimTemplateName: Invalid value: \"\": " MSG_SUBDOMAIN}},
    {.name = "claim sources union",
     .patch = "{'spec':{'resourceClaims':[{'name':'a'},{'name':'b','resourceClaimName':'x','resourceClaimTemplateName':'t'}]}}",
     .errors = {"spec.resourceClaims[0]: Invalid value: \"\": " UNION,
                "spec.resourceClaims[1]: Invalid value: \"{resourceClaimName, resourceClaimTemplateName}\": must "
                "specify exactly one of: `resourceClaimName`, `resourceClaimTemplateName`"}},
    {.name = "update keeping claims", .op = ADMIT_UPDATE, .old_patch = "{'spec':{" CLAIMS "}}",
     .patch = "{'metadata':{'labels':{'a':'b'}},'spec':{" CLAIMS "}}"},
    {.name = "update changing claims",
     .op = ADMIT_UPDATE,
     .old_patch = "{'spec':{" CLAIMS "}}",
     .patch = "{'spec':{'resourceClaims':[{'name':'gpu','resourceClaimTemplateName':'tpl'}]}}",
     .errors = {"spec.resourceClaims: Invalid value: null: field is immutable"}},
    /* declarative validation stops at the immutability error (found by validdiff) */
    {.name = "update changing claims to invalid ones",
     .op = ADMIT_UPDATE,
     .old_patch = "{'spec':{" CLAIMS "}}",
     .patch = "{'spec':{'resourceClaims':[{'name':'Bad_Name'},{'name':'Bad_Name'},{},{},{}]}}",
     .errors = {"spec.resourceClaims: Invalid value: null: field is immutable",
                "spec.resourceClaims: Too many: 5: must have at most 4 items"}},
    {.name = "status valid",
     .op = ADMIT_STATUS_UPDATE,
     .old_patch = "{'spec':{" CLAIMS "}}",
     .patch = "{'spec':{" CLAIMS "},'status':{'resourceClaimStatuses':[{'name':'gpu','resourceClaimName':'pg-gpu-1'}]}}"},
    {.name = "status rules",
     .op = ADMIT_STATUS_UPDATE,
     .old_patch = "{'spec':{" CLAIMS "}}",
     .patch = "{'spec':{" CLAIMS "},'status':{'resourceClaimStatuses':[{'name':'x'},{'name':'gpu','resourceClaimName':"
              "'G_1'},{'name':'gpu'}]}}",
     .errors = {"status.resourceClaimStatuses[2]: Duplicate value: {\"name\":\"gpu\"}",
                "status.resourceClaimStatuses[0].name: Invalid value: \"x\": must match the name of an entry in "
                "`spec.resourceClaims`",
                "status.resourceClaimStatuses[1].resourceClaimName: Invalid value: \"G_1\": " MSG_SUBDOMAIN}},
    {.name = "too many claim statuses",
     .op = ADMIT_STATUS_UPDATE,
     .old_patch = "{}",
     .patch = "{'status':{'resourceClaimStatuses':[{'name':'a'},{'name':'b'},{'name':'c'},{'name':'d'},{'name':'e'}]}}",
     .errors = {"status.resourceClaimStatuses: Too many: 5: must have at most 4 items"}},
    {.name = "claims dropped with DRAWorkloadResourceClaims off",
     .gates = "DRAWorkloadResourceClaims=false",
     .patch = "{'spec':{'resourceClaims':[{'name':'A'}]},'status':{'resourceClaimStatuses':[{'name':'a'}]}}",
     .warnings = {"Warning: PodGroup \"pg\": spec.resourceClaims: dropped, feature gate DRAWorkloadResourceClaims is disabled",
                  "Warning: PodGroup \"pg\": status.resourceClaimStatuses: dropped, feature gate DRAWorkloadResourceClaims is disabled"}},
    {.name = "claims kept with DRAWorkloadResourceClaims off when in use",
     .gates = "DRAWorkloadResourceClaims=false",
     .op = ADMIT_UPDATE,
     .old_patch = "{'spec':{" CLAIMS "}}",
     .patch = "{'spec':{'resourceClaims':[{'name':'gpu','resourceClaimTemplateName':'tpl'}]}}",
     .errors = {"spec.resourceClaims: Invalid value: null: field is immutable"}},
    {.name = "namespace required",
     .patch = "{'metadata':{'namespace':null}}",
     .errors = {"metadata.namespace: Required value"}},
    {.name = "scheduling policy required",
     .patch = "{'spec':{'schedulingPolicy':null}}",
     .errors = {"spec.schedulingPolicy: Invalid value: \"\": must specify one of: `basic`, `gang`"}},
    {.name = "basic and gang",
     .patch = "{'spec':{'schedulingPolicy':{'gang':{'minCount':2}}}}",
     .errors = {"spec.schedulingPolicy: Invalid value: \"{basic, gang}\": must specify exactly one of: `basic`, `gang`"}},
    {.name = "gang minCount required", .patch = "{'spec':{" GANG(0) "}}",
     .errors = {"spec.schedulingPolicy.gang.minCount: Required value"}},
    {.name = "gang minCount positive", .patch = "{'spec':{" GANG(-3) "}}",
     .errors = {"spec.schedulingPolicy.gang.minCount: Invalid value: -3: must be greater than or equal to 1"}},
    {.name = "minCount is mutable", .op = ADMIT_UPDATE, .old_patch = "{'spec':{" GANG(4) "}}",
     .patch = "{'spec':{" GANG(2) "}}"},
    {.name = "a changed minCount is checked", .op = ADMIT_UPDATE, .old_patch = "{'spec':{" GANG(4) "}}",
     .patch = "{'spec':{" GANG(-1) "}}",
     .errors = {"spec.schedulingPolicy.gang.minCount: Invalid value: -1: must be greater than or equal to 1"}},
    {.name = "basic to gang", .op = ADMIT_UPDATE, .old_patch = "{}", .patch = "{'spec':{" GANG(2) "}}",
     .errors = {"spec.schedulingPolicy.basic" IMMUTABLE,
                "spec.schedulingPolicy.gang: Invalid value: null: field cannot be set once created"}},
    {.name = "gang to basic", .op = ADMIT_UPDATE, .old_patch = "{'spec':{" GANG(2) "}}", .patch = "{}",
     .errors = {"spec.schedulingPolicy.basic" IMMUTABLE,
                "spec.schedulingPolicy.gang: Invalid value: null: field cannot be cleared once set"}},
    {.name = "workloadRef names",
     .patch = "{'spec':{'workloadRef':{'templateName':'Bad.Name'}}}",
     .errors = {"spec.workloadRef.workloadName: Required value",
                "spec.workloadRef.templateName: Invalid value: \"Bad.Name\": " MSG_LABEL}},
    {.name = "workloadRef immutable", .op = ADMIT_UPDATE,
     .old_patch = "{'spec':{'workloadRef':{'workloadName':'w','templateName':'t'}}}",
     .patch = "{'spec':{'workloadRef':{'workloadName':'w','templateName':'u'}}}", .errors = {"spec.workloadRef" IMMUTABLE}},
    {.name = "disruption mode union", .patch = "{'spec':{'disruptionMode':{'all':{}}}}",
     .errors = {"spec.disruptionMode: Invalid value: \"{single, all}\": must specify exactly one of: `single`, `all`"}},
    {.name = "priority limits",
     .patch = "{'spec':{'priority':1000000001,'priorityClassName':'Class_1'}}",
     .errors = {"spec.priorityClassName: Invalid value: \"Class_1\": " LONG_NAME_MSG,
                "spec.priority: Invalid value: 1000000001: must be less than or equal to 1000000000"}},
    {.name = "priority immutable", .op = ADMIT_UPDATE, .old_patch = "{'spec':{'priority':5,'priorityClassName':'a'}}",
     .patch = "{'spec':{'priority':6,'priorityClassName':'b'}}",
     .errors = {"spec.priorityClassName" IMMUTABLE, "spec.priority" IMMUTABLE}},
    {.name = "constraints dropped with TopologyAwareWorkloadScheduling off",
     .patch = "{'spec':{'schedulingConstraints':{'topology':[{'key':'rack'}]},'preemptionPolicy':'Never',"
              "'parentCompositePodGroupName':'p'}}",
     .warnings = {"Warning: PodGroup \"pg\": spec.schedulingConstraints: dropped, feature gate "
                  "TopologyAwareWorkloadScheduling is disabled",
                  "Warning: PodGroup \"pg\": spec.preemptionPolicy: dropped, feature gate PodGroupPreemptionPolicy is "
                  "disabled",
                  "Warning: PodGroup \"pg\": spec.parentCompositePodGroupName: dropped, feature gate CompositePodGroup "
                  "is disabled"}},
    {.name = "topology constraints", .gates = "TopologyAwareWorkloadScheduling=true",
     .patch = "{'spec':{'schedulingConstraints':{'topology':[{'key':'a/b/c'},{}]}}}",
     .errors = {"spec.schedulingConstraints.topology: Too many: 2: must have at most 1 item"}},
    {.name = "topology key", .gates = "TopologyAwareWorkloadScheduling=true",
     .patch = "{'spec':{'schedulingConstraints':{'topology':[{}]}}}",
     .errors = {"spec.schedulingConstraints.topology[0].key: Required value"}},
    {.name = "preemption policy values", .gates = "PodGroupPreemptionPolicy=true",
     .patch = "{'spec':{'preemptionPolicy':'Sometimes'}}",
     .errors = {"spec.preemptionPolicy: Unsupported value: \"Sometimes\": supported values: \"Never\", "
                "\"PreemptLowerPriority\""}},
    {.name = "constraints stored while the gate was on: a change is Forbidden", .op = ADMIT_UPDATE,
     .old_patch = "{'spec':{'schedulingConstraints':{'topology':[{'key':'rack'}]}}}",
     .patch = "{'spec':{'schedulingConstraints':{'topology':[{'key':'zone'}]}}}",
     .errors = {"spec.schedulingConstraints: Forbidden"}},
};

int main(void) { return run_validate_group("PodGroup", base, cases, sizeof cases / sizeof cases[0]); }
