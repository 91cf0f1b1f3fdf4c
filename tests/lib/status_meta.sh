# tests/lib/status_meta.sh: what a write through a /status subresource
# keeps of the stored metadata, per kind, as kube-apiserver's status
# strategies do (docs/server.md, 'Status subresources'), checked with
# kubectl. Source it after tests/lib/serve.sh, then
#   status_meta_checks SIDE KUBECTL_FLAGS: creates namespace sm and its
#     objects and checks them (check names end in " (SIDE)").
status_meta_checks() { # side, kubectl flags
  side=$1 kc=$2
  kubectl $kc create namespace sm >/dev/null 2>&1 # the caller may have made it
  kubectl $kc create -f - >"$tmp/create-$side.out" 2>&1 <<'YAML'
apiVersion: v1
kind: Node
metadata: {name: sm-node}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: sm}
spec: {containers: [{name: c, image: busybox}], nodeName: no-such-node}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: sm}
spec: {devices: {requests: [{name: r, exactly: {deviceClassName: gpu}}]}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: d, namespace: sm}
spec:
  replicas: 0
  selector: {matchLabels: {app: d}}
  template: {metadata: {labels: {app: d}}, spec: {containers: [{name: c, image: busybox}]}}
---
apiVersion: v1
kind: Service
metadata: {name: s, namespace: sm}
spec: {ports: [{port: 80}]}
YAML
  grep -q "^Error" "$tmp/create-$side.out" && { failed=$((failed + 1)); echo "FAIL create ($side):"; cat "$tmp/create-$side.out"; }
  meta='{"metadata":{"labels":{"via":"status"},"annotations":{"via":"status"}}}'
  owner='{"metadata":{"ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"x","uid":"00000000-0000-0000-0000-000000000001"}]}}'
  for o in pod/p resourceclaim/c deployment/d service/s node/sm-node; do
    ns="-n sm"; [ $o = node/sm-node ] && ns=
    kubectl $kc patch $o $ns --subresource=status --type=merge -p "$meta" >/dev/null
  done
  kubectl $kc patch pod p -n sm --subresource=status --type=merge -p "$owner" >/dev/null
  labels() { kubectl $kc get "$@" -o jsonpath='labels={.metadata.labels.via} annotations={.metadata.annotations.via} owners={.metadata.ownerReferences}|'; }
  # podStatusStrategy keeps only ownerReferences (and deletionTimestamp)
  check "pods/status writes labels and annotations, not owners ($side)" "labels=status annotations=status owners=|" \
    labels pod p -n sm
  # ResetObjectMetaForStatus
  check "resourceclaims/status keeps the metadata ($side)" "labels= annotations= owners=|" labels resourceclaim c -n sm
  # deploymentStatusStrategy keeps the labels only
  check "deployments/status keeps labels, writes annotations ($side)" "labels= annotations=status" labels deployment d -n sm
  # reset only the spec
  check "nodes/status writes labels ($side)" "labels=status annotations=status" labels node sm-node
  check "services/status writes labels ($side)" "labels=status annotations=status" labels service s -n sm
  check "pods/status checks the labels it writes ($side)" 'metadata.labels: Invalid value: "bad value"' \
    kubectl $kc patch pod p -n sm --subresource=status --type=merge -p '{"metadata":{"labels":{"via":"bad value"}}}'
  # server-side apply: the reset fields are not the applier's (GetResetFields)
  applied() { # kind name labels: applies the labels through /status as manager st, then its fields
    printf 'apiVersion: %s\nkind: %s\nmetadata: {name: %s, namespace: sm, labels: {applied: "yes"}}\n' "$1" "$2" "$3" |
      kubectl $kc apply --server-side --subresource=status --field-manager=st -f - >/dev/null 2>&1
    kubectl $kc get "$2" "$3" -n sm -o jsonpath='via={.metadata.labels.applied} fields={.metadata.managedFields[?(@.manager=="st")].fieldsV1}|'
  }
  check "apply through pods/status owns the labels ($side)" 'via=yes fields={"f:metadata":{"f:labels":{"f:applied":{}}}}|' \
    applied v1 Pod p
  check "apply through resourceclaims/status owns no metadata ($side)" "via= fields=|" \
    applied resource.k8s.io/v1 ResourceClaim c
}
