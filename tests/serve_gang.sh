#!/bin/sh
# dra serve with kubectl: a gang PodGroup whose minCount cannot be met binds
# none of its pods (kubectl get podgroups says Unschedulable, kubectl
# describe pod shows GangScheduling's FailedScheduling message); lowering
# minCount (mutable) lets the group in, the pods that fit bind and the
# condition turns Scheduled. Workloads are served with their table.
dra=${1:-build/dra}
. tests/lib/serve.sh
skip_without kubectl serve_gang
serve "$tmp/data"
export KUBECONFIG="$tmp/data/kubeconfig"
in=tests/data/sched/gang-mincount-unmet/input.yaml
check "apply gang" "podgroup.scheduling.k8s.io/training created" kubectl apply -f "$in"
unschedulable() { for i in $(seq 100); do kubectl get podgroups -n ml 2>&1 | grep -q Unschedulable && { kubectl get podgroups -n ml; return; }; sleep 0.2; done; }
check "group unschedulable" "Gang     <none>     Unschedulable" unschedulable
check "condition" "minCount (4) cannot be satisfied: 3 scheduled, 0 remaining" \
  kubectl get podgroup training -n ml -o jsonpath='{.status.conditions[0].message}'
check "none bound" "<none> <none> <none> <none>" \
  sh -c "kubectl get pods -n ml -o jsonpath='{range .items[*]}{.spec.nodeName}{\"<none> \"}{end}' | sed 's/ $//'"
check "event" "minCount (4) cannot be satisfied: 3 scheduled, 0 remaining" kubectl describe pod worker-0 -n ml
check "lower minCount" "patched" kubectl patch podgroup training -n ml --type merge \
  -p '{"spec":{"schedulingPolicy":{"gang":{"minCount":3}}}}'
scheduled() { for i in $(seq 100); do kubectl get podgroups -n ml 2>&1 | grep -q Scheduled && { kubectl get podgroups -n ml; return; }; sleep 0.2; done; }
check "group scheduled" "Scheduled" scheduled
bound() { for i in $(seq 100); do n=$(kubectl get pods -n ml -o jsonpath='{range .items[*]}{.spec.nodeName}{" "}{end}' | wc -w); [ "$n" = 3 ] && { echo "3 bound"; return; }; sleep 0.2; done; }
check "three bound" "3 bound" bound
check "workload" "workload.scheduling.k8s.io/training-job created" kubectl apply -f examples/00-namespaces.yaml -f examples/51-workload.yaml
check "workloads table" "training-job" kubectl get workloads -n some-ns
check "gang podgroup table" "training-job-workers-0   Gang     training-job" kubectl get podgroups -n some-ns
summary
