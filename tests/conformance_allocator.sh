#!/bin/sh
# `dra allocate` against every allocator conformance case (tests/data/allocator)
# and the seed examples written in the same format (tests/data/allocator/seeds),
# then the command line's own contract: budgets, --explain, claim selection.
# usage: sh tests/conformance_allocator.sh path/to/dra
dra=${1:-build/dra}
python3 tests/data/allocator/run --dra "$dra" tests/data/allocator tests/data/allocator/seeds || exit 1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # name, want exit code, want text in output, command...
  name=$1 want_rc=$2 want_text=$3
  shift 3
  "$@" >"$tmp/out" 2>&1
  rc=$?
  if [ "$rc" != "$want_rc" ] || ! grep -qF -- "$want_text" "$tmp/out"; then
    echo "FAIL $name: exit $rc (want $want_rc), output lacks '$want_text':"
    cat "$tmp/out"
    fail=1
  fi
}

# 12 single-device requests that must all differ in their (list-valued) numa
# attribute, 13 devices with 11 values: unsatisfiable, and pruning does not
# count list values, so the budget ends the search.
python3 - "$tmp/distinct.yaml" <<'PY'
import sys
out = ["apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\n---\n"
       "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\n"
       "spec: {selectors: [{cel: {expression: 'device.driver == \"gpu.example.com\"'}}]}\n---\n"
       "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\n"
       "spec:\n  driver: gpu.example.com\n  nodeName: node-1\n"
       "  pool: {name: p, generation: 1, resourceSliceCount: 1}\n  devices:\n"]
for i in range(13):
    out.append("  - {name: gpu-%d, attributes: {numa: {ints: [%d]}}}\n" % (i, min(i, 10)))
out.append("---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c}\n"
           "spec:\n  devices:\n    requests:\n")
for i in range(12):
    out.append("    - {name: r%d, exactly: {deviceClassName: gpu}}\n" % i)
out.append("    constraints: [{distinctAttribute: gpu.example.com/numa}]\n")
open(sys.argv[1], "w").write("".join(out))
PY
check "step budget" 2 "allocation aborted: steps budget exhausted after 1000 steps" \
  "$dra" allocate -f "$tmp/distinct.yaml" --node node-1 --max-steps 1000
check "time budget" 2 "allocation aborted: time budget exhausted after" \
  "$dra" allocate -f "$tmp/distinct.yaml" --node node-1 --timeout 50ms
# Go's Duration.String() spelling, as allocdiff's retry passes it
check "time budget, Go's spelling" 2 "allocation aborted: time budget exhausted after" \
  "$dra" allocate -f "$tmp/distinct.yaml" --node node-1 --timeout 0m0.05s
check "bad time budget" 2 'error: --timeout: want a duration such as 10s, got "1x"' \
  "$dra" allocate -f "$tmp/distinct.yaml" --node node-1 --timeout 1x
check "stats" 2 "steps: 1001" \
  "$dra" allocate -f "$tmp/distinct.yaml" --node node-1 --max-steps 1000 --stats

seed=tests/data/allocator/seeds/seed-prioritized-list-small-white-cats.yaml
python3 -c 'import sys, yaml, json
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d][1:]
json.dump({"apiVersion": "v1", "kind": "List", "items": docs}, open(sys.argv[2], "w"))' "$seed" "$tmp/cats.json"
check "every unallocated claim" 0 "small-white-cat-2" "$dra" allocate -f "$tmp/cats.json" --node node-1
check "claim not found" 2 'Error from server (NotFound): resourceclaims.resource.k8s.io "nope" not found' "$dra" allocate -f "$tmp/cats.json" --node node-1 --claim nope
check "claim already allocated" 2 'is already allocated' \
  "$dra" allocate -f "$tmp/cats.json" --node node-1 --claim default/in-use-0
check "node not found" 2 'Error from server (NotFound): nodes "node-9" not found' "$dra" allocate -f "$tmp/cats.json" --node node-9

check "explain after a budget error" 2 "constraint #0 distinctAttribute gpu.example.com/numa: 3 of 78 device pairs fail" \
  "$dra" allocate -f "$tmp/distinct.yaml" --node node-1 --explain --timeout 1ms
cat >"$tmp/held.yaml" <<'YAML'
apiVersion: v1
kind: Node
metadata: {name: node-1}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
spec: {selectors: [{cel: {expression: 'device.driver == "gpu.example.com"'}}]}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: gpu.example.com
  nodeName: node-1
  pool: {name: p, generation: 1, resourceSliceCount: 1}
  devices: [{name: gpu-0}, {name: gpu-1}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: train-7}
spec: {devices: {requests: [{name: r, exactly: {deviceClassName: gpu}}]}}
status: {allocation: {devices: {results: [{request: r, driver: gpu.example.com, pool: p, device: gpu-1}]}}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: two}
spec: {devices: {requests: [{name: r, exactly: {deviceClassName: gpu, count: 2}}]}}
YAML
check "explain" 1 "nearest miss: needs 2, 1 free; gpu-1 held by default/train-7" \
  "$dra" allocate -f "$tmp/held.yaml" --node node-1 --explain
check "explain json" 1 '"nearestMiss": "needs 2, 1 free; gpu-1 held by default/train-7"' \
  "$dra" allocate -f "$tmp/held.yaml" --node node-1 --explain -o json
# what explain says of misses and what would fit: a request selector's first
# false operand with the device's value, the holder with its pod, a
# constraint's disagreeing values, a lower count, a firstAvailable entry.
# The cluster is dra schedule's scenario of the same (train-7's claim
# allocated and reserved for it, the others pending), read as stored.
"$dra" schedule -f tests/data/sched/explain-fit/input.yaml -o yaml >"$tmp/fit.yaml"
check "explain: selector miss with the device's value" 1 'gpu.example.com/p/gpu-2: device.attributes["gpu.example.com"].model == "a100" is false (attribute model: t4)' \
  "$dra" allocate -f "$tmp/fit.yaml" --node node-1 --claim big --explain
check "explain: holder and its pod" 1 "gpu.example.com/p/gpu-1: held by default/train-7-gpu, reserved for pod default/train-7" \
  "$dra" allocate -f "$tmp/fit.yaml" --node node-1 --claim big --explain
check "explain: a lower count fits" 1 "request gpu: count 1 instead of 2" \
  "$dra" allocate -f "$tmp/fit.yaml" --node node-1 --claim big --explain
check "explain: the holder releasing" 1 "claim default/train-7-gpu (reserved for pod default/train-7) releasing gpu.example.com/p/gpu-1" \
  "$dra" allocate -f "$tmp/fit.yaml" --node node-1 --claim big --explain
check "explain: another firstAvailable entry fits" 1 "request gpu: firstAvailable entry gpu/small, count 2 instead of 3" \
  "$dra" allocate -f "$tmp/fit.yaml" --node node-1 --claim pick --explain
check "explain json: the entry" 1 '"entry": "gpu/small"' \
  "$dra" allocate -f "$tmp/fit.yaml" --node node-1 --claim pick --explain -o json
check "explain: constraint values" 1 "gpu.example.com/p/gpu-0 (r, gpu.example.com/numa 0) and gpu.example.com/p/gpu-3 (r, gpu.example.com/numa 1)" \
  "$dra" allocate -f "$tmp/fit.yaml" --node node-1 --claim aligned --explain
check "explain json: constraint values" 1 '"bValue": "1"' \
  "$dra" allocate -f "$tmp/fit.yaml" --node node-1 --claim aligned --explain -o json
# a lower count is found by running the allocator where free devices may not
# all be taken together: each of the two partitions is free alone, but they
# share a counter that holds one, so a claim asking 3 fits with 1, not 2
cat >"$tmp/parts.yaml" <<'YAML'
apiVersion: v1
kind: Node
metadata: {name: node-1}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
spec: {selectors: [{cel: {expression: device.driver == "gpu.example.com"}}]}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: parts}
spec:
  driver: gpu.example.com
  pool: {name: p, generation: 1, resourceSliceCount: 2}
  nodeName: node-1
  devices:
  - {name: part-0, consumesCounters: [{counterSet: mem, counters: {memory: {value: '1'}}}]}
  - {name: part-1, consumesCounters: [{counterSet: mem, counters: {memory: {value: '1'}}}]}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: counters}
spec:
  driver: gpu.example.com
  pool: {name: p, generation: 1, resourceSliceCount: 2}
  nodeName: node-1
  sharedCounters: [{name: mem, counters: {memory: {value: '1'}}}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: three}
spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu, count: 3}}]}}
YAML
check "explain: a lower count under a shared counter" 1 "request gpu: count 1 instead of 3" \
  "$dra" allocate -f "$tmp/parts.yaml" --node node-1 --explain
exit $fail
