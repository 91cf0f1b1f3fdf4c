#!/bin/sh
# dra serve end to end with the machine's kubectl: apply the seed examples,
# watch a pod go from Pending to bound, see the allocation in
# `kubectl get resourceclaims -o yaml`, delete the pod and see its generated
# claim go, get kubectl's usual error for invalid manifests, and read the
# scheduling events in `kubectl describe pod`.
dra=${1:-build/dra}
if ! command -v kubectl >/dev/null 2>&1; then
  echo "serve_kubectl: skipped: kubectl not found"
  echo "0 passed, 0 failed, 1 skipped"
  exit 0
fi
. tests/lib/server.sh
tmp=$(mktemp -d)
start_server "$dra" "$tmp/data"
trap 'stop_server; rm -rf "$tmp"' EXIT
export KUBECONFIG="$tmp/data/kubeconfig"
passed=0; failed=0
check() { # name, expected substring, command...
  name=$1; want=$2; shift 2
  out=$("$@" 2>&1)
  if printf '%s' "$out" | grep -qF -- "$want"; then passed=$((passed+1))
  else failed=$((failed+1)); echo "FAIL $name: wanted '$want', got:"; printf '%s\n' "$out" | head -20; fi
}
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
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
