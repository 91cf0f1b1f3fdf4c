#!/bin/sh
# The real kube-scheduler 1.37.2 (make upstream-e2e) against dra serve
# --controllers=*,-scheduler, next to dra's own scheduler, on the same
# seeded manifests (tests/upstream/sched/compare.py gen): Nodes and
# ResourceSlices, DeviceClasses with CEL selectors, claim templates, a shared
# claim, pods pinned to a node each and pods free to choose. kube-scheduler
# must elect itself through a Lease, schedule through the DRA plugin (claims
# allocated by it, pods bound through pods/binding) and write its events
# through events.k8s.io; then compare.py diff compares which pods are bound,
# where, and which devices each claim got, printing every difference.
# kube-scheduler talks protobuf, its default content type; one more run
# (JSON_SEEDS, default "1") passes --kube-api-content-type=application/json.
# Skipped (77) without kubectl, python3 or build/upstream/kube-scheduler.
# SEEDS (default "1 2 3") picks the generated clusters.
dra=${1:-build/dra}
. tests/lib/serve.sh
skip_without kubectl upstream_scheduler
skip_without python3 upstream_scheduler
ks=$(dirname "$dra")/upstream/kube-scheduler
[ -x "$ks" ] || skip upstream_scheduler "$ks not built (make upstream-e2e)"
compare=tests/upstream/sched/compare.py
# the DRA gates dra turns on, as kube-scheduler 1.37 names them
gates=DRAAdminAccess=true,DRAPrioritizedList=true,DRADeviceTaints=true,DRADeviceTaintRules=true
gates=$gates,DRAPartitionableDevices=true,DRAConsumableCapacity=true,DRADeviceBindingConditions=true
gates=$gates,DRAResourceClaimDeviceStatus=true,DRAListTypeAttributes=true,DRADerivedAttributes=true
gates=$gates,DRAExtendedResource=true,DRAWorkloadResourceClaims=true,GenericWorkload=true
ks_pid=
stop_scheduler() { [ -n "$ks_pid" ] && kill "$ks_pid" 2>/dev/null && wait "$ks_pid" 2>/dev/null; ks_pid=; }
cleanup=stop_scheduler
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

start_scheduler() { # log file, flags...
  log=$1; shift
  "$ks" --kubeconfig="$KUBECONFIG" "$@" --leader-elect=true \
    --secure-port="$(port)" --bind-address=127.0.0.1 --feature-gates="$gates" -v=2 >"$log" 2>&1 &
  ks_pid=$!
}

settled() { # waits until no pod of ns sched changes node for 3 s (at most 40 s)
  last=; same=0
  for i in $(seq 80); do
    now=$(kubectl get pods -n sched -o jsonpath='{range .items[*]}{.metadata.name}={.spec.nodeName} {end}')
    if [ "$now" = "$last" ]; then same=$((same+1)); [ $same -ge 6 ] && break; else same=0; fi
    last=$now; sleep 0.5
  done
  echo "settled"
}

runs=
for seed in ${SEEDS:-1 2 3}; do runs="$runs $seed:protobuf"; done
for seed in ${JSON_SEEDS-1}; do runs="$runs $seed:json"; done
for run_name in $runs; do
  seed=${run_name%:*}; media=${run_name#*:}
  content_type=; [ "$media" = json ] && content_type=--kube-api-content-type=application/json
  run=$tmp/seed-$seed-$media
  mkdir -p "$run"
  python3 $compare gen "$seed" "$run/cluster.yaml"
  "$dra" schedule -f "$run/cluster.yaml" -o json >"$run/dra.json" 2>"$run/dra.err"
  check "seed $seed ($media): dra schedule" '"items"' head -c 200 "$run/dra.json"
  serve_https "$run/data" --controllers='*,-scheduler'
  export KUBECONFIG="$run/data/kubeconfig"
  start_scheduler "$tmp/ks-$seed-$media.out" $content_type
  check "seed $seed ($media): apply" "pod/too-many created" kubectl apply -f "$run/cluster.yaml"
  check "seed $seed ($media): leader elected" "kube-scheduler" sh -c \
    "for i in \$(seq 40); do kubectl get lease -n kube-system kube-scheduler -o jsonpath='{.spec.holderIdentity}' 2>/dev/null | grep -q . && break; sleep 0.5; done; kubectl get lease -n kube-system"
  check "seed $seed ($media): settled" "settled" settled
  kubectl get pods,resourceclaims -n sched -o json >"$run/kube.json"
  check "seed $seed ($media): bound by kube-scheduler" "Successfully bound pod to node" cat "$tmp/ks-$seed-$media.out"
  check "seed $seed ($media): its events" "Scheduled" kubectl get events.events.k8s.io -n sched
  check "seed $seed ($media): allocated by kube-scheduler" '"allocation"' grep -o -m1 '"allocation"' "$run/kube.json"
  echo "seed $seed ($media):"
  out=$(python3 $compare diff "$run/dra.json" "$run/kube.json"); rc=$?
  printf '%s\n' "$out" | sed 's/^/  /'
  if [ $rc = 0 ]; then passed=$((passed+1)); else failed=$((failed+1)); echo "FAIL seed $seed ($media): disagreements above (manifests: python3 $compare gen $seed FILE)"; fi
  stop_scheduler
  kill $server 2>/dev/null; wait $server 2>/dev/null
  mv "$tmp/serve.log" "$tmp/serve-$seed-$media.log" # finish checks every *.log for sanitizer reports
done

# Preemption: pods of priority 100, 100, 500 and 50 fill two nodes, then a
# priority-1000 pod arrives (tests/data/preemption/cpu: 2 of 4 CPUs
# each). kube-scheduler's DefaultPreemption must evict the pod dra evicts
# and nominate the node dra nominates (dra schedule on the bound cluster);
# the preemptor binds there once dra serve's node simulator has deleted the
# victim. In tests/data/preemption/gpu the pods hold GPUs instead:
# kube-scheduler 1.37 does not preempt for devices (its DRA plugin's
# "cannot allocate all claims" is UnschedulableAndUnresolvable), dra does:
# a deliberate difference (README).
dra_choice() { # data dir: "<victims> <nominated node>" as dra schedule picks them
  "$dra" schedule -o yaml -f "$1/cluster.yaml" >"$tmp/preempt-dump.yaml"
  "$dra" schedule -o json -f "$tmp/preempt-dump.yaml" -f "$1/high.yaml" | python3 -c "
import json, sys
pods = [i for i in json.load(sys.stdin)['items'] if i['kind'] == 'Pod']
print(' '.join(sorted(p['metadata']['name'] for p in pods if p['metadata'].get('deletionTimestamp'))),
      ''.join(p['status'].get('nominatedNodeName', '') for p in pods if p['metadata']['name'] == 'trainer'))"
}
preemption_run() { # data dir, run name
  serve_https "$tmp/$2-data" --controllers='*,-scheduler'
  export KUBECONFIG="$tmp/$2-data/kubeconfig"
  start_scheduler "$tmp/ks-$2.out"
  n_pods=$(grep -c '^kind: Pod$' "$1/cluster.yaml")
  check "$2: apply cluster" "pod/batch-low-b created" kubectl apply -f "$1/cluster.yaml"
  check "$2: $n_pods bound" "$n_pods" sh -c "for i in \$(seq 80); do [ \$(kubectl get pods -o jsonpath='{range .items[*]}{.spec.nodeName}{\" \"}{end}' | wc -w) = $n_pods ] && break; sleep 0.5; done; kubectl get pods -o jsonpath='{range .items[*]}{.spec.nodeName}{\" \"}{end}' | wc -w"
  check "$2: apply preemptor" "pod/trainer created" kubectl apply -f "$1/high.yaml"
}
pick=$(dra_choice tests/data/preemption/cpu)
check "preemption-cpu: dra's choice" "batch-low-b node-b" echo "$pick"
preemption_run tests/data/preemption/cpu preemption-cpu
check "preemption-cpu: kube-scheduler binds it where dra nominates" "${pick#* }" sh -c \
  "for i in \$(seq 80); do kubectl get pod trainer -o jsonpath='{.spec.nodeName}' | grep -q . && break; sleep 0.5; done; kubectl get pod trainer -o jsonpath='{.spec.nodeName}'"
check "preemption-cpu: the same nomination" "${pick#* }" kubectl get pod trainer -o jsonpath='{.status.nominatedNodeName}'
check "preemption-cpu: the same victim" "Preempted ${pick% *}" \
  kubectl get events.events.k8s.io -o jsonpath='{range .items[*]}{.reason} {.regarding.name}{"\n"}{end}'
check "preemption-cpu: upstream's event text, as dra's" "Preempted by pod $(kubectl get pod trainer -o jsonpath='{.metadata.uid}') on node ${pick#* }" \
  kubectl get events.events.k8s.io -o jsonpath='{.items[*].note}'
stop_scheduler
kill $server 2>/dev/null; wait $server 2>/dev/null
check "preemption (GPUs): dra preempts" "batch-low-b node-b" dra_choice tests/data/preemption/gpu
preemption_run tests/data/preemption/gpu preemption-gpu
check "preemption (GPUs): kube-scheduler does not" "Preemption is not helpful for scheduling" sh -c \
  "for i in \$(seq 40); do kubectl get pod trainer -o jsonpath='{.status.conditions[0].message}' | grep -q preemption && break; sleep 0.5; done; kubectl get pod trainer -o jsonpath='{.status.conditions[0].message}'"
stop_scheduler
kill $server 2>/dev/null; wait $server 2>/dev/null
summary
