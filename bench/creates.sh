#!/bin/sh
# Write throughput of dra serve: creates/s of ResourceClaims with 1, 8 and
# 32 concurrent keep-alive clients over loopback (bench_serve --creates),
# each create acknowledged only once it is on disk, on a fresh data
# directory (TMPDIR: put it on the disk to measure, not a tmpfs).
# usage: sh bench/creates.sh [build-dir] [CREATES] [CONNECTIONS...]
set -e
build=${1:-build}; creates=${2:-2000}
shift $(($# < 2 ? $# : 2))
[ $# -gt 0 ] || set -- 1 8 32
tmp=$(mktemp -d)
"$build/dra" serve --insecure-http --listen 127.0.0.1:0 --data-dir "$tmp" >"$tmp/log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$tmp"' EXIT
for i in $(seq 100); do [ -s "$tmp/kubeconfig" ] && break; sleep 0.05; done
addr=$(sed -n 's|.*server: http://||p' "$tmp/kubeconfig")
"$build/bench_serve" "$addr" --creates "$creates" "$@"
