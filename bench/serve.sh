#!/bin/sh
# dra serve under load (the scheduler_perf shape through the API): starts a
# server on a fresh data directory, runs bench_serve against it (PODS pods
# with template claims, NODES nodes x 10 devices, CONNECTIONS client
# connections), reports the server's CPU time from /proc and stops it.
# usage: sh bench/serve.sh [build-dir] [PODS] [NODES] [CONNECTIONS]
set -e
build=${1:-build}; pods=${2:-5000}; nodes=${3:-500}; conns=${4:-16}
tmp=$(mktemp -d)
"$build/dra" serve --insecure-http --listen 127.0.0.1:0 --data-dir "$tmp" >"$tmp/log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$tmp"' EXIT
for i in $(seq 100); do [ -s "$tmp/kubeconfig" ] && break; sleep 0.05; done
addr=$(sed -n 's|.*server: http://||p' "$tmp/kubeconfig")
cpu_ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }
before=$(cpu_ticks)
"$build/bench_serve" "$addr" "$pods" "$nodes" "$conns"
ticks=$(($(cpu_ticks) - before)) hz=$(getconf CLK_TCK)
echo "serve: server CPU $((ticks * 1000 / hz)) ms (user + system, node setup included), $((ticks * 1000000 / hz / pods)) us per pod"
