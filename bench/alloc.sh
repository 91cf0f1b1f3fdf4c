#!/bin/sh
# Allocator benchmarks, as instruction counts (callgrind, only the measured
# function counted; stable on a shared machine) next to native timings:
#   1. one node's Filter (bench_alloc filter; budget 10,000 instructions);
#   2. the exponential matchAttribute case as R grows (bench_alloc search);
#   3. generated clusters of 500 and 5,000 nodes x 10 devices, five claim
#      shapes, two passes over all nodes each (bench_alloc_cluster): per
#      claim and per node, selector evaluations, index and memo memory.
# usage: sh bench/alloc.sh [build-dir]   (ALLOC_NODES="500 5000" to choose sizes)
set -e
build=${1:-build}
nodes=${ALLOC_NODES:-500 5000}

# callgrind_each FUNCTION COMMAND...: runs COMMAND under callgrind with one
# dump per call of FUNCTION; prints each call's instruction count, in call
# order, comma-separated (empty without valgrind).
callgrind_each() {
  fn=$1
  shift
  command -v valgrind >/dev/null 2>&1 || return 0
  dir=$(mktemp -d)
  valgrind --tool=callgrind --callgrind-out-file="$dir/cg" --toggle-collect="$fn" --dump-after="$fn" "$@" \
    >/dev/null 2>"$dir/log" || true
  i=1
  list=
  while [ -f "$dir/cg.$i" ]; do
    list="$list${list:+,}$(awk '/^summary:/ {print $2; exit}' "$dir/cg.$i")"
    i=$((i + 1))
  done
  rm -rf "$dir"
  echo "$list"
}

echo "== one node's Filter"
"$build/bench_alloc" filter
ir=$(callgrind_each bench_alloc_filter_once "$build/bench_alloc" filter)
echo "filter (one node, one claim, one device, CEL selector): ${ir:-(valgrind not installed)} instructions (budget 10000)"

echo "== exponential case"
ir=$(callgrind_each bench_alloc_search_once "$build/bench_alloc" search)
"$build/bench_alloc" --ir "$ir" search

for n in $nodes; do
  echo "== generated cluster"
  ir=$(callgrind_each bench_alloc_pass "$build/bench_alloc_cluster" --reps 1 "$n")
  "$build/bench_alloc_cluster" --ir "$ir" "$n"
done
