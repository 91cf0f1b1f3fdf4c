#!/bin/sh
# dra serve with kubectl: a gang preempting a gang live
# (tests/data/preemption/gang-cpu). Gang "batch" fills both nodes; gang
# "train" (priority 1000) can only reach its minCount 2 by evicting. The
# two batch pods on the node train is proposed for are evicted (Single
# mode), the node simulator deletes them, and both train pods bind there
# on the retry: their nominations count for neither once placed.
dra=${1:-build/dra}
. tests/lib/serve.sh
skip_without kubectl serve_preemption_gang
serve "$tmp/data"
export KUBECONFIG="$tmp/data/kubeconfig"
dir=tests/data/preemption/gang-cpu
check "apply batch" "pod/batch-3 created" kubectl apply -f $dir/cluster.yaml
running() { # prefix, count
  for i in $(seq 150); do
    n=$(kubectl get pods -o jsonpath='{range .items[*]}{.metadata.name}{" "}{.status.phase}{"\n"}{end}' | grep "^$1" | grep -c Running)
    [ "$n" -ge "$2" ] && { echo "$n running"; return; }
    sleep 0.2
  done
  kubectl get pods -o wide
}
check "batch running" "4 running" running batch 4
check "apply train" "pod/train-1 created" kubectl apply -f $dir/high.yaml
check "train running" "2 running" running train 2
check "both on one node" "node-a node-a" kubectl get pods train-0 train-1 -o jsonpath='{.items[0].spec.nodeName} {.items[1].spec.nodeName}'
check "victims gone, the others kept" "batch-2 batch-3 train-0 train-1" \
  sh -c "kubectl get pods -o jsonpath='{range .items[*]}{.metadata.name}{\" \"}{end}'"
check "event" "Preempted by podgroup $(kubectl get podgroup train -o jsonpath='{.metadata.uid}') on node cluster" kubectl get events
check "group scheduled" "True" kubectl get podgroup train -o jsonpath='{.status.conditions[0].status}'
summary
