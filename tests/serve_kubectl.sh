#!/bin/sh
# dra serve end to end with the machine's kubectl: apply the seed examples,
# watch a pod go from Pending to bound, see the allocation in
# `kubectl get resourceclaims -o yaml`, delete the pod and see its generated
# claim go, get kubectl's usual error for invalid manifests, and read the
# scheduling events in `kubectl describe pod`.
dra=${1:-build/dra}
. tests/lib/serve.sh
skip_without kubectl serve_kubectl
serve "$tmp/data"
export KUBECONFIG="$tmp/data/kubeconfig"
for f in examples/00-namespaces.yaml examples/10-device-classes.yaml examples/20-slices-cats.yaml \
         examples/21-slice-list-attributes.yaml examples/30-templates.yaml examples/40-claims.yaml examples/50-podgroup.yaml; do
  check "apply $f" "created" kubectl apply -f "$f"
done
check "api-resources" "resourceclaims" kubectl api-resources
check "cluster" "resourceslice.resource.k8s.io/node-1-gpus created" kubectl apply -f tests/data/serve/cluster.yaml
check "pod" "pod/trainer created" kubectl apply -f tests/data/serve/pod.yaml
check "pod bound" "condition met" kubectl wait --for=jsonpath='{.spec.nodeName}'=node-1 pod/trainer --timeout=20s
check "claim allocated" "device: gpu-0" kubectl get resourceclaims -o yaml
check "claim table" "allocated,reserved" kubectl get resourceclaims
check "describe" "Successfully assigned default/trainer to node-1" kubectl describe pod trainer
claim=$(kubectl get pod trainer -o jsonpath='{.status.resourceClaimStatuses[0].resourceClaimName}')
check "generated claim named" "trainer-gpu-" echo "$claim"
check "delete pod" "deleted" kubectl delete pod trainer --wait=false
gone() { for i in $(seq 100); do kubectl get resourceclaim "$1" 2>&1 | grep -q NotFound && { echo gone; return; }; sleep 0.2; done; }
check "generated claim deleted" "gone" gone "$claim"
check "invalid: unknown field" 'strict decoding error: unknown field "spec.devices.requests[0].exactly.name"' \
  kubectl apply -f examples/invalid/name-inside-exactly.yaml
check "invalid: 422" 'is invalid: spec.devices[0].attributes: Invalid value: "supported-models"' \
  kubectl apply -f examples/invalid/list-attribute-not-c-identifier.yaml
check "not found" 'resourceclaims.resource.k8s.io "nope" not found' kubectl get resourceclaim nope
summary
