#!/bin/sh
# Joint gang placement next to kube-scheduler's greedy pod-group cycle:
# bench_gang's table (shapes fits, trap, sorted, network and partitions on 500 nodes; see the top
# of bench/bench_gang.c and bench/README.md, "Joint gang placement").
# usage: sh bench/gang.sh [build-dir] [--shape fits|trap|sorted|network|partitions] [pods]
set -e
build=${1:-build}
shift 2>/dev/null || true
[ -x "$build/bench_gang" ] || { echo "bench/gang.sh: $build/bench_gang not built (make)"; exit 77; }
"$build/bench_gang" "$@"
