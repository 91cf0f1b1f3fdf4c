#!/bin/sh
# What dra serve makes and lists at start (docs/server.md, "Authorization"
# and "Discovery and OpenAPI"): the system namespaces and the bootstrap RBAC
# policy are written as one group commit (with strace: far fewer fdatasync
# calls than objects), namespace_policy.go's Roles and RoleBindings in
# kube-system and kube-public, the podgroup protection controller's role
# under GenericWorkload, and the reviews in discovery as kube-apiserver
# lists them, which `kubectl api-resources` shows.
dra=${1:-build/dra}
. tests/lib/serve.sh
skip_without curl serve_bootstrap
if command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null; then
  mkdir "$tmp/fresh"
  strace -f -c -e trace=fsync,fdatasync -o "$tmp/syncs" "$dra" serve --insecure-http --listen 127.0.0.1:0 \
    --data-dir "$tmp/fresh" >"$tmp/strace-serve.log" 2>&1 &
  traced=$!
  for i in $(seq 200); do [ -s "$tmp/fresh/kubeconfig" ] && break; sleep 0.05; done
  kill $(pgrep -P $traced) 2>/dev/null; wait $traced # dra, not strace: it ends and strace reports
  syncs=$(awk '$NF == "total" { print $(NF-1) }' "$tmp/syncs")
  # The controllers commit their own writes once the server is up, a number
  # that depends on how long the kill takes to come; so the bound is half
  # the objects in the store, which one commit per object would pass twice.
  objects=$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from objects").fetchone()[0])' \
    "$tmp/fresh/dra.db" 2>/dev/null)
  echo "a fresh start: ${syncs:-?} fsync/fdatasync calls for ${objects:-?} objects"
  check "a fresh start commits its bootstrap as a group" "few" \
    sh -c "[ '${objects:-0}' -ge 100 ] && [ '${syncs:-999}' -lt \$(( ${objects:-0} / 2 )) ] && echo few"
else
  echo "SKIP the fsync count: strace not usable here"; skipped=$((skipped+1))
fi

serve "$tmp/data"
roles() { curl -s "$url/apis/rbac.authorization.k8s.io/v1/$1" | tr '{' '\n' | grep -o '"name":"[^"]*","namespace":"[^"]*"' | sort; }
check "kube-system roles" '"name":"system::leader-locking-kube-scheduler","namespace":"kube-system"' roles roles
check "kube-system roles: the authentication reader" '"name":"extension-apiserver-authentication-reader","namespace":"kube-system"' roles roles
check "kube-public role" '"name":"system:controller:bootstrap-signer","namespace":"kube-public"' roles roles
check "kube-system bindings" '"name":"system::extension-apiserver-authentication-reader","namespace":"kube-system"' roles rolebindings
check "kube-system binding subjects" '"subjects":[{"kind":"User","apiGroup":"rbac.authorization.k8s.io","name":"system:kube-scheduler"},{"kind":"ServiceAccount","name":"kube-scheduler","namespace":"kube-system"}]' \
  curl -s "$url/apis/rbac.authorization.k8s.io/v1/namespaces/kube-system/rolebindings/system::leader-locking-kube-scheduler"
check "podgroup protection controller role" '"verbs":["get","list","update","watch"]' \
  curl -s "$url/apis/rbac.authorization.k8s.io/v1/clusterroles/system:controller:podgroup-protection-controller"

check "/apis lists authentication.k8s.io" '{"name":"authentication.k8s.io","versions":[{"groupVersion":"authentication.k8s.io/v1","version":"v1"}]' curl -s "$url/apis"
check "/apis lists authorization.k8s.io" '{"name":"authorization.k8s.io","versions":[{"groupVersion":"authorization.k8s.io/v1","version":"v1"}]' curl -s "$url/apis"
check "authorization.k8s.io/v1 resources" '{"name":"localsubjectaccessreviews","singularName":"localsubjectaccessreview","namespaced":true,"kind":"LocalSubjectAccessReview","verbs":["create"]},{"name":"selfsubjectaccessreviews"' \
  curl -s "$url/apis/authorization.k8s.io/v1"
check "authentication.k8s.io/v1 resources" '"resources":[{"name":"selfsubjectreviews","singularName":"selfsubjectreview","namespaced":false,"kind":"SelfSubjectReview","verbs":["create"]}]' \
  curl -s "$url/apis/authentication.k8s.io/v1"
check "no v1beta1 of the reviews" '"code":404' curl -s "$url/apis/authorization.k8s.io/v1beta1"
if command -v kubectl >/dev/null 2>&1; then
  kubectl --kubeconfig "$tmp/data/kubeconfig" api-resources >"$tmp/api-resources" 2>&1
  check "kubectl api-resources" "subjectaccessreviews" \
    grep -E '^subjectaccessreviews +authorization.k8s.io/v1 +false +SubjectAccessReview$' "$tmp/api-resources"
  check "kubectl api-resources --verbs=create" "selfsubjectreviews" \
    kubectl --kubeconfig "$tmp/data/kubeconfig" api-resources --verbs=create -o name
else
  echo "SKIP kubectl api-resources: kubectl not found"; skipped=$((skipped+1))
fi
summary
