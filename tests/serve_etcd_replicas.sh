#!/bin/sh
# serve_etcd_replicas.sh: two `dra serve` replicas on one etcd (of `make
# etcd`) serve the same data: each sees the other's writes through its etcd
# watch. Only the holder of the Lease kube-system/dra-controllers runs the
# controllers: a pod's claim is made from its template once, not once per
# replica, and the pod is bound. When the leader stops it releases the Lease
# and the other replica takes it over and runs the controllers.
# Skipped (exit 77) without build/upstream/etcd (`make etcd`), kubectl or curl.
dra=${1:-build/dra}
case $dra in /*) ;; *) dra=$(pwd)/$dra ;; esac
. tests/lib/serve.sh
. tests/lib/etcd.sh
cleanup='[ -n "$server_a" ] && { kill $server_a; wait $server_a; } 2>/dev/null; stop_etcd'
serve_on_etcd_setup serve_etcd_replicas

serve_log=a serve "$tmp/a" --etcd-servers "$etcd_url"
server_a=$server
serve_log=b serve "$tmp/b" --etcd-servers "$etcd_url"
ka() { kubectl --kubeconfig "$tmp/a/kubeconfig" "$@"; }
kb() { kubectl --kubeconfig "$tmp/b/kubeconfig" "$@"; }
until_true() { # seconds, command...: retries every 0.2 s
  n=$(($1 * 5)); shift
  for _ in $(seq "$n"); do "$@" >/dev/null 2>&1 && return 0; sleep 0.2; done
  return 1
}
holder() { ka get lease dra-controllers -n kube-system -o jsonpath='{.spec.holderIdentity}'; }
identity() { sed -n 's/.*acquired the controllers. lease kube-system\/dra-controllers as //p' "$tmp/$1.log"; }

until_true 10 sh -c "[ -n \"\$(kubectl --kubeconfig $tmp/a/kubeconfig get lease dra-controllers -n kube-system -o jsonpath='{.spec.holderIdentity}')\" ]"
leader=a; follower=b
[ -n "$(identity b)" ] && { leader=b; follower=a; }
check "one replica holds the lease" "$(identity $leader)" holder
check "the other does not" "leaders=1" echo "leaders=$(cat "$tmp/a.log" "$tmp/b.log" | grep -c 'acquired the controllers')"

check "create through a" 'created' ka apply -f tests/data/serve/cluster.yaml
until_true 5 kb get resourceclaimtemplate one-gpu
check "b sees a's write" 'one-gpu' kb get resourceclaimtemplate one-gpu
rv_a=$(ka get resourceslice node-1-gpus -o jsonpath='{.metadata.resourceVersion}')
check "same resourceVersion on both" "rv=$rv_a" echo "rv=$(kb get resourceslice node-1-gpus -o jsonpath='{.metadata.resourceVersion}')"
check "create through b" 'pod/trainer created' kb apply -f tests/data/serve/pod.yaml
until_true 10 sh -c "[ -n \"\$(kubectl --kubeconfig $tmp/a/kubeconfig get pod trainer -o jsonpath='{.spec.nodeName}')\" ]"
check "the pod is bound (seen through a)" 'node-1' ka get pod trainer -o jsonpath='{.spec.nodeName}'
check "its claim was made once" 'claims=1' sh -c "echo claims=\$(kubectl --kubeconfig $tmp/b/kubeconfig get resourceclaims --no-headers | wc -l)"

# the leader stops: it releases the lease and the other takes over within a retry period
if [ $leader = a ]; then kill $server_a; wait $server_a 2>/dev/null; server_a=
else kill $server; wait $server 2>/dev/null; server=; fi
kf="kubectl --kubeconfig $tmp/$follower/kubeconfig"
until_true 10 grep -q 'acquired the controllers' "$tmp/$follower.log"
check "the follower took the lease over" "$(identity $follower)" $kf get lease dra-controllers -n kube-system -o jsonpath='{.spec.holderIdentity}'
check "one transition" 'transitions=1' sh -c "echo transitions=\$($kf get lease dra-controllers -n kube-system -o jsonpath='{.spec.leaseTransitions}')"
sed 's/name: trainer/name: trainer-2/' tests/data/serve/pod.yaml >"$tmp/pod2.yaml"
check "create after the failover" 'pod/trainer-2 created' $kf apply -f "$tmp/pod2.yaml"
until_true 10 sh -c "[ -n \"\$($kf get pod trainer-2 -o jsonpath='{.spec.nodeName}')\" ]"
check "the new leader binds it" 'node-1' $kf get pod trainer-2 -o jsonpath='{.spec.nodeName}'
# a follower sees the leader's work but leaves its Events to the leader: on
# taking over it does not write them again (tests/ha found new leaders
# stalled writing thousands of them)
events() { $kf get events -o jsonpath='{range .items[*]}{.reason}/{.involvedObject.name}{"\n"}{end}'; }
check "one Scheduled Event per pod" 'trainer=1 trainer-2=1' sh -c "echo trainer=\$(printf '%s\n' \"\$1\" | grep -c '^Scheduled/trainer\$') trainer-2=\$(printf '%s\n' \"\$1\" | grep -c '^Scheduled/trainer-2\$')" - "$(sleep 1; events)"
summary
