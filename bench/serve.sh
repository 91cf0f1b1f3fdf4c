#!/bin/sh
# dra serve under load (the scheduler_perf shape through the API): starts a
# server on a fresh data directory, runs bench_serve against it (PODS pods
# with template claims, NODES nodes x 10 devices, CONNECTIONS client
# connections), reports the server's CPU time from /proc and stops it.
# With --creates, the write path alone: CREATES ResourceClaims over each
# number of connections (1, 8 and 32 unless given), creates/s and latency,
# every create acknowledged once on disk (put TMPDIR on the disk to
# measure, not on a tmpfs).
# With --callgrind, the server runs under valgrind's callgrind and the
# figure is its instructions per pod: counted from after the node setup
# (callgrind_control -z) to the last bind, so they are the pods' alone.
# Given RUN (e.g. 1s), each pod finishes after it (as in bench/scale.sh)
# and the count goes on until they all have, so a pod's whole life is in
# it: its status writes, its claim's release and deletion.
# usage: sh bench/serve.sh [build-dir] [PODS] [NODES] [CONNECTIONS]
#        sh bench/serve.sh build-dir --callgrind [PODS] [NODES] [CONNECTIONS] [RUN]
#        sh bench/serve.sh build-dir --creates [CREATES] [CONNECTIONS...]
#        sh bench/serve.sh build-dir --classes [N]
# With --classes, the memory of small objects: the server's RSS growth over
# N tiny DeviceClasses (10,000 unless given), per class, next to the size
# of one class's stored JSON.
set -e
build=${1:-build}
[ $# -gt 0 ] && shift
if [ "$1" = --callgrind ]; then
  command -v callgrind_control >/dev/null || { echo "serve.sh: no valgrind" >&2; exit 77; }
  shift
  pods=${1:-1000}; nodes=${2:-100}; conns=${3:-4}; run=${4:-}
  cg=$(mktemp -d)
  serve_wrap="valgrind --tool=callgrind --callgrind-out-file=$cg/out"
  . "$(dirname "$0")/lib_serve.sh"
  trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$tmp" "$cg"' EXIT
  "$build/bench_serve" --setup-only "$addr" 0 "$nodes"
  callgrind_control -z "$server" >/dev/null 2>&1
  "$build/bench_serve" --no-setup ${run:+--run-duration "$run"} "$addr" "$pods" "$nodes" "$conns"
  if [ -n "$run" ]; then # the pods finish: wait until every one has succeeded (slow under callgrind)
    for i in $(seq 600); do
      curl -s "http://$addr/api/v1/namespaces/default/pods?fieldSelector=status.phase!%3DSucceeded&limit=1" | grep -q '"items":\[\]' && break
      sleep 1
    done
    sleep 2
  fi
  callgrind_control -d "$server" >/dev/null 2>&1
  ir=$(callgrind_annotate "$cg"/out.* 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1; exit}')
  cp "$cg"/out.* "${SERVE_CALLGRIND_KEEP:-/dev/null}" 2>/dev/null || true
  echo "serve: server $ir instructions for $pods pods${run:+ running $run each} (callgrind), $((ir / pods)) per pod"
  exit 0
fi
if [ "$1" = --classes ]; then
  n=${2:-10000}
  . "$(dirname "$0")/lib_serve.sh"
  rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$server/status"; }
  before=$(rss_kb)
  "$build/bench_serve" "$addr" --classes "$n"
  sleep 1 # the durable writer's batch
  after=$(rss_kb)
  json=$(curl -s "http://$addr/apis/resource.k8s.io/v1/deviceclasses/class-0" | wc -c)
  echo "serve: RSS $before kB -> $after kB over $n DeviceClasses: $(((after - before) * 1024 / n)) bytes each (stored JSON $json bytes)"
  exit 0
fi
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
