#!/bin/sh
# upstream_everyday.sh: everyday kubectl answers of dra serve against those
# of a real kube-apiserver 1.37 with kube-scheduler (issue 12), on the same
# small scenario (tests/upstream/e2e/everyday/scenario.yaml: two GPU nodes,
# a DeviceClass, claims from a template and a shared claim, three pods).
# kube-apiserver has no kube-controller-manager here: a dra serve on its
# etcd runs only the resourceclaim-controller (the claims of templates,
# deleted with their pod, as kube-controller-manager's does). After both
# have bound every pod, `kubectl get -o json` of every object must be the
# same but for what differs by nature (uids, times, resourceVersions,
# generated name suffixes: IGNORED below) and the differences known and
# listed in tests/upstream/DISAGREEMENTS.md (KNOWN below); the objects of
# tests/upstream/e2e/everyday/invalid.yaml must be refused with the same
# message by both.
# Skipped (77) without build/upstream/etcd, kube-apiserver and
# kube-scheduler (make upstream-e2e), kubectl, python3, curl or openssl.
dra=${1:-build/dra}
case $dra in /*) ;; *) dra=$(pwd)/$dra ;; esac
. tests/lib/serve.sh
. tests/lib/kube_apiserver.sh
upstream_setup upstream_everyday kube-apiserver kube-scheduler
claims_pid=
cleanup='[ -n "$claims_pid" ] && kill $claims_pid && wait $claims_pid; '$cleanup
everyday=tests/upstream/e2e/everyday
start_kube_apiserver "$ka" "$etcd_url" with-scheduler ||
  { echo "FAIL kube-apiserver did not start"; exit 1; }
kube="--kubeconfig $ka/kubeconfig"
# the claim controller for kube-apiserver: dra serve on its etcd
serve_log=claims
serve "$tmp/claims" --etcd-servers "$etcd_url" --etcd-compaction-interval 0 --controllers=resourceclaim-controller
claims_pid=$server serve_log=
serve "$tmp/dra" --controllers='*,-node-simulator' # no kubelet on either side
drakc="--kubeconfig $tmp/dra/kubeconfig"

for side in kube drakc; do
  eval "kc=\$$side"
  kubectl $kc create namespace everyday >/dev/null
  [ $side = kube ] && kubectl $kc create serviceaccount default -n everyday >/dev/null # kube-controller-manager's part
  kubectl $kc create -f $everyday/scenario.yaml >"$tmp/apply-$side.out" 2>&1
  grep -v "AlreadyExists" "$tmp/apply-$side.out" | grep -q "^Error" &&
    { failed=$((failed + 1)); echo "FAIL create ($side):"; cat "$tmp/apply-$side.out"; }
  # the kubelet's part: capacity, Ready (kube-scheduler refuses a node
  # without allocatable pods: "Too many pods")
  for n in gpu-1 gpu-2; do
    kubectl $kc patch node $n --subresource=status --type=merge --patch-file tests/upstream/e2e/layout/node-status.json >/dev/null
  done
done
# TaintNodesByCondition gives kube-apiserver's new nodes node.kubernetes.io/not-ready
# until a node lifecycle controller sees them Ready; there is none here
kubectl $kube taint nodes gpu-1 gpu-2 node.kubernetes.io/not-ready:NoSchedule- >/dev/null 2>&1
bound() { # kubeconfig flags: until the three pods are bound (60 s)
  for i in $(seq 120); do
    [ "$(kubectl $1 get pods -n everyday -o jsonpath='{range .items[*]}{.spec.nodeName}{" "}{end}' | wc -w)" = 3 ] && break
    sleep 0.5
  done
  kubectl $1 get pods -n everyday -o wide
}
check "kube-scheduler bound the pods" "gpu-2" bound "$kube"
[ "$failed" = 0 ] || tail -n 20 "$ka/kube-scheduler.log"
check "dra serve bound the pods" "gpu-2" bound "$drakc"

# ---- the objects, side by side ----
IGNORED="metadata.uid metadata.resourceVersion metadata.creationTimestamp metadata.managedFields.*.time
  metadata.ownerReferences.*.uid status.reservedFor.*.uid status.allocation.devices.results.*.device
  status.conditions.*.lastTransitionTime status.startTime
  status.allocation.allocationTimestamp
  metadata.annotations.kubectl.kubernetes.io/last-applied-configuration"
KNOWN="$(sed -n 's/^| *everyday *| *`\([^`]*\)`.*/\1/p' tests/upstream/DISAGREEMENTS.md)"
ignore=
set -f # the paths' * are same_objects.py's
for p in $IGNORED $KNOWN; do ignore="$ignore --ignore $p"; done
for kind in pods resourceclaims.v1.resource.k8s.io resourceclaimtemplates.v1.resource.k8s.io \
  deviceclasses.v1.resource.k8s.io resourceslices.v1.resource.k8s.io nodes namespaces; do
  for side in kube drakc; do
    eval "kc=\$$side"
    case $kind in pods | resourceclaims* | resourceclaimtemplates*) scope="-n everyday" ;; namespaces) scope=everyday ;; *) scope= ;; esac
    kubectl $kc get $kind $scope -o json --show-managed-fields |
      sed -E 's/(train-[01]-gpu-)[a-z0-9]{5}/\1XXXXX/g; s/kube-api-access-[a-z0-9]{5}/kube-api-access-XXXXX/g' >"$tmp/$side-$kind.json"
  done
  out=$(python3 tests/upstream/e2e/same_objects.py "$tmp/kube-$kind.json" "$tmp/drakc-$kind.json" $ignore 2>&1)
  case $out in
  *" 0 differences") passed=$((passed + 1)) ;;
  *) failed=$((failed + 1)); echo "FAIL $kind: kube-apiserver (first) and dra serve (second) differ:"; printf '%s\n' "$out" | head -30 ;;
  esac
done

set +f

# ---- Events: one resource in two groups on both sides ----
# kube-scheduler writes its Scheduled Events through events.k8s.io/v1, dra
# serve's scheduler through core v1; each side lists them in both groups
# (what kubectl get events and kubectl describe pod read).
scheduled() { # kubeconfig flags, resource, object field, message field
  kubectl $1 get $2 -n everyday --field-selector reason=Scheduled \
    -o jsonpath="{range .items[*]}{.$3.kind}/{.$3.name} {.type} {.reason} {.$4}{'\\n'}{end}" | sort
}
for side in kube drakc; do
  eval "kc=\$$side"
  # both schedulers write their Events after the bind, asynchronously
  # (kube-scheduler's event broadcaster): wait for all three (30 s)
  for i in $(seq 60); do
    [ "$(scheduled "$kc" events involvedObject message | grep -c Scheduled)" -ge 3 ] && break
    sleep 0.5
  done
  scheduled "$kc" events involvedObject message >"$tmp/$side-core-events"
  scheduled "$kc" events.v1.events.k8s.io regarding note >"$tmp/$side-events-events"
done
check "kube-apiserver lists kube-scheduler's Events as core v1" "3" sh -c "grep -c 'Normal Scheduled Successfully assigned' $tmp/kube-core-events"
check "dra serve lists its scheduler's Events as events.k8s.io/v1" "3" sh -c "grep -c 'Normal Scheduled Successfully assigned' $tmp/drakc-events-events"
check "the Scheduled Events are the same in both groups on both sides" "same" sh -c "cmp $tmp/kube-core-events $tmp/kube-events-events &&
  cmp $tmp/kube-core-events $tmp/drakc-core-events && cmp $tmp/kube-core-events $tmp/drakc-events-events && echo same || head $tmp/*-events"

# ---- invalid objects: the same refusal ----
python3 -c 'import sys
for i, doc in enumerate(open(sys.argv[1]).read().split("\n---\n")):
    open(f"{sys.argv[2]}/invalid-{i}.yaml", "w").write(doc)' $everyday/invalid.yaml "$tmp"
for f in "$tmp"/invalid-*.yaml; do
  kubectl $kube create -f "$f" >"$tmp/kube.err" 2>&1
  kubectl $drakc create -f "$f" >"$tmp/dra.err" 2>&1
  if cmp -s "$tmp/kube.err" "$tmp/dra.err"; then passed=$((passed + 1))
  else failed=$((failed + 1)); echo "FAIL $(basename "$f"): the refusals differ:"; diff "$tmp/kube.err" "$tmp/dra.err"; fi
done
summary
