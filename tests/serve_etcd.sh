#!/bin/sh
# serve_etcd.sh: `dra serve --etcd-servers` on the etcd of `make etcd`
# (docs/store.md "etcd backend"): kubectl create, get, list, watch, update and
# delete; a stale resourceVersion is 409 Conflict; resourceVersions are
# etcd's mod_revisions; the raw keys read through etcd's gateway are
# kube-apiserver's (/registry/resourceclaims/<ns>/<name>, Nodes under
# /registry/minions, DeviceTaintRules as v1beta2) and the values hold no
# resourceVersion; Events sit on a lease of --event-ttl; after a restart
# the data is back, through the second of two URLs when the first is
# down; after a compaction a watch from before it gets one ERROR event,
# the watch cache's 410 Expired.
# Skipped (exit 77) without build/upstream/etcd (`make etcd`), kubectl or curl.
dra=${1:-build/dra}
case $dra in /*) ;; *) dra=$(pwd)/$dra ;; esac
. tests/lib/serve.sh
. tests/lib/etcd.sh
cleanup=stop_etcd
serve_on_etcd_setup serve_etcd

k() { kubectl --kubeconfig "$tmp/d/kubeconfig" "$@"; }
b64() { printf %s "$1" | base64 -w0; }
raw() { # key: etcd's range reply for it, through the gateway
  curl -sf --max-time 5 "$etcd_url/v3/kv/range" -d "{\"key\":\"$(b64 "$1")\"}"
}
field() { # name: its value in a gateway reply on stdin ("mod_revision", "lease")
  sed -n "s/.*\"$1\":\"\\([0-9-]*\\)\".*/\\1/p"
}
value() { # key: the stored value, decoded
  raw "$1" | sed -n 's/.*"value":"\([^"]*\)".*/\1/p' | base64 -d
}

serve "$tmp/d" --etcd-servers "$etcd_url" --etcd-compaction-interval 0
cat >"$tmp/objs.yaml" <<'EOF'
apiVersion: v1
kind: Node
metadata: {name: node-1}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
spec: {selectors: [{cel: {expression: "device.driver == 'gpu.example.com'"}}]}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c1, namespace: default}
spec: {devices: {requests: [{name: r, exactly: {deviceClassName: gpu}}]}}
---
apiVersion: resource.k8s.io/v1
kind: DeviceTaintRule
metadata: {name: t1}
spec: {taint: {key: example.com/broken, effect: NoSchedule}, deviceSelector: {driver: gpu.example.com}}
EOF
check "kubectl create" 'resourceclaim.resource.k8s.io/c1 created' k create -f "$tmp/objs.yaml"
rv=$(k get resourceclaim c1 -o jsonpath='{.metadata.resourceVersion}')
mod=$(raw /registry/resourceclaims/default/c1 | field mod_revision)
check "get: resourceVersion is the key's mod_revision" "rv=$mod" echo "rv=$rv"
check "the claim's value" '"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim"' value /registry/resourceclaims/default/c1
check "no resourceVersion in the value" 'resourceVersion=0' echo "resourceVersion=$(value /registry/resourceclaims/default/c1 | grep -c resourceVersion)"
check "Nodes under /registry/minions" '"kind":"Node"' value /registry/minions/node-1
check "DeviceClass key" '"kind":"DeviceClass"' value /registry/deviceclasses/gpu
check "DeviceTaintRule stored as v1beta2" '"apiVersion":"resource.k8s.io/v1beta2","kind":"DeviceTaintRule"' value /registry/devicetaintrules/t1
check "list" 'c1' k get resourceclaims -A
list_rv=$(curl -s "$url/apis/resource.k8s.io/v1/namespaces/default/resourceclaims" | sed -n 's/.*"metadata":{"resourceVersion":"\([0-9]*\)".*/\1/p' | head -1)
[ "${list_rv:-0}" -ge "$rv" ] && passed=$((passed+1)) || { failed=$((failed+1)); echo "FAIL list resourceVersion $list_rv < $rv"; }

# watch from the claim's resourceVersion, then update it
curl -sN --max-time 4 "$url/apis/resource.k8s.io/v1/namespaces/default/resourceclaims?watch=1&resourceVersion=$rv" >"$tmp/watch.out" &
watcher=$!
sleep 0.5
check "update" 'labeled' k label resourceclaim c1 team=a
wait $watcher
rv2=$(k get resourceclaim c1 -o jsonpath='{.metadata.resourceVersion}')
check "watch sees the update at etcd's revision" "\"resourceVersion\":\"$rv2\"" cat "$tmp/watch.out"
check "watch event type" '"type":"MODIFIED"' cat "$tmp/watch.out"
check "the value holds the label" '"team":"a"' value /registry/resourceclaims/default/c1

# a stale resourceVersion: 409 Conflict, as kube-apiserver answers
stale=$(k get resourceclaim c1 -o json | sed "s/\"resourceVersion\": \"$rv2\"/\"resourceVersion\": \"$rv\"/")
check "stale update is a Conflict" 'the object has been modified; please apply your changes to the latest version and try again' sh -c "printf '%s' \"\$1\" | kubectl --kubeconfig $tmp/d/kubeconfig replace -f -" - "$stale"
check "create of an existing name" 'AlreadyExists' sh -c "kubectl --kubeconfig $tmp/d/kubeconfig create -f $tmp/objs.yaml 2>&1"

# Events go on a lease of --event-ttl (1h; kube-apiserver adds up to 60 s of reuse)
curl -sf "$url/api/v1/namespaces/default/events" -H 'Content-Type: application/json' -d '{"apiVersion":"v1","kind":"Event","metadata":{"name":"e1","namespace":"default"},"involvedObject":{"kind":"Pod","name":"p","namespace":"default"},"reason":"Test","message":"hi","type":"Normal"}' >/dev/null
lease=$(raw /registry/events/default/e1 | field lease)
ttl=$(curl -sf "$etcd_url/v3/lease/timetolive" -d "{\"ID\":\"$lease\"}" | field TTL)
[ "${ttl:-0}" -gt 3500 ] && [ "${ttl:-0}" -le 3660 ] && passed=$((passed+1)) || { failed=$((failed+1)); echo "FAIL event lease $lease ttl $ttl"; }

# one etcd delete of 300 keys: the cache's watch gets one message of 300
# events, more than twice what its queue had room for (a heap overflow,
# found by tests/ha: a watch resumed after an etcd member died gets up to
# 1,000 revisions' events in one message)
class() { # i: a DeviceClass as kube-apiserver stores it
  b64 "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"DeviceClass\",\"metadata\":{\"name\":\"batch-$1\",\"uid\":\"batch-$1\",\"creationTimestamp\":\"2026-01-01T00:00:00Z\"},\"spec\":{}}"
}
until_true() { for _ in $(seq 50); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done; return 1; }
for t in 0 1 2; do # one at a time, so the queue never holds more than 100
  ops=$(for i in $(seq $((t * 100 + 1)) $((t * 100 + 100))); do
    printf '{"requestPut":{"key":"%s","value":"%s"}},' "$(b64 "/registry/deviceclasses/batch-$i")" "$(class "$i")"
  done)
  curl -sf "$etcd_url/v3/kv/txn" -d "{\"success\":[${ops%,}]}" >/dev/null
  until_true k get deviceclass "batch-$((t * 100 + 100))"
done
batch() { echo "classes=$(k get deviceclasses --no-headers | grep -c batch-)"; }
check "300 classes put in 3 transactions" 'classes=300' batch
check "one delete of 300 keys" '"deleted":"300"' curl -sf "$etcd_url/v3/kv/deleterange" \
  -d "{\"key\":\"$(b64 /registry/deviceclasses/batch-)\",\"range_end\":\"$(b64 /registry/deviceclasses/batch.)\"}"
until_true sh -c "! kubectl --kubeconfig $tmp/d/kubeconfig get deviceclass batch-1"
check "the cache saw the 300 deletes" 'classes=0' batch
check "delete" 'deleted' k delete devicetaintrule t1
check "the key is gone" 'kvs=0' echo "kvs=$(raw /registry/devicetaintrules/t1 | grep -c '"kvs"')"
# restart: everything comes back from etcd, with the same resourceVersions;
# the first URL answers nothing (port 1): calls go on to the next
kill $server; wait $server 2>/dev/null
serve "$tmp/d" --etcd-servers "http://127.0.0.1:1,$etcd_url" --etcd-compaction-interval 1s
check "after a restart" "$rv2" k get resourceclaim c1 -o jsonpath='{.metadata.resourceVersion}'
check "deleted stays deleted" 'NotFound' sh -c "kubectl --kubeconfig $tmp/d/kubeconfig get devicetaintrule t1 2>&1"

# compaction: a watch from before it gets the ERROR event of 410 Expired
check "update after restart" 'labeled' k label resourceclaim c1 team=b --overwrite
sleep 3.5
check "watch from before the compaction: 200" '200' curl -s -o /dev/null -w '%{http_code}' --max-time 3 "$url/apis/resource.k8s.io/v1/namespaces/default/resourceclaims?watch=1&resourceVersion=$rv"
check "watch from before the compaction: Expired" "\"message\":\"too old resource version: $rv (" \
  curl -s --max-time 3 "$url/apis/resource.k8s.io/v1/namespaces/default/resourceclaims?watch=1&resourceVersion=$rv"
check "etcd was compacted" 'required revision has been compacted' curl -s "$etcd_url/v3/kv/range" -d "{\"key\":\"$(b64 /registry/resourceclaims/default/c1)\",\"revision\":\"$rv\"}"
summary
