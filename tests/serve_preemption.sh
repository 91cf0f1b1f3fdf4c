#!/bin/sh
# dra serve with kubectl: PriorityClasses (the system classes made at
# start, kubectl's columns, validation and the one-default rule), then
# preemption live: four GPUs held by lower-priority pods, a priority-1000
# pod evicts the priority-50 GPU pod on node-b (tests/data/preemption/gpu),
# is nominated there, and binds to the freed GPU once the node simulator
# has deleted the victim and the claim controller released its claim.
dra=${1:-build/dra}
. tests/lib/serve.sh
skip_without kubectl serve_preemption
serve "$tmp/data"
export KUBECONFIG="$tmp/data/kubeconfig"
dir=tests/data/preemption/gpu
check "system classes" "system-node-critical      2000001000   false            " kubectl get priorityclasses
check "columns" "NAME                      VALUE        GLOBAL-DEFAULT   AGE   PREEMPTIONPOLICY" kubectl get pc
check "apply cluster" "pod/cpu-only-b created" kubectl apply -f $dir/cluster.yaml
check "class defaulted" "PreemptLowerPriority" kubectl get pc batch -o jsonpath='{.preemptionPolicy}'
check "value immutable" 'The PriorityClass "batch" is invalid: value: Forbidden: may not be changed in an update.' \
  kubectl patch pc batch --type merge -p '{"value":101}'
check "reserved prefix" "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-x is not a known system priority class" \
  sh -c "printf 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: system-x}\nvalue: 5\n' | kubectl create -f -"
for n in first second; do
  printf 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: %s}\nvalue: 1\nglobalDefault: true\n' $n >"$tmp/$n.yaml"
done
check "one default" "priorityclass.scheduling.k8s.io/first created" kubectl create -f "$tmp/first.yaml"
check "second default refused" 'priorityclasses.scheduling.k8s.io "second" is forbidden: PriorityClass first is already marked as default. Only one default can exist' \
  kubectl create -f "$tmp/second.yaml"
check "default gives priority" "1 first" sh -c "printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: plain}\nspec: {containers: [{name: c, image: x}]}\n' | kubectl create -f - >/dev/null && kubectl get pod plain -o jsonpath='{.spec.priority} {.spec.priorityClassName}'"
check "delete default" "deleted" kubectl delete pc first
running() { for i in $(seq 100); do n=$(kubectl get pods -o jsonpath='{range .items[*]}{.status.phase}{" "}{end}' | grep -o Running | wc -l); [ "$n" -ge 5 ] && { echo "$n running"; return; }; sleep 0.2; done; kubectl get pods; }
check "low pods running" "running" running
check "apply preemptor" "pod/trainer created" kubectl apply -f $dir/high.yaml
bound() { for i in $(seq 150); do n=$(kubectl get pod trainer -o jsonpath='{.spec.nodeName}'); [ -n "$n" ] && { echo "bound to $n"; return; }; sleep 0.2; done; kubectl get pods; }
check "preemptor bound" "bound to node-b" bound
check "nominated" "node-b" kubectl get pod trainer -o jsonpath='{.status.nominatedNodeName}'
check "victim gone" 'pods "batch-low-b" not found' kubectl get pod batch-low-b
check "others kept" "batch-a1 batch-a2 cpu-only-b plain service-b trainer" \
  sh -c "kubectl get pods -o jsonpath='{range .items[*]}{.metadata.name}{\" \"}{end}' | tr ' ' '\n' | sort | tr '\n' ' '"
check "freed GPU" "gpu.example.com/node-b" sh -c "kubectl get resourceclaims -o wide | grep trainer"
check "event" "Preempted by pod $(kubectl get pod trainer -o jsonpath='{.metadata.uid}') on node node-b" kubectl get events
summary
