#!/bin/sh
# serve_nodesim.sh: the node simulator under kubectl. A pod bound to a node
# runs (its claim's device prepared, an Event says which; the kubelet's
# conditions, so `kubectl wait --for=condition=Ready` works; READY 1/1),
# a Job whose pods carry dra.k8s.io/run-duration completes, a Deployment's
# pods all run, a graceful delete goes through the Terminating state and
# the pod is gone, nodes report kubelet's conditions and say they are
# simulated, and the pods of a deleted node are collected.
dra=${1:-build/dra}
. tests/lib/serve.sh
skip_without kubectl serve_nodesim
serve "$tmp/data"
export KUBECONFIG="$tmp/data/kubeconfig"
check "cluster" "resourceslice.resource.k8s.io/node-2-gpus created" kubectl apply -f tests/data/workloads/serve/cluster.yaml
check "workloads" "deployment.apps/web created" kubectl apply -f tests/data/nodesim/workloads.yaml
pod='pod/trainer'
check "pod Ready" "condition met" kubectl wait --for=condition=Ready $pod --timeout=20s
check "phase Running" "Running" kubectl get $pod -o jsonpath='{.status.phase}'
check "kubelet's conditions, in its order" "PodReadyToStartContainers=True Initialized=True Ready=True ContainersReady=True PodScheduled=True " \
  kubectl get $pod -o jsonpath='{range .status.conditions[*]}{.type}={.status}{" "}{end}'
check "get pods: READY and STATUS" "trainer   1/1     Running   0" kubectl get pods trainer
check "get pods -o wide: IP and node" "10.244." kubectl get pods trainer -o wide
check "get pods -o wide: claims last" "one-gpu" kubectl get pods trainer -o wide
check "container running" "train:true:true:0" \
  kubectl get $pod -o jsonpath='{range .status.containerStatuses[*]}{.name}:{.ready}:{.started}:{.restartCount}{end}'
check "container startedAt" "T" kubectl get $pod -o jsonpath='{.status.containerStatuses[0].state.running.startedAt}'
check "image normalized" "registry.example.com/ml/train:v2" kubectl get $pod -o jsonpath='{.status.containerStatuses[0].image}'
check "imageID" "registry.example.com/ml/train@sha256:" kubectl get $pod -o jsonpath='{.status.containerStatuses[0].imageID}'
check "containerID" "dra-sim://" kubectl get $pod -o jsonpath='{.status.containerStatuses[0].containerID}'
check "init container completed first" "fetch:Completed:0:docker.io/library/busybox:latest" \
  kubectl get $pod -o jsonpath='{range .status.initContainerStatuses[*]}{.name}:{.state.terminated.reason}:{.state.terminated.exitCode}:{.image}{end}'
check "hostIP and podIP" "172.18." kubectl get $pod -o jsonpath='{.status.hostIP} {.status.podIPs[0].ip} {.status.startTime}'
check "claim prepared: Event" "Prepared ResourceClaim one-gpu: driver gpu.example.com devices node-" \
  kubectl get events --field-selector reason=PreparedDynamicResources -o jsonpath='{.items[*].message}'
check "describe pod" "PreparedDynamicResources" kubectl describe $pod
check "job completes" "condition met" kubectl wait --for=condition=Complete job/short --timeout=30s
check "job counts" "2" kubectl get job short -o jsonpath='{.status.succeeded}'
check "job conditions" "SuccessCriteriaMet Complete" kubectl get job short -o jsonpath='{.status.conditions[*].type}'
check "job pods Succeeded" "Succeeded Succeeded" kubectl get pods -l job-name=short -o jsonpath='{.items[*].status.phase}'
check "job pods Completed" "0/1     Completed" kubectl get pods -l job-name=short
check "terminated exit 0" "0:Completed" \
  kubectl get pods -l job-name=short -o jsonpath='{.items[0].status.containerStatuses[0].state.terminated.exitCode}:{.items[0].status.containerStatuses[0].state.terminated.reason}'
check "succeeded pod not Ready" "PodCompleted" \
  kubectl get pods -l job-name=short -o jsonpath='{.items[0].status.conditions[?(@.type=="Ready")].reason}'
check "deployment available" "condition met" kubectl wait --for=condition=Ready pod -l app=web --timeout=20s
running() { kubectl get pods -l app=web -o jsonpath='{range .items[*]}{.status.phase}{" "}{end}'; }
check "deployment pods Running" "Running Running Running " running
check "deployment ready" "3/3" kubectl get deploy web
check "node Ready" "node-1   Ready" kubectl get nodes
check "node conditions" "MemoryPressure=False DiskPressure=False PIDPressure=False Ready=True " \
  kubectl get node node-1 -o jsonpath='{range .status.conditions[*]}{.type}={.status}{" "}{end}'
check "node Ready reason" "KubeletReady" kubectl get node node-1 -o jsonpath='{.status.conditions[3].reason}'
check "node labels as kubelet registers them" "linux node-1" kubectl get node node-1 -o jsonpath='{.metadata.labels.kubernetes\.io/os} {.metadata.labels.kubernetes\.io/hostname}'
check "describe node: simulated" "dra.k8s.io/simulated-by: node-simulator" kubectl describe node node-1
check "describe node: runtime" "Container Runtime Version:  dra-sim://" kubectl describe node node-1
# capacity and allocatable: KWOK's fake node's on a Node with neither, so
# describe's percentages are sane; a Node's own are kept, the other copied
printf 'apiVersion: v1\nkind: Node\nmetadata: {name: bare}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: small}\nstatus: {capacity: {cpu: "4", memory: 16Gi, pods: "20"}}\n' |
  kubectl apply -f - >/dev/null
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: sized}\nspec:\n  nodeName: bare\n  containers: [{name: c, image: x, resources: {requests: {cpu: "8", memory: 64Gi}}}]\n' |
  kubectl apply -f - >/dev/null
resources() { kubectl get node "$1" -o jsonpath='{.status.capacity} {.status.allocatable}'; }
ready() { for i in $(seq 100); do kubectl get node "$1" | grep -q ' Ready' && break; sleep 0.1; done; resources "$1"; }
check "KWOK's capacity and allocatable" '{"cpu":"32","memory":"256Gi","pods":"110"} {"cpu":"32","memory":"256Gi","pods":"110"}' ready bare
check "own capacity kept, allocatable the same" '{"cpu":"4","memory":"16Gi","pods":"20"} {"cpu":"4","memory":"16Gi","pods":"20"}' ready small
check "own allocatable kept, capacity the same" '{"cpu":"8","memory":"32Gi","pods":"110"} {"cpu":"8","memory":"32Gi","pods":"110"}' resources node-1
check "sized pod Running" "condition met" kubectl wait --for=condition=Ready pod/sized --timeout=20s
allocated() { kubectl describe node bare | sed -n '/^Allocated resources/,/^Events/p' | grep -E '^  (cpu|memory) ' | tr -s ' '; }
check "describe node: cpu allocated 25%" " cpu 8 (25%) 0 (0%)" allocated
check "describe node: memory allocated 25%" " memory 64Gi (25%) 0 (0%)" allocated
describe_capacity() { kubectl describe node bare | sed -n "/^Capacity:/,/^Allocatable:/p" | tr -s " "; }
check "describe node: Capacity pods" " pods: 110" describe_capacity
# graceful delete: Terminating with deletionTimestamp and the grace period,
# then the simulated kubelet deletes it for good
check "graceful delete" "deleted" kubectl delete $pod --grace-period=60 --wait=false
gone() { for i in $(seq 100); do kubectl get "$1" 2>&1 | grep -q NotFound && { echo gone; return; }; sleep 0.1; done; kubectl get "$1" -o yaml; }
check "deleted pod gone" "gone" gone $pod
check "claim released" "one-gpu   pending" kubectl get resourceclaim one-gpu
check "claim released: no devices, no consumers (-o wide)" "<none>    <none>" kubectl get resourceclaim one-gpu -o wide
check "delete with the default grace period" "deleted" kubectl delete pods -l app=web --wait=true --timeout=20s
check "deployment makes new pods, Running" "condition met" kubectl wait --for=condition=Ready pod -l app=web --timeout=20s
# a pod bound to a node that does not exist stays until the pod garbage
# collector's 40 s quarantine; with --controllers without it, it stays
orphan() { printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: %s}\nspec:\n  nodeName: %s\n  containers: [{name: c, image: x}]\n' "$1" "$2"; }
orphan lost node-9 | kubectl apply -f - >/dev/null
check "orphan stays Pending" "Pending" kubectl get pod lost -o jsonpath='{.status.phase}'
# bound by hand to a claim that does not exist: the claim cannot be
# prepared, the container waits, as kubelet shows it
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: no-claim}\nspec:\n  nodeName: node-2\n  containers: [{name: c, image: x, resources: {claims: [{name: g}]}}]\n  resourceClaims: [{name: g, resourceClaimName: missing}]\n' |
  kubectl apply -f - >/dev/null
creating() { for i in $(seq 100); do kubectl get pod no-claim | grep -q ContainerCreating && break; sleep 0.1; done; kubectl get pod no-claim; }
check "claim missing: ContainerCreating" "no-claim   0/1     ContainerCreating   0" creating
check "claim missing: Event" 'Failed to prepare dynamic resources: prepare dynamic resources: fetch ResourceClaim missing: resourceclaims.resource.k8s.io "missing" not found' \
  kubectl get events --field-selector reason=FailedPrepareDynamicResources -o jsonpath='{.items[*].message}'
check "claim missing: not ready" "ContainersNotReady containers with unready status: [c]" \
  kubectl get pod no-claim -o jsonpath='{.status.conditions[?(@.type=="Ready")].reason} {.status.conditions[?(@.type=="Ready")].message}'
# without the node simulator a bound pod stays Pending, and a delete leaves
# it Terminating for its grace period, as kube-apiserver does with no kubelet
kill $server; wait $server 2>/dev/null
serve "$tmp/data2" --controllers='*,-node-simulator'
export KUBECONFIG="$tmp/data2/kubeconfig"
printf 'apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\n' | kubectl apply -f - >/dev/null
orphan still node-1 | kubectl apply -f - >/dev/null
check "no simulator: Pending" "Pending" kubectl get pod still -o jsonpath='{.status.phase}'
check "no simulator: node status not reported" "Unknown" kubectl get nodes
check "graceful delete" "deleted" kubectl delete pod still --grace-period=45 --wait=false
check "Terminating" "still   0/1     Terminating" kubectl get pod still
check "deletionGracePeriodSeconds" "45" kubectl get pod still -o jsonpath='{.metadata.deletionGracePeriodSeconds}'
check "a longer grace period does not extend it" "45" sh -c \
  "kubectl delete pod still --grace-period=100 --wait=false >/dev/null; kubectl get pod still -o jsonpath='{.metadata.deletionGracePeriodSeconds}'"
check "a shorter one brings it closer" "5" sh -c \
  "kubectl delete pod still --grace-period=5 --wait=false >/dev/null; kubectl get pod still -o jsonpath='{.metadata.deletionGracePeriodSeconds}'"
check "grace period 0 deletes at once" "deleted" kubectl delete pod still --grace-period=0 --force
check "gone" "NotFound" kubectl get pod still
summary
