#!/bin/sh
# upstream_versions.sh: upstream as the judge of dra's API version
# conversion. test_versions (next to the dra binary) writes every
# conversion its round trips do (every field set; v1 to v1beta2 and
# v1beta1, DeviceTaintRule to v1beta2 and v1alpha3) to a file as
# {"from","to"} pairs; tests/upstream/cmd/versiondiff (Go, k8s.io/api and
# k8s.io/kubernetes pinned in tests/upstream/go.mod) decodes each object
# strictly into its version's type, checks it encodes back to the same
# JSON, and converts each side with upstream's conversion functions.
# Needs Go and, on a cold module cache, the Go module proxy; without them:
# skipped (exit 77).
dra=${1:-build/dra}
case $dra in /*) ;; *) dra=$(pwd)/$dra ;; esac
name=upstream_versions
. tests/lib/upstream.sh
unit=$(dirname "$dra")/test_versions
[ -x "$unit" ] || fail "$unit not built"
build_upstream_tool versiondiff
dump=$out/versions.jsonl
rm -f "$dump"
DRA_VERSIONS_DUMP=$dump "$unit" >"$out/test_versions.log" 2>&1 || fail "test_versions failed: $(tail -n 5 "$out/test_versions.log")"
"$out/versiondiff" -in "$dump"
