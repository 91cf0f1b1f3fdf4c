/* test_validate_taint_rule.c: DeviceTaintRule admission: the device
 * selector's names, the taint (effect checked only when it changes), the
 * status update's conditions, and the strategy's timeAdded and status
 * handling. */
#include "validate_cases.h"

static const char base[] = "{'apiVersion':'resource.k8s.io/v1','kind':'DeviceTaintRule',"
                           "'metadata':{'name':'maintenance'},"
                           "'spec':{'deviceSelector':{'driver':'gpu.example.com','pool':'node-1','device':'gpu-0'},"
                           "'taint':{'key':'example.com/maintenance','value':'planned','effect':'NoExecute'}}}";

#define CONDITION(type) "{'type':'" type "','status':'True','lastTransitionTime':'2026-11-30T01:00:00Z','reason':'R'}"

static const validate_case cases[] = {
    {.name = "valid rule"},
    {.name = "valid rule without selector", .patch = "{'spec':{'deviceSelector':null}}"},
    {.name = "valid empty selector", .patch = "{'spec':{'deviceSelector':{'driver':null,'pool':null,'device':null}}}"},
    {.name = "effect None", .patch = "{'spec':{'taint':{'effect':'None'}}}"},
    {.name = "effect NoSchedule without value", .patch = "{'spec':{'taint':{'effect':'NoSchedule','value':null}}}"},
    {.name = "selector names",
     .patch = "{'spec':{'deviceSelector':{'driver':'gpu_example','pool':'a//b','device':'GPU.0'}}}",
     .errors = {"spec.deviceSelector.driver: Invalid value: \"gpu_example\": " MSG_SUBDOMAIN,
                "spec.deviceSelector.pool: Invalid value: \"\": " MSG_SUBDOMAIN,
                "spec.deviceSelector.device: Invalid value: \"GPU.0\": " MSG_LABEL}},
    {.name = "empty selector names",
     .patch = "{'spec':{'deviceSelector':{'driver':'','pool':'','device':''}}}",
     .errors = {"spec.deviceSelector.driver: Required value",
                "spec.deviceSelector.driver: Invalid value: \"\": " MSG_SUBDOMAIN, "spec.deviceSelector.pool: Required value",
                "spec.deviceSelector.device: Invalid value: \"\": " MSG_LABEL}},
    {.name = "taint key, value and effect",
     .patch = "{'spec':{'taint':{'key':'-bad','value':'no way','effect':'PreferNoSchedule'}}}",
     .errors = {"spec.taint.key: Invalid value: \"-bad\": " MSG_LABEL_NAME_PART,
                "spec.taint.value: Invalid value: \"no way\": " MSG_LABEL_VALUE,
                "spec.taint.effect: Unsupported value: \"PreferNoSchedule\": supported values: \"NoExecute\", "
                "\"NoSchedule\", \"None\""}},
    {.name = "taint key and effect required",
     .patch = "{'spec':{'taint':{'key':null,'value':null,'effect':null}}}",
     .errors = {"spec.taint.key: Invalid value: \"\": name part must be non-empty",
                "spec.taint.key: Invalid value: \"\": " MSG_LABEL_NAME_PART, "spec.taint.effect: Required value"}},
    {.name = "name is a DNS subdomain",
     .patch = "{'metadata':{'name':'Maintenance'}}",
     .errors = {"metadata.name: Invalid value: \"Maintenance\": " MSG_SUBDOMAIN}},
    {.name = "cluster scoped",
     .patch = "{'metadata':{'namespace':'default'}}",
     .errors = {"metadata.namespace: Forbidden: not allowed on this type"}},
    {.name = "update: stored unknown effect kept",
     .op = ADMIT_UPDATE,
     .old_patch = "{'spec':{'taint':{'effect':'Future'}}}",
     .patch = "{'spec':{'taint':{'effect':'Future','value':'changed'}}}"},
    {.name = "update: changed effect checked",
     .op = ADMIT_UPDATE,
     .old_patch = "{}",
     .patch = "{'spec':{'taint':{'effect':'Future'}}}",
     .errors = {"spec.taint.effect: Unsupported value: \"Future\": supported values: \"NoExecute\", \"NoSchedule\", "
                "\"None\""}},
    {.name = "update: selector may change", .op = ADMIT_UPDATE, .old_patch = "{}",
     .patch = "{'spec':{'deviceSelector':{'device':'gpu-1'}}}"},
    {.name = "update: name immutable",
     .op = ADMIT_UPDATE,
     .old_patch = "{}",
     .patch = "{'metadata':{'name':'other'}}",
     .errors = {"metadata.name: Invalid value: \"other\": field is immutable"}},
    {.name = "status: conditions",
     .op = ADMIT_STATUS_UPDATE,
     .old_patch = "{}",
     .patch = "{'status':{'conditions':[" CONDITION("EvictionInProgress") "," CONDITION("EvictionInProgress") "]}}",
     .errors = {"status.conditions[1].type: Duplicate value: \"EvictionInProgress\""}},
    {.name = "status: too many conditions",
     .op = ADMIT_STATUS_UPDATE,
     .old_patch = "{}",
     .patch = "{'status':{'conditions':[" CONDITION("a") "," CONDITION("b") "," CONDITION("c") "," CONDITION("d") ","
              CONDITION("e") "," CONDITION("f") "," CONDITION("g") "," CONDITION("h") "," CONDITION("i") "]}}",
     .errors = {"status.conditions: Too many: 9: must have at most 8 items"}},
    {.name = "status: condition fields",
     .op = ADMIT_STATUS_UPDATE,
     .old_patch = "{}",
     .patch = "{'status':{'conditions':[{'type':'EvictionInProgress','status':'Maybe','lastTransitionTime':"
              "'2026-11-30T01:00:00Z','reason':'R'}]}}",
     .errors = {"status.conditions[0].status: Unsupported value: \"Maybe\": supported values: \"False\", \"True\", "
                "\"Unknown\""}},
    {.name = "status: spec not validated (kept from the stored rule)",
     .op = ADMIT_STATUS_UPDATE,
     .old_patch = "{}",
     .patch = "{'spec':{'taint':{'effect':'Bad'}},'status':{'conditions':[" CONDITION("EvictionInProgress") "]}}"},
};

/* Admits obj (a merge patch onto base) as op over old; returns it. */
static api_object *admit(admit_op op, const char *patch, const api_object *old, const char *now) {
  admission_ctx ctx = {0};
  gates_default(&ctx.gates);
  ctx.now = now;
  api_object *o = decode_or_fail(base, patch);
  errlist errs = {0};
  if (!admit_object(&ctx, op, o, old, &errs)) fail_msg("admission failed: %s", errs.items[0].body);
  errlist_free(&errs);
  return o;
}

static const device_taint_rule *rule(const api_object *o) { return o->typed; }

static void test_strategy(void **state) {
  (void)state;
  api_object *created = admit(ADMIT_CREATE, "{'status':{'conditions':[" CONDITION("x") "]}}", NULL, "2026-11-30T01:00:00Z");
  assert_string_equal(rule(created)->spec.taint.time_added, "2026-11-30T01:00:00Z");
  assert_int_equal(rule(created)->status.conditions.n, 0); /* status is not set on create */
  api_object *stored = admit(ADMIT_STATUS_UPDATE, "{'status':{'conditions':[" CONDITION("x") "]}}", created,
                             "2026-11-30T01:00:05Z");
  assert_int_equal(rule(stored)->status.conditions.n, 1);
  assert_string_equal(rule(stored)->spec.taint.time_added, "2026-11-30T01:00:00Z");
  /* same effect: timeAdded stays; the status is kept */
  api_object *same = admit(ADMIT_UPDATE, "{'spec':{'taint':{'value':'v2','timeAdded':'2026-11-30T01:00:00Z'}}}",
                           stored, "2026-11-30T02:00:00Z");
  assert_string_equal(rule(same)->spec.taint.time_added, "2026-11-30T01:00:00Z");
  assert_int_equal(rule(same)->status.conditions.n, 1);
  /* a new effect with the old timeAdded restarts the clock */
  api_object *changed = admit(ADMIT_UPDATE, "{'spec':{'taint':{'effect':'None','timeAdded':'2026-11-30T01:00:00Z'}}}",
                              stored, "2026-11-30T03:00:00Z");
  assert_string_equal(rule(changed)->spec.taint.time_added, "2026-11-30T03:00:00Z");
  /* a new effect with a new timeAdded keeps the client's time */
  api_object *own = admit(ADMIT_UPDATE, "{'spec':{'taint':{'effect':'None','timeAdded':'2026-11-30T00:30:00Z'}}}",
                          stored, "2026-11-30T03:00:00Z");
  assert_string_equal(rule(own)->spec.taint.time_added, "2026-11-30T00:30:00Z");
  api_object_free(own);
  api_object_free(changed);
  api_object_free(same);
  api_object_free(stored);
  api_object_free(created);
}

int main(void) {
  int failed = run_validate_group("DeviceTaintRule", base, cases, sizeof cases / sizeof cases[0]);
  const struct CMUnitTest strategy[] = {cmocka_unit_test(test_strategy)};
  return failed + cmocka_run_group_tests_name("DeviceTaintRule strategy", strategy, NULL, NULL);
}
