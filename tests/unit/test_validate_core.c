/* test_validate_core.c: Node and Namespace admission: object
 * metadata of cluster-scoped objects, the Namespace's DNS-label name,
 * metadata immutability on update, and the Namespace's spec.finalizers and
 * status.phase (ValidateNamespace, ValidateNamespaceStatusUpdate). */
#include "validate_cases.h"

static const char node_base[] = "{'apiVersion':'v1','kind':'Node','metadata':{'name':'node-1','labels':{'region':'r1'}}}";
static const char ns_base[] = "{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'team-a'}}";

static const validate_case node_cases[] = {
    {.name = "valid node"},
    {.name = "node name may contain dots", .patch = "{'metadata':{'name':'node-1.example.com'}}"},
    {.name = "node name not a subdomain",
     .patch = "{'metadata':{'name':'Node_1'}}",
     .errors = {"metadata.name: Invalid value: \"Node_1\": " MSG_SUBDOMAIN}},
    {.name = "node namespace forbidden",
     .patch = "{'metadata':{'namespace':'default'}}",
     .errors = {"metadata.namespace: Forbidden: not allowed on this type"}},
    {.name = "node label value",
     .patch = "{'metadata':{'labels':{'region':'-r'}}}",
     .errors = {"metadata.labels: Invalid value: \"-r\": " MSG_LABEL_VALUE}},
    {.name = "node rename",
     .op = ADMIT_UPDATE,
     .old_patch = "{}",
     .patch = "{'metadata':{'name':'node-2'}}",
     .errors = {"metadata.name: Invalid value: \"node-2\": field is immutable"}},
};

static const validate_case ns_cases[] = {
    {.name = "valid namespace"},
    {.name = "namespace name with dots",
     .patch = "{'metadata':{'name':'team.a'}}",
     .errors = {"metadata.name: Invalid value: \"team.a\": must not contain dots"}},
    {.name = "namespace name not a label",
     .patch = "{'metadata':{'name':'Team_A','namespace':'x'}}",
     .errors = {"metadata.name: Invalid value: \"Team_A\": " MSG_LABEL,
                "metadata.namespace: Forbidden: not allowed on this type"}},
    {.name = "namespace name required",
     .patch = "{'metadata':{'name':null}}",
     .errors = {"metadata.name: Required value: name or generateName is required"}},
    {.name = "admin-access label", .patch = "{'metadata':{'labels':{'resource.kubernetes.io/admin-access':'true'}}}"},
    /* ValidateNamespace: each finalizer at the list's own path */
    {.name = "namespace finalizers",
     .patch = "{'spec':{'finalizers':['nope','a b/c','example.com/x','orphan']}}",
     .errors = {"spec.finalizers: Invalid value: \"nope\": name is neither a standard finalizer name nor is it fully qualified",
                "spec.finalizers: Invalid value: \"a b/c\": prefix part " MSG_SUBDOMAIN}},
    /* an update keeps the stored finalizers (PrepareForUpdate) */
    {.name = "namespace update keeps finalizers",
     .op = ADMIT_UPDATE,
     .old_patch = "{}",
     .patch = "{'spec':{'finalizers':['nope']}}"},
    /* ValidateNamespaceStatusUpdate */
    {.name = "namespace status Terminating while live",
     .op = ADMIT_STATUS_UPDATE,
     .old_patch = "{}",
     .patch = "{'status':{'phase':'Terminating'}}",
     .errors = {"status.Phase: Invalid value: \"Terminating\": may only be 'Active' if `deletionTimestamp` is empty"}},
    {.name = "namespace status phase defaults to Active", .op = ADMIT_STATUS_UPDATE, .old_patch = "{}", .patch = "{'status':{}}"},
    {.name = "namespace status Active while deleting",
     .op = ADMIT_STATUS_UPDATE,
     .old_patch = "{'metadata':{'deletionTimestamp':'2026-11-30T00:00:00Z'}}",
     .patch = "{'metadata':{'deletionTimestamp':'2026-11-30T00:00:00Z'},'status':{'phase':'Active'}}",
     .errors = {"status.Phase: Invalid value: \"Active\": may only be 'Terminating' if `deletionTimestamp` is not empty"}},
    {.name = "namespace status labels checked",
     .op = ADMIT_STATUS_UPDATE,
     .old_patch = "{}",
     .patch = "{'metadata':{'labels':{'x':'-bad'}}}",
     .errors = {"metadata.labels: Invalid value: \"-bad\": " MSG_LABEL_VALUE}},
};

int main(void) {
  int failed = run_validate_group("Node", node_base, node_cases, sizeof node_cases / sizeof node_cases[0]);
  failed += run_validate_group("Namespace", ns_base, ns_cases, sizeof ns_cases / sizeof ns_cases[0]);
  return failed;
}
