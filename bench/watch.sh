#!/bin/sh
# Watch fan-out of dra serve: WATCHERS pod watches, then PODS creates; every
# watcher must get every event. Runs bench_watch against a fresh server with
# WATCHERS watchers and again with one (the cost of the creates themselves),
# reporting events/s and the server's CPU time per event; then, if valgrind
# is there, the same pair with CG_PODS pods with the server under callgrind:
# instructions per delivered event, and the fan-out's share (the difference
# between the runs divided by the extra events).
# usage: sh bench/watch.sh [build-dir] [WATCHERS] [PODS] [CG_PODS]
set -e
build=${1:-build}; watchers=${2:-100}; pods=${3:-2000}; cg_pods=${4:-200}
tmp=$(mktemp -d)
server=
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$tmp"' EXIT
start() { # command prefix...
  rm -rf "$tmp/data"
  "$@" "$build/dra" serve --insecure-http --listen 127.0.0.1:0 --data-dir "$tmp/data" >"$tmp/log" 2>&1 &
  server=$!
  for i in $(seq 600); do [ -s "$tmp/data/kubeconfig" ] && break; sleep 0.05; done
  addr=$(sed -n 's|.*server: http://||p' "$tmp/data/kubeconfig")
}
stop() { # SIGTERM again while it runs: under valgrind a first one can be lost
  while kill -TERM $server 2>/dev/null && ! grep -q '^State:.*zombie' /proc/$server/status 2>/dev/null; do sleep 2; done
  wait $server || true; server=
}
for w in "$watchers" 1; do
  start
  "$build/bench_watch" "$addr" "$w" "$pods" "$server"
  stop
done
command -v valgrind >/dev/null || exit 0
instructions() { # watchers: the server's instruction count for CG_PODS creates
  start valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" --log-file="$tmp/vg.log"
  "$build/bench_watch" "$addr" "$1" "$cg_pods" >/dev/null
  stop
  grep -E '^(summary|totals):' "$tmp/cg" | head -1 | awk '{print $2}'
}
many=$(instructions "$watchers"); one=$(instructions 1)
echo "watch (callgrind, $cg_pods pods): server $one instructions with 1 watcher, $many with $watchers"
echo "watch (callgrind): $((many / (watchers * cg_pods))) instructions per event delivered in all," \
  "$(((many - one) / ((watchers - 1) * cg_pods))) per extra watcher event (the fan-out alone)"
