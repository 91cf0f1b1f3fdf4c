#!/bin/sh
# sched_preemption_gang.sh: workload-aware preemption (KEP-5710) in dra
# schedule, tests/data/preemption/gang: gang "batch" (priority 100,
# minCount 4) holds all four GPUs of two nodes; gang "train" (priority
# 1000, two pods of one GPU, minCount 2) can only be placed by evicting.
# With disruptionMode Single each batch pod is its own victim: only the
# two on the node the train pods are proposed for go. With All the batch
# gang is one victim: all four go; a single pod preempting one member of
# it evicts all four too. Also: the group's preemptionPolicy
# Never (PodGroupPreemptionPolicy on) and a lower gang that finds no victims.
dra=${1:-build/dra}
. tests/lib/check.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now=2026-01-01T00:00:00Z
dir=tests/data/preemption/gang
items() { # file, python expression on each item o (a list is printed)
  python3 -c "
import yaml
print([$2 for d in yaml.safe_load_all(open('$1')) for o in (d or {}).get('items', []) if $3])"
}
deleted() { items "$1" "o['metadata']['name']" "o['kind'] == 'Pod' and o['metadata'].get('deletionTimestamp')"; }
nominated() { items "$1" "(o['metadata']['name'], o['status'].get('nominatedNodeName'))" "o['kind'] == 'Pod' and o['metadata']['name'].startswith('train')"; }
group_message() { items "$1" "c['message']" "o['kind'] == 'PodGroup' and o['metadata']['name'] == 'train' for c in o['status']['conditions']" | tr -d '[]'; }

"$dra" schedule --now $now -o yaml -f $dir/cluster.yaml >"$tmp/single.yaml"
check "batch holds the GPUs" 0 "['batch-0', 'batch-1', 'batch-2', 'batch-3']" \
  items "$tmp/single.yaml" "o['metadata']['name']" "o['kind'] == 'Pod' and o['spec'].get('nodeName')"
"$dra" schedule --now $now -o yaml -f "$tmp/single.yaml" -f $dir/high.yaml >"$tmp/single-out.yaml"
check "Single: the two pods on node-1 evicted" 0 "['batch-0', 'batch-1']" deleted "$tmp/single-out.yaml"
check "Single: train pods nominated" 0 "[('train-0', 'node-1'), ('train-1', 'node-1')]" nominated "$tmp/single-out.yaml"
check "group waits" 0 "'pod group is waiting for preemption to complete'" group_message "$tmp/single-out.yaml"
check "pods wait" 0 "['pod group is waiting for preemption to complete', 'pod group is waiting for preemption to complete']" \
  items "$tmp/single-out.yaml" "[c['message'] for c in o['status']['conditions'] if c['type'] == 'PodScheduled'][0]" "o['kind'] == 'Pod' and o['metadata']['name'].startswith('train')"
check "victim's condition" 0 "['default-scheduler: preempting to accommodate a higher priority podgroup']" \
  items "$tmp/single-out.yaml" "[c['message'] for c in o['status']['conditions'] if c['type'] == 'DisruptionTarget'][0]" "o['kind'] == 'Pod' and o['metadata']['name'] == 'batch-0'"
uid=$(items "$tmp/single-out.yaml" "o['metadata']['uid']" "o['kind'] == 'PodGroup' and o['metadata']['name'] == 'train'" | tr -d "[]'")
check "event in upstream's words" 0 "Pod/batch-1   Preempted   Preempted by podgroup $uid on node cluster" \
  "$dra" schedule --now $now -o table -f "$tmp/single.yaml" -f $dir/high.yaml

sed 's/disruptionMode: {single: {}}/disruptionMode: {all: {}}/' $dir/cluster.yaml >"$tmp/all-in.yaml"
"$dra" schedule --now $now -o yaml -f "$tmp/all-in.yaml" >"$tmp/all.yaml"
"$dra" schedule --now $now -o yaml -f "$tmp/all.yaml" -f $dir/high.yaml >"$tmp/all-out.yaml"
check "All: the whole gang evicted" 0 "['batch-0', 'batch-1', 'batch-2', 'batch-3']" deleted "$tmp/all-out.yaml"
check "All: train pods nominated" 0 "[('train-0', 'node-1'), ('train-1', 'node-1')]" nominated "$tmp/all-out.yaml"

# A single pod of priority 1000 needing one GPU: with Single one batch pod
# is its victim; with All the member it picks on node-1 takes the whole
# gang, its pods on node-2 too.
cat >"$tmp/solo.yaml" <<'YAML'
apiVersion: v1
kind: Pod
metadata: {name: solo, namespace: ml}
spec:
  priorityClassName: training
  containers: [{name: c, image: registry.example.com/job:1.0, resources: {claims: [{name: gpu}]}}]
  resourceClaims: [{name: gpu, resourceClaimTemplateName: gpu}]
YAML
"$dra" schedule --now $now -o yaml -f "$tmp/single.yaml" -f "$tmp/solo.yaml" >"$tmp/solo-single.yaml"
check "pod preemptor, Single: one member" 0 "['batch-1']" deleted "$tmp/solo-single.yaml"
"$dra" schedule --now $now -o yaml -f "$tmp/all.yaml" -f "$tmp/solo.yaml" >"$tmp/solo-all.yaml"
check "pod preemptor, All: the whole gang" 0 "['batch-0', 'batch-1', 'batch-2', 'batch-3']" deleted "$tmp/solo-all.yaml"
check "pod preemptor, All: nominated to node-1" 0 "['node-1']" \
  items "$tmp/solo-all.yaml" "o['status'].get('nominatedNodeName')" "o['kind'] == 'Pod' and o['metadata']['name'] == 'solo'"
check "pod preemptor, All: event for a member elsewhere" 0 "Pod/batch-3   Preempted   Preempted by pod" \
  "$dra" schedule --now $now -o table -f "$tmp/all.yaml" -f "$tmp/solo.yaml"

# a class with preemptionPolicy Never: the group's own policy (from the
# class with PodGroupPreemptionPolicy on) forbids preempting
printf 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: training-never}\nvalue: 1000\npreemptionPolicy: Never\n---\n' >"$tmp/never.yaml"
sed 's/priorityClassName: training$/priorityClassName: training-never/' $dir/high.yaml >>"$tmp/never.yaml"
"$dra" schedule --now $now -o yaml --feature-gates PodGroupPreemptionPolicy=true -f "$tmp/single.yaml" -f "$tmp/never.yaml" >"$tmp/never-out.yaml"
check "Never: nothing evicted" 0 "[]" deleted "$tmp/never-out.yaml"
check "Never: the reason" 0 "not eligible due to preemptionPolicy=Never." group_message "$tmp/never-out.yaml"
# gate off: the group's pods wait as before, nothing evicted
"$dra" schedule --now $now -o yaml --feature-gates WorkloadAwarePreemption=false -f "$tmp/single.yaml" -f $dir/high.yaml >"$tmp/off-out.yaml"
check "gate off: nothing evicted" 0 "[]" deleted "$tmp/off-out.yaml"
# a gang of lower priority than batch finds no victims
sed 's/priorityClassName: training/priorityClassName: batch/' $dir/high.yaml >"$tmp/low.yaml"
"$dra" schedule --now $now -o yaml -f "$tmp/single.yaml" -f "$tmp/low.yaml" >"$tmp/low-out.yaml"
check "no victims" 0 "No preemption victims found for incoming preemptor" group_message "$tmp/low-out.yaml"
check_done
