#!/bin/sh
# Allocator benchmarks: search step counts, and the instruction count of one
# node's Filter (callgrind, only bench_alloc_filter_once counted).
# usage: sh bench/alloc.sh [build-dir]
set -e
build=${1:-build}
"$build/bench_alloc" search
if command -v valgrind >/dev/null 2>&1; then
  out=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect=bench_alloc_filter_once \
    "$build/bench_alloc" filter >/dev/null 2>&1
  ir=$(callgrind_annotate "$out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
  rm -f "$out"
  echo "filter (one node, one claim, one device, CEL selector): $ir instructions (budget 10000)"
else
  echo "filter: valgrind not installed, instruction count skipped"
fi
