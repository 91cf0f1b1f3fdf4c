#!/bin/sh
# sched_preemption_pdb.sh: PodDisruptionBudgets in dra schedule
# (tests/data/preemption/pdb): the disruption controller's status
# (currentHealthy, desiredHealthy, expectedPods, disruptionsAllowed, the
# DisruptionAllowed condition), preemption steered by the budgets as
# kube-scheduler's DefaultPreemption does (fewest violations first,
# violating victims reprieved first), nominated pods counted by later
# filters, and PostFilter's "preemption: ..." messages when it cannot help.
dra=${1:-build/dra}
. tests/lib/check.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now=2026-01-01T00:01:00Z
dir=tests/data/preemption/pdb
field() { # file, kind, name, python expression on the object o
  python3 -c "
import sys, yaml
for d in yaml.safe_load_all(open('$1')):
  for o in (d or {}).get('items', []):
    if o['kind'] == '$2' and o['metadata']['name'] == '$3':
      print($4)"
}
status="o['status']"
budget="$status['currentHealthy'], $status['desiredHealthy'], $status['expectedPods'], $status['disruptionsAllowed'], $status['observedGeneration'], [(c['type'], c['status'], c['reason'], c['message']) for c in $status['conditions']]"
"$dra" schedule --now $now -o yaml -f $dir/cluster.yaml >"$tmp/alone.yaml"
check "budget low: none allowed" 0 "1 1 1 0 1 [('DisruptionAllowed', 'False', 'InsufficientPods', '')]" \
  field "$tmp/alone.yaml" PodDisruptionBudget low "$budget"
check "budget batch: one allowed" 0 "2 1 2 1 1 [('DisruptionAllowed', 'True', 'SufficientPods', '')]" \
  field "$tmp/alone.yaml" PodDisruptionBudget batch "$budget"

# The trainer needs 2 CPUs. Without budgets node-b's priority-50 pod would
# go (sched_preemption.sh); its budget allows no disruption, node-a's one:
# node-a is chosen. There batch-a2 (the later start, less important) breaks
# the budget once batch-a1 is counted, so it is reprieved first and
# batch-a1 is the victim.
"$dra" schedule --now $now -o yaml -f $dir/cluster.yaml -f $dir/high.yaml >"$tmp/out.yaml"
check "redirected to node-a" 0 "node-a" field "$tmp/out.yaml" Pod trainer "o['status'].get('nominatedNodeName')"
check "violating victim reprieved first" 0 "['batch-a1']" python3 -c "
import yaml
print([p['metadata']['name'] for d in yaml.safe_load_all(open('$tmp/out.yaml')) for p in (d or {}).get('items', []) if p['kind'] == 'Pod' and p['metadata'].get('deletionTimestamp')])"
check "budget batch after the eviction" 0 "1 1 2 0 1 [('DisruptionAllowed', 'False', 'InsufficientPods', '')]" \
  field "$tmp/out.yaml" PodDisruptionBudget batch "$budget"
check "condition's transition time" 0 "$now" field "$tmp/out.yaml" PodDisruptionBudget batch "$status['conditions'][0]['lastTransitionTime']"

# With batch's budget at minAvailable 2 no disruption is allowed on node-a
# either. On node-b the budget-protected batch-low-b is reprieved first (it
# alone would break its budget), so service-b (priority 500, no budget)
# becomes the victim: no violation there, one on node-a, node-b wins.
sed 's/minAvailable: 1/minAvailable: 2/' $dir/cluster.yaml >"$tmp/tight.yaml"
"$dra" schedule --now $now -o yaml -f "$tmp/tight.yaml" -f $dir/high.yaml >"$tmp/tight-out.yaml"
check "no violation beats priority: node-b" 0 "node-b" field "$tmp/tight-out.yaml" Pod trainer "o['status'].get('nominatedNodeName')"
check "protected pod kept, service-b evicted" 0 "None 2026-01-01T00:01:30Z" \
  field "$tmp/tight-out.yaml" Pod batch-low-b "o['metadata'].get('deletionTimestamp'), [p for d in yaml.safe_load_all(open('$tmp/tight-out.yaml')) for p in (d or {}).get('items', []) if p['metadata']['name'] == 'service-b'][0]['metadata'].get('deletionTimestamp')"

# maxUnavailable over pods without a controller: expectedPods 0, nothing
# allowed, and the UnmanagedPods warning; an invalid selector fails the sync.
cat >"$tmp/unmanaged.yaml" <<'YAML'
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: loose, namespace: default}
spec:
  maxUnavailable: 50%
  selector: {matchLabels: {app: batch}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: broken, namespace: default}
spec:
  minAvailable: 1
  selector: {matchExpressions: [{key: app, operator: Sometimes}]}
YAML
"$dra" schedule --now $now -o yaml -f $dir/cluster.yaml -f "$tmp/unmanaged.yaml" >"$tmp/unmanaged-out.yaml"
check "unmanaged: nothing expected" 0 "2 0 0 0 1 [('DisruptionAllowed', 'False', 'InsufficientPods', '')]" \
  field "$tmp/unmanaged-out.yaml" PodDisruptionBudget loose "$budget"
check "unmanaged: the warning" 0 'Pods selected by this PodDisruptionBudget (selector: &LabelSelector{MatchLabels:map[string]string{app: batch,},MatchExpressions:[]LabelSelectorRequirement{},}) were found to be unmanaged.' \
  "$dra" schedule --now $now -o table -f $dir/cluster.yaml -f "$tmp/unmanaged.yaml"
check "invalid selector: SyncFailed" 0 "[('DisruptionAllowed', 'False', 'SyncFailed', '\"Sometimes\" is not a valid label selector operator')] 0" \
  field "$tmp/unmanaged-out.yaml" PodDisruptionBudget broken "[(c['type'], c['status'], c['reason'], c['message']) for c in $status['conditions']], $status['disruptionsAllowed']"

# Nominated pods: "nominee" (nominated to node-c, waiting for its missing
# claim) holds 3 of node-c's 4 CPUs for pods of its priority or lower, so
# "later" (2 CPUs, node-c only) does not fit there; preemption finds no
# victims. A "never" pod may not preempt at all. With a nominee of lower
# priority than theirs, node-c is free for "later".
nominated() { # nominee's priority class
  cat <<YAML
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: service-never}
value: 500
preemptionPolicy: Never
---
apiVersion: v1
kind: Node
metadata: {name: node-c, labels: {kubernetes.io/hostname: node-c}}
status: {allocatable: {cpu: "4", pods: "10"}, capacity: {cpu: "4", pods: "10"}}
---
apiVersion: v1
kind: Pod
metadata: {name: nominee, namespace: default}
spec:
  priorityClassName: $1
  resourceClaims: [{name: gpu, resourceClaimName: missing}]
  containers: [{name: c, image: busybox, resources: {requests: {cpu: "3"}}}]
status: {nominatedNodeName: node-c}
YAML
  for p in later:service never:service-never; do
    cat <<YAML
---
apiVersion: v1
kind: Pod
metadata: {name: ${p%:*}, namespace: default}
spec:
  priorityClassName: ${p#*:}
  nodeSelector: {kubernetes.io/hostname: node-c}
  containers: [{name: c, image: busybox, resources: {requests: {cpu: "2"}}}]
YAML
  done
}
nominated training >"$tmp/nom.yaml"
"$dra" schedule --now $now -o yaml -f $dir/cluster.yaml -f "$tmp/nom.yaml" >"$tmp/nom-out.yaml"
scheduled="[c['message'] for c in o['status']['conditions'] if c['type'] == 'PodScheduled'][0]"
check "nominated pod counted" 0 "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling." \
  field "$tmp/nom-out.yaml" Pod later "$scheduled"
check "Never: not eligible" 0 "2 node(s) didn't match Pod's node affinity/selector. preemption: not eligible due to preemptionPolicy=Never." \
  field "$tmp/nom-out.yaml" Pod never "$scheduled"
check "nominee keeps its nomination" 0 "node-c" field "$tmp/nom-out.yaml" Pod nominee "o['status'].get('nominatedNodeName')"
nominated batch-low >"$tmp/nom-low.yaml"
"$dra" schedule --now $now -o yaml -f $dir/cluster.yaml -f "$tmp/nom-low.yaml" >"$tmp/nom-low-out.yaml"
check "lower nominee not counted" 0 "node-c" field "$tmp/nom-low-out.yaml" Pod later "o['spec'].get('nodeName')"
check_done
