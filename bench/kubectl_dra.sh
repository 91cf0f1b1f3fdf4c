#!/bin/sh
# kubectl dra on a large cluster: starts dra serve on a fresh data
# directory (bench/lib_serve.sh), fills it with bench_serve (NODES nodes
# with one ResourceSlice of DEVICES devices each, PODS pods each with a
# template claim, all bound), adds one pod whose claim asks one device more
# than a node has, and times `kubectl dra capacity` and `kubectl dra
# explain` on it: wall time, the plugin's CPU time and the server's (from
# /proc), next to the time curl takes to read the same lists unpaged.
# With valgrind, each command runs once more under callgrind: its
# user-space instructions, and those of the compute part (everything but
# client_request, the HTTP transfer: decoding, libdra, printing), per node.
# With BEFORE=path/to/kubectl-dra, that binary runs the two commands too,
# on the same server, after this build's (to compare two versions).
# usage: sh bench/kubectl_dra.sh [build-dir] [PODS] [NODES] [DEVICES]
set -e
build=${1:-build}; pods=${2:-20000}; nodes=${3:-5000}; devices=${4:-8}
. "$(dirname "$0")/lib_serve.sh"
export KUBECONFIG="$tmp/kubeconfig"
plugin="$build/kubectl-dra"
"$build/bench_serve" --devices "$devices" "$addr" "$pods" "$nodes" 16 >"$tmp/fill.log"
tail -1 "$tmp/fill.log"
curl -s -X POST -H 'Content-Type: application/json' "http://$addr/api/v1/namespaces/default/pods" -d '{
  "apiVersion": "v1", "kind": "Pod", "metadata": {"name": "waiting"},
  "spec": {"containers": [{"name": "c", "image": "x", "resources": {"claims": [{"name": "gpu"}]}}],
           "resourceClaims": [{"name": "gpu", "resourceClaimName": "waiting-gpu"}]}}' >/dev/null
curl -s -X POST -H 'Content-Type: application/json' "http://$addr/apis/resource.k8s.io/v1/namespaces/default/resourceclaims" -d '{
  "apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "waiting-gpu"},
  "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "test-class", "count": '$((devices + 1))'}}]}}}' >/dev/null
sleep 1
ms() { date +%s%N | cut -c1-13; }
server_ms() { awk -v hz="$(getconf CLK_TCK)" '{printf "%d", ($14 + $15) * 1000 / hz}' "/proc/$server/stat"; }
t0=$(ms)
for r in apis/resource.k8s.io/v1/resourceslices apis/resource.k8s.io/v1/resourceclaims apis/resource.k8s.io/v1/devicetaintrules; do
  curl -s "http://$addr/$r" >/dev/null
done
echo "nodes $nodes x $devices devices, claims $pods; one unpaged read of slices, claims and rules with curl: $(($(ms) - t0)) ms"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
# name, then the plugin's arguments: wall, plugin CPU (user + sys), server CPU
run() {
  name=$1; shift
  s0=$(server_ms); w0=$(ms)
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f '%U %S' -o "$tmp/cpu" "$bin" "$@" >"$tmp/$name.out"
    cpu=$(awk '{printf "%d", ($1 + $2) * 1000}' "$tmp/cpu")
  else
    "$bin" "$@" >"$tmp/$name.out"; cpu="?"
  fi
  echo "$name: $(($(ms) - w0)) ms wall, plugin CPU $cpu ms, server CPU $(($(server_ms) - s0)) ms"
}
bin=$plugin
run capacity capacity
run explain explain pod/waiting -n default
if [ -n "${BEFORE:-}" ]; then
  bin=$BEFORE
  run capacity.before capacity
  run explain.before explain pod/waiting -n default
  for name in capacity explain; do
    cmp -s "$tmp/$name.out" "$tmp/$name.before.out" && echo "$name: same output as before" || echo "$name: output DIFFERS from before"
  done
fi
grep -c . "$tmp/capacity.out" | sed 's/^/capacity lines: /'
sed -n '1p;/would fit now with one of (/,/^$/p' "$tmp/explain.out" | head -6
# user-space instructions of one run under callgrind: all, and the compute
# part (all but client_request, the transfer), per node
if command -v valgrind >/dev/null 2>&1 && command -v callgrind_annotate >/dev/null 2>&1; then
  for cmd in capacity "explain pod/waiting -n default"; do
    # shellcheck disable=SC2086
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$plugin" $cmd >/dev/null 2>"$tmp/cg.err"
    total=$(callgrind_annotate "$tmp/cg" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
    transfer=$(callgrind_annotate --inclusive=yes --threshold=100 "$tmp/cg" 2>/dev/null |
      awk '$4 ~ /:client_request$/ {gsub(",", "", $1); print $1; exit}')
    compute=$((total - ${transfer:-0}))
    echo "${cmd%% *}: $total instructions, compute part $compute ($((compute / nodes)) per node; transfer ${transfer:-0})"
  done
fi
