/* test_validate_pod_group.c: PodGroup admission: the
 * declarative-validation texts of spec.resourceClaims and
 * status.resourceClaimStatuses, immutability, and the
 * DRAWorkloadResourceClaims drop with its in-use exception. */
#include "validate_cases.h"

static const char base[] = "{'apiVersion':'scheduling.k8s.io/v1beta1','kind':'PodGroup',"
                           "'metadata':{'name':'pg','namespace':'default'},'spec':{}}";

#define CLAIMS "'resourceClaims':[{'name':'gpu','resourceClaimTemplateName':'tpl'},{'name':'net','resourceClaimName':'net-1'}]"
#define UNION "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`"

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
};

int main(void) { return run_validate_group("PodGroup", base, cases, sizeof cases / sizeof cases[0]); }
