/* test_validate_scheduling_workload.c: scheduling.k8s.io Workload admission:
 * the hand-written rule (one priority for every template) and declarative
 * validation (templates required, at most 8, unique, none added or removed
 * by an update, each template's fields; controllerRef formats and
 * immutability), with kube-apiserver 1.37's texts (checked against it by
 * tests/upstream validdiff), and compositePodGroupTemplates dropped as
 * CompositePodGroup is off. */
#include "validate_cases.h"

static const char base[] = "{'apiVersion':'scheduling.k8s.io/v1beta1','kind':'Workload',"
                           "'metadata':{'name':'w','namespace':'default'},"
                           "'spec':{'podGroupTemplates':[{'name':'a','schedulingPolicy':{'basic':{}}}]}}";

#define TWO "'podGroupTemplates':[{'name':'a','schedulingPolicy':{'basic':{}}},{'name':'b','schedulingPolicy':{'gang':{'minCount':2}}}]"

static const validate_case cases[] = {
    {.name = "valid Workload"},
    {.name = "two templates", .patch = "{'spec':{" TWO "}}"},
    {.name = "templates required", .patch = "{'spec':{'podGroupTemplates':null}}",
     .errors = {"spec: Invalid value: \"\": must specify one of: `podGroupTemplates`, `compositePodGroupTemplates`"}},
    {.name = "one priority for all templates",
     .patch = "{'spec':{'podGroupTemplates':[{'name':'a','schedulingPolicy':{'basic':{}},'priority':1},"
              "{'name':'b','schedulingPolicy':{'gang':{'minCount':0}}}]}}",
     .errors = {"spec: Invalid value: null: detected multiple priority configurations",
                "spec.podGroupTemplates[1].schedulingPolicy.gang.minCount: Required value"}},
    {.name = "controllerRef formats", .patch = "{'spec':{'controllerRef':{'kind':'a/b','name':'..'}}}",
     .errors = {"spec.controllerRef.kind: Invalid value: \"a/b\": may not contain '/'",
                "spec.controllerRef.name: Invalid value: \"..\": may not be '..'"}},
    {.name = "controllerRef immutable", .op = ADMIT_UPDATE, .old_patch = "{'spec':{'controllerRef':{'kind':'Job','name':'j'}}}",
     .patch = "{'spec':{'controllerRef':{'kind':'Job','name':'k'}}}",
     .errors = {"spec.controllerRef: Invalid value: null: field is immutable"}},
    {.name = "no template added", .op = ADMIT_UPDATE, .old_patch = "{}", .patch = "{'spec':{" TWO "}}",
     .errors = {"spec.podGroupTemplates[1]: Forbidden: item may not be added"}},
    {.name = "no template removed", .op = ADMIT_UPDATE, .old_patch = "{'spec':{" TWO "}}", .patch = "{}",
     .errors = {"spec.podGroupTemplates: Forbidden: item may not be removed"}},
    {.name = "a template's minCount is mutable", .op = ADMIT_UPDATE, .old_patch = "{'spec':{" TWO "}}",
     .patch = "{'spec':{'podGroupTemplates':[{'name':'a','schedulingPolicy':{'basic':{}}},"
              "{'name':'b','schedulingPolicy':{'gang':{'minCount':5}}}]}}"},
    {.name = "a template's disruptionMode is immutable", .op = ADMIT_UPDATE, .old_patch = "{}",
     .patch = "{'spec':{'podGroupTemplates':[{'name':'a','schedulingPolicy':{'basic':{}},'disruptionMode':{'all':{}}}]}}",
     .errors = {"spec.podGroupTemplates[0].disruptionMode: Invalid value: null: field is immutable"}},
    {.name = "duplicate template names",
     .patch = "{'spec':{'podGroupTemplates':[{'name':'a','schedulingPolicy':{'basic':{}}},"
              "{'name':'a','schedulingPolicy':{'basic':{}}}]}}",
     .errors = {"spec.podGroupTemplates[1]: Duplicate value: "
                "{\"name\":\"a\",\"schedulingPolicy\":{\"basic\":{}},\"schedulingConstraints\":null}"}},
    {.name = "composite templates dropped",
     .patch = "{'spec':{'compositePodGroupTemplates':[{'name':'c'}]}}",
     .warnings = {"Warning: Workload \"w\": spec.compositePodGroupTemplates: dropped, feature gate CompositePodGroup is "
                  "disabled"}},
};

int main(void) { return run_validate_group("Workload", base, cases, sizeof cases / sizeof cases[0]); }
