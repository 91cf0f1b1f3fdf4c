#!/bin/sh
# serve_etcd_lost_write.sh: a pod is never bound unless its claim's
# allocation is committed (docs/store.md "etcd backend", "A write whose
# outcome is unknown"). `dra serve` on etcd reaches it through
# tests/lib/stall_proxy.py, which loses the scheduler's write of a claim's
# allocation and reservation (an update of a /registry/resourceclaims/ key)
# as an etcd member that dies would:
# 1. the write is lost on its way (never reaches etcd): the pod must not
#    be bound then (tests/ha run 9 found a pod bound whose claim was never
#    allocated); it is tried again and bound with its claim allocated;
# 2. the write reaches etcd and its answer is lost: the scheduler cannot
#    know, reads the claim back, and binds the pod on the allocation etcd
#    has, without allocating a second device.
# Each time the pod's FailedScheduling Event names the write that failed.
# Skipped (exit 77) without build/upstream/etcd (`make etcd`), kubectl,
# curl or python3.
dra=${1:-build/dra}
case $dra in /*) ;; *) dra=$(pwd)/$dra ;; esac
. tests/lib/serve.sh
. tests/lib/etcd.sh
cleanup='kill $proxy; kill $server; wait $server 2>/dev/null; stop_etcd'
serve_on_etcd_setup serve_etcd_lost_write
skip_without python3 serve_etcd_lost_write
export DRA_LEADER_ELECTION_TIMINGS=4,2,0.5

# the compare of an update (not a create) of a claim's key in a transaction
claims=$(printf /registry/resourceclaims | base64)
start_stall_proxy "\"key\":\"$claims[^\"]*\",\"target\":\"MOD\""
serve "$tmp/a" --etcd-servers "http://127.0.0.1:$proxy_port"
until_true 10 grep -q 'acquired the controllers' "$tmp/serve.log"
kb="kubectl --kubeconfig $tmp/a/kubeconfig"
check "cluster created" 'resourceslice.resource.k8s.io/node-1-gpus created' $kb apply -f tests/data/serve/cluster.yaml

bound() { [ -n "$($kb get pod "$1" -o jsonpath='{.spec.nodeName}')" ]; }
# what a bound pod's claim holds: the node, the devices allocated, whom it is reserved for
bound_claim() { # pod
  claim=$($kb get pod "$1" -o jsonpath='{.status.resourceClaimStatuses[0].resourceClaimName}')
  echo "node=$($kb get pod "$1" -o jsonpath='{.spec.nodeName}')" \
    "$($kb get resourceclaim "$claim" -o jsonpath='devices=[{.status.allocation.devices.results[*].device}] reservedFor=[{.status.reservedFor[*].name}]')"
}
failed_scheduling() { # pod
  $kb get events --field-selector "involvedObject.name=$1,reason=FailedScheduling" -o jsonpath='{range .items[*]}{.message}{"\n"}{end}'
}
lose() { # signal, event, pod: the fault armed, the pod created, and what became of it
  kill "-$1" $proxy
  sed "s/name: trainer/name: $3/" tests/data/serve/pod.yaml | $kb apply -f - >/dev/null
  until_true 20 grep -q " $2 " "$tmp/proxy.events"
  check "$3: the proxy lost the claim's write ($2)" "$2" grep -E " $2 [0-9]+ /v3/kv/txn" "$tmp/proxy.events"
  until_true 20 bound "$3"
  check "$3: bound on the node of its claim's device, the claim reserved for it" \
    "node=node-1 devices=[gpu-0] reservedFor=[$3]" bound_claim "$3"
  check "$3: its FailedScheduling Event names the write" \
    "running PreBind plugin \"DynamicResources\": add allocation and reservation to claim default/$3-gpu-" \
    failed_scheduling "$3"
}
lose TTIN lost trainer-1
$kb delete pod trainer-1 --wait=false >/dev/null
until_true 20 sh -c "! $kb get resourceclaims -o name | grep -q ."
lose TTOU unanswered trainer-2
check "one claim, one device" "gpu-0" $kb get resourceclaims -o jsonpath='{range .items[*]}{.status.allocation.devices.results[*].device}{"\n"}{end}'
summary
