#!/bin/sh
# serve_etcd_stall.sh: a leader whose control loop is held up keeps the
# lease, and a leader cut off from etcd stops within its renew deadline
# (docs/store.md "Fencing"). Two `dra serve` replicas on one etcd with
# short lease timings (DRA_LEADER_ELECTION_TIMINGS): the leader reaches
# etcd through tests/lib/stall_proxy.py, the other directly. While the
# leader allocates devices to a burst of pods:
# 1. the proxy stalls the leader's etcd watch for longer than the lease:
#    each write of its control loop then waits for its cache, holding the
#    loop's lock, for 10 s. Its elector renews all the same: it keeps the
#    lease, and the other replica does not take it;
# 2. the proxy stalls all its connections (open and silent, as in a
#    partition). Then:
# - every write (txn) the cut-off leader had sent is given up (the
#   connection closed) by the stall + the renew deadline + 1 s, not at the
#   10 s timeout of an etcd call, and it sends no write after that (nor
#   after waiting 10 s for its cache to show a write);
# - it logs that it lost the lease;
# - the other replica takes the lease over within the lease duration and
#   two retry periods of the stall, and finishes the work once the stall
#   ends: every device allocated once, every pod bound, one leader.
# Skipped (exit 77) without build/upstream/etcd (`make etcd`), kubectl,
# curl or python3.
dra=${1:-build/dra}
case $dra in /*) ;; *) dra=$(pwd)/$dra ;; esac
. tests/lib/serve.sh
. tests/lib/etcd.sh
cleanup='kill $proxy; for p in $server_a $server_b; do kill $p; wait $p; done 2>/dev/null; stop_etcd'
serve_on_etcd_setup serve_etcd_stall
skip_without python3 serve_etcd_stall
lease=4 renew=2 retry=0.5
export DRA_LEADER_ELECTION_TIMINGS=$lease,$renew,$retry

# a full stall comes at a write of a pod's key (/registry/po..., base64 in
# the transaction's JSON): a write of the loop is then in flight
start_stall_proxy "$(printf /registry/po | base64)"
serve_log=a serve "$tmp/a" --etcd-servers "http://127.0.0.1:$proxy_port"
server_a=$server
until_true 10 grep -q 'acquired the controllers' "$tmp/a.log"
check "the replica behind the proxy leads" 'acquired the controllers' cat "$tmp/a.log"
serve_log=b serve "$tmp/b" --etcd-servers "$etcd_url"
server_b=$server
kb="kubectl --kubeconfig $tmp/b/kubeconfig"

devices=100 pods=100
{ sed -n '1,/^  devices:/p' tests/data/serve/cluster.yaml
  for i in $(seq 0 $((devices - 1))); do printf '  - name: gpu-%d\n' "$i"; done
  sed -n '/^---$/,$p' tests/data/serve/cluster.yaml | sed -n '/kind: ResourceClaimTemplate/,$p' | sed '1s/^/---\napiVersion: resource.k8s.io\/v1\n/'
} >"$tmp/cluster.yaml"
burst() { # first, last: the pods trainer-first..last
  for i in $(seq "$1" "$2"); do echo ---; sed "s/name: trainer/name: trainer-$i/" tests/data/serve/pod.yaml; done
}
burst 1 $((pods / 2)) >"$tmp/pods-1.yaml"
burst $((pods / 2 + 1)) $pods >"$tmp/pods-2.yaml"
check "cluster created" 'resourceslice.resource.k8s.io/node-1-gpus created' $kb apply -f "$tmp/cluster.yaml"
bound() { $kb get pods -o jsonpath='{range .items[*]}{.spec.nodeName}{"\n"}{end}' | grep -c node-1; }
bound_at_least() { [ "$(bound)" -ge "$1" ]; }
last() { grep -E 'acquired|lost' "$tmp/$1.log" | tail -n 1 | sed -n 's/.*acquired the controllers. lease kube-system\/dra-controllers as //p'; }

# a burst, and the leader's watch stalled while it works on it
check "pods created" 'pod/trainer-1 created' $kb apply -f "$tmp/pods-1.yaml"
until_true 30 bound_at_least 3
kill -HUP $proxy
sleep $((lease + 2))
check "a leader whose loop waits keeps the lease" "holder=$(last a)" \
  $kb get lease dra-controllers -n kube-system -o jsonpath='holder={.spec.holderIdentity}'
check "and the other replica does not take it" "acquired=0" sh -c "echo acquired=\$(grep -c 'acquired the controllers' $tmp/b.log)"
n=$(bound)
check "its loop was held up (it is not done)" "held=1" echo "held=$((n < devices))"
kill -USR2 $proxy
# another burst, and the leader cut off at its first write of a pod
until_true 20 bound_at_least $((pods / 2))
kill -USR1 $proxy
$kb apply -f "$tmp/pods-2.yaml" >"$tmp/pods-2.out" 2>&1 & creating=$!
until_true 20 grep -q ' stall$' "$tmp/proxy.events"
check "the cut-off leader had a write in flight (the test saw something)" "inflight" \
  grep ' inflight [0-9]* /v3/kv/txn' "$tmp/proxy.events"
stall=$(awk '$2 == "stall" { print $1 }' "$tmp/proxy.events")
until_true 20 grep -q 'acquired the controllers' "$tmp/b.log"
took_over=$(date +%s.%N)
sleep $((renew + 2)) # past the renew deadline and the slack allowed below

# what the cut-off leader did during the stall, as the proxy saw it
given_up_by=$(awk -v s="$stall" -v r="$renew" 'BEGIN { printf "%.3f", s + r + 1 }')
check "its writes in flight are given up by the renew deadline (+1 s)" "late=0" \
  awk -v by="$given_up_by" '
    ($2 == "request" || $2 == "inflight") && $4 == "/v3/kv/txn" { txn[$3] = 1 }
    $2 == "close" { closed[$3] = $1 }
    END { late = 0
          for (c in txn) if (!(c in closed) || closed[c] > by) { late++; print "connection " c " still open at " by }
          print "late=" late }' "$tmp/proxy.events"
check "it sends no write after its renew deadline (+1 s)" "after=0" \
  awk -v by="$given_up_by" '$2 == "request" && $4 == "/v3/kv/txn" && $1 > by { n++; print } END { print "after=" n + 0 }' \
  "$tmp/proxy.events"
check "it logs that it lost the lease" 'lost the controllers' cat "$tmp/a.log"
check "the other replica took over within lease + 2 retry periods (+1 s)" "in_time=1" \
  awk -v t="$took_over" -v s="$stall" -v l="$lease" -v r="$retry" \
  'BEGIN { print "in_time=" (t <= s + l + 2 * r * 2.2 + 1) " (after " t - s " s)" }'

echo "what the proxy saw from the cut-off leader (seconds from the stall; B took over at +$(awk -v t="$took_over" -v s="$stall" 'BEGIN { printf "%.2f", t - s }')):"
awk -v s="$stall" '{ $1 = sprintf("%+.3f", $1 - s); print "  " $0 }' "$tmp/proxy.events"
wait $creating
check "more pods created" "pod/trainer-$pods created" cat "$tmp/pods-2.out"
kill -USR2 $proxy
until_true 60 bound_at_least $devices
check "one leader at the end, the lease's holder" "leader=$($kb get lease dra-controllers -n kube-system -o jsonpath='{.spec.holderIdentity}')" \
  sh -c "echo leader=$(last a)$(last b)"
check "every device allocated once" "duplicates=0 allocated=$devices" sh -c "r=\$($kb get resourceclaims -o jsonpath='{range .items[*]}{range .status.allocation.devices.results[*]}{.pool}/{.device}{\"\\n\"}{end}{end}'); echo duplicates=\$(printf '%s\n' \"\$r\" | grep . | sort | uniq -d | wc -l) allocated=\$(printf '%s\n' \"\$r\" | grep -c .)"
check "every pod bound" "bound=$pods" sh -c "echo bound=\$($kb get pods -o jsonpath='{range .items[*]}{.spec.nodeName}{\"\\n\"}{end}' | grep -c node-1)"
summary
