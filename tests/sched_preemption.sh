#!/bin/sh
# sched_preemption.sh: dra schedule preempts for a pod no node fits, with
# the devices the victims' claims hold counted (tests/data/preemption/gpu:
# four GPUs held by pods of priority 100, 100, 500 and 50). A priority-1000
# pod added to the dump evicts exactly the priority-50 GPU pod on node-b
# (DefaultPreemption's lowest highest-victim priority): condition
# DisruptionTarget, a graceful delete, upstream's Preempted event, and the
# preemptor's status.nominatedNodeName. dra schedule runs no kubelet, so
# the victim stays Terminating and the preemptor waits (as upstream without
# kubelets); serve_preemption.sh sees it bind. Also: preemptionPolicy Never
# preempts nothing, nor does a pod whose priority is not higher, and the
# Priority admission plugin's refusals.
dra=${1:-build/dra}
. tests/lib/check.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now=2026-01-01T00:00:00Z
dir=tests/data/preemption/gpu
"$dra" schedule --now $now -o yaml -f $dir/cluster.yaml >"$tmp/dump.yaml"
"$dra" schedule --now $now -o yaml -f "$tmp/dump.yaml" -f $dir/high.yaml >"$tmp/out.yaml"
pod_field() { # file, pod, python expression on the pod p
  python3 -c "
import sys, yaml
for d in yaml.safe_load_all(open('$1')):
  for p in (d or {}).get('items', []):
    if p['kind'] == 'Pod' and p['metadata']['name'] == '$2':
      print($3)"
}
check "preemptor nominated to node-b" 0 "node-b" pod_field "$tmp/out.yaml" trainer "p['status'].get('nominatedNodeName')"
check "victim is batch-low-b" 0 "PreemptionByScheduler default-scheduler: preempting to accommodate a higher priority pod" \
  pod_field "$tmp/out.yaml" batch-low-b "' '.join(c.get('reason','')+' '+c.get('message','') for c in p['status']['conditions'] if c['type']=='DisruptionTarget')"
check "victim deleted gracefully" 0 "2026-01-01T00:00:30Z 30" \
  pod_field "$tmp/out.yaml" batch-low-b "p['metadata'].get('deletionTimestamp'), p['metadata'].get('deletionGracePeriodSeconds')"
for other in batch-a1 batch-a2 service-b cpu-only-b; do
  check "$other kept" 0 "None" pod_field "$tmp/out.yaml" $other "p['metadata'].get('deletionTimestamp')"
done
uid=$(pod_field "$tmp/out.yaml" trainer "p['metadata']['uid']")
check "event in upstream's words" 0 "Pod/batch-low-b   Preempted   Preempted by pod $uid on node node-b" \
  "$dra" schedule --now $now -o table -f "$tmp/dump.yaml" -f $dir/high.yaml
check "PostFilter's message" 0 "0/2 nodes are available: 2 cannot allocate all claims. preemption: found a potential placement for pod on node node-b, preempting 1 victims" \
  pod_field "$tmp/out.yaml" trainer "p['status']['conditions'][0]['message']"
check "priority from the class" 0 "1000 PreemptLowerPriority" pod_field "$tmp/out.yaml" trainer "p['spec']['priority'], p['spec']['preemptionPolicy']"
class_yaml() { # name, value, preemptionPolicy
  printf 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: %s}\nvalue: %s\npreemptionPolicy: %s\n---\n' "$@"
}
# preemptionPolicy Never (from its class): nothing is evicted
class_yaml training-never 1000 Never >"$tmp/never.yaml"
sed 's/priorityClassName: training$/priorityClassName: training-never/' $dir/high.yaml >>"$tmp/never.yaml"
"$dra" schedule --now $now -o yaml -f "$tmp/dump.yaml" -f "$tmp/never.yaml" >"$tmp/never-out.yaml"
check "Never: no victim" 0 "None" pod_field "$tmp/never-out.yaml" batch-low-b "p['metadata'].get('deletionTimestamp')"
check "Never: not nominated" 0 "None" pod_field "$tmp/never-out.yaml" trainer "p['status'].get('nominatedNodeName')"
# a pod of priority 50 finds no lower-priority victims
sed 's/priorityClassName: training$/priorityClassName: batch-low/' $dir/high.yaml >"$tmp/low.yaml"
"$dra" schedule --now $now -o yaml -f "$tmp/dump.yaml" -f "$tmp/low.yaml" >"$tmp/low-out.yaml"
check "equal priority: no victim" 0 "None" pod_field "$tmp/low-out.yaml" batch-low-b "p['metadata'].get('deletionTimestamp')"
# Priority admission: a priority that disagrees with the class, an unknown class
sed 's/priorityClassName: training$/priorityClassName: training\n  priority: 7/' $dir/high.yaml >"$tmp/bad.yaml"
check "priority must not be given" 1 'pods "trainer" is forbidden: the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name' \
  "$dra" validate -f $dir/cluster.yaml -f "$tmp/bad.yaml"
check "unknown class" 1 'pods "trainer" is forbidden: no PriorityClass with name training was found' \
  "$dra" validate -f $dir/high.yaml
check "system class known" 0 "1 objects valid" sh -c "sed 's/priorityClassName: training\$/priorityClassName: system-node-critical/' $dir/high.yaml | \"$dra\" validate -f -"
# A lower-priority pod nominated to node-b (restored with its status; its
# class forbids it to preempt again) loses the nomination when the trainer
# preempts there; without the trainer it keeps it.
class_yaml mid-never 600 Never >"$tmp/mid.yaml"
cat >>"$tmp/mid.yaml" <<'YAML'
apiVersion: v1
kind: Pod
metadata: {name: mid, namespace: default}
spec:
  priorityClassName: mid-never
  resourceClaims: [{name: gpu, resourceClaimTemplateName: one-gpu}]
  containers: [{name: c, image: busybox, resources: {claims: [{name: gpu}]}}]
status: {nominatedNodeName: node-b}
YAML
"$dra" schedule --now $now -o yaml -f "$tmp/dump.yaml" -f "$tmp/mid.yaml" >"$tmp/mid-alone.yaml"
check "nomination kept without a preemptor" 0 "node-b" pod_field "$tmp/mid-alone.yaml" mid "p['status'].get('nominatedNodeName')"
"$dra" schedule --now $now -o yaml -f "$tmp/dump.yaml" -f "$tmp/mid.yaml" -f $dir/high.yaml >"$tmp/mid-out.yaml"
check "lower nomination cleared" 0 "None" pod_field "$tmp/mid-out.yaml" mid "p['status'].get('nominatedNodeName')"
check "trainer nominated" 0 "node-b" pod_field "$tmp/mid-out.yaml" trainer "p['status'].get('nominatedNodeName')"
# PriorityClass validation
printf 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: huge}\nvalue: 1000000001\npreemptionPolicy: Sometimes\n' >"$tmp/huge.yaml"
check "class value and policy" 1 'PriorityClass.scheduling.k8s.io "huge" is invalid: [value: Forbidden: maximum allowed value of a user defined priority is 1000000000, preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"]' \
  "$dra" validate -f "$tmp/huge.yaml"
printf 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: system-node-critical}\nvalue: 5\n' >"$tmp/sys.yaml"
check "system class value" 1 "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-node-critical PriorityClass must be 2000001000" \
  "$dra" validate -f "$tmp/sys.yaml"
# a workload controller's pod gets its priority from the template's class
cat >"$tmp/deploy.yaml" <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      priorityClassName: service
      containers: [{name: c, image: nginx}]
YAML
"$dra" schedule --now $now -o json -f $dir/cluster.yaml -f "$tmp/deploy.yaml" >"$tmp/deploy.json"
check "Deployment pod priority" 0 "500" python3 -c "
import json
print([p['spec'].get('priority') for p in json.load(open('$tmp/deploy.json'))['items'] if p['kind'] == 'Pod' and p['metadata']['name'].startswith('web-')])"
# A shared claim frees its GPU only when every pod reserving it is a victim.
# node-c's one GPU is shared by a priority-10 pod and a second user: with a
# priority-2000 second user, evicting the priority-10 pod frees nothing, so
# node-b's priority-50 victim is still the choice; with a priority-10 second
# user, both go and node-c wins (highest victim priority 10 < 50).
shared() { # priority class of the second user
  cat <<YAML
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: vip}
value: 2000
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: scavenger}
value: 10
---
apiVersion: v1
kind: Node
metadata: {name: node-c, labels: {kubernetes.io/hostname: node-c}}
status: {allocatable: {cpu: "8", pods: "10"}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-c-gpus}
spec:
  driver: gpu.example.com
  nodeName: node-c
  pool: {name: node-c, generation: 1, resourceSliceCount: 1}
  devices: [{name: gpu-0}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: shared-gpu, namespace: default}
spec:
  devices:
    requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com}}]
YAML
  for user in user-1:scavenger user-2:$1; do
    cat <<YAML
---
apiVersion: v1
kind: Pod
metadata: {name: ${user%:*}, namespace: default}
spec:
  priorityClassName: ${user#*:}
  nodeSelector: {kubernetes.io/hostname: node-c}
  resourceClaims: [{name: gpu, resourceClaimName: shared-gpu}]
  containers: [{name: c, image: busybox}]
YAML
  done
}
for second in vip scavenger; do
  { cat $dir/cluster.yaml; echo ---; shared $second; } >"$tmp/shared-$second.yaml"
  "$dra" schedule --now $now -o yaml -f "$tmp/shared-$second.yaml" >"$tmp/shared-dump.yaml"
  "$dra" schedule --now $now -o yaml -f "$tmp/shared-dump.yaml" -f $dir/high.yaml >"$tmp/shared-$second-out.yaml"
done
check "shared with a higher pod: its users kept" 0 "None None" sh -c \
  "python3 -c \"
import yaml
pods = {p['metadata']['name']: p for d in yaml.safe_load_all(open('$tmp/shared-vip-out.yaml')) for p in (d or {}).get('items', []) if p['kind'] == 'Pod'}
print(pods['user-1']['metadata'].get('deletionTimestamp'), pods['user-2']['metadata'].get('deletionTimestamp'))\""
check "shared with a higher pod: batch-low-b on node-b is the victim" 0 "2026-01-01T00:00:30Z" \
  pod_field "$tmp/shared-vip-out.yaml" batch-low-b "p['metadata'].get('deletionTimestamp')"
check "low users only: both are victims on node-c" 0 "node-c user-1 user-2" sh -c \
  "python3 -c \"
import yaml
pods = {p['metadata']['name']: p for d in yaml.safe_load_all(open('$tmp/shared-scavenger-out.yaml')) for p in (d or {}).get('items', []) if p['kind'] == 'Pod'}
print(pods['trainer']['status'].get('nominatedNodeName'), *sorted(n for n, p in pods.items() if p['metadata'].get('deletionTimestamp')))\""
check_done
