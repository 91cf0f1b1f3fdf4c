#!/bin/sh
# pb_schema_current.sh: the committed protobuf schema tables
# (src/codec/pb_schema_gen.c) and golden cases
# (tests/data/protobuf/golden.ndjson) and the server-side apply shapes
# (src/api/ssa_schema_gen.c) are what tools/schema generates from
# the modules pinned in tests/upstream/go.mod (`make schema` refreshes
# them). Needs Go and its module cache or the module proxy; without them:
# skipped (exit 77).
dra=${1:-build/dra}
case $dra in /*) ;; *) dra=$(pwd)/$dra ;; esac
name=pb_schema_current
. tests/lib/upstream.sh
(cd tests/upstream && "$go" mod download) >/dev/null 2>&1 || skip "go mod download failed (offline?)"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
sh tools/schema --check "$dir" >"$dir/log" 2>&1 || fail "tools/schema failed: $(tail -n 5 "$dir/log")"
stale=
cmp -s "$dir/pb_schema_gen.c" src/codec/pb_schema_gen.c || stale="$stale src/codec/pb_schema_gen.c"
cmp -s "$dir/golden.ndjson" tests/data/protobuf/golden.ndjson || stale="$stale tests/data/protobuf/golden.ndjson"
cmp -s "$dir/ssa_schema_gen.c" src/api/ssa_schema_gen.c || stale="$stale src/api/ssa_schema_gen.c"
[ -z "$stale" ] || fail "out of date (run make schema):$stale"
echo "3 passed, 0 failed"
