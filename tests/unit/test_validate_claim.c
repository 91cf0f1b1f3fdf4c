/* test_validate_claim.c: ResourceClaim create validation (spec, CEL, opaque
 * config, adminAccess) through the admission pipeline: each rule on its valid
 * and invalid side with the exact kube-apiserver messages, plus the
 * whole-object message. */
#include "test_admit.h"

#define NOT_REFERENCED \
  "must be referenced by at least one matchAttribute or distinctAttribute constraint targeting this request"
#define REQ0 "spec.devices.requests[0]"
#define EX0 REQ0 ".exactly"

/* A claim in namespace ns with one admin-access request and a bad count. */
#define ADMIN_CLAIM(ns)                                                                                         \
  "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c, namespace: " ns "}\n"           \
  "spec: {devices: {requests: [{name: a, exactly: {deviceClassName: x}}, "                                    \
  "{name: b, exactly: {deviceClassName: x, adminAccess: true, count: -1}}]}}\n"

static void test_requests(void **state) {
  (void)state;
  char *many = repeat_fmt("{name: r%d, exactly: {deviceClassName: x}}", 33);
  char *too_many_yaml = NULL;
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, RC_HEAD "spec: {devices: {requests: [%s], constraints: [{matchAttribute: x.io/a, requests: [nope]}]}}\n",
            many);
  too_many_yaml = sb_detach(&sb);
  const admit_case cases[] = {
      {"minimal", ADMIT_CREATE, NULL, NULL, RC_EXACTLY(""), ""},
      {"no requests", ADMIT_CREATE, NULL, NULL, RC_HEAD "spec: {devices: {}}\n", ""},
      {"count 0 defaults to 1", ADMIT_CREATE, NULL, NULL, RC_EXACTLY(", count: 0"), ""},
      {"count negative", ADMIT_CREATE, NULL, NULL, RC_EXACTLY(", count: -1"),
       EX0 ".count: Invalid value: -1: must be greater than zero"},
      {"All without count", ADMIT_CREATE, NULL, NULL, RC_EXACTLY(", allocationMode: All"), ""},
      {"All with count", ADMIT_CREATE, NULL, NULL, RC_EXACTLY(", allocationMode: All, count: 2"),
       EX0 ".count: Invalid value: 2: must not be specified when allocationMode is 'All'"},
      {"unknown mode", ADMIT_CREATE, NULL, NULL, RC_EXACTLY(", allocationMode: Some"),
       EX0 ".allocationMode: Unsupported value: \"Some\": supported values: \"All\", \"ExactCount\""},
      {"request name", ADMIT_CREATE, NULL, NULL,
       RC_HEAD "spec: {devices: {requests: [{name: GPU, exactly: {deviceClassName: x}}]}}\n",
       REQ0 ".name: Invalid value: \"GPU\": " LABEL_RE},
      {"request name missing", ADMIT_CREATE, NULL, NULL,
       RC_HEAD "spec: {devices: {requests: [{exactly: {deviceClassName: x}}]}}\n",
       REQ0 ".name: Invalid value: \"\": " LABEL_RE},
      {"neither exactly nor firstAvailable", ADMIT_CREATE, NULL, NULL,
       RC_HEAD "spec: {devices: {requests: [{name: gpu}]}}\n",
       REQ0 ": Required value: exactly one of `exactly` or `firstAvailable` is required"},
      {"empty firstAvailable counts as unset", ADMIT_CREATE, NULL, NULL,
       RC_HEAD "spec: {devices: {requests: [{name: gpu, firstAvailable: []}]}}\n",
       REQ0 ": Required value: exactly one of `exactly` or `firstAvailable` is required"},
      {"both exactly and firstAvailable", ADMIT_CREATE, NULL, NULL,
       RC_HEAD "spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: x}, "
               "firstAvailable: [{name: a, deviceClassName: x}]}]}}\n",
       REQ0 ": Invalid value: null: exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set"},
      {"duplicate request names", ADMIT_CREATE, NULL, NULL,
       RC_HEAD "spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: x}}, "
               "{name: nic, exactly: {deviceClassName: x}}, {name: gpu, exactly: {deviceClassName: x}}]}}\n",
       "spec.devices.requests[2]: Duplicate value: \"gpu\""},
      {"too many requests stop request checks", ADMIT_CREATE, NULL, NULL, too_many_yaml,
       "spec.devices.requests: Too many: 33: must have at most 32 items\n"
       "spec.devices.constraints[0].requests[0]: Invalid value: \"nope\": " REF_MSG},
      {"deviceClassName missing", ADMIT_CREATE, NULL, NULL,
       RC_HEAD "spec: {devices: {requests: [{name: gpu, exactly: {count: 1}}]}}\n",
       EX0 ".deviceClassName: Required value"},
      {"deviceClassName format", ADMIT_CREATE, NULL, NULL,
       RC_HEAD "spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: Bad_Class}}]}}\n",
       EX0 ".deviceClassName: Invalid value: \"Bad_Class\": " SUBDOMAIN_RE},
      {"every error of the object", ADMIT_CREATE, NULL, NULL,
       RC_HEAD "spec: {devices: {requests: [{name: GPU, exactly: {deviceClassName: x, count: -1}}, "
               "{name: b, exactly: {deviceClassName: x, allocationMode: All, count: 3}}]}}\n",
       REQ0 ".name: Invalid value: \"GPU\": " LABEL_RE "\n" EX0 ".count: Invalid value: -1: must be greater than zero\n"
            "spec.devices.requests[1].exactly.count: Invalid value: 3: must not be specified when allocationMode is 'All'"},
  };
  run_admit_cases(cases, sizeof cases / sizeof cases[0]);
  free(many);
  free(too_many_yaml);
}

static void test_selectors(void **state) {
  (void)state;
  char *long_expr = xmalloc(10242);
  memset(long_expr, 'a', 10241);
  long_expr[10241] = 0;
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, RC_EXACTLY(", selectors: [{cel: {expression: '%s'}}]"), long_expr);
  char *long_yaml = sb_detach(&sb);
  /* a valid expression of exactly 10240 bytes: "aaa...a" != device.driver */
  sb_printf(&sb, RC_EXACTLY(", selectors: [{cel: {expression: '\"%.10221s\" != device.driver'}}]"), long_expr);
  char *max_yaml = sb_detach(&sb);
  char *many = repeat_fmt("{cel: {expression: 'true'}}", 33);
  sb_printf(&sb, RC_EXACTLY(", selectors: [%s]"), many);
  char *many_yaml = sb_detach(&sb);
  const admit_case cases[] = {
      {"selector", ADMIT_CREATE, NULL, NULL, RC_EXACTLY(", selectors: [{cel: {expression: 'device.driver == \"x\"'}}]"), ""},
      {"selector without cel", ADMIT_CREATE, NULL, NULL, RC_EXACTLY(", selectors: [{}]"),
       EX0 ".selectors[0].cel: Required value"},
      {"expression at the limit", ADMIT_CREATE, NULL, NULL, max_yaml, ""},
      {"expression too long", ADMIT_CREATE, NULL, NULL, long_yaml,
       EX0 ".selectors[0].cel.expression: Too long: may not be more than 10240 bytes"},
      {"too many selectors", ADMIT_CREATE, NULL, NULL, many_yaml,
       EX0 ".selectors: Too many: 33: must have at most 32 items"},
  };
  run_admit_cases(cases, sizeof cases / sizeof cases[0]);
  free(long_expr);
  free(long_yaml);
  free(max_yaml);
  free(many);
  free(many_yaml);
}

#define RC_FIRST_AVAILABLE(subs) RC_HEAD "spec: {devices: {requests: [{name: gpu, firstAvailable: [" subs "]}]}}\n"
#define FA "spec.devices.requests[0].firstAvailable"

static void test_first_available(void **state) {
  (void)state;
  char *nine = repeat_fmt("{name: s%d, deviceClassName: x}", 9);
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, RC_FIRST_AVAILABLE("%s"), nine);
  char *nine_yaml = sb_detach(&sb);
  const admit_case cases[] = {
      {"subrequests", ADMIT_CREATE, NULL, NULL,
       RC_FIRST_AVAILABLE("{name: big, deviceClassName: x}, {name: small, deviceClassName: x, count: 2}"), ""},
      {"subrequest rules", ADMIT_CREATE, NULL, NULL,
       RC_FIRST_AVAILABLE("{name: Big, count: -2}, {name: all, deviceClassName: x, allocationMode: All, count: 1}"),
       FA "[0].name: Invalid value: \"Big\": " LABEL_RE "\n" FA "[0].deviceClassName: Required value\n" FA
          "[0].count: Invalid value: -2: must be greater than zero\n" FA
          "[1].count: Invalid value: 1: must not be specified when allocationMode is 'All'"},
      {"duplicate subrequests", ADMIT_CREATE, NULL, NULL,
       RC_FIRST_AVAILABLE("{name: a, deviceClassName: x}, {name: a, deviceClassName: x}"),
       FA "[1]: Duplicate value: \"a\""},
      {"too many subrequests", ADMIT_CREATE, NULL, NULL, nine_yaml, FA ": Too many: 9: must have at most 8 items"},
  };
  run_admit_cases(cases, sizeof cases / sizeof cases[0]);
  free(nine);
  free(nine_yaml);
}

static void test_tolerations(void **state) {
  (void)state;
  const admit_case cases[] = {
      {"tolerations", ADMIT_CREATE, NULL, NULL,
       RC_EXACTLY(", tolerations: [{key: example.com/a, value: b, effect: NoSchedule}, {operator: Exists}, "
                  "{key: k, operator: Exists, effect: None}]"),
       ""},
      {"Exists with value", ADMIT_CREATE, NULL, NULL, RC_EXACTLY(", tolerations: [{key: k, operator: Exists, value: v}]"),
       EX0 ".tolerations[0].value: Invalid value: \"v\": must be empty for operator `Exists`"},
      {"Equal with bad value", ADMIT_CREATE, NULL, NULL, RC_EXACTLY(", tolerations: [{key: k, value: 'a b'}]"),
       EX0 ".tolerations[0].value: Invalid value: \"a b\": a valid label must be an empty string or consist of "
           "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. "
           "'MyValue',  or 'my_value',  or '12345', regex used for validation is "
           "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"},
      {"bad operator and effect", ADMIT_CREATE, NULL, NULL,
       RC_EXACTLY(", tolerations: [{key: k, operator: Gt, effect: Evict}]"),
       EX0 ".tolerations[0].operator: Unsupported value: \"Gt\": supported values: \"Equal\", \"Exists\"\n" EX0
           ".tolerations[0].effect: Unsupported value: \"Evict\": supported values: \"NoExecute\", \"NoSchedule\", "
           "\"None\""},
      {"bad key", ADMIT_CREATE, NULL, NULL, RC_EXACTLY(", tolerations: [{key: -k}]"),
       EX0 ".tolerations[0].key: Invalid value: \"-k\": name part must consist of alphanumeric characters, '-', "
           "'_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "
           "'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"},
  };
  run_admit_cases(cases, sizeof cases / sizeof cases[0]);
}

#define RC_TWO_REQUESTS(rest)                                                                                    \
  RC_HEAD "spec: {devices: {requests: [{name: a, exactly: {deviceClassName: x}}, "                            \
          "{name: b, firstAvailable: [{name: s, deviceClassName: x}]}]" rest "}}\n"
#define C0 "spec.devices.constraints[0]"

static void test_constraints(void **state) {
  (void)state;
  char *many = repeat_fmt("{matchAttribute: x.io/a%d}", 33);
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, RC_TWO_REQUESTS(", constraints: [%s]"), many);
  char *many_yaml = sb_detach(&sb);
  const admit_case cases[] = {
      {"constraints", ADMIT_CREATE, NULL, NULL,
       RC_TWO_REQUESTS(", constraints: [{matchAttribute: x.io/numa}, {requests: [a, b/s, b], distinctAttribute: x.io/id}]"),
       ""},
      {"unknown references", ADMIT_CREATE, NULL, NULL,
       RC_TWO_REQUESTS(", constraints: [{requests: [c, a/s, b/t, a/b/c], matchAttribute: x.io/numa}]"),
       C0 ".requests[0]: Invalid value: \"c\": " REF_MSG "\n" C0 ".requests[1]: Invalid value: \"a/s\": " REF_MSG
          "\n" C0 ".requests[2]: Invalid value: \"b/t\": " REF_MSG "\n" C0
          ".requests[3]: Invalid value: \"a/b/c\": " REF_MSG},
      {"bad reference segments", ADMIT_CREATE, NULL, NULL,
       RC_TWO_REQUESTS(", constraints: [{requests: [B/s], matchAttribute: x.io/numa}]"),
       C0 ".requests[0]: Invalid value: \"B\": " LABEL_RE "\n" C0 ".requests[0]: Invalid value: \"B/s\": " REF_MSG},
      {"duplicate references", ADMIT_CREATE, NULL, NULL,
       RC_TWO_REQUESTS(", constraints: [{requests: [a, a], matchAttribute: x.io/numa}]"),
       C0 ".requests[1]: Duplicate value: \"a\""},
      {"matchAttribute not fully qualified", ADMIT_CREATE, NULL, NULL,
       RC_TWO_REQUESTS(", constraints: [{matchAttribute: numa}]"),
       C0 ".matchAttribute: Invalid value: \"numa\": " FQN_MSG},
      {"distinctAttribute not fully qualified", ADMIT_CREATE, NULL, NULL,
       RC_TWO_REQUESTS(", constraints: [{distinctAttribute: x.io/}]"),
       C0 ".distinctAttribute: Invalid value: \"\": the name must not be empty"},
      {"both set: matchAttribute wins", ADMIT_CREATE, NULL, NULL,
       RC_TWO_REQUESTS(", constraints: [{matchAttribute: x.io/a, distinctAttribute: bad}]"), ""},
      {"neither set", ADMIT_CREATE, NULL, NULL, RC_TWO_REQUESTS(", constraints: [{requests: [a]}]"),
       C0 ": Required value: exactly one of \"matchAttribute\" or \"distinctAttribute\" is required, but multiple "
          "fields are set"},
      {"neither set, consumable capacity off", ADMIT_CREATE, "DRAConsumableCapacity=false", NULL,
       RC_TWO_REQUESTS(", constraints: [{requests: [a]}]"), C0 ".matchAttribute: Required value"},
      {"too many constraints", ADMIT_CREATE, NULL, NULL, many_yaml,
       "spec.devices.constraints: Too many: 33: must have at most 32 items"},
  };
  run_admit_cases(cases, sizeof cases / sizeof cases[0]);
  free(many);
  free(many_yaml);
}

#define CF0 "spec.devices.config[0]"

static void test_config(void **state) {
  (void)state;
  char *big = xmalloc(10300);
  memset(big, 'v', 10290);
  big[10290] = 0;
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, RC_TWO_REQUESTS(", config: [{opaque: {driver: x.io, parameters: {k: '%s'}}}]"), big);
  char *big_yaml = sb_detach(&sb);
  const admit_case cases[] = {
      {"config", ADMIT_CREATE, NULL, NULL,
       RC_TWO_REQUESTS(", config: [{requests: [b/s], opaque: {driver: X.io, parameters: {a: 1}}}]"), ""},
      {"opaque missing", ADMIT_CREATE, NULL, NULL, RC_TWO_REQUESTS(", config: [{requests: [a]}]"),
       CF0 ".opaque: Required value"},
      {"driver and parameters missing", ADMIT_CREATE, NULL, NULL, RC_TWO_REQUESTS(", config: [{opaque: {}}]"),
       CF0 ".opaque.driver: Required value\n" CF0 ".opaque.driver: Invalid value: \"\": " SUBDOMAIN_RE "\n" CF0
           ".opaque.parameters: Required value"},
      {"parameters null", ADMIT_CREATE, NULL, NULL, RC_TWO_REQUESTS(", config: [{opaque: {driver: x.io, parameters: null}}]"),
       CF0 ".opaque.parameters: Required value"},
      {"parameters not an object", ADMIT_CREATE, NULL, NULL,
       RC_TWO_REQUESTS(", config: [{opaque: {driver: x.io, parameters: [1]}}]"),
       CF0 ".opaque.parameters: Invalid value: \"<value omitted>\": must be a valid JSON object"},
      {"parameters too long", ADMIT_CREATE, NULL, NULL, big_yaml,
       CF0 ".opaque.parameters: Too long: may not be more than 10240 bytes"},
      {"bad request reference", ADMIT_CREATE, NULL, NULL,
       RC_TWO_REQUESTS(", config: [{requests: [z], opaque: {driver: x.io, parameters: {}}}]"),
       CF0 ".requests[0]: Invalid value: \"z\": " REF_MSG},
  };
  run_admit_cases(cases, sizeof cases / sizeof cases[0]);
  free(big);
  free(big_yaml);
}

#define RC_DERIVED(derived, constraints)                                                                         \
  RC_HEAD "spec: {devices: {requests: [{name: a, exactly: {deviceClassName: x, derivedAttributes: [" derived    \
          "]}}, {name: b, firstAvailable: [{name: s, deviceClassName: x, derivedAttributes: [{name: d.io/n, "   \
          "expression: '1'}]}]}], constraints: [" constraints "]}}\n"
#define DA0 EX0 ".derivedAttributes[0]"

static void test_derived_attributes(void **state) {
  (void)state;
  char *many = repeat_fmt("{name: d.io/n%d, expression: '1'}", 33);
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, RC_DERIVED("%s", "{matchAttribute: d.io/n}"), many);
  char *many_yaml = sb_detach(&sb);
  const admit_case cases[] = {
      {"referenced by a constraint for all requests", ADMIT_CREATE, NULL, NULL,
       RC_DERIVED("{name: d.io/n, expression: 'device.attributes[\"x\"].n'}", "{matchAttribute: d.io/n}"), ""},
      {"referenced by request and subrequest names", ADMIT_CREATE, NULL, NULL,
       RC_DERIVED("{name: d.io/n, expression: '1'}", "{requests: [a], matchAttribute: d.io/n}, "
                                                     "{requests: [b/s], distinctAttribute: d.io/n}"),
       ""},
      {"subrequest referenced through its parent", ADMIT_CREATE, NULL, NULL,
       RC_DERIVED("{name: d.io/n, expression: '1'}", "{requests: [a, b], matchAttribute: d.io/n}"), ""},
      {"not referenced", ADMIT_CREATE, NULL, NULL,
       RC_DERIVED("{name: d.io/m, expression: '1'}", "{requests: [b], matchAttribute: d.io/m}"),
       DA0 ".name: Invalid value: \"d.io/m\": " NOT_REFERENCED "\n"
           "spec.devices.requests[1].firstAvailable[0].derivedAttributes[0].name: Invalid value: \"d.io/n\": " NOT_REFERENCED},
      {"name and expression required", ADMIT_CREATE, NULL, NULL, RC_DERIVED("{}", "{matchAttribute: d.io/n}"),
       DA0 ".name: Required value\n" DA0 ".expression: Required value"},
      {"name not fully qualified", ADMIT_CREATE, NULL, NULL, RC_DERIVED("{name: numa, expression: '1'}", "{matchAttribute: numa}, {matchAttribute: d.io/n}"),
       DA0 ".name: Invalid value: \"numa\": " FQN_MSG "\n" C0 ".matchAttribute: Invalid value: \"numa\": " FQN_MSG},
      {"duplicate names", ADMIT_CREATE, NULL, NULL,
       RC_DERIVED("{name: d.io/n, expression: '1'}, {name: d.io/n, expression: '2'}", "{matchAttribute: d.io/n}"),
       EX0 ".derivedAttributes[1]: Duplicate value: \"d.io/n\""},
      {"too many", ADMIT_CREATE, NULL, NULL, many_yaml, EX0 ".derivedAttributes: Too many: 33: must have at most 32 items"},
  };
  run_admit_cases(cases, sizeof cases / sizeof cases[0]);
  free(many);
  free(many_yaml);
}

static void test_admin_access(void **state) {
  (void)state;
  const admit_case cases[] = {
      {"labelled namespace", ADMIT_CREATE, NULL, NULL, ADMIN_CLAIM("admin"),
       "spec.devices.requests[1].exactly.count: Invalid value: -1: must be greater than zero"},
      {"unlabelled namespace: checked first", ADMIT_CREATE, NULL, NULL, ADMIN_CLAIM("default"),
       "spec.devices.requests[1].adminAccess: " ADMIN_DENIED
       "\nspec.devices.requests[1].exactly.count: Invalid value: -1: must be greater than zero"},
      {"label value is case-sensitive", ADMIT_CREATE, NULL, NULL, ADMIN_CLAIM("mislabelled"),
       "spec.devices.requests[1].adminAccess: " ADMIN_DENIED
       "\nspec.devices.requests[1].exactly.count: Invalid value: -1: must be greater than zero"},
      {"unknown namespace counts as unlabelled", ADMIT_CREATE, NULL, NULL, ADMIN_CLAIM("elsewhere"),
       "spec.devices.requests[1].adminAccess: " ADMIN_DENIED
       "\nspec.devices.requests[1].exactly.count: Invalid value: -1: must be greater than zero"},
      {"adminAccess false needs no label", ADMIT_CREATE, NULL, NULL, RC_EXACTLY(", adminAccess: false"), ""},
  };
  run_admit_cases(cases, sizeof cases / sizeof cases[0]);
}

static void test_metadata(void **state) {
  (void)state;
  const admit_case cases[] = {
      {"generateName only", ADMIT_CREATE, NULL, NULL,
       "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {generateName: c-, namespace: default}\n", ""},
      {"name and namespace missing", ADMIT_CREATE, NULL, NULL,
       "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {labels: {'a b': x}}\n",
       "metadata.name: Required value: name or generateName is required\nmetadata.namespace: Required value\n"
       "metadata.labels: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or "
       "'.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', "
       "regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"},
      {"bad name and namespace", ADMIT_CREATE, NULL, NULL,
       "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: C, namespace: a.b}\n",
       "metadata.name: Invalid value: \"C\": " SUBDOMAIN_RE "\nmetadata.namespace: Invalid value: \"a.b\": must not contain dots"},
      {"finalizers", ADMIT_CREATE, NULL, NULL,
       "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c, namespace: default, "
       "finalizers: [resource.kubernetes.io/delete-protection, kubernetes, mine]}\n",
       "metadata.finalizers[2]: Invalid value: \"mine\": name is neither a standard finalizer name nor is it fully qualified"},
      {"finalizer names are label keys, reported at the list", ADMIT_CREATE, NULL, NULL,
       "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c, namespace: default, "
       "finalizers: [a/b/c, ok/x]}\n",
       "metadata.finalizers: Invalid value: \"a/b/c\": a valid label key " KEY_CHARS
       " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"},
      {"owner references", ADMIT_CREATE, NULL, NULL,
       "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c, namespace: default, ownerReferences: ["
       "{apiVersion: apps/, kind: '', name: '', uid: ''}, {apiVersion: v1, kind: Pod, name: p, uid: u1, controller: true}, "
       "{apiVersion: v1, kind: Pod, name: q, uid: u2, controller: true}]}\n",
       "metadata.ownerReferences.apiVersion: Invalid value: \"apps/\": version must not be empty\n"
       "metadata.ownerReferences.kind: Invalid value: \"\": must not be empty\n"
       "metadata.ownerReferences.name: Invalid value: \"\": must not be empty\n"
       "metadata.ownerReferences.uid: Invalid value: \"\": must not be empty\n"
       "metadata.ownerReferences: Invalid value: [{\"apiVersion\":\"apps/\",\"kind\":\"\",\"name\":\"\",\"uid\":\"\"},"
       "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"name\":\"p\",\"uid\":\"u1\",\"controller\":true},"
       "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"name\":\"q\",\"uid\":\"u2\",\"controller\":true}]: Only one "
       "reference can have Controller set to true. Found \"true\" in references for Pod/p and Pod/q"},
  };
  run_admit_cases(cases, sizeof cases / sizeof cases[0]);
}

static void test_defaults(void **state) {
  (void)state;
  const admit_case c = {"defaults", ADMIT_CREATE, NULL, NULL,
                        RC_HEAD "spec: {devices: {requests: [{name: a, exactly: {deviceClassName: x, count: 0, "
                                "tolerations: [{key: k}]}}, {name: b, exactly: {deviceClassName: x, allocationMode: All}}, "
                                "{name: c, firstAvailable: [{name: s, deviceClassName: x, tolerations: [{operator: Exists}]}]}]}}\n",
                        ""};
  api_object *o = run_admit_case(&c);
  const resource_claim *rc = o->typed;
  const device_request *r = rc->spec.devices.requests.items;
  assert_string_equal(r[0].exactly->allocation_mode, "ExactCount");
  assert_int_equal(r[0].exactly->count, 1);
  assert_string_equal(r[0].exactly->tolerations.items[0].operator_, "Equal");
  assert_string_equal(r[1].exactly->allocation_mode, "All");
  assert_int_equal(r[1].exactly->count, 0);
  assert_false(r[1].exactly->count_set);
  assert_string_equal(r[2].first_available.items[0].allocation_mode, "ExactCount");
  assert_int_equal(r[2].first_available.items[0].count, 1);
  assert_string_equal(r[2].first_available.items[0].tolerations.items[0].operator_, "Exists");
  api_object_free(o);
}

static void test_invalid_message(void **state) {
  (void)state;
  const char *cases[][2] = {
      {RC_EXACTLY(", count: -1"),
       "ResourceClaim.resource.k8s.io \"c\" is invalid: spec.devices.requests[0].exactly.count: Invalid value: -1: "
       "must be greater than zero"},
      {RC_HEAD "spec: {devices: {requests: [{name: GPU, exactly: {deviceClassName: x, count: -1}}]}}\n",
       "ResourceClaim.resource.k8s.io \"c\" is invalid: [spec.devices.requests[0].name: Invalid value: \"GPU\": " LABEL_RE
       ", spec.devices.requests[0].exactly.count: Invalid value: -1: must be greater than zero]"},
      {"apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\n", "Pod \"p\" is invalid: x: Required value"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    admit_env env;
    admission_ctx ctx;
    admit_env_init(&env, &ctx, NULL);
    api_object *o = load_object(cases[i][0]);
    errlist errs = {0};
    if (o->info->kind == KIND_POD) errlist_add(&errs, FE_REQUIRED, "x", "Required value");
    else admit_object(&ctx, ADMIT_CREATE, o, NULL, &errs);
    char *msg = admission_invalid_message(o, &errs);
    assert_string_equal(msg, cases[i][1]);
    free(msg);
    errlist_free(&errs);
    api_object_free(o);
    admit_env_free(&env);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_requests),         cmocka_unit_test(test_selectors),
      cmocka_unit_test(test_first_available),  cmocka_unit_test(test_tolerations),
      cmocka_unit_test(test_constraints),      cmocka_unit_test(test_config),
      cmocka_unit_test(test_derived_attributes), cmocka_unit_test(test_admin_access),
      cmocka_unit_test(test_metadata),         cmocka_unit_test(test_defaults),
      cmocka_unit_test(test_invalid_message),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
