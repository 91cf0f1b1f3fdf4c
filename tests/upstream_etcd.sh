#!/bin/sh
# upstream_etcd.sh: `make etcd` builds a working etcd 3.6: etcd's own server
# (go.etcd.io/etcd/server/v3 pinned in tests/upstream/etcd/go.mod) into
# upstream/ next to dra; it starts on loopback ports, answers /version,
# stores a key through the v3 gRPC gateway (POST /v3/kv/put) and reads it
# back (/v3/kv/range), and stops on SIGTERM; and etcdutl of the same release
# (tests/upstream/etcdutl), which `dra restore` runs on etcd snapshots.
# $1 is the dra binary (only its directory is used). Skipped (exit 77)
# without Go, curl, or the Go module proxy on a cold module cache.
dra=${1:-build/dra}
case $dra in /*) ;; *) dra=$(pwd)/$dra ;; esac
name=upstream_etcd
. tests/lib/upstream.sh
command -v curl >/dev/null 2>&1 || skip "curl is not installed"
build_upstream_module tests/upstream/etcd . etcd
build_upstream_module tests/upstream/etcdutl go.etcd.io/etcd/etcdutl/v3 etcdutl

data=$(mktemp -d)
etcd_bin=$out/etcd
. tests/lib/etcd.sh
stop() {
  stop_etcd
  rm -rf "$data"
}
trap stop EXIT
passed=0
check() { # what, got, expected substring
  case $2 in
  *"$3"*) passed=$((passed + 1)) ;;
  *)
    echo "$name: $1: got ${2:-nothing}, want $3; etcd's log:"
    tail -n 20 "$data/etcd.log"
    echo "$passed passed, 1 failed"
    exit 1
    ;;
  esac
}
start_etcd_free "$data"
url=$etcd_url version=$etcd_version pid=$etcd_pid
check "/version" "$version" '"etcdserver":"3.6.'
key=$(printf dra-key | base64) value=$(printf dra-value | base64)
check "put" "$(curl -sf --max-time 5 -X POST "$url/v3/kv/put" -d "{\"key\":\"$key\",\"value\":\"$value\"}")" '"revision":"2"'
check "range" "$(curl -sf --max-time 5 -X POST "$url/v3/kv/range" -d "{\"key\":\"$key\"}")" "\"value\":\"$value\""
kill "$pid"
for _ in $(seq 100); do
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
kill -0 "$pid" 2>/dev/null && check "stop on SIGTERM" "still running after 10 s" "exited"
passed=$((passed + 1))
check "etcdutl version" "$("$out/etcdutl" version 2>&1)" "etcdutl version: 3.6."
echo "$passed passed, 0 failed"
