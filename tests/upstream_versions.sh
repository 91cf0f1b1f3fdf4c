#!/bin/sh
# upstream_versions.sh: k8s.io/api's Go types as the judge of the JSON dra
# writes in each resource.k8s.io version. test_versions (next to the dra
# binary) writes every object its round trips convert (every field set, in
# v1, v1beta2 and v1beta1) to a file; tests/upstream/cmd/versiondiff (Go,
# k8s.io/api v0.37.2 pinned in tests/upstream/go.mod) decodes each strictly
# into its version's type and checks it encodes back to the same JSON.
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
