/* test_validate_pod.c: the DRA parts of Pod admission: pod
 * claims, container and init-container claims, pod-level claims,
 * schedulingGroup, update immutability, status claim statuses and the
 * extended-resource claim status, and the GenericWorkload drop. */
#include "validate_cases.h"

static const char base[] = "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p','namespace':'default'},"
                           "'spec':{'containers':[{'name':'c','image':'busybox'}]}}";

#define CLAIMS "'resourceClaims':[{'name':'gpu','resourceClaimTemplateName':'tpl'},{'name':'shared','resourceClaimName':'claim-1'}]"
#define CLAIM_NAMES "must be one of the names in pod.spec.resourceClaims: gpu, shared"

static const validate_case spec_cases[] = {
    {.name = "valid pod without claims"},
    {.name = "valid pod with claims",
     .patch = "{'spec':{" CLAIMS ",'containers':[{'name':'c','resources':{'claims':[{'name':'gpu'},{'name':'gpu',"
              "'request':'r1'},{'name':'shared'}]}}],'initContainers':[{'name':'i','resources':{'claims':[{'name':'gpu'}]}}],"
              "'schedulingGroup':{'podGroupName':'group-1'}}}"},
    {.name = "pod claim names",
     .patch = "{'spec':{'resourceClaims':[{'resourceClaimName':'x'},{'name':'a','resourceClaimName':'x'},"
              "{'name':'a','resourceClaimName':'y'},{'name':'B','resourceClaimName':'z'}]}}",
     .errors = {"spec.resourceClaims[0].name: Required value", "spec.resourceClaims[2].name: Duplicate value: \"a\"",
                "spec.resourceClaims[3].name: Invalid value: \"B\": " MSG_LABEL}},
    {.name = "pod claim sources",
     .patch = "{'spec':{'resourceClaims':[{'name':'a','resourceClaimName':'x','resourceClaimTemplateName':'t'},"
              "{'name':'b'},{'name':'c','resourceClaimName':'X_1'},{'name':'d','resourceClaimTemplateName':'-t'}]}}",
     .errors = {"spec.resourceClaims[0]: Invalid value: {\"Name\":\"a\",\"ResourceClaimName\":\"x\","
                "\"ResourceClaimTemplateName\":\"t\"}: at most one of `resourceClaimName` or "
                "`resourceClaimTemplateName` may be specified",
                "spec.resourceClaims[1]: Invalid value: {\"Name\":\"b\",\"ResourceClaimName\":null,"
                "\"ResourceClaimTemplateName\":null}: must specify one of: `resourceClaimName`, "
                "`resourceClaimTemplateName`",
                "spec.resourceClaims[2].resourceClaimName: Invalid value: \"X_1\": " MSG_SUBDOMAIN,
                "spec.resourceClaims[3].resourceClaimTemplateName: Invalid value: \"-t\": " MSG_SUBDOMAIN}},
    {.name = "container claims",
     .patch = "{'spec':{" CLAIMS ",'containers':[{'name':'c','resources':{'claims':[{'name':''},{'name':'gpu',"
              "'request':'R'},{'name':'gpu'},{'name':'gpu'},{'name':'gpu','request':'r'},{'name':'gpu','request':'r'},"
              "{'name':'z'}]}}]}}",
     .errors = {"spec.containers[0].resources.claims[0]: Required value",
                "spec.containers[0].resources.claims[1].request: Invalid value: \"R\": " MSG_LABEL,
                "spec.containers[0].resources.claims[3]: Duplicate value: \"gpu\"",
                "spec.containers[0].resources.claims[5]: Duplicate value: \"gpu/r\"",
                "spec.containers[0].resources.claims[6]: Not found: \"z\": " CLAIM_NAMES}},
    {.name = "container claim without pod claims",
     .patch = "{'spec':{'containers':[{'name':'c','resources':{'claims':[{'name':'gpu'}]}}]}}",
     .errors = {"spec.containers[0].resources.claims[0]: Not found: \"gpu\": must be one of the names in "
                "pod.spec.resourceClaims which is empty"}},
    {.name = "containers before init containers",
     .patch = "{'spec':{" CLAIMS ",'initContainers':[{'name':'i','resources':{'claims':[{'name':'x'}]}}],"
              "'containers':[{'name':'c'},{'name':'d','resources':{'claims':[{'name':'y'}]}}]}}",
     .errors = {"spec.containers[1].resources.claims[0]: Not found: \"y\": " CLAIM_NAMES,
                "spec.initContainers[0].resources.claims[0]: Not found: \"x\": " CLAIM_NAMES}},
    {.name = "pod-level resource claims",
     .patch = "{'spec':{" CLAIMS ",'resources':{'claims':[{'name':'gpu'}]}}}",
     .errors = {"spec.resources.claims: Forbidden: claims cannot be set for Resources at pod-level"}},
    {.name = "schedulingGroup name",
     .patch = "{'spec':{'schedulingGroup':{'podGroupName':'Group_1'}}}",
     .errors = {"spec.schedulingGroup.podGroupName: Invalid value: \"Group_1\": " MSG_SUBDOMAIN}},
    {.name = "schedulingGroup without name",
     .patch = "{'spec':{'schedulingGroup':{}}}",
     .errors = {"spec.schedulingGroup.podGroupName: Required value"}},
    {.name = "schedulingGroup dropped with GenericWorkload off",
     .gates = "GenericWorkload=false",
     .patch = "{'spec':{'schedulingGroup':{'podGroupName':'Group_1'}}}",
     .warnings = {"Warning: Pod \"p\": spec.schedulingGroup: dropped, feature gate GenericWorkload is disabled"}},
    {.name = "namespace required",
     .patch = "{'metadata':{'namespace':null}}",
     .errors = {"metadata.namespace: Required value"}},
};

#define POD_UPDATE_FORBIDDEN                                                                                   \
  "spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,"                 \
  "`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing " \
  "tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)"

static const validate_case update_cases[] = {
    {.name = "update keeping claims", .op = ADMIT_UPDATE, .old_patch = "{'spec':{" CLAIMS "}}",
     .patch = "{'metadata':{'labels':{'a':'b'}},'spec':{" CLAIMS "}}"},
    {.name = "update changing pod claims",
     .op = ADMIT_UPDATE,
     .old_patch = "{'spec':{" CLAIMS "}}",
     .patch = "{'spec':{'resourceClaims':[{'name':'gpu','resourceClaimTemplateName':'tpl'}]}}",
     .errors = {POD_UPDATE_FORBIDDEN}},
    {.name = "update adding a container claim",
     .op = ADMIT_UPDATE,
     .old_patch = "{'spec':{" CLAIMS "}}",
     .patch = "{'spec':{" CLAIMS ",'containers':[{'name':'c','resources':{'claims':[{'name':'gpu'}]}}]}}",
     .errors = {POD_UPDATE_FORBIDDEN}},
    {.name = "update changing schedulingGroup",
     .op = ADMIT_UPDATE,
     .old_patch = "{'spec':{'schedulingGroup':{'podGroupName':'a'}}}",
     .patch = "{'spec':{'schedulingGroup':{'podGroupName':'b'}}}",
     .errors = {POD_UPDATE_FORBIDDEN}},
};

#define EXT_MAPPINGS "'extendedResourceClaimStatus':{'resourceClaimName':'p-ext','requestMappings':"
#define GPU_CONTAINERS "'containers':[{'name':'c','resources':{'requests':{'example.com/gpu':'1'}}}],'initContainers':[{'name':'i'}]"

#define VALID_STATUS_SPEC                                                                                   \
  "'spec':{" CLAIMS ",'containers':[{'name':'c','resources':{'requests':{'example.com/gpu':'1'},'claims':"     \
  "[{'name':'gpu'},{'name':'shared','request':'r'}]}}]}"
#define RULES_STATUS_SPEC                                                                                   \
  "'spec':{" CLAIMS ",'containers':[{'name':'c','resources':{'claims':[{'name':'gpu'}]}}],'initContainers':[{'name':'i'}]}"

static const validate_case status_cases[] = {
    {.name = "status update validates against the stored spec",
     .op = ADMIT_STATUS_UPDATE,
     .old_patch = "{'spec':{" CLAIMS "}}",
     .patch = "{'status':{'resourceClaimStatuses':[{'name':'gpu'}]}}"},
    {.name = "status claim statuses valid",
     .op = ADMIT_STATUS_UPDATE,
     .old_patch = "{'spec':{" CLAIMS "}}",
     .patch = "{'spec':{" CLAIMS "},'status':{'resourceClaimStatuses':[{'name':'gpu','resourceClaimName':'p-gpu-x1'},"
              "{'name':'shared'}]}}"},
    {.name = "status claim statuses rules",
     .op = ADMIT_STATUS_UPDATE,
     .old_patch = "{'spec':{" CLAIMS "}}",
     .patch = "{'spec':{" CLAIMS "},'status':{'resourceClaimStatuses':[{'name':'nope'},{'name':'gpu',"
              "'resourceClaimName':'P_1'},{'name':'gpu'}]}}",
     .errors = {"status.resourceClaimStatuses[0].name: Invalid value: \"nope\": must match the name of an entry in "
                "`spec.resourceClaims`",
                "status.resourceClaimStatuses[1].name: Invalid value: \"P_1\": " MSG_SUBDOMAIN,
                "status.resourceClaimStatuses[2].name: Duplicate value: \"gpu\""}},
    {.name = "extended resource claim status valid",
     .op = ADMIT_STATUS_UPDATE,
     .old_patch = "{'spec':{" GPU_CONTAINERS "}}",
     .patch = "{'spec':{" GPU_CONTAINERS "},'status':{" EXT_MAPPINGS
              "[{'containerName':'c','resourceName':'example.com/gpu','requestName':'container-0-request-0'}]}}}"},
    {.name = "extended resource claim status rules",
     .op = ADMIT_STATUS_UPDATE,
     .old_patch = "{'spec':{" GPU_CONTAINERS "}}",
     .patch = "{'spec':{" GPU_CONTAINERS "},'status':{'extendedResourceClaimStatus':{'resourceClaimName':'','requestMappings':"
              "[{'containerName':'x','resourceName':'example.com/gpu','requestName':'r'},{'containerName':'i',"
              "'resourceName':'example.com/gpu','requestName':'R'},{'containerName':'c','resourceName':'example.com/gpu',"
              "'requestName':'r'},{'containerName':'c','resourceName':'example.com/gpu','requestName':'r'}]}}}",
     .errors = {"status.extendedResourceClaimStatus.requestMappings[0].containerName: Invalid value: \"x\": must "
                "match the name of an entry in spec.initContainers.name or spec.containers.name",
                "status.extendedResourceClaimStatus.requestMappings[1].resourceName: Invalid value: "
                "\"example.com/gpu\": must match the extended resource name of an entry in "
                "spec.initContainers.resources.requests or spec.containers.resources.requests",
                "status.extendedResourceClaimStatus.requestName: Invalid value: \"R\": " MSG_LABEL,
                "status.extendedResourceClaimStatus.requestMappings[3].containerName: Duplicate value: \"c\"",
                "status.extendedResourceClaimStatus.requestMappings[3].resourceName: Duplicate value: \"example.com/gpu\"",
                "status.extendedResourceClaimStatus.requestMappings[3].requestName: Duplicate value: \"r\"",
                "status.extendedResourceClaimStatus.resourceClaimName: Required value"}},
    {.name = "extended resource claim status without mappings",
     .op = ADMIT_STATUS_UPDATE,
     .old_patch = "{}",
     .patch = "{'status':{" EXT_MAPPINGS "[]}}}",
     .errors = {"status.extendedResourceClaimStatus.requestMappings: Required value: at least one request mapping is required"}},
    {.name = "allocatedResourcesStatus valid",
     .op = ADMIT_STATUS_UPDATE,
     .old_patch = "{" VALID_STATUS_SPEC "}",
     .patch = "{" VALID_STATUS_SPEC ",'status':{'containerStatuses':[{'name':'c',"
              "'allocatedResourcesStatus':[{'name':'claim:gpu','resources':[{'resourceID':'a','health':'Healthy'}]},"
              "{'name':'claim:shared/r'},{'name':'example.com/gpu'}]}]}}"},
    {.name = "allocatedResourcesStatus rules",
     .op = ADMIT_STATUS_UPDATE,
     .old_patch = "{" RULES_STATUS_SPEC "}",
     .patch = "{" RULES_STATUS_SPEC ",'status':{'containerStatuses':[{'name':'c','allocatedResourcesStatus':"
              "[{'name':'claim:shared','resources':[{'resourceID':'a','health':'Sick'},{'resourceID':'a','health':"
              "'Unknown'}]},{'name':'example.com/gpu'}]},{'name':'gone','allocatedResourcesStatus':[{'name':'claim:x'}]}],"
              "'initContainerStatuses':[{'name':'i','allocatedResourcesStatus':[{'name':'claim:gpu'}]}],"
              "'ephemeralContainerStatuses':[{'name':'e','allocatedResourcesStatus':[{'name':'claim:gpu'}]}]}}",
     .errors = {"status.containerStatuses[0].allocatedResourcesStatus[0].name: Invalid value: \"claim:shared\": must "
                "match one of the container's resource claims in a format 'claim:<claimName>/<request>' or "
                "'claim:<claimName>' if request is empty",
                "status.containerStatuses[0].allocatedResourcesStatus[0].resources[0].health: Unsupported value: "
                "\"Sick\": supported values: \"Healthy\", \"Unhealthy\", \"Unknown\"",
                "status.containerStatuses[0].allocatedResourcesStatus[0].resources[1].resourceID: Duplicate value: \"a\"",
                "status.containerStatuses[0].allocatedResourcesStatus[1].name: Invalid value: \"example.com/gpu\": "
                "must match one of the container's resource requests",
                "status.initContainerStatuses[0].allocatedResourcesStatus[0].name: Invalid value: \"claim:gpu\": must "
                "match one of the container's resource claims in a format 'claim:<claimName>/<request>' or "
                "'claim:<claimName>' if request is empty",
                "status.ephemeralContainerStatuses[0].allocatedResourcesStatus: Forbidden: must not be specified in "
                "container status"}},
    {.name = "extended resource claim status dropped with DRAExtendedResource off",
     .op = ADMIT_STATUS_UPDATE,
     .gates = "DRAExtendedResource=false",
     .old_patch = "{}",
     .patch = "{'status':{" EXT_MAPPINGS "[]}}}",
     .warnings = {"Warning: Pod \"p\": status.extendedResourceClaimStatus: dropped, feature gate DRAExtendedResource is disabled"}},
};

#define GROUP(name, cases) failed += run_validate_group(name, base, cases, sizeof cases / sizeof cases[0])

int main(void) {
  int failed = 0;
  GROUP("Pod spec", spec_cases);
  GROUP("Pod update", update_cases);
  GROUP("Pod status", status_cases);
  return failed;
}
