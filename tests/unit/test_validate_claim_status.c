/* test_validate_claim_status.c: ResourceClaim status updates (adminAccess of
 * results, status rules) and updates of the main resource (immutable spec),
 * each rule on both sides with kube-apiserver's messages. */
#include "test_admit.h"

#define SPEC                                                                                                    \
  "spec: {devices: {requests: [{name: a, exactly: {deviceClassName: x}}, "                                    \
  "{name: b, firstAvailable: [{name: s, deviceClassName: x}]}]}}\n"
#define CLAIM(status) RC_HEAD SPEC "status: " status "\n"
#define DELETING(status)                                                                                        \
  "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c, namespace: default, "             \
  "deletionTimestamp: '2026-11-30T00:00:00Z', finalizers: [resource.kubernetes.io/delete-protection]}\n" SPEC  \
  "status: " status "\n"
#define RESULT(extra) "{request: a, driver: x.io, pool: p, device: d" extra "}"
#define ALLOC_WITH(results, extra) "allocation: {devices: {results: [" results "]" extra "}}"
#define ALLOC ALLOC_WITH(RESULT(""), "")
#define POD(uid) "{resource: pods, name: p" uid ", uid: u" uid "}"
#define NO_STATUS CLAIM("{}")
#define ST_ALLOCATED CLAIM("{" ALLOC "}")
#define R0 "status.allocation.devices.results[0]"

static void test_reserved_for(void **state) {
  (void)state;
  char *many = repeat_fmt("{resource: pods, name: p, uid: u%d}", 257);
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, CLAIM("{" ALLOC ", reservedFor: [%s]}"), many);
  char *many_yaml = sb_detach(&sb);
  const admit_case cases[] = {
      {"allocate and reserve", ADMIT_STATUS_UPDATE, NULL, NO_STATUS, CLAIM("{" ALLOC ", reservedFor: [" POD("1") "]}"), ""},
      {"reservedFor without allocation", ADMIT_STATUS_UPDATE, NULL, NO_STATUS, CLAIM("{reservedFor: [" POD("1") "]}"),
       "status.reservedFor: Forbidden: may not be specified when `allocated` is not set"},
      {"consumer fields required", ADMIT_STATUS_UPDATE, NULL, ST_ALLOCATED, CLAIM("{" ALLOC ", reservedFor: [{}]}"),
       "status.reservedFor[0].resource: Required value\nstatus.reservedFor[0].name: Required value\n"
       "status.reservedFor[0].uid: Required value"},
      {"duplicate uid", ADMIT_STATUS_UPDATE, NULL, ST_ALLOCATED,
       CLAIM("{" ALLOC ", reservedFor: [" POD("1") ", {resource: podgroups, apiGroup: scheduling.k8s.io, name: g, uid: u1}]}"),
       "status.reservedFor[1]: Duplicate value: \"u1\""},
      {"too many consumers", ADMIT_STATUS_UPDATE, NULL, ST_ALLOCATED, many_yaml,
       "status.reservedFor: Too many: 257: must have at most 256 items"},
      {"deleting: entries may be removed", ADMIT_STATUS_UPDATE, NULL,
       DELETING("{" ALLOC ", reservedFor: [" POD("1") ", " POD("2") "]}"), DELETING("{" ALLOC ", reservedFor: [" POD("2") "]}"),
       ""},
      {"deleting: no new entries", ADMIT_STATUS_UPDATE, NULL, DELETING("{" ALLOC ", reservedFor: [" POD("1") "]}"),
       DELETING("{" ALLOC ", reservedFor: [" POD("1") ", " POD("2") "]}"),
       "status.reservedFor: Forbidden: new entries may not be added while `deallocationRequested` or "
       "`deletionTimestamp` are set"},
  };
  run_admit_cases(cases, sizeof cases / sizeof cases[0]);
  free(many);
  free(many_yaml);
}

static void test_allocation(void **state) {
  (void)state;
  char *many = repeat_fmt("{request: a, driver: x.io, pool: p, device: d%d}", 33);
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, CLAIM("{allocation: {devices: {results: [%s]}}}"), many);
  char *many_yaml = sb_detach(&sb);
  const admit_case cases[] = {
      {"subrequest result, config, node selector", ADMIT_STATUS_UPDATE, NULL, NO_STATUS,
       CLAIM("{allocation: {devices: {results: [{request: b/s, driver: X.io, pool: rack/node-1, device: d, "
             "tolerations: [{key: k, operator: Exists}], bindingConditions: [x.io/ready], "
             "bindingFailureConditions: [x.io/failed], shareID: 0b6bb4d0-2c5a-4c50-9b3e-55c3a3f2b6d1}], "
             "config: [{source: FromClass, opaque: {driver: x.io, parameters: {}}}, "
             "{source: FromClaim, requests: [a], opaque: {driver: x.io, parameters: {a: 1}}}]}, "
             "nodeSelector: {nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [n1]}]}]}}}"),
       ""},
      {"immutable once set", ADMIT_STATUS_UPDATE, NULL, ST_ALLOCATED, CLAIM("{" ALLOC_WITH(RESULT("") ", " RESULT("x"), "") "}"),
       "status.allocation: Invalid value: {\"devices\":{\"results\":[{\"request\":\"a\",\"driver\":\"x.io\",\"pool\":"
       "\"p\",\"device\":\"d\"},{\"request\":\"a\",\"driver\":\"x.io\",\"pool\":\"p\",\"device\":\"dx\"}]}}: field is immutable"},
      {"stored allocation is not re-validated", ADMIT_STATUS_UPDATE, NULL, CLAIM("{" ALLOC_WITH(RESULT(", tolerations: [{operator: Bad}]"), "") "}"),
       CLAIM("{" ALLOC_WITH(RESULT(", tolerations: [{operator: Bad}]"), "") ", reservedFor: [" POD("1") "]}"), ""},
      {"deallocation", ADMIT_STATUS_UPDATE, NULL, ST_ALLOCATED, NO_STATUS, ""},
      {"result fields", ADMIT_STATUS_UPDATE, NULL, NO_STATUS,
       CLAIM("{allocation: {devices: {results: [{request: z, driver: '', pool: '', device: D, shareID: share-1, "
             "tolerations: [{operator: Gt}], bindingFailureConditions: [f]}]}}}"),
       R0 ".request: Invalid value: \"z\": " REF_MSG "\n" R0 ".driver: Required value\n" R0
          ".driver: Invalid value: \"\": " SUBDOMAIN_RE "\n" R0 ".pool: Required value\n" R0
          ".device: Invalid value: \"D\": " LABEL_RE "\n" R0
          ".bindingConditions: Invalid value: null: bindingConditions are required to use bindingFailureConditions\n" R0
          ".tolerations[0].operator: Unsupported value: \"Gt\": supported values: \"Equal\", \"Exists\"\n" R0
          ".shareID: Invalid value: \"share-1\": error validating uid: invalid UUID length: 7"},
      {"binding conditions", ADMIT_STATUS_UPDATE, NULL, NO_STATUS,
       CLAIM("{" ALLOC_WITH(RESULT(", bindingConditions: [a, a, b, c, d], bindingFailureConditions: [b]"), "") "}"),
       R0 ".bindingConditions: Too many: 5: must have at most 4 items\n" R0
          ".bindingConditions[1]: Duplicate value: \"a\"\n" R0
          ".bindingFailureConditions[0]: Invalid value: \"b\": bindingFailureConditions must not overlap with "
          "bindingConditions"},
      {"too many results", ADMIT_STATUS_UPDATE, NULL, NO_STATUS, many_yaml,
       "status.allocation.devices.results: Too many: 33: must have at most 32 items"},
      {"config entries", ADMIT_STATUS_UPDATE, NULL, NO_STATUS,
       CLAIM("{" ALLOC_WITH(RESULT(""), ", config: [{opaque: {driver: x.io, parameters: {}}}, {source: FromPod, "
                                        "requests: [q]}]") "}"),
       "status.allocation.devices.config[0].source: Required value\n"
       "status.allocation.devices.config[1].source: Unsupported value: \"FromPod\": supported values: \"FromClaim\", "
       "\"FromClass\"\n"
       "status.allocation.devices.config[1].requests[0]: Invalid value: \"q\": " REF_MSG "\n"
       "status.allocation.devices.config[1].opaque: Required value"},
      {"node selector", ADMIT_STATUS_UPDATE, NULL, NO_STATUS, CLAIM("{allocation: {devices: {results: [" RESULT("") "]}, nodeSelector: {nodeSelectorTerms: []}}}"),
       "status.allocation.nodeSelector.nodeSelectorTerms: Required value: must have at least one node selector term"},
  };
  run_admit_cases(cases, sizeof cases / sizeof cases[0]);
  free(many);
  free(many_yaml);
}

#define DEV(extra) "{driver: x.io, pool: p, device: d" extra "}"
#define D0 "status.devices[0]"
#define COND "type: Ready, status: 'True', reason: Ok, lastTransitionTime: '2026-11-30T00:00:00Z'"

static void test_device_status(void **state) {
  (void)state;
  char iface[300];
  memset(iface, 'i', 257);
  iface[257] = 0;
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, CLAIM("{" ALLOC ", devices: [" DEV(", networkData: {interfaceName: %s}") "]}"), iface);
  char *iface_yaml = sb_detach(&sb);
  char *nine = repeat_fmt("{type: T%d, status: 'True', reason: Ok, lastTransitionTime: '2026-11-30T00:00:00Z'}", 9);
  sb_printf(&sb, CLAIM("{" ALLOC ", devices: [" DEV(", conditions: [%s]") "]}"), nine);
  char *nine_yaml = sb_detach(&sb);
  const admit_case cases[] = {
      {"device status", ADMIT_STATUS_UPDATE, NULL, ST_ALLOCATED,
       CLAIM("{" ALLOC ", devices: [" DEV(", conditions: [{" COND "}], data: {a: 1}, networkData: {interfaceName: eth0, "
                                         "ips: [10.0.0.1/24, '2001:db8::1/64'], hardwareAddress: '00:11:22:33:44:55'}") "]}"),
       ""},
      {"not an allocated device", ADMIT_STATUS_UPDATE, NULL, ST_ALLOCATED,
       CLAIM("{" ALLOC ", devices: [{driver: x.io, pool: p, device: e}, " DEV(", shareID: 0b6bb4d0-2c5a-4c50-9b3e-55c3a3f2b6d1") "]}"),
       D0 ": Invalid value: x.io/p/e: must be an allocated device in the claim\n"
          "status.devices[1]: Invalid value: x.io/p/d/0b6bb4d0-2c5a-4c50-9b3e-55c3a3f2b6d1: must be an allocated device in the claim"},
      {"duplicate device", ADMIT_STATUS_UPDATE, NULL, ST_ALLOCATED, CLAIM("{" ALLOC ", devices: [" DEV("") ", " DEV("") "]}"),
       "status.devices[1]: Duplicate value: x.io/p/d"},
      {"conditions", ADMIT_STATUS_UPDATE, NULL, ST_ALLOCATED,
       CLAIM("{" ALLOC ", devices: [" DEV(", conditions: [{" COND "}, {type: Ready, status: Maybe, reason: 1bad, "
                                         "observedGeneration: -1}]") "]}"),
       D0 ".conditions[1].type: Duplicate value: \"Ready\"\n" D0
          ".conditions[1].status: Unsupported value: \"Maybe\": supported values: \"False\", \"True\", \"Unknown\"\n" D0
          ".conditions[1].observedGeneration: Invalid value: -1: must be greater than or equal to zero\n" D0
          ".conditions[1].lastTransitionTime: Required value: must be set\n" D0
          ".conditions[1].reason: Invalid value: \"1bad\": a condition reason must start with alphabetic character, "
          "optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric "
          "character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or "
          "'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')"},
      {"too many conditions", ADMIT_STATUS_UPDATE, NULL, ST_ALLOCATED, nine_yaml,
       D0 ".conditions: Too many: 9: must have at most 8 items"},
      {"data must be an object", ADMIT_STATUS_UPDATE, NULL, ST_ALLOCATED, CLAIM("{" ALLOC ", devices: [" DEV(", data: [1]") "]}"),
       D0 ".data: Invalid value: \"<value omitted>\": must be a valid JSON object"},
      {"network data", ADMIT_STATUS_UPDATE, NULL, ST_ALLOCATED,
       CLAIM("{" ALLOC ", devices: [" DEV(", networkData: {ips: [bad, '2001:DB8::1/64', 10.0.0.1/24, 10.0.0.1/24]}") "]}"),
       D0 ".networkData.ips[0]: Invalid value: \"bad\": must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or "
          "2001:db8::1/64)\n" D0
          ".networkData.ips[1]: Invalid value: \"2001:DB8::1/64\": must be in canonical form (\"2001:db8::1/64\")\n" D0
          ".networkData.ips[3]: Duplicate value: \"10.0.0.1/24\""},
      {"interface name too long", ADMIT_STATUS_UPDATE, NULL, ST_ALLOCATED, iface_yaml,
       D0 ".networkData.interfaceName: Too long: may not be more than 256 bytes"},
      {"deallocated devices are dropped", ADMIT_STATUS_UPDATE, NULL, CLAIM("{" ALLOC ", devices: [" DEV("") "]}"),
       CLAIM("{devices: [" DEV("") "]}"), ""},
      {"devices never allocated are kept and refused", ADMIT_STATUS_UPDATE, NULL, NO_STATUS, CLAIM("{devices: [" DEV("") "]}"),
       D0 ": Invalid value: x.io/p/d: must be an allocated device in the claim"},
  };
  run_admit_cases(cases, sizeof cases / sizeof cases[0]);
  free(iface_yaml);
  free(nine);
  free(nine_yaml);
}

#define ADMIN_RESULT_CLAIM(ns)                                                                                      \
  "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c, namespace: " ns "}\n" SPEC "status: {" \
  ALLOC_WITH(RESULT("") ", " RESULT("2, adminAccess: true"), "") ", reservedFor: [{}]}\n"
#define ADMIN_NO_STATUS(ns) \
  "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c, namespace: " ns "}\n" SPEC

static void test_status_admin_and_meta(void **state) {
  (void)state;
  const admit_case cases[] = {
      {"admin result in a labelled namespace", ADMIT_STATUS_UPDATE, NULL, ADMIN_NO_STATUS("admin"),
       ADMIN_RESULT_CLAIM("admin"), "status.reservedFor[0].resource: Required value\n"
                                    "status.reservedFor[0].name: Required value\nstatus.reservedFor[0].uid: Required value"},
      {"admin result elsewhere: checked first", ADMIT_STATUS_UPDATE, NULL, ADMIN_NO_STATUS("default"),
       ADMIN_RESULT_CLAIM("default"),
       "status.allocation.devices.results[1].adminAccess: Forbidden: admin access to devices requires the "
       "`resource.kubernetes.io/admin-access: true` label on the containing namespace\n"
       "status.reservedFor[0].resource: Required value\nstatus.reservedFor[0].name: Required value\n"
       "status.reservedFor[0].uid: Required value"},
      {"stored admin results are not checked again", ADMIT_STATUS_UPDATE, NULL,
       ADMIN_NO_STATUS("default") "status: {" ALLOC_WITH(RESULT(", adminAccess: true"), "") "}\n",
       ADMIN_NO_STATUS("default") "status: {" ALLOC_WITH(RESULT(", adminAccess: true"), "") ", reservedFor: [" POD("1") "]}\n",
       ""},
      {"status update ignores spec and label edits", ADMIT_STATUS_UPDATE, NULL, ST_ALLOCATED,
       "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c, namespace: default, labels: {'a b': c}}\n"
       "spec: {devices: {requests: [{name: Z}]}}\nstatus: {" ALLOC "}\n",
       ""},
      {"name is immutable", ADMIT_STATUS_UPDATE, NULL, ST_ALLOCATED,
       "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: d, namespace: default}\n" SPEC "status: {" ALLOC "}\n",
       "metadata.name: Invalid value: \"d\": field is immutable"},
  };
  run_admit_cases(cases, sizeof cases / sizeof cases[0]);
}

static void test_update(void **state) {
  (void)state;
  const admit_case cases[] = {
      {"unchanged spec, new labels", ADMIT_UPDATE, NULL, RC_EXACTLY(""),
       "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c, namespace: default, labels: {a: b}}\n"
       "spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com}}]}}\n",
       ""},
      {"status in an update is the stored one", ADMIT_UPDATE, NULL, RC_EXACTLY(""),
       RC_EXACTLY("") "status: {reservedFor: [{}]}\n", ""},
      /* declarative validation's immutability error, which carries no value
       * (found by tests/upstream validdiff) */
      {"spec is immutable", ADMIT_UPDATE, NULL, RC_EXACTLY(""), RC_EXACTLY(", count: 2"),
       "spec: Invalid value: null: field is immutable"},
      /* an empty list is the absent one, as Semantic.DeepEqual has it (found by validdiff) */
      {"spec unchanged but for an empty list", ADMIT_UPDATE, NULL, RC_EXACTLY(""), RC_EXACTLY(", selectors: []"), ""},
      {"metadata rules on update", ADMIT_UPDATE, NULL, RC_EXACTLY(""),
       "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c, namespace: other, uid: x, "
       "annotations: {'-a': b}}\nspec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com}}]}}\n",
       "metadata.annotations: Invalid value: \"-a\": name part must consist of alphanumeric characters, '-', '_' or "
       "'.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', "
       "regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')\n"
       "metadata.namespace: Invalid value: \"other\": field is immutable\n"
       "metadata.uid: Invalid value: \"x\": field is immutable"},
  };
  run_admit_cases(cases, sizeof cases / sizeof cases[0]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_reserved_for),
      cmocka_unit_test(test_allocation),
      cmocka_unit_test(test_device_status),
      cmocka_unit_test(test_status_admin_and_meta),
      cmocka_unit_test(test_update),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
