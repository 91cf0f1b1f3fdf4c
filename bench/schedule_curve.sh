#!/bin/sh
# Scaling curve of the control loop: instructions per pod (bench/schedule.sh)
# from 1,000 to 50,000 template pods with nodes = pods / 10 (10 devices each).
# The cost per pod must stay flat: nothing may scan everything scheduled so far.
# usage: sh bench/schedule_curve.sh [build-dir] [pod counts...]
set -e
build=${1:-build}
shift 2>/dev/null || true
[ $# -gt 0 ] || set -- 1000 5000 10000 50000
for pods in "$@"; do
  sh "$(dirname "$0")/schedule.sh" "$build" $((pods / 10)) 10 "$pods" | grep -v "in the control loop"
done
