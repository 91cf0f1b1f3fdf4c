#!/bin/sh
# upstream_cel.sh: the real DRA CEL environment as the judge of dra's CEL.
# tests/upstream/cmd/celdiff (Go, k8s.io/dynamic-resource-allocation/cel
# v0.37.2 pinned in tests/upstream/go.mod) compiles and evaluates each
# expression with upstream's compiler (device variable, Kubernetes
# libraries, cost estimator) in-process and with dra's bench_cel_diff (one
# subprocess for all), and compares compile accept/refuse, values, error
# classes and estimated costs. The expressions come from the CEL
# differential's seeded generator, tests/cel_differential/gen.mjs (plain
# node, no npm packages). Every disagreement prints the seed and the
# expression; the ones in cmd/celdiff/known.go (DISAGREEMENTS.md, "CEL")
# pass as KNOWN.
# $1 is the dra binary; bench_cel_diff is next to it, celdiff is built in
# upstream/. Needs Go (go on PATH or /usr/local/go/bin/go), node and, on a
# cold module cache, the Go module proxy; without them: skipped (exit 77).
# Environment: UPSTREAM_CEL_COUNT (default 2000), UPSTREAM_CEL_DEVICES
# (device cases, default 2000), UPSTREAM_CEL_SEED (default 20261201).
dra=${1:-build/dra}
case $dra in /*) ;; *) dra=$(pwd)/$dra ;; esac
helper=$(dirname "$dra")/bench_cel_diff
count=${UPSTREAM_CEL_COUNT:-2000}
devices=${UPSTREAM_CEL_DEVICES:-2000}
seed=${UPSTREAM_CEL_SEED:-20261201}
name=upstream_cel
. tests/lib/upstream.sh
command -v node >/dev/null 2>&1 || skip "node is not installed (it runs the expression generator, tests/cel_differential/gen.mjs)"
[ -x "$helper" ] || fail "$helper not built"
build_upstream_tool celdiff
exprs=$out/celdiff-exprs.jsonl
if ! node --input-type=module -e "
import { generator } from '$(pwd)/tests/cel_differential/gen.mjs';
const next = generator($seed);
for (let i = 0; i < $count; i++) console.log(JSON.stringify(next().expr));" >"$exprs"; then
  fail "the generator failed"
fi
"$out/celdiff" -dra "$helper" -exprs "$exprs" -seed "$seed" -devices "$devices"
