#!/bin/sh
# bench/scale.sh: dra serve at cluster scale, end to end through the API
# with the load client (bench_serve). A fresh server gets NODES nodes with
# one ResourceSlice of DEVICES devices each, then PODS pods with template
# claims: the first half created at a steady RATE pods/s, the second half
# at full speed. Every pod finishes after RUN (dra.k8s.io/run-duration,
# restartPolicy Never), so its claim is deleted and its device freed for
# later pods (NODES x DEVICES is less than PODS); the finished pods stay.
# The pods go in batches ending at 1%, 2%, 5%, 10%, 20%, 50% and 100% of
# PODS: each batch prints the server's CPU per pod (/proc, user + system,
# read once the batch's pods have finished, so a pod's whole life counts in
# its own batch) and its RSS, so the curve shows whether the cost per pod
# stays flat. The load client watches from the pods' current
# resourceVersion, so a batch does not pay for the pods stored before it.
# Then: pods/s (over the batches' own time, the waits for the pods to
# finish left out) and create-to-bound p50/p99 of each phase, RSS at the end
# (and 4 s later, once the idle server has given freed memory back),
# and the startup time of a new server from the same data dir (until it
# answers a list of pods; wall time and the server's CPU, as a shared
# machine stretches the first).
# usage: sh bench/scale.sh [--build DIR] [--nodes N] [--devices D] [--pods P]
#                          [--rate R] [--run T] [--connections C]
# Without flags: 5,000 nodes x 8 devices, 100,000 pods, 2,000 pods/s, 5s,
# 8 connections.
set -e
build=build nodes=5000 devices=8 pods=100000 rate=2000 run=5s conns=8
while [ $# -gt 1 ]; do
  case $1 in
  --build) build=$2 ;;
  --nodes) nodes=$2 ;;
  --devices) devices=$2 ;;
  --pods) pods=$2 ;;
  --rate) rate=$2 ;;
  --run) run=$2 ;;
  --connections) conns=$2 ;;
  *) echo "scale.sh: unknown flag $1" >&2; exit 2 ;;
  esac
  shift 2
done
[ $# -eq 0 ] || { echo "scale.sh: $1 needs a value" >&2; exit 2; }
. "$(dirname "$0")/lib_serve.sh"
hz=$(getconf CLK_TCK)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }
rss_mb() { awk '/^VmRSS/ {printf "%d", $2 / 1024}' "/proc/$server/status"; }
# p50 and p99 (ms) of the latencies in file $1
percentiles() {
  sort -n "$1" | awk '{v[NR] = $1} END {if (NR) printf "p50 %.1f ms, p99 %.1f ms", v[int(NR / 2) + 1], v[int(NR * 0.99) + (NR * 0.99 > int(NR * 0.99))]}'
}

echo "scale: $nodes nodes x $devices devices, $pods pods (half at $rate pods/s, half at full speed), each running $run"
t0=$(date +%s.%N)
"$build/bench_serve" --setup-only --devices "$devices" "$addr" 0 "$nodes" >/dev/null
echo "scale: nodes and slices set up in $(echo "$(date +%s.%N) - $t0" | bc) s, RSS $(rss_mb) MB"

half=$((pods / 2)) done_pods=0
for phase in steady full; do
  : >"$tmp/lat-$phase"
  phase_took=0 phase_first=$done_pods
  for pct in 1 2 5 10 20 50 100; do
    end=$((pods * pct / 100))
    [ $phase = steady ] && [ "$end" -gt "$half" ] && continue
    [ $phase = full ] && [ "$end" -le "$half" ] && continue
    n=$((end - done_pods))
    [ "$n" -gt 0 ] || continue
    pace=""
    [ $phase = steady ] && pace="--rate $rate"
    before=$(cpu_ticks) batch_start=$(date +%s.%N)
    "$build/bench_serve" --no-setup $pace --first "$done_pods" --run-duration "$run" --latencies "$tmp/lat-$phase" \
      "$addr" "$n" "$nodes" "$conns" >"$tmp/batch" || { cat "$tmp/batch"; tail -5 "$tmp/log"; echo "scale: not every pod was bound" >&2; exit 1; }
    phase_took=$(echo "$phase_took + $(date +%s.%N) - $batch_start" | bc)
    sleep "$run"; sleep 2 # the batch's pods finish, so their ending counts in this batch's CPU
    ticks=$(($(cpu_ticks) - before))
    echo "scale: pods $((done_pods + 1))-$end ($phase): server CPU $((ticks * 1000000 / hz / n)) us per pod, RSS $(rss_mb) MB"
    done_pods=$end
  done
  echo "scale: $phase phase: $((done_pods - phase_first)) pods, $(echo "($done_pods - $phase_first) / $phase_took" | bc) pods/s end to end, create-to-bound $(percentiles "$tmp/lat-$phase")"
done
end_rss=$(rss_mb)
sleep 4 # the server gives freed memory back after 2 s idle (util/heap_return.h)
echo "scale: RSS at the end $end_rss MB, $(rss_mb) MB once idle (peak $(awk '/^VmHWM/ {printf "%d", $2 / 1024}' "/proc/$server/status") MB)"

# startup from the same data dir
kill "$server"
wait "$server" 2>/dev/null || true
rm -f "$tmp/kubeconfig"
t0=$(date +%s.%N)
"$build/dra" serve --insecure-http --listen 127.0.0.1:0 --data-dir "$tmp" >"$tmp/log" 2>&1 &
server=$!
until [ -s "$tmp/kubeconfig" ]; do sleep 0.02; done
addr=$(sed -n 's|.*server: http://||p' "$tmp/kubeconfig")
until curl -sf "http://$addr/api/v1/namespaces/default/pods?limit=1" >/dev/null; do sleep 0.02; done
echo "scale: restarted from the data dir in $(echo "$(date +%s.%N) - $t0" | bc) s ($(($(cpu_ticks) * 1000 / hz)) ms server CPU), RSS $(rss_mb) MB"
