#!/bin/sh
# dra's etcd client and backend, measured (README "dra serve on etcd"): on a
# fresh etcd of `make etcd` each time, bench_etcd (the gRPC gateway over
# libcurl, as dra uses it: 1,000 create transactions from one thread, and
# put-to-watch-event latency), the same through etcd's Go client over gRPC
# (tests/upstream/etcd/grpcbench, built when Go is there), then dra serve's
# creates on etcd next to SQLite (bench/serve.sh --creates).
# usage: sh bench/etcd.sh [build-dir] [CREATES]
set -e
build=${1:-build}
creates=${2:-1000}
[ -x "$build/upstream/etcd" ] || { echo "bench/etcd.sh: no $build/upstream/etcd (make etcd)"; exit 77; }
. tests/lib/etcd.sh
etcd_bin=$build/upstream/etcd
data=$(mktemp -d)
trap 'stop_etcd; rm -rf "$data"' EXIT
fresh() { stop_etcd; start_etcd_free "$data"; }
fresh
echo "== gateway over libcurl"
"$build/bench_etcd" "$etcd_url" "$creates"
go=$(command -v go 2>/dev/null || echo /usr/local/go/bin/go)
if [ -x "$go" ] && (cd tests/upstream/etcd && "$go" build -o "$(cd "$OLDPWD" && pwd)/$build/upstream/grpcbench" ./grpcbench); then
  fresh
  echo "== gRPC (etcd's Go client)"
  "$build/upstream/grpcbench" "$etcd_url" "$creates"
fi
echo "== dra serve creates, SQLite"
sh bench/serve.sh "$build" --creates "$creates" 1 8
fresh
echo "== dra serve creates, etcd"
DRA_SERVE_FLAGS="--etcd-servers $etcd_url" sh bench/serve.sh "$build" --creates "$creates" 1 8
