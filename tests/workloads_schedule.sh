#!/bin/sh
# workloads_schedule.sh: dra schedule on a dump that holds workloads and
# the pods, ReplicaSets and claims their controllers made (its own -o yaml
# output): the controllers find what they own and make nothing new, so the
# result is the same. With replicas 3 in the input, the Deployment and the
# StatefulSet make three pods; a Job stays within parallelism.
dra=${1:-build/dra}
. tests/lib/check.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now=2026-01-01T00:00:00Z
in=tests/data/sched/workloads/input.yaml
"$dra" schedule --now $now -o yaml -f $in >"$tmp/dump.yaml"
"$dra" schedule --now $now -o table -f $in >"$tmp/first.txt"
check "dump re-scheduled unchanged" 0 "same" sh -c "\"$dra\" schedule --now $now -o table -f $tmp/dump.yaml | diff $tmp/first.txt - && echo same"
count() { "$dra" schedule --now $now -o table -f "$1" | sed '/^$/q' | grep -c "^default  *$2"; }
sed 's/^  replicas: 2$/  replicas: 3/' $in >"$tmp/scaled.yaml"
check "three web pods" 0 "3" count "$tmp/scaled.yaml" web-
check "three db pods" 0 "3" count "$tmp/scaled.yaml" db-
check "job pods capped by parallelism" 0 "2" count $in train-
check "one agent pod per node" 0 "2" count $in agent-
check "statefulset pod identity" 0 "hostname: db-1" "$dra" schedule --now $now -o yaml -f $in
check "a restored Job keeps its startTime" 0 'startTime: "2026-01-01T00:00:00Z"' \
  "$dra" schedule --now 2026-02-01T00:00:00Z -o yaml -f "$tmp/dump.yaml"
check_done
