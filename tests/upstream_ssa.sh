#!/bin/sh
# upstream_ssa.sh: upstream as the judge of dra serve's server-side apply.
# tests/upstream/cmd/ssadiff (Go; k8s.io/apimachinery's managedfields and
# client-go's apply schema, pinned in tests/upstream/go.mod) runs creates,
# updates and applies by several managers against dra serve and through
# upstream's own field manager, and compares managedFields (times aside),
# conflict messages and applied labels step by step, for a Pod and for a
# ResourceSlice applied through v1beta1, v1beta2 and v1 (the betas are
# on). Needs Go and, on a cold module cache, the Go module proxy; without
# them: skipped (exit 77).
dra=${1:-build/dra}
case $dra in /*) ;; *) dra=$(pwd)/$dra ;; esac
name=upstream_ssa
. tests/lib/upstream.sh
build_upstream_tool ssadiff
data=$(mktemp -d)
"$dra" serve --listen 127.0.0.1:0 --data-dir "$data" --insecure-http \
  --runtime-config resource.k8s.io/v1beta1=true,resource.k8s.io/v1beta2=true >"$out/ssa-serve.log" 2>&1 &
server=$!
# the server stops cleanly at the end, so a sanitizer build reports its
# leaks; any sanitizer report in its log fails the test
finish() {
  status=$?
  kill $server 2>/dev/null; wait $server 2>/dev/null
  rm -rf "$data"
  if grep -qE '^(==[0-9]+==ERROR: |SUMMARY: [A-Za-z]+Sanitizer|.*runtime error: )' "$out/ssa-serve.log"; then
    grep -E -A30 '==ERROR: |runtime error: ' "$out/ssa-serve.log" | head -60
    status=1
  fi
  exit $status
}
trap finish EXIT
for i in $(seq 100); do [ -s "$data/kubeconfig" ] && break; sleep 0.05; done
url=$(sed -n 's/.*server: //p' "$data/kubeconfig")
[ -n "$url" ] || fail "dra serve did not start: $(tail -n 5 "$out/ssa-serve.log")"
"$out/ssadiff" -server "$url"
