#!/bin/sh
# dra serve with kubectl: the gang of tests/data/sched/gang-joint, which
# kube-scheduler's greedy pod-group cycle cannot place (its first pods take
# the GPUs the later ones need), is bound whole by the joint placement
# (the default) with the devices rearranged, and /metrics counts the
# search; restarted with --gang-placement=upstream on a fresh data dir the
# same gang stays pending with GangScheduling's message. With
# --gang-search-max-steps 1 the search stops at once, the group is
# Unschedulable, and with no change to the cluster it is tried again after
# its backoff (1 s, then 2 s): the aborted searches grow.
dra=${1:-build/dra}
. tests/lib/serve.sh
skip_without kubectl serve_gang_joint
in=tests/data/sched/gang-joint/input.yaml
group_status() { # status to wait for
  for i in $(seq 100); do kubectl get podgroups -n ml 2>&1 | grep -q "$1" && { kubectl get podgroups -n ml; return; }; sleep 0.2; done
  kubectl get podgroups -n ml
}
nodes() { kubectl get pods -n ml -o jsonpath='{range .items[*]}{.spec.nodeName}{"<none> "}{end}' | sed 's/ $//'; }

serve "$tmp/joint"
export KUBECONFIG="$tmp/joint/kubeconfig"
check "apply gang" "podgroup.scheduling.k8s.io/training created" kubectl apply -f "$in"
check "joint: group scheduled" "Scheduled" group_status Scheduled
check "joint: all bound" "node-1<none> node-1<none> node-1<none> node-1<none>" nodes
check "joint: model-a pods on model a" "gpu-0 gpu-1" \
  kubectl get resourceclaims -n ml -o jsonpath='{.items[2].status.allocation.devices.results[0].device} {.items[3].status.allocation.devices.results[0].device}'
check "joint: metrics" 'dra_gang_joint_searches_total{result="placed"} 1' curl -s "$url/metrics"
kill $server; wait $server 2>/dev/null

serve "$tmp/upstream" --gang-placement=upstream
export KUBECONFIG="$tmp/upstream/kubeconfig"
check "apply gang again" "podgroup.scheduling.k8s.io/training created" kubectl apply -f "$in"
check "upstream: group unschedulable" "Unschedulable" group_status Unschedulable
check "upstream: none bound" "<none> <none> <none> <none>" nodes
check "upstream: message" "minCount (4) cannot be satisfied: 2 scheduled, 1 remaining" \
  kubectl get podgroup training -n ml -o jsonpath='{.status.conditions[0].message}'
check "upstream: no search" 'dra_gang_joint_searches_total{result="placed"} 0' curl -s "$url/metrics"
kill $server; wait $server 2>/dev/null

serve "$tmp/budget" --gang-search-max-steps 1
export KUBECONFIG="$tmp/budget/kubeconfig"
check "apply gang on a budget" "podgroup.scheduling.k8s.io/training created" kubectl apply -f "$in"
check "budget: group unschedulable" "Unschedulable" group_status Unschedulable
check "budget: none bound" "<none> <none> <none> <none>" nodes
aborted() { curl -s "$url/metrics" | sed -n 's/^dra_gang_joint_searches_total{result="aborted"} //p'; }
retried() { # the aborted searches grow past $1 without any change to the cluster
  for i in $(seq 40); do [ "$(aborted)" -gt "$1" ] && { echo retried; return; }; sleep 0.25; done
  echo "still $(aborted)"
}
first=$(aborted)
check "budget: searched and stopped" "yes" sh -c "[ '${first:-0}' -ge 1 ] && echo yes"
check "budget: retried after backoff" "retried" retried "$first"
check "bad flag" "want joint or upstream" "$dra" serve --gang-placement=greedy
check "bad budget flag" "--gang-search-timeout: want a duration" "$dra" serve --gang-search-timeout=soon
check "bad allocator flag" "--allocator-max-steps: want a positive integer" "$dra" serve --allocator-max-steps=0
summary
