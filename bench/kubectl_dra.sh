#!/bin/sh
# kubectl dra on a large cluster: starts dra serve on a fresh data
# directory, fills it with bench_serve (NODES nodes x 10 devices, PODS pods
# each with a template claim, all bound), adds one pod whose claim fits
# nowhere, and times `kubectl dra capacity` and `kubectl dra explain` on
# it, next to the time curl takes to read the same lists (the transfer).
# usage: sh bench/kubectl_dra.sh [build-dir] [PODS] [NODES]
set -e
build=${1:-build}; pods=${2:-20000}; nodes=${3:-5000}
. "$(dirname "$0")/lib_serve.sh"
export KUBECONFIG="$tmp/kubeconfig"
"$build/bench_serve" "$addr" "$pods" "$nodes" 16 >"$tmp/fill.log"
tail -1 "$tmp/fill.log"
curl -s -X POST -H 'Content-Type: application/json' "http://$addr/api/v1/namespaces/default/pods" -d '{
  "apiVersion": "v1", "kind": "Pod", "metadata": {"name": "waiting"},
  "spec": {"containers": [{"name": "c", "image": "x", "resources": {"claims": [{"name": "gpu"}]}}],
           "resourceClaims": [{"name": "gpu", "resourceClaimName": "waiting-gpu"}]}}' >/dev/null
curl -s -X POST -H 'Content-Type: application/json' "http://$addr/apis/resource.k8s.io/v1/namespaces/default/resourceclaims" -d '{
  "apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "waiting-gpu"},
  "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "test-class", "count": 11}}]}}}' >/dev/null
sleep 1
ms() { date +%s%N | cut -c1-13; }
t0=$(ms)
for r in apis/resource.k8s.io/v1/resourceslices apis/resource.k8s.io/v1/resourceclaims apis/resource.k8s.io/v1/devicetaintrules; do
  curl -s "http://$addr/$r" >/dev/null
done
t1=$(ms)
"$build/kubectl-dra" capacity >"$tmp/capacity.out"
t2=$(ms)
"$build/kubectl-dra" explain pod/waiting -n default >"$tmp/explain.out"
t3=$(ms)
echo "nodes $nodes, devices $(grep -c . "$tmp/capacity.out" || true) capacity lines, claims $pods"
echo "capacity: $((t2 - t1)) ms wall (one unpaged read of the same lists with curl: $((t1 - t0)) ms)"
echo "explain:  $((t3 - t2)) ms wall"
head -3 "$tmp/explain.out"
# user-space instructions of the whole run (reading, decoding, libdra and printing), per node
if command -v perf >/dev/null 2>&1; then
  for cmd in "capacity" "explain pod/waiting -n default"; do
    n=$(perf stat -x, -e instructions:u "$build/kubectl-dra" $cmd 2>&1 >/dev/null | awk -F, '/instructions/ {print $1}')
    case $n in ''|*[!0-9]*) echo "perf: no instruction count ($n)";; *) echo "$cmd: $n instructions, $((n / nodes)) per node";; esac
  done
fi
