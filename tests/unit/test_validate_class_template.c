/* test_validate_class_template.c: DeviceClass and
 * ResourceClaimTemplate validation on create and update, each rule on
 * both sides with kube-apiserver's messages. */
#include "test_admit.h"

#define CLASS(spec) DC_HEAD "spec: " spec "\n"
#define BAD_EXPR_SELECTORS "[{cel: {expression: '%s'}}]"

static char *long_expression(void) {
  char *s = xmalloc(10242);
  memset(s, 'a', 10241);
  s[10241] = 0;
  return s;
}

static void test_class(void **state) {
  (void)state;
  char *expr = long_expression();
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, CLASS("{selectors: " BAD_EXPR_SELECTORS "}"), expr);
  char *long_yaml = sb_detach(&sb);
  sb_printf(&sb, CLASS("{selectors: " BAD_EXPR_SELECTORS ", config: [{opaque: {driver: x.io, parameters: {a: '%s'}}}]}"),
            expr, expr);
  char *stored_yaml = sb_detach(&sb);
  sb_printf(&sb, CLASS("{selectors: [{cel: {expression: 'true'}}, {cel: {expression: '%s'}}]}"), expr);
  char *changed_yaml = sb_detach(&sb);
  char *many = repeat_fmt("{cel: {expression: 'true'}}", 33);
  sb_printf(&sb, CLASS("{selectors: [%s]}"), many);
  char *many_yaml = sb_detach(&sb);
  char *many_config = repeat_fmt("{opaque: {driver: x.io, parameters: {i: %d}}}", 33);
  sb_printf(&sb, CLASS("{config: [%s]}"), many_config);
  char *many_config_yaml = sb_detach(&sb);
  const admit_case cases[] = {
      {"class", ADMIT_CREATE, NULL, NULL,
       CLASS("{selectors: [{cel: {expression: 'device.driver == \"x.io\"'}}], config: [{opaque: {driver: x.io, "
             "parameters: {a: 1}}}], extendedResourceName: example.com/gpu}"),
       ""},
      {"empty class", ADMIT_CREATE, NULL, NULL, DC_HEAD, ""},
      {"namespace not allowed", ADMIT_CREATE, NULL, NULL,
       "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: Gpu, namespace: default}\n",
       "metadata.name: Invalid value: \"Gpu\": " SUBDOMAIN_RE "\nmetadata.namespace: Forbidden: not allowed on this type"},
      {"selector without cel", ADMIT_CREATE, NULL, NULL, CLASS("{selectors: [{}]}"), "spec.selectors[0].cel: Required value"},
      {"expression too long", ADMIT_CREATE, NULL, NULL, long_yaml,
       "spec.selectors[0].cel.expression: Too long: may not be more than 10240 bytes"},
      {"too many selectors", ADMIT_CREATE, NULL, NULL, many_yaml, "spec.selectors: Too many: 33: must have at most 32 items"},
      {"config entries", ADMIT_CREATE, NULL, NULL, CLASS("{config: [{}, {opaque: {driver: x_io, parameters: 1}}]}"),
       "spec.config[0].opaque: Required value\nspec.config[1].opaque.driver: Invalid value: \"x_io\": " SUBDOMAIN_RE
       "\nspec.config[1].opaque.parameters: Invalid value: \"<value omitted>\": must be a valid JSON object"},
      {"too many config entries", ADMIT_CREATE, NULL, NULL, many_config_yaml,
       "spec.config: Too many: 33: must have at most 32 items"},
      {"extended resource name", ADMIT_CREATE, NULL, NULL, CLASS("{extendedResourceName: gpu}"),
       "spec.extendedResourceName: Invalid value: \"gpu\": must be a valid extended resource name"},
      {"update: unchanged selectors and config are stored", ADMIT_UPDATE, NULL, stored_yaml, stored_yaml, ""},
      {"update: any change re-validates", ADMIT_UPDATE, NULL, long_yaml, changed_yaml,
       "spec.selectors[1].cel.expression: Too long: may not be more than 10240 bytes"},
      {"update: name immutable", ADMIT_UPDATE, NULL, DC_HEAD,
       "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: other.example.com}\n",
       "metadata.name: Invalid value: \"other.example.com\": field is immutable"},
  };
  run_admit_cases(cases, sizeof cases / sizeof cases[0]);
  free(expr);
  free(long_yaml);
  free(stored_yaml);
  free(changed_yaml);
  free(many);
  free(many_yaml);
  free(many_config);
  free(many_config_yaml);
}

#define TEMPLATE(spec) RCT_HEAD "spec: " spec "\n"
#define TEMPLATE_IN(ns, spec) \
  "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: t, namespace: " ns "}\nspec: " spec "\n"
#define ADMIN_SPEC "{spec: {devices: {requests: [{name: a, exactly: {deviceClassName: x, adminAccess: true, count: -1}}]}}}"

static void test_template(void **state) {
  (void)state;
  const admit_case cases[] = {
      {"template", ADMIT_CREATE, NULL, NULL,
       TEMPLATE("{metadata: {labels: {app: x}, annotations: {note: hello}}, spec: {devices: {requests: [{name: a, "
                "exactly: {deviceClassName: x}}]}}}"),
       ""},
      {"claim rules at spec.spec", ADMIT_CREATE, NULL, NULL,
       TEMPLATE("{spec: {devices: {requests: [{name: a, exactly: {deviceClassName: x, count: -1}}]}}}"),
       "spec.spec.devices.requests[0].exactly.count: Invalid value: -1: must be greater than zero"},
      {"template metadata: only labels and annotations", ADMIT_CREATE, NULL, NULL,
       TEMPLATE("{metadata: {name: nm, namespace: ns, uid: uu, generation: 2, finalizers: [a/b], labels: {'-l': val}, "
                "annotations: {'a/b/c': val}}}"),
       "spec.metadata.annotations: Invalid value: \"a/b/c\": a valid label key must consist of alphanumeric "
       "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or "
       "'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an "
       "optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')\n"
       "spec.metadata.labels: Invalid value: \"-l\": name part must consist of alphanumeric characters, '-', '_' or "
       "'.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', "
       "regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')\n"
       "spec.metadata.name: Forbidden: cannot be set\nspec.metadata.namespace: Forbidden: cannot be set\n"
       "spec.metadata.uID: Forbidden: cannot be set\nspec.metadata.generation: Forbidden: cannot be set\n"
       "spec.metadata.finalizers: Forbidden: cannot be set"},
      {"admin access allowed in a labelled namespace", ADMIT_CREATE, NULL, NULL, TEMPLATE_IN("admin", ADMIN_SPEC),
       "spec.spec.devices.requests[0].exactly.count: Invalid value: -1: must be greater than zero"},
      {"admin access: same path as claims, checked first", ADMIT_CREATE, NULL, NULL, TEMPLATE_IN("default", ADMIN_SPEC),
       "spec.devices.requests[0].adminAccess: Forbidden: admin access to devices requires the "
       "`resource.kubernetes.io/admin-access: true` label on the containing namespace\n"
       "spec.spec.devices.requests[0].exactly.count: Invalid value: -1: must be greater than zero"},
      {"namespace required", ADMIT_CREATE, NULL, NULL,
       "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: t}\n",
       "metadata.namespace: Required value"},
      {"update: unchanged spec", ADMIT_UPDATE, NULL, TEMPLATE("{spec: {devices: {requests: [{name: a, exactly: {deviceClassName: x}}]}}}"),
       TEMPLATE("{spec: {devices: {requests: [{name: a, exactly: {deviceClassName: x}}]}}}"), ""},
      {"update: spec immutable", ADMIT_UPDATE, NULL, TEMPLATE("{spec: {devices: {}}}"),
       TEMPLATE("{metadata: {labels: {a: b}}, spec: {devices: {}}}"),
       "spec: Invalid value: {\"metadata\":{\"labels\":{\"a\":\"b\"}},\"spec\":{\"devices\":{}}}: field is immutable"},
  };
  run_admit_cases(cases, sizeof cases / sizeof cases[0]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_class),
      cmocka_unit_test(test_template),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
