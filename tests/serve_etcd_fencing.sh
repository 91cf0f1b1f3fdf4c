#!/bin/sh
# serve_etcd_fencing.sh: fencing of the controllers (docs/store.md
# "Fencing"). Two `dra serve` replicas on one etcd, with short lease
# timings (DRA_LEADER_ELECTION_TIMINGS). The leader is paused (SIGSTOP)
# while it allocates devices to a burst of pods, past the lease duration;
# the other takes the Lease over and finishes the work; the old leader is
# resumed (SIGCONT). Its controller writes, made on its old view, are
# refused by etcd (the Lease's revision moved on), unless its elector sees
# the loss first: it logs the refusal and
# stops leading. No device ends up allocated to two claims, and every pod
# that could get a device is bound.
# Skipped (exit 77) without build/upstream/etcd (`make etcd`), kubectl or curl.
dra=${1:-build/dra}
case $dra in /*) ;; *) dra=$(pwd)/$dra ;; esac
. tests/lib/serve.sh
. tests/lib/etcd.sh
cleanup='for p in $server_a $server_b; do kill -CONT $p; kill $p; wait $p; done 2>/dev/null; stop_etcd'
serve_on_etcd_setup serve_etcd_fencing
export DRA_LEADER_ELECTION_TIMINGS=3,2,0.5 # lease, renew deadline, retry (s)

devices=40 pods=60
serve_log=a serve "$tmp/a" --etcd-servers "$etcd_url"
server_a=$server
serve_log=b serve "$tmp/b" --etcd-servers "$etcd_url"
server_b=$server
until_true() { # seconds, command...: retries every 0.2 s
  n=$(($1 * 5)); shift
  for _ in $(seq "$n"); do "$@" >/dev/null 2>&1 && return 0; sleep 0.2; done
  return 1
}
until_true 10 sh -c "grep -q 'acquired the controllers' $tmp/a.log $tmp/b.log"
leader=a; follower=b; pid=$server_a
grep -q 'acquired the controllers' "$tmp/b.log" && { leader=b; follower=a; pid=$server_b; }
kf="kubectl --kubeconfig $tmp/$follower/kubeconfig"

{ sed -n '1,/^  devices:/p' tests/data/serve/cluster.yaml
  for i in $(seq 0 $((devices - 1))); do printf '  - name: gpu-%d\n' "$i"; done
  sed -n '/^---$/,$p' tests/data/serve/cluster.yaml | sed -n '/kind: ResourceClaimTemplate/,$p' | sed '1s/^/---\napiVersion: resource.k8s.io\/v1\n/'
} >"$tmp/cluster.yaml"
for i in $(seq 1 $pods); do echo ---; sed "s/name: trainer/name: trainer-$i/" tests/data/serve/pod.yaml; done >"$tmp/pods.yaml"
check "cluster created" 'resourceslice.resource.k8s.io/node-1-gpus created' $kf apply -f "$tmp/cluster.yaml"

bound() { $kf get pods -o jsonpath='{range .items[*]}{.spec.nodeName}{"\n"}{end}' | grep -c node-1; }
# the burst, and the leader paused while it works on it
$kf apply -f "$tmp/pods.yaml" >/dev/null & burst=$!
until_true 20 sh -c "[ \$($kf get pods -o jsonpath='{range .items[*]}{.spec.nodeName}{\"\\n\"}{end}' | grep -c node-1) -ge 1 ]"
kill -STOP $pid
wait $burst
until_true 15 grep -q 'acquired the controllers' "$tmp/$follower.log"
check "the follower took the lease over" 'acquired the controllers' cat "$tmp/$follower.log"
until_true 30 sh -c "[ \$($kf get pods -o jsonpath='{range .items[*]}{.spec.nodeName}{\"\\n\"}{end}' | grep -c node-1) -ge $devices ]"
kill -CONT $pid
# On resume, either its control loop writes first (etcd refuses: the
# Lease's revision moved on) or its elector sees first that the lease is
# gone; which thread runs first is the scheduler's choice. Either way it
# stops leading, and nothing of its old view gets in (checked below).
until_true 15 grep -q 'lost the controllers' "$tmp/$leader.log"
check "the resumed ex-leader stops leading" 'lost the controllers' cat "$tmp/$leader.log"
if grep -q 'refused' "$tmp/$leader.log"; then
  check "its refused writes name the lease" 'refused: the lease kube-system/dra-controllers moved on' cat "$tmp/$leader.log"
fi
sleep 2
# (a slow machine may move the lease again later: one replica leads, the holder)
last() { grep -E 'acquired|lost' "$tmp/$1.log" | tail -n 1 | sed -n 's/.*acquired the controllers. lease kube-system\/dra-controllers as //p'; }
check "one leader at the end, the lease's holder" "leader=$($kf get lease dra-controllers -n kube-system -o jsonpath='{.spec.holderIdentity}')" \
  sh -c "echo leader=$(last a)$(last b)"
check "every device allocated once" "duplicates=0 allocated=$devices" sh -c "r=\$($kf get resourceclaims -o jsonpath='{range .items[*]}{range .status.allocation.devices.results[*]}{.pool}/{.device}{\"\\n\"}{end}{end}'); echo duplicates=\$(printf '%s\n' \"\$r\" | grep . | sort | uniq -d | wc -l) allocated=\$(printf '%s\n' \"\$r\" | grep -c .)"
check "as many pods bound as devices" "bound=$devices" sh -c "echo bound=\$($kf get pods -o jsonpath='{range .items[*]}{.spec.nodeName}{\"\\n\"}{end}' | grep -c node-1)"
check "one claim per pod" "claims=$pods" sh -c "echo claims=\$($kf get resourceclaims --no-headers | wc -l)"
summary
