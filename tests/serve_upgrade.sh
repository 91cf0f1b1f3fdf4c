#!/bin/sh
# serve_upgrade.sh: a data directory written by an earlier release
# (tests/data/serve/datadir-0.1.0) starts and serves with today's dra serve:
# every object comes back as it was (names, uids, resourceVersions, the
# allocation), and the directory takes writes, restarts and writes again.
dra=${1:-build/dra}
. tests/lib/serve.sh
skip_without kubectl serve_upgrade
mkdir -p "$tmp/data"
cp tests/data/serve/datadir-0.1.0/dra.db "$tmp/data/dra.db"
chmod u+w "$tmp/data/dra.db"
# without the node simulator, which would start the bound pod (a new resourceVersion)
serve "$tmp/data" --controllers='*,-node-simulator'
export KUBECONFIG="$tmp/data/kubeconfig"
check "started on the old directory" "server: " cat "$tmp/data/kubeconfig"
check "pod kept its uid" "e6c17136-f95d-50e7-acc6-517315e409e8" kubectl get pod trainer -o jsonpath='{.metadata.uid}'
check "pod kept its resourceVersion" "17" kubectl get pod trainer -o jsonpath='{.metadata.resourceVersion}'
check "pod still bound" "node-1" kubectl get pod trainer -o jsonpath='{.spec.nodeName}'
check "claim kept its uid" "951210fd-aaf1-58c5-a23d-94bc412fc4d6" \
  kubectl get resourceclaim trainer-gpu-x2t7j -o jsonpath='{.metadata.uid}'
check "claim kept its allocation" "gpu-0" \
  kubectl get resourceclaim trainer-gpu-x2t7j -o jsonpath='{.status.allocation.devices.results[0].device}'
check "classes kept" "gpu.example.com" kubectl get deviceclasses
check "slice kept" "node-1-gpus" kubectl get resourceslices
ns() { printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n' "$1" | kubectl apply -f -; }
check "write on the old directory" "created" ns after-upgrade
rv=$(kubectl get namespace after-upgrade -o jsonpath='{.metadata.resourceVersion}')
check "resourceVersion goes on after the old ones" "yes" sh -c "[ '$rv' -gt 17 ] && echo yes"
# no kubelet to end it: a graceful delete would leave it Terminating
check "delete the pod" "deleted" kubectl delete pod trainer --grace-period=0 --force
gone() { for i in $(seq 100); do kubectl get resourceclaim "$1" 2>&1 | grep -q NotFound && { echo gone; return; }; sleep 0.1; done; }
check "its claim is collected" "gone" gone trainer-gpu-x2t7j
kill "$server"; wait "$server" 2>/dev/null
serve "$tmp/data"
check "restarted" "server: " cat "$tmp/data/kubeconfig"
check "new namespace survived the restart" "after-upgrade" kubectl get namespace after-upgrade -o name
check "pod stays deleted" "NotFound" kubectl get pod trainer
check "second write after restart" "created" ns after-restart
summary
