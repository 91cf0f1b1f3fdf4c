#!/bin/sh
# Control-loop benchmark at scheduler_perf's shapes (bench_schedule.c; default
# 500 nodes x 10 devices, 5000 pods with a template claim): wall time, and
# instructions per pod under callgrind counting only bench_schedule_run
# (parsing and admission excluded). Exits 77 when valgrind is missing.
# usage: sh bench/schedule.sh [build-dir] [--shape template|match|podgroup] [nodes devices pods]
set -e
build=${1:-build}
shift 2>/dev/null || true
line=$("$build/bench_schedule" "$@")
echo "$line"
pods=$(echo "$line" | sed -n 's/.* \([0-9]*\) pods:.*/\1/p')
if command -v valgrind >/dev/null 2>&1; then
  out=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect=bench_schedule_run \
    "$build/bench_schedule" "$@" >/dev/null 2>&1
  ir=$(callgrind_annotate "$out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
  loop=$(callgrind_annotate --inclusive=yes "$out" 2>/dev/null | awk '/src\/sched\/loop.c:sched_loop_run / {gsub(",", "", $1); print $1; exit}')
  rm -f "$out"
  echo "schedule: $ir instructions, $((ir / pods)) per pod with the pods' creation in the store (budget 150000)"
  echo "schedule: $loop in the control loop alone, $((loop / pods)) per pod"
else
  echo "schedule: valgrind not installed, instruction count skipped"
  exit 77 # a part skipped: reported as skipped, as the tests do
fi
