/* test_drop_gated.c: fields whose feature gate is off are dropped with a
 * warning line, on create and on update unless the stored
 * object already uses them; validation then sees the object without them. */
#include "test_admit.h"

#define W(kind, name, path, gate) "Warning: " kind " \"" name "\": " path ": dropped, feature gate " gate " is disabled"
#define WC(path, gate) W("ResourceClaim", "c", path, gate)
#define R0 "spec.devices.requests[0]"

/* In namespace "admin", so adminAccess passes the namespace check. */
#define CLAIM_ALL_FIELDS                                                                                            \
  "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c, namespace: admin}\n"                  \
  "spec: {devices: {requests: [{name: a, exactly: {deviceClassName: x, adminAccess: true, "               \
          "tolerations: [{operator: Exists}], capacity: {requests: {x.io/mem: 1Gi}}, "                           \
          "derivedAttributes: [{name: d.io/n, expression: '1'}]}}, "                                              \
          "{name: b, firstAvailable: [{name: s, deviceClassName: x, tolerations: [{operator: Exists}], "          \
          "capacity: {requests: {x.io/mem: 1Gi}}, derivedAttributes: [{name: d.io/n, expression: '1'}]}]}], "     \
          "constraints: [{matchAttribute: d.io/n}, {distinctAttribute: x.io/id}]}}\n"

#define CLASS_EXT DC_HEAD "spec: {extendedResourceName: example.com/gpu}\n"

#define CLAIM_WITH_STATUS(results_extra, devices)                                                                  \
  RC_HEAD "spec: {devices: {requests: [{name: a, exactly: {deviceClassName: x}}]}}\n"                             \
          "status: {allocation: {devices: {results: [{request: a, driver: x.io, pool: p, device: d" results_extra \
          "}]}}" devices "}\n"
#define ALLOCATED RC_HEAD "spec: {devices: {requests: [{name: a, exactly: {deviceClassName: x}}]}}\n"

static void test_drop(void **state) {
  (void)state;
  const admit_case cases[] = {
      {"all gates on: nothing dropped", ADMIT_CREATE, NULL, NULL, CLAIM_ALL_FIELDS, "", ""},
      {"firstAvailable", ADMIT_CREATE, "DRAPrioritizedList=false", NULL,
       RC_HEAD "spec: {devices: {requests: [{name: a, firstAvailable: [{name: s, deviceClassName: x}]}]}}\n",
       R0 ": Required value: exactly one of `exactly` or `firstAvailable` is required",
       WC(R0 ".firstAvailable", "DRAPrioritizedList")},
      {"tolerations", ADMIT_CREATE, "DRADeviceTaints=false", NULL, CLAIM_ALL_FIELDS, "",
       WC(R0 ".exactly.tolerations", "DRADeviceTaints") "\n"
       WC("spec.devices.requests[1].firstAvailable[0].tolerations", "DRADeviceTaints")},
      {"adminAccess: dropped before the namespace check", ADMIT_CREATE, "DRAAdminAccess=false", NULL,
       RC_EXACTLY(", adminAccess: true"), "", W("ResourceClaim", "c", R0 ".exactly.adminAccess", "DRAAdminAccess")},
      {"capacity and distinctAttribute", ADMIT_CREATE, "DRAConsumableCapacity=false", NULL, CLAIM_ALL_FIELDS,
       "spec.devices.constraints[1].matchAttribute: Required value",
       WC(R0 ".exactly.capacity", "DRAConsumableCapacity") "\n"
       WC("spec.devices.requests[1].firstAvailable[0].capacity", "DRAConsumableCapacity") "\n"
       WC("spec.devices.constraints[1].distinctAttribute", "DRAConsumableCapacity")},
      {"derivedAttributes: constraints naming them stay and pass", ADMIT_CREATE, "DRADerivedAttributes=false", NULL,
       CLAIM_ALL_FIELDS, "",
       WC(R0 ".exactly.derivedAttributes", "DRADerivedAttributes") "\n"
       WC("spec.devices.requests[1].firstAvailable[0].derivedAttributes", "DRADerivedAttributes")},
      {"template paths", ADMIT_CREATE, "DRAPrioritizedList=false", NULL,
       RCT_HEAD "spec: {spec: {devices: {requests: [{name: a, firstAvailable: [{name: s, deviceClassName: x}]}]}}}\n",
       "spec.spec.devices.requests[0]: Required value: exactly one of `exactly` or `firstAvailable` is required",
       W("ResourceClaimTemplate", "t", "spec.spec.devices.requests[0].firstAvailable", "DRAPrioritizedList")},
      {"claim update keeps fields the stored claim uses", ADMIT_UPDATE, "DRADeviceTaints=false,DRAPrioritizedList=false",
       CLAIM_ALL_FIELDS, CLAIM_ALL_FIELDS, "", ""},
      {"template update keeps fields the stored template uses", ADMIT_UPDATE, "DRAPrioritizedList=false",
       RCT_HEAD "spec: {spec: {devices: {requests: [{name: a, firstAvailable: [{name: s, deviceClassName: x}]}]}}}\n",
       RCT_HEAD "spec: {spec: {devices: {requests: [{name: a, firstAvailable: [{name: s, deviceClassName: x}]}]}}}\n",
       "", ""},
      {"class extendedResourceName", ADMIT_CREATE, "DRAExtendedResource=false", NULL, CLASS_EXT, "",
       W("DeviceClass", "gpu.example.com", "spec.extendedResourceName", "DRAExtendedResource")},
      {"class update keeps extendedResourceName in use", ADMIT_UPDATE, "DRAExtendedResource=false", CLASS_EXT,
       CLASS_EXT, "", ""},
      {"status devices", ADMIT_STATUS_UPDATE, "DRAResourceClaimDeviceStatus=false", CLAIM_WITH_STATUS("", ""),
       CLAIM_WITH_STATUS("", ", devices: [{driver: x.io, pool: p, device: d}]"), "",
       WC("status.devices", "DRAResourceClaimDeviceStatus")},
      {"status devices kept when the stored status has them", ADMIT_STATUS_UPDATE,
       "DRAResourceClaimDeviceStatus=false", CLAIM_WITH_STATUS("", ", devices: [{driver: x.io, pool: p, device: d}]"),
       CLAIM_WITH_STATUS("", ", devices: [{driver: x.io, pool: p, device: d, conditions: []}]"), "", ""},
      {"result fields of new allocations", ADMIT_STATUS_UPDATE,
       "DRAAdminAccess=false,DRADeviceBindingConditions=false,DRAConsumableCapacity=false", ALLOCATED,
       CLAIM_WITH_STATUS(", adminAccess: true, bindingConditions: [a], bindingFailureConditions: [b], "
                         "shareID: 0b6bb4d0-2c5a-4c50-9b3e-55c3a3f2b6d1, consumedCapacity: {x.io/mem: 1Gi}",
                         ""),
       "",
       WC("status.allocation.devices.results[0].adminAccess", "DRAAdminAccess") "\n"
       WC("status.allocation.devices.results[0].bindingConditions", "DRADeviceBindingConditions") "\n"
       WC("status.allocation.devices.results[0].bindingFailureConditions", "DRADeviceBindingConditions") "\n"
       WC("status.allocation.devices.results[0].shareID", "DRAConsumableCapacity") "\n"
       WC("status.allocation.devices.results[0].consumedCapacity", "DRAConsumableCapacity")},
  };
  run_admit_cases(cases, sizeof cases / sizeof cases[0]);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_drop)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
