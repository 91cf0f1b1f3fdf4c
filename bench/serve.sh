#!/bin/sh
# dra serve under load (the scheduler_perf shape through the API): starts a
# server on a fresh data directory, runs bench_serve against it (PODS pods
# with template claims, NODES nodes x 10 devices, CONNECTIONS client
# connections), reports the server's CPU time from /proc and stops it.
# With --creates, the write path alone: CREATES ResourceClaims over each
# number of connections (1, 8 and 32 unless given), creates/s and latency,
# every create acknowledged once on disk (put TMPDIR on the disk to
# measure, not on a tmpfs).
# usage: sh bench/serve.sh [build-dir] [PODS] [NODES] [CONNECTIONS]
#        sh bench/serve.sh build-dir --creates [CREATES] [CONNECTIONS...]
set -e
build=${1:-build}
[ $# -gt 0 ] && shift
if [ "$1" = --creates ]; then
  creates=${2:-3000}
  shift $(($# < 2 ? $# : 2))
  [ $# -gt 0 ] || set -- 1 8 32
  set -- --creates "$creates" "$@"
else
  pods=${1:-5000}; nodes=${2:-500}; conns=${3:-16}
  set -- "$pods" "$nodes" "$conns"
fi
. "$(dirname "$0")/lib_serve.sh"
cpu_ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }
before=$(cpu_ticks)
"$build/bench_serve" "$addr" "$@"
[ "$1" = --creates ] && exit 0
ticks=$(($(cpu_ticks) - before)) hz=$(getconf CLK_TCK)
echo "serve: server CPU $((ticks * 1000 / hz)) ms (user + system, node setup included), $((ticks * 1000000 / hz / pods)) us per pod"
