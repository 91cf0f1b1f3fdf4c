#!/bin/sh
# The allocator side by side with upstream's (k8s.io/dynamic-resource-
# allocation/structured, pinned in tests/upstream/go.mod), on the same
# input: bench_alloc_cluster --emit writes each cluster (N nodes x one
# ResourceSlice of 10 devices, six claim shapes) once as a YAML file, then
#   dra:      bench_alloc_cluster --side FILE: alloc_run of one claim on one
#             node, every node in turn, on an index built once per shape
#             (not timed); pass 1 on a fresh index (every selector
#             evaluated), pass 2 with the selector results remembered; the
#             best of 5 runs; heap allocations = malloc/calloc/realloc/
#             strdup/strndup calls during the pass;
#   upstream: allocdiff -bench FILE: Allocate of one claim on one node, the
#             nodes in turn, on an allocator made once per shape
#             (NewAllocator, not timed) as kube-scheduler makes one per pod;
#             testing.Benchmark's ns/op and allocs/op (Go heap allocations);
#             once with every gate on (allocator "experimental") and once
#             with only the gates "stable" supports.
# Both sides time only the allocation: no process start, no YAML parsing.
# Prints one table; exit 77 without Go (or without the module proxy on a
# cold cache), 1 when the two disagree on where a shape fits.
# usage: sh bench/upstream.sh [build-dir]   (UPSTREAM_BENCH_NODES="500 5000",
#        UPSTREAM_BENCHTIME=1s: testing's benchtime per shape and gate set)
set -e
build=${1:-build}
dra=$(cd "$build" && pwd)/dra
name=bench/upstream
. tests/lib/upstream.sh
[ -x "$build/bench_alloc_cluster" ] || skip "$build/bench_alloc_cluster is not built"
build_upstream_tool allocdiff

printf '%-13s %5s %-5s | %9s %7s %9s | %9s %7s | %9s %7s | %8s %8s\n' shape nodes fit \
  "dra us" mallocs "dra us 2" "exp. us" allocs "stable us" allocs "exp/dra" "stab/dra"
rc=0
for n in ${UPSTREAM_BENCH_NODES:-500 5000}; do
  file=$out/cluster-$n.yaml
  "$build/bench_alloc_cluster" --emit "$n" >"$file"
  "$build/bench_alloc_cluster" --reps 5 --side "$file" >"$out/dra-$n.txt"
  "$out/allocdiff" -bench "$file" -benchtime "${UPSTREAM_BENCHTIME:-1s}" -timeout 10s >"$out/upstream-$n.txt"
  awk -v n="$n" '
    function word(fit, nodes) { return fit == nodes ? "all" : fit == 0 ? "none" : "some" }
    function us(ns) { return ns == "-" ? "timeout" : sprintf("%.1f", ns / 1000) }
    function ratio(ns, base) { return ns == "-" ? "-" : sprintf("%.1fx", ns / base) }
    FNR == NR { fit[$1] = word($2, $3); ns1[$1] = $4; m1[$1] = $5; ns2[$1] = $6; order[++shapes] = $1
                if (!index_ms || $8 < index_ms) index_ms = $8; next }
    { col = $5 == "stable" ? "stable" : "exp"; ns[$1, col] = $3; allocs[$1, col] = $4
      if ($2 != "timeout" && $2 != fit[$1]) { bad[$1] = 1 } }
    END {
      for (i = 1; i <= shapes; i++) {
        s = order[i]
        printf "%-13s %5d %-5s | %9.1f %7.1f %9.1f | %9s %7s | %9s %7s | %8s %8s%s\n", s, n, fit[s], ns1[s] / 1000, m1[s],
          ns2[s] / 1000, us(ns[s, "exp"]), allocs[s, "exp"], us(ns[s, "stable"]), allocs[s, "stable"],
          ratio(ns[s, "exp"], ns1[s]), ratio(ns[s, "stable"], ns1[s]), bad[s] ? "  FIT DIFFERS" : ""
        if (bad[s]) rc = 1
      }
      printf "%-13s %5d dra index of the %d nodes built in %.1f ms (best run; once per slice change, not in dra us)\n", "", n, n, index_ms
      exit rc
    }' "$out/dra-$n.txt" "$out/upstream-$n.txt" || rc=1
done
echo "us: microseconds per Allocate of one claim on one node; dra us 2: the same claim shape again, selector results"
echo "remembered; mallocs/allocs: heap allocations per Allocate; exp/stab: upstream with every gate on / stable's gates."
exit $rc
