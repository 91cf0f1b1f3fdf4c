#!/bin/sh
# workloads_validate.sh: dra validate on the workload kinds (Deployment,
# ReplicaSet, StatefulSet, DaemonSet, Job, CronJob, ReplicationController,
# PodTemplate): their pod templates' claims are checked with upstream's
# field paths, selectors must match template labels, the restartPolicy each
# kind allows, a CronJob's schedule, timeZone, policy and limits, unknown
# fields outside the template pass, and unknown kinds
# are refused unless --ignore-missing-kinds skips them.
dra=${1:-build/dra}
. tests/lib/check.sh
d=tests/data/workloads
check "valid workloads" 0 "10 objects valid" "$dra" validate -f $d/valid/
check "deployment claim name" 1 'spec.template.spec.resourceClaims[0].name: Invalid value: "GPU": a lowercase RFC 1123 label' \
  "$dra" validate -f $d/invalid/deployment-bad-claims.yaml
check "deployment claim source" 1 'spec.template.spec.resourceClaims[1]: Invalid value: {"Name":"nic","ResourceClaimName":null,"ResourceClaimTemplateName":null}: must specify one of: `resourceClaimName`, `resourceClaimTemplateName`' \
  "$dra" validate -f $d/invalid/deployment-bad-claims.yaml
check "deployment container claim" 1 'spec.template.spec.containers[0].resources.claims[0]: Not found: "gpus": must be one of the names in pod.spec.resourceClaims: GPU, nic' \
  "$dra" validate -f $d/invalid/deployment-bad-claims.yaml
check "deployment selector" 1 'Deployment.apps "mismatch" is invalid: [spec.template.metadata.labels: Invalid value: {"app":"y"}: `selector` does not match template `labels`, spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"]' \
  "$dra" validate -f $d/invalid/deployment-selector.yaml
check "job template" 1 'Job.batch "job" is invalid: [spec.template.metadata.labels[job-name]: Invalid value: {"batch.kubernetes.io/job-name":"job","job-name":"other"}: must be '"'job'"', spec.template.spec.containers[0].resources.claims[0]: Not found: "missing": must be one of the names in pod.spec.resourceClaims which is empty, spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"]' \
  "$dra" validate -f $d/invalid/job-bad-template.yaml
check "statefulset" 1 'StatefulSet.apps "sts" is invalid: [spec.podManagementPolicy: Invalid value: "Sometimes": must be '"'OrderedReady' or 'Parallel'"', spec.template.spec.resourceClaims[0]: Invalid value: {"Name":"a","ResourceClaimName":"one","ResourceClaimTemplateName":"two"}: at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified]' \
  "$dra" validate -f $d/invalid/statefulset-template-claim.yaml
check "daemonset" 1 'DaemonSet.apps "ds" is invalid: [spec.selector: Invalid value: {}: empty selector is invalid for daemonset, spec.template.spec.resourceClaims[0].resourceClaimTemplateName: Invalid value: "Not_A_Name"' \
  "$dra" validate -f $d/invalid/daemonset-empty-selector.yaml
check "cronjob" 1 'CronJob.batch "cron" is invalid: spec.jobTemplate.spec.template.spec.containers[0].resources.claims[1]: Duplicate value: "gpu"' \
  "$dra" validate -f $d/invalid/cronjob-claims.yaml
check "cronjob spec" 1 'CronJob.batch "bad" is invalid: [spec.schedule: Invalid value: "*/0 * * * *": step of range should be a positive number: */0, spec.startingDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0, spec.timeZone: Invalid value: "local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones, spec.timeZone: Invalid value: "local": unknown time zone local, spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace", spec.failedJobsHistoryLimit: Invalid value: -2: must be greater than or equal to 0]' \
  "$dra" validate -f $d/invalid/cronjob-spec.yaml
check "cronjob zone" 1 'CronJob.batch "zoned" is invalid: [spec.schedule: Invalid value: "CRON_TZ=UTC @daily": cannot use TZ or CRON_TZ in schedule, use timeZone field instead, spec.timeZone: Invalid value: "Etc/GMT+99x/..": unknown time zone Etc/GMT+99x/..]' \
  "$dra" validate -f $d/invalid/cronjob-spec.yaml
check "unknown kind refused" 1 'error: unable to recognize "tests/data/workloads/invalid/unknown-kind.yaml": no matches for kind "Widget" in version "example.com/v1"' \
  "$dra" validate -f $d/invalid/unknown-kind.yaml
check "unknown kind skipped" 0 'skipped "tests/data/workloads/invalid/unknown-kind.yaml": no matches for kind "Widget" in version "example.com/v1"' \
  "$dra" validate --ignore-missing-kinds -f $d/invalid/unknown-kind.yaml
check "skip counted" 0 "1 objects valid, 1 skipped" "$dra" validate --ignore-missing-kinds -f $d/invalid/unknown-kind.yaml
check "skip keeps errors" 1 'Deployment.apps "mismatch" is invalid' \
  "$dra" validate --ignore-missing-kinds -f $d/invalid/unknown-kind.yaml -f $d/invalid/deployment-selector.yaml
check "unknown spec field refused" 1 'strict decoding error: unknown field "spec.newField"' sh -c "printf '%s\n' 'apiVersion: apps/v1' 'kind: ReplicaSet' 'metadata: {name: r}' 'spec: {newField: 1, selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c}]}}}' | \"$dra\" validate -f -"
check "unknown top-level field refused" 1 'strict decoding error: unknown field "extra"' sh -c "printf '%s\n' 'apiVersion: batch/v1' 'kind: Job' 'metadata: {name: r}' 'extra: 1' | \"$dra\" validate -f -"
check "gated template field dropped" 0 'Warning: Deployment "g": spec.template.spec.schedulingGroup: dropped, feature gate GenericWorkload is disabled' \
  sh -c "printf '%s\n' 'apiVersion: apps/v1' 'kind: Deployment' 'metadata: {name: g}' 'spec: {selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {schedulingGroup: {podGroupName: pg}, containers: [{name: c}]}}}' | \"$dra\" validate -f - --feature-gates GenericWorkload=false"
check_done
