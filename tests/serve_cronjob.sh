#!/bin/sh
# dra serve's CronJob controller through kubectl: with "@every 1s" a Job
# "<cronjob>-<Unix minutes>" is made from the template (labels,
# annotations, the scheduled-timestamp annotation, the CronJob as
# controller), its pod runs on the node simulator for its run-duration and
# the Job completes; status.active, lastScheduleTime and lastSuccessfulTime
# follow, with upstream's events (SuccessfulCreate, SawCompletedJob).
# Jobs of the CronJob made by hand: UnexpectedJob while they run, the
# oldest finished ones deleted beyond successfulJobsHistoryLimit
# (SuccessfulDelete). A suspended CronJob starts nothing; Forbid skips a
# time while a Job is active (JobAlreadyActive); Replace deletes the active
# Job first; an active entry whose Job is gone is dropped (MissingJob). A
# new CronJob's first time comes by the loop's deadline, with no event.
# kubectl get cronjobs shows upstream's columns; validation refuses a bad
# schedule and time zone with upstream's messages.
dra=${1:-build/dra}
. tests/lib/serve.sh
skip_without kubectl serve_cronjob
serve "$tmp/data"
export KUBECONFIG="$tmp/data/kubeconfig"
kubectl create namespace cj >/dev/null
k() { kubectl -n cj "$@"; }
wait_for() { # what, jsonpath on the cronjob, wanted value (a regex)
  for i in $(seq 100); do
    v=$(k get cronjob "$1" -o jsonpath="$2" 2>&1)
    printf '%s' "$v" | grep -qE "$3" && { echo "ok $v"; return; }
    sleep 0.2
  done
  echo "gave up: $v"
}
events() { k get events --field-selector involvedObject.kind=CronJob -o jsonpath='{range .items[*]}{.reason}: {.message}{"\n"}{end}'; }
wait_event() { # substring: the first event that has it
  for i in $(seq 100); do events | grep -F -m1 -- "$1" && return; sleep 0.2; done
  events
}
cronjob() { # name, schedule, suspend, policy, run-duration
  cat <<YAML
apiVersion: batch/v1
kind: CronJob
metadata: {name: $1, namespace: cj}
spec:
  schedule: "$2"
  suspend: $3
  concurrencyPolicy: $4
  successfulJobsHistoryLimit: 1
  jobTemplate:
    metadata:
      labels: {team: batch}
      annotations: {note: kept}
    spec:
      template:
        metadata:
          annotations: {dra.k8s.io/run-duration: $5}
        spec:
          restartPolicy: Never
          containers: [{name: c, image: busybox}]
YAML
}
check "node" "node/node-1 created" sh -c 'echo "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"node-1\"},\"status\":{\"allocatable\":{\"cpu\":\"8\",\"memory\":\"8Gi\",\"pods\":\"110\"}}}" | kubectl apply -f -'

# ---- validation ----
check "bad schedule" 'spec.schedule: Invalid value: "0-60 * * * *": end of range (60) above maximum (59): 0-60' \
  kubectl -n cj create cronjob bad --image=busybox --schedule='0-60 * * * *'
check "TZ in schedule" 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead' \
  kubectl -n cj create cronjob tz --image=busybox --schedule='TZ=UTC * * * * *'
check "unknown zone" 'spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus' \
  sh -c "kubectl -n cj create cronjob zone --image=busybox --schedule='* * * * *' --dry-run=client -o json | sed 's/\"schedule\"/\"timeZone\":\"Mars\/Olympus\",\"schedule\"/' | kubectl create -f -"
check "defaults" "Allow false 3 1" sh -c "kubectl -n cj create cronjob defaults --image=busybox --schedule='@hourly' >/dev/null;
  kubectl -n cj get cronjob defaults -o jsonpath='{.spec.concurrencyPolicy} {.spec.suspend} {.spec.successfulJobsHistoryLimit} {.spec.failedJobsHistoryLimit}'"
k delete cronjob defaults >/dev/null

# ---- hand-made Jobs of a suspended CronJob: history limit ----
cronjob hist "@every 1s" true Allow 1s >"$tmp/hist.yaml"
check "suspended cronjob" "cronjob.batch/hist created" kubectl apply -f "$tmp/hist.yaml"
uid=$(k get cronjob hist -o jsonpath='{.metadata.uid}')
owned_job() { # cronjob, its uid, job name, run-duration: a Job controlled by the CronJob
  cat <<YAML | k apply -f - >/dev/null
apiVersion: batch/v1
kind: Job
metadata:
  name: $3
  ownerReferences: [{apiVersion: batch/v1, kind: CronJob, name: $1, uid: "$2", controller: true}]
spec:
  template:
    metadata: {annotations: {dra.k8s.io/run-duration: $4}}
    spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}
YAML
}
owned_job hist "$uid" manual-1 1s; sleep 1.1; owned_job hist "$uid" manual-2 1s; sleep 1.1; owned_job hist "$uid" manual-3 1s
check "unexpected job" "UnexpectedJob: Saw a job that the controller did not create or forgot: manual-" wait_event "UnexpectedJob"
left() { for i in $(seq 100); do n=$(k get jobs -o name | tr '\n' ' '); [ "$n" = "$1" ] && { echo "left $n"; return; }; sleep 0.2; done; echo "left $n"; }
check "history limit keeps the newest" "left job.batch/manual-3 " left "job.batch/manual-3 "
check "oldest deleted" "SuccessfulDelete: Deleted job manual-1" wait_event "Deleted job manual-1"
check "suspended: no job" "0" sh -c "k() { kubectl -n cj \"\$@\"; }; k get jobs -o name | grep -c hist-"
check "suspended: no schedule time" "[]" sh -c "echo [\$(kubectl -n cj get cronjob hist -o jsonpath='{.status.lastScheduleTime}')]"

# ---- @every 1s: a Job per minute, run to completion ----
check "unsuspend" "patched" k patch cronjob hist --type=merge -p '{"spec":{"suspend":false}}'
check "job made" "SuccessfulCreate: Created job hist-" wait_event "Created job hist-"
job=$(k get jobs -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}' | grep '^hist-' | head -1)
minute=$(( $(date +%s) / 60 ))
check "job named by minute" "hist-" echo "$job"
check "name is the scheduled minute" "yes" sh -c "m=\${1#hist-}; [ \$m -ge $((minute - 1)) ] && [ \$m -le $minute ] && echo yes" _ "$job"
check "template labels" "batch" k get job "$job" -o jsonpath='{.metadata.labels.team}'
check "template annotations" "kept" k get job "$job" -o jsonpath='{.metadata.annotations.note}'
check "scheduled timestamp" "Z" k get job "$job" -o jsonpath='{.metadata.annotations.batch\.kubernetes\.io/cronjob-scheduled-timestamp}'
check "controller owner" "CronJob hist true" k get job "$job" -o jsonpath='{.metadata.ownerReferences[0].kind} {.metadata.ownerReferences[0].name} {.metadata.ownerReferences[0].controller}'
check "last schedule time" "ok 20" wait_for hist '{.status.lastScheduleTime}' '^20'
check "job completes" "ok 20" wait_for hist '{.status.lastSuccessfulTime}' '^20'
check "saw completed" "SawCompletedJob: Saw completed job: $job, condition: Complete" wait_event "Saw completed job: $job"
check "columns" "NAME   SCHEDULE    TIMEZONE   SUSPEND   ACTIVE   LAST SCHEDULE   AGE" k get cronjobs
check "kubectl create job --from" "job.batch/by-hand created" k create job by-hand --from=cronjob/hist
check "its owner" "CronJob hist" k get job by-hand -o jsonpath='{.metadata.ownerReferences[0].kind} {.metadata.ownerReferences[0].name}'
check "suspend again" "patched" k patch cronjob hist --type=merge -p '{"spec":{"suspend":true}}'
check "suspend column" "True" k get cronjob hist

# ---- a new CronJob is due only after its creation second: the deadline wakes the loop ----
cronjob tick "@every 1s" false Allow 1s >"$tmp/tick.yaml"
check "tick cronjob" "cronjob.batch/tick created" kubectl apply -f "$tmp/tick.yaml"
check "woken for its first time" "ok tick-" wait_for tick '{.status.active[*].name}{.status.lastSuccessfulTime}' '^tick-[0-9]+|^20'
k delete cronjob tick >/dev/null

# ---- Forbid, Replace, MissingJob: an active Job recorded by hand ----
cronjob pol "@every 1s" true Forbid 30s >"$tmp/pol.yaml"
check "forbid cronjob" "cronjob.batch/pol created" kubectl apply -f "$tmp/pol.yaml"
puid=$(k get cronjob pol -o jsonpath='{.metadata.uid}')
owned_job pol "$puid" long 60s
luid=$(k get job long -o jsonpath='{.metadata.uid}')
check "record active" "patched" k patch cronjob pol --subresource=status --type=merge \
  -p "{\"status\":{\"active\":[{\"kind\":\"Job\",\"apiVersion\":\"batch/v1\",\"namespace\":\"cj\",\"name\":\"long\",\"uid\":\"$luid\"},{\"kind\":\"Job\",\"namespace\":\"cj\",\"name\":\"ghost\",\"uid\":\"0000\"}]}}"
check "missing job" "MissingJob: Active job went missing: ghost" wait_event "went missing: ghost"
check "unsuspend pol" "patched" k patch cronjob pol --type=merge -p '{"spec":{"suspend":false}}'
check "forbid" "JobAlreadyActive: Not starting job because prior execution is running and concurrency policy is Forbid" \
  wait_event "JobAlreadyActive"
check "forbid: nothing made" "0 long" sh -c "sleep 1.5; echo \$(kubectl -n cj get jobs -o name | grep -c pol-) \$(kubectl -n cj get cronjob pol -o jsonpath='{.status.active[*].name}')"
check "replace" "patched" k patch cronjob pol --type=merge -p '{"spec":{"concurrencyPolicy":"Replace"}}'
check "replaced job deleted" "SuccessfulDelete: Deleted job long" wait_event "Deleted job long"
check "new job active" "ok pol-" wait_for pol '{.status.active[*].name}' '^pol-[0-9]+$'
summary
