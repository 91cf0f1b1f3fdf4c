#!/bin/sh
# upstream_kubectl_dra.sh: kubectl-dra against a real kube-apiserver 1.37
# (issue 15), answering exactly as against dra serve. dra serve
# --etcd-servers holds the example cluster and a pod that can not fit, its
# controllers schedule what fits; kube-apiserver then serves the same etcd
# (tests/upstream_etcd_layout.sh proves they read each other's objects),
# and every read command (capacity, claims, devices --selector, explain,
# whatif, taint --preview and --list, each in its output formats) and the
# taint dry runs print the same through both. Then a real taint and untaint
# through kube-apiserver, which dra serve sees through its etcd watch.
# Skipped (77) without kubectl-dra, build/upstream/etcd and kube-apiserver
# (make upstream-e2e), kubectl, python3, curl or openssl.
dra=${1:-build/dra}
case $dra in /*) ;; *) dra=$(pwd)/$dra ;; esac
. tests/lib/serve.sh
. tests/lib/kube_apiserver.sh
plugin=$(dirname "$dra")/kubectl-dra
[ -x "$plugin" ] || skip upstream_kubectl_dra "no $plugin"
upstream_setup upstream_kubectl_dra kube-apiserver
kd_kube() { KUBECONFIG=$kube_kc kd "$@"; }
kd() { ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=$tmp/sanitizer" UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}log_path=$tmp/sanitizer" "$plugin" "$@"; }

serve_https "$tmp/data" --etcd-servers "$etcd_url" --etcd-compaction-interval 0
[ -n "$url" ] || { cat "$tmp/serve.log"; echo "FAIL dra serve did not start"; exit 1; }
dra_kc=$tmp/data/kubeconfig
export KUBECONFIG="$dra_kc"
kubectl apply -f examples/cluster -f tests/data/kubectl_dra/big-trainer.yaml >"$tmp/apply.log" 2>&1 || { cat "$tmp/apply.log"; echo "FAIL kubectl apply"; exit 1; }
# until the scheduler has placed what fits (7 pods bound) and written its status
for i in $(seq 100); do
  [ "$(kubectl get pods -A -o jsonpath='{range .items[*]}{.spec.nodeName}{"\n"}{end}' | grep -c .)" = 7 ] && break
  sleep 0.1
done
sleep 1
start_kube_apiserver "$ka" "$etcd_url" || { echo "FAIL kube-apiserver did not start"; exit 1; }
kube_kc=$ka/kubeconfig

sel='device.attributes["gpu.example.com"].type == "mig" && device.capacity["gpu.example.com"].memory.compareTo(quantity("10Gi")) >= 0'
same() { # what, want (a substring of the answer), plugin arguments: the same answer through both servers
  what=$1 want=$2; shift 2
  KUBECONFIG=$dra_kc kd "$@" >"$tmp/by-dra" 2>&1
  KUBECONFIG=$kube_kc kd "$@" >"$tmp/by-kube" 2>&1
  if ! grep -qF -- "$want" "$tmp/by-dra"; then
    failed=$((failed + 1)); echo "FAIL $what: dra serve's answer lacks '$want':"; head -20 "$tmp/by-dra"
  elif ! cmp -s "$tmp/by-dra" "$tmp/by-kube"; then
    failed=$((failed + 1)); echo "FAIL $what: kube-apiserver's answer differs from dra serve's:"; diff "$tmp/by-dra" "$tmp/by-kube" | head -20
  else passed=$((passed + 1)); fi
}
same "capacity" "gpu-node-1    gpu.example.com" capacity
same "capacity -o wide" "gpu-node-1" capacity -o wide
same "capacity -o json" '"pools"' capacity -o json
same "capacity -o yaml --node" "counterSet: gpu-0-counters" capacity -o yaml --node gpu-node-1
same "claims -A" "inference   embedder-0-mig-" claims -A
same "claims -o wide (the template, the PodGroup claim)" "podgroup/llm-finetune" claims -n ml -o wide
same "claims -o json" '"items"' claims -A -o json
same "claims --chunk-size 2" "inference" claims -A --chunk-size 2
same "claims NAME not found" 'resourceclaims.resource.k8s.io "nope" not found' claims nope -n ml
same "devices" "gpu-0" devices
same "devices --selector" "gpu-0-mig-2g-10gb-0" devices --node gpu-node-1 --selector "$sel"
same "devices --selector -o json" '"matches": true' devices --driver nic.example.com --selector 'device.driver == "nic.example.com"' -o json
same "explain: the blocking claim's nearest miss" 'is false (capacity memory: 40Gi)' explain big-trainer -n ml
same "explain resourceclaim/" "pod ml/big-trainer is Pending" explain resourceclaim/big-gpu -n ml
same "explain -o json" '"filter"' explain pod/big-trainer -n ml -o json
same "explain: a scheduled pod" "pod inference/tokenizer is scheduled on node cpu-node-1" explain pod/tokenizer -n inference
same "explain: not found" 'pods "nope" not found' explain pod/nope -n ml
same "whatif" "embedder-4   gpu-node-2" whatif -f tests/data/kubectl_dra/embedder.yaml
same "taint --preview" "would be evicted" taint gpu.example.com/gpu-node-2/gpu-0 example.com/broken=ecc:NoExecute --preview
same "taint --dry-run=client" "created (dry run)" taint gpu.example.com/gpu-node-2/gpu-0 example.com/broken=ecc:NoExecute --dry-run=client
same "taint --dry-run=server" "created (server dry run)" taint gpu.example.com/gpu-node-2/gpu-0 example.com/broken=ecc:NoExecute --dry-run=server
same "taint --list" "gpu.example.com" taint --list
check "taint through kube-apiserver" "devicetaintrule.resource.k8s.io/gpu-node-2-gpu-3-example.com-check created" \
  kd_kube taint gpu.example.com/gpu-node-2/gpu-3 example.com/check=1:NoSchedule
for i in $(seq 50); do KUBECONFIG=$dra_kc kd taint --list | grep -q example.com/check && break; sleep 0.1; done
same "taint --list after it" "example.com/check=1:NoSchedule" taint --list
same "untaint --dry-run=server" "deleted (server dry run)" untaint gpu.example.com/gpu-node-2/gpu-3 example.com/check:NoSchedule --dry-run=server
same "untaint --dry-run=client" "deleted (dry run)" untaint gpu.example.com/gpu-node-2/gpu-3 example.com/check:NoSchedule --dry-run=client
check "untaint through kube-apiserver" "deleted" kd_kube untaint gpu.example.com/gpu-node-2/gpu-3 example.com/check:NoSchedule
for i in $(seq 50); do KUBECONFIG=$dra_kc kd taint --list | grep -q example.com/check || break; sleep 0.1; done
check "dra serve saw the untaint" "gone" sh -c "KUBECONFIG='$dra_kc' '$plugin' taint --list | grep example.com/check || echo gone"
if grep -ql 'ERROR: \|runtime error' "$tmp"/sanitizer* 2>/dev/null; then
  failed=$((failed + 1)); echo "FAIL kubectl-dra's sanitizer report:"; cat "$tmp"/sanitizer* | head -40
fi
summary
