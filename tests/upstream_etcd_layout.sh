#!/bin/sh
# upstream_etcd_layout.sh: the mutual proof of the etcd layout (issue 16,
# docs/store.md "etcd backend"). `dra serve --etcd-servers` writes one
# object of every DRA kind and the core kinds around them
# (tests/upstream/e2e/layout/objects.yaml: Namespace, Node, Pod, Events of
# core/v1 and events.k8s.io/v1), lets its controllers schedule the pod,
# and stops; a real kube-apiserver 1.37 started on the same etcd (JSON
# storage) then answers `kubectl get -o json` of every kind exactly as dra
# serve did. The reverse: kube-apiserver writes the same objects (with the
# claim's allocation and the pod's binding that a scheduler would write),
# stops, and dra serve reads them back identically. Also: both sides put
# their objects under the same keys, and Events on a lease of --event-ttl
# plus kube-apiserver's reuse window.
# Skipped (77) without build/upstream/etcd and kube-apiserver (make
# upstream-e2e), kubectl, python3, curl or openssl.
dra=${1:-build/dra}
case $dra in /*) ;; *) dra=$(pwd)/$dra ;; esac
. tests/lib/serve.sh
. tests/lib/kube_apiserver.sh
upstream_setup upstream_etcd_layout kube-apiserver
layout=tests/upstream/e2e/layout
kinds="namespaces nodes deviceclasses.v1.resource.k8s.io resourceslices.v1.resource.k8s.io
  resourceclaimtemplates.v1.resource.k8s.io resourceclaims.v1.resource.k8s.io devicetaintrules.v1.resource.k8s.io
  pods events events.v1.events.k8s.io"
for side in a b; do sed "s/SUFFIX/$side/g" $layout/objects.yaml >"$tmp/objects-$side.yaml"; done
snapshot() { # kubeconfig, side (a or b), dir: the side's objects of every kind
  mkdir -p "$3"
  for kind in $kinds; do
    case $kind in namespaces | nodes | deviceclasses* | resourceslices* | devicetaintrules*) scope="-l layout=$2" ;; *) scope="-n layout-$2" ;; esac
    kubectl --kubeconfig "$1" get "$kind" $scope -o json --show-managed-fields >"$3/$kind.json" 2>"$3/$kind.err" ||
      echo "get $kind: $(cat "$3/$kind.err")" >"$3/$kind.json"
  done
}
# Both serve one Event resource in two groups (docs/server.md "One Event in
# two groups"): each group's list holds the Events written through either,
# the core/v1 and the events.k8s.io/v1 one of objects.yaml among them.
compare() { # what, dir of the writer, dir of the reader
  for kind in $kinds; do
    case $kind in events*) want="trainer.core trainer.events" ;; *) want= ;; esac
    out=$(python3 $layout/../same_objects.py "$2/$kind.json" "$3/$kind.json" 2>&1)
    case $out in
    *" 0 differences")
      if printf '%s' "$out" | grep -q "^0 objects" || ! has_events "$3/$kind.json" "$want"; then
        failed=$((failed + 1)); echo "FAIL $1: no $kind ($want) in common:"; printf '%s\n' "$out" | head -20
      else passed=$((passed + 1)); fi ;;
    *) failed=$((failed + 1)); echo "FAIL $1: $kind differs:"; printf '%s\n' "$out" | head -20 ;;
    esac
  done
}
has_events() { # list file, names: every name is an item of the list
  for name in $2; do grep -q "\"name\": \"$name\"" "$1" || return 1; done
}
b64() { printf %s "$1" | base64 -w0; }
key_count() { # key: 1 when etcd holds it
  curl -sf --max-time 5 "$etcd_url/v3/kv/range" -d "{\"key\":\"$(b64 "$1")\",\"count_only\":true}" |
    sed -n 's/.*"count":"\([0-9]*\)".*/\1/p'
}
# the keys of objects.yaml as k8s.io/kubernetes test/integration/etcd
# data.go expects them for 1.37 (S the side)
keys="namespaces/layout-S minions/node-S deviceclasses/gpu-S resourceslices/node-S-gpu
  resourceclaimtemplates/layout-S/one-gpu resourceclaims/layout-S/shared devicetaintrules/drain-S
  pods/layout-S/trainer events/layout-S/trainer.core events/layout-S/trainer.events"
check_keys() { # side, writer
  for key in $keys; do
    key=/registry/$(echo "$key" | sed "s/-S/-$1/g")
    check "$2 wrote $key" "$key: 1" echo "$key: $(key_count "$key")"
  done
}
event_lease_ttl() { # side: the granted TTL of the lease its core Event sits on
  lease=$(curl -sf --max-time 5 "$etcd_url/v3/kv/range" -d "{\"key\":\"$(b64 /registry/events/layout-$1/trainer.core)\"}" |
    sed -n 's/.*"lease":"\([0-9]*\)".*/\1/p')
  curl -sf --max-time 5 "$etcd_url/v3/lease/timetolive" -d "{\"ID\":\"${lease:-0}\"}" | sed -n 's/.*"grantedTTL":"\([0-9]*\)".*/\1/p'
}

# ---- dra serve writes, kube-apiserver reads ----
serve "$tmp/dra-a" --etcd-servers "$etcd_url" --etcd-compaction-interval 0
[ -n "$url" ] || { cat "$tmp/serve.log"; echo "FAIL dra serve did not start"; exit 1; }
ka_a="--kubeconfig $tmp/dra-a/kubeconfig"
check "dra serve: create" 'pod/trainer created' kubectl $ka_a apply -f "$tmp/objects-a.yaml"
check "dra serve: node status" 'patched' kubectl $ka_a patch node node-a --subresource=status --type=merge --patch-file $layout/node-status.json
check "dra serve: the pod is bound" 'node-a' sh -c "for i in \$(seq 100); do n=\$(kubectl $ka_a get pod trainer -n layout-a -o jsonpath='{.spec.nodeName}'); [ -n \"\$n\" ] && break; sleep 0.1; done; echo \$n"
check "dra serve: the claim is allocated" 'gpu-' kubectl $ka_a get resourceclaim shared -n layout-a -o jsonpath='{.status.allocation.devices.results[*].device}'
sleep 1 # the node simulator's pod status and the scheduler's events
snapshot "$tmp/dra-a/kubeconfig" a "$tmp/a-by-dra"
kill $server; wait $server; server=
start_kube_apiserver "$ka" "$etcd_url" || { echo "FAIL kube-apiserver did not start"; exit 1; }
snapshot "$ka/kubeconfig" a "$tmp/a-by-kube"
compare "kube-apiserver reads what dra serve wrote" "$tmp/a-by-dra" "$tmp/a-by-kube"

# ---- kube-apiserver writes, dra serve reads ----
kb="--kubeconfig $ka/kubeconfig"
kubectl $kb apply -f "$tmp/objects-b.yaml" >"$tmp/apply-b.out" 2>&1 # the pod waits for its service account
kubectl $kb create serviceaccount default -n layout-b >/dev/null
check "kube-apiserver: create" 'pod/trainer created' kubectl $kb apply -f "$tmp/objects-b.yaml"
check "kube-apiserver: node status" 'patched' kubectl $kb patch node node-b --subresource=status --type=merge --patch-file $layout/node-status.json
uid=$(kubectl $kb get pod trainer -n layout-b -o jsonpath='{.metadata.uid}')
check "kube-apiserver: the claim's allocation" 'patched' kubectl $kb patch resourceclaim shared -n layout-b --subresource=status --type=merge -p "
{\"status\": {\"allocation\": {\"devices\": {\"results\": [{\"request\": \"gpu/one\", \"driver\": \"gpu.example.com\", \"pool\": \"node-b\", \"device\": \"gpu-0\"}]},
  \"nodeSelector\": {\"nodeSelectorTerms\": [{\"matchFields\": [{\"key\": \"metadata.name\", \"operator\": \"In\", \"values\": [\"node-b\"]}]}]}},
  \"reservedFor\": [{\"resource\": \"pods\", \"name\": \"trainer\", \"uid\": \"$uid\"}]}}"
printf '{"apiVersion":"v1","kind":"Binding","metadata":{"name":"trainer","namespace":"layout-b"},"target":{"kind":"Node","name":"node-b"}}' >"$tmp/binding.json"
check "kube-apiserver: binding" 'created' kubectl $kb create -f "$tmp/binding.json"
snapshot "$ka/kubeconfig" b "$tmp/b-by-kube"
check_keys a "dra serve"
check_keys b kube-apiserver
stop_kube_apiserver "$ka"
serve "$tmp/dra-b" --etcd-servers "$etcd_url" --etcd-compaction-interval 0 --controllers=-scheduler
[ -n "$url" ] || { cat "$tmp/serve.log"; echo "FAIL dra serve did not start on kube-apiserver's etcd"; exit 1; }
snapshot "$tmp/dra-b/kubeconfig" b "$tmp/b-by-dra"
compare "dra serve reads what kube-apiserver wrote" "$tmp/b-by-kube" "$tmp/b-by-dra"
check "Events on a lease of --event-ttl and the reuse window, as kube-apiserver's" "dra 3660, kube-apiserver 3660" \
  echo "dra $(event_lease_ttl a), kube-apiserver $(event_lease_ttl b)"
# every object of a kind dra serves is served, kube-apiserver's own included
if grep 'not served' "$tmp/serve.log" >"$tmp/unserved"; then
  failed=$((failed + 1)); echo "FAIL dra serve left objects kube-apiserver wrote unserved:"; head -20 "$tmp/unserved"
else passed=$((passed + 1)); fi
summary
