#!/bin/sh
# RBAC in dra serve, as kube-apiserver 1.37 with --authorization-mode=RBAC:
# token-file users with and without groups, checked with kubectl (who may
# do what in which namespace, upstream's exact 403 texts, `kubectl auth
# can-i` and its --list, --as impersonation), the bootstrap policy
# (anonymous gets only the public paths; admin, edit and view hold the DRA
# resources), escalation prevention, validation field paths, and the DRA
# rule for ResourceClaim status writes (resourceclaims/binding and the
# associated-node/arbitrary-node verbs on resourceclaims/driver).
dra=${1:-build/dra}
. tests/lib/serve.sh
skip_without curl serve_rbac
skip_without kubectl serve_rbac
cat >"$tmp/tokens" <<'TOKENS'
admin-token,root,1,system:masters
alice-token,alice,2,"dev,qa"
bob-token,bob,3
node-token,system:node:node-1,4,system:nodes
driver-token,gpu-driver,5
TOKENS
serve_https "$tmp/data" --token-file "$tmp/tokens"
[ -n "$url" ] || { echo "FAIL: server did not start"; cat "$tmp/serve.log"; exit 1; }
kubectl --kubeconfig "$tmp/data/kubeconfig" config view --raw -o jsonpath='{.clusters[0].cluster.certificate-authority-data}' |
  base64 -d >"$tmp/ca.crt"
# as USER-TOKEN: kubectl with only that token (the written kubeconfig holds the admin certificate)
as() { tok=$1; shift; kubectl --kubeconfig /dev/null --server "$url" --certificate-authority "$tmp/ca.crt" --token "$tok" "$@"; }
admin() { as admin-token "$@"; }
refused() { # name, exact error line, command...
  name=$1; want=$2; shift 2
  out=$("$@" 2>&1)
  if [ "$out" = "$want" ]; then passed=$((passed+1)); else failed=$((failed+1)); echo "FAIL $name: got: $out"; echo "  want: $want"; fi
}
code() { # method path token [curl args]: HTTP code, body in $tmp/out
  m=$1; p=$2; t=$3; shift 3
  curl -s -o "$tmp/out" -w '%{http_code}' --cacert "$tmp/ca.crt" -X "$m" ${t:+-H "Authorization: Bearer $t"} "$@" "$url$p"
}

# ---- the bootstrap policy ----
check "bootstrap cluster roles" "system:public-info-viewer" admin get clusterroles
check "bootstrap bindings" "ClusterRole/cluster-admin" admin get clusterrolebinding cluster-admin
check "view holds the DRA resources" "resourceclaims" admin get clusterrole view -o jsonpath='{.rules[*].resources}'
check "edit may write claims" "resourceclaimtemplates" admin get clusterrole edit -o jsonpath='{.rules[*].resources}'
check "admin is aggregated from edit" "rolebindings" admin get clusterrole admin -o jsonpath='{.rules[*].resources}'
check "bootstrap annotation" '"rbac.authorization.kubernetes.io/autoupdate":"true"' admin get clusterrole view -o jsonpath='{.metadata.annotations}'
for p in /healthz /livez /readyz /version; do
  [ "$(code GET $p "")" = 200 ] && passed=$((passed+1)) || { failed=$((failed+1)); echo "FAIL anonymous $p: $(cat "$tmp/out")"; }
done
[ "$(code GET /api "")" = 403 ] &&
  [ "$(cat "$tmp/out")" = '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"forbidden: User \"system:anonymous\" cannot get path \"/api\"","reason":"Forbidden","details":{},"code":403}' ] &&
  passed=$((passed+1)) || { failed=$((failed+1)); echo "FAIL anonymous /api: $(cat "$tmp/out")"; }
[ "$(code GET /apis bob-token)" = 200 ] && passed=$((passed+1)) || { failed=$((failed+1)); echo "FAIL bob discovery: $(cat "$tmp/out")"; }

# ---- roles and bindings in namespaces ----
admin create namespace team-a >/dev/null
admin create namespace team-b >/dev/null
cat >"$tmp/rbac.yaml" <<'YAML'
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: claim-reader, namespace: team-a}
rules:
- apiGroups: [resource.k8s.io]
  resources: [resourceclaims]
  verbs: [get, list, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: alice-reads-claims, namespace: team-a}
subjects:
- kind: User
  name: alice
roleRef: {kind: Role, name: claim-reader}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: qa-admins, namespace: team-b}
subjects:
- kind: Group
  name: qa
roleRef: {kind: ClusterRole, name: admin}
YAML
check "apply roles and bindings" "rolebinding.rbac.authorization.k8s.io/qa-admins created" admin apply -f "$tmp/rbac.yaml"
check "wide binding columns" "Role/claim-reader   " admin get rolebindings -n team-a -o wide
check "wide binding users" "alice" admin get rolebindings -n team-a -o wide
check "alice lists claims in team-a" "No resources found in team-a namespace." as alice-token get resourceclaims -n team-a
refused "alice may not list claims in team-b... through the Role" \
  'Error from server (Forbidden): resourceclaims.resource.k8s.io is forbidden: User "alice" cannot list resource "resourceclaims" in API group "resource.k8s.io" in the namespace "default"' \
  as alice-token get resourceclaims
refused "alice may not create in team-a" \
  'Error from server (Forbidden): error when creating "STDIN": resourceclaimtemplates.resource.k8s.io is forbidden: User "alice" cannot create resource "resourceclaimtemplates" in API group "resource.k8s.io" in the namespace "team-a"' \
  sh -c "printf 'apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: t, namespace: team-a}\nspec: {spec: {devices: {requests: [{name: r, exactly: {deviceClassName: gpu}}]}}}\n' |
    kubectl --kubeconfig /dev/null --server $url --certificate-authority $tmp/ca.crt --token alice-token create -f -"
check "alice (group qa) administers team-b" "resourceclaimtemplate.resource.k8s.io/t created" \
  sh -c "printf 'apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: t, namespace: team-b}\nspec: {spec: {devices: {requests: [{name: r, exactly: {deviceClassName: gpu}}]}}}\n' |
    kubectl --kubeconfig /dev/null --server $url --certificate-authority $tmp/ca.crt --token alice-token create -f -"
refused "bob may not get a named claim" \
  'Error from server (Forbidden): resourceclaims.resource.k8s.io "c1" is forbidden: User "bob" cannot get resource "resourceclaims" in API group "resource.k8s.io" in the namespace "team-a"' \
  as bob-token get resourceclaim c1 -n team-a
refused "bob may not list nodes" \
  'Error from server (Forbidden): nodes is forbidden: User "bob" cannot list resource "nodes" in API group "" at the cluster scope' \
  as bob-token get nodes
refused "bob may not read a cluster role" \
  'Error from server (Forbidden): clusterroles.rbac.authorization.k8s.io "view" is forbidden: User "bob" cannot get resource "clusterroles" in API group "rbac.authorization.k8s.io" at the cluster scope' \
  as bob-token get clusterrole view
refused "non-resource 403" \
  'Error from server (Forbidden): forbidden: User "bob" cannot get path "/metrics"' as bob-token get --raw /metrics
# a binding to a role that is missing: RBAC's reason is appended
admin create rolebinding dangling -n team-a --role=missing --user=bob >/dev/null 2>&1
[ "$(code GET /api/v1/namespaces/team-a/pods bob-token)" = 403 ] &&
  grep -qF 'cannot list resource \"pods\" in API group \"\" in the namespace \"team-a\": RBAC: role.rbac.authorization.k8s.io \"missing\" not found' "$tmp/out" &&
  passed=$((passed+1)) || { failed=$((failed+1)); echo "FAIL RBAC reason: $(cat "$tmp/out")"; }

# ---- kubectl auth can-i ----
check "can-i yes" "yes" as alice-token auth can-i list resourceclaims -n team-a
refused "can-i no" "no" as alice-token auth can-i delete resourceclaims -n team-a
refused "can-i other namespace" "no" as alice-token auth can-i list resourceclaims -n kube-system
check "can-i via group" "yes" as alice-token auth can-i create resourceclaims.resource.k8s.io -n team-b
check "can-i subresource" "yes" as alice-token auth can-i get resourceclaims/status -n team-b
check "can-i non-resource" "yes" as bob-token auth can-i get /healthz
check "admin can do everything" "yes" admin auth can-i '*' '*'
check "can-i --list" "resourceclaims.resource.k8s.io                  []                  []               [get list watch]" \
  as alice-token auth can-i --list -n team-a
check "can-i --list non-resource" "[/version]" as alice-token auth can-i --list -n team-a
check "can-i --as (impersonation)" "yes" admin auth can-i list resourceclaims -n team-a --as alice
refused "can-i --as group: RBAC's reason" 'no - RBAC: role.rbac.authorization.k8s.io "missing" not found' admin auth can-i list resourceclaims -n team-a --as bob --as-group dev
refused "impersonation needs the impersonate verb" \
  'Error from server (Forbidden): users "alice" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope' \
  as bob-token get pods --as alice
check "impersonated request" "No resources found in team-a namespace." admin get resourceclaims -n team-a --as alice
check "SubjectAccessReview" '"allowed":true,"reason":"RBAC: allowed by RoleBinding \"alice-reads-claims/team-a\" of Role \"claim-reader\" to User \"alice\""' \
  curl -s --cacert "$tmp/ca.crt" -H "Authorization: Bearer admin-token" -H 'Content-Type: application/json' -X POST "$url/apis/authorization.k8s.io/v1/subjectaccessreviews" \
  --data '{"apiVersion":"authorization.k8s.io/v1","kind":"SubjectAccessReview","spec":{"user":"alice","resourceAttributes":{"namespace":"team-a","verb":"watch","group":"resource.k8s.io","resource":"resourceclaims"}}}'
check "SubjectAccessReview validation" 'spec: Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified' \
  curl -s --cacert "$tmp/ca.crt" -H "Authorization: Bearer admin-token" -H 'Content-Type: application/json' -X POST "$url/apis/authorization.k8s.io/v1/subjectaccessreviews" \
  --data '{"apiVersion":"authorization.k8s.io/v1","kind":"SubjectAccessReview","spec":{"user":"alice"}}'
refused "bob may not review others" \
  'Error from server (Forbidden): subjectaccessreviews.authorization.k8s.io is forbidden: User "bob" cannot create resource "subjectaccessreviews" in API group "authorization.k8s.io" at the cluster scope' \
  as bob-token create -f - --raw /apis/authorization.k8s.io/v1/subjectaccessreviews </dev/null

# ---- escalation ----
cat >"$tmp/escalate.yaml" <<'YAML'
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: too-much, namespace: team-b}
rules:
- apiGroups: [""]
  resources: [nodes, pods]
  verbs: [get, delete]
YAML
refused "a role beyond one's own rights" \
  'Error from server (Forbidden): error when creating "'"$tmp"'/escalate.yaml": roles.rbac.authorization.k8s.io "too-much" is forbidden: user "alice" (groups=["dev" "qa" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:
{APIGroups:[""], Resources:["nodes"], Verbs:["get" "delete"]}' \
  as alice-token create -f "$tmp/escalate.yaml"
refused "binding cluster-admin" \
  'error: failed to create rolebinding: rolebindings.rbac.authorization.k8s.io "grab" is forbidden: user "alice" (groups=["dev" "qa" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:
{APIGroups:["*"], Resources:["*"], Verbs:["*"]}
{NonResourceURLs:["*"], Verbs:["*"]}' \
  as alice-token create rolebinding grab -n team-b --clusterrole=cluster-admin --user=alice
check "binding a role one holds" "rolebinding.rbac.authorization.k8s.io/share created" \
  as alice-token create rolebinding share -n team-b --clusterrole=view --user=bob
cat >"$tmp/binder.yaml" <<'YAML'
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: may-bind-admin}
rules:
- apiGroups: [rbac.authorization.k8s.io]
  resources: [clusterroles]
  verbs: [bind]
  resourceNames: [cluster-admin]
- apiGroups: [rbac.authorization.k8s.io]
  resources: [rolebindings]
  verbs: [create]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: bob-binds}
subjects: [{kind: User, name: bob}]
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: may-bind-admin}
YAML
admin apply -f "$tmp/binder.yaml" >/dev/null
check "the bind verb" "rolebinding.rbac.authorization.k8s.io/bob-admin created" \
  as bob-token create rolebinding bob-admin -n team-b --clusterrole=cluster-admin --user=bob

# ---- validation field paths ----
cat >"$tmp/invalid.yaml" <<'YAML'
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: "bad/name", namespace: team-a}
rules:
- apiGroups: [""]
  verbs: []
- nonResourceURLs: ["/healthz"]
  verbs: [get]
YAML
check "role field paths" '* metadata.name: Invalid value: "bad/name": may not contain '"'/'"'' admin create -f "$tmp/invalid.yaml"
check "role rules" '* rules[0].verbs: Required value: verbs must contain at least one value' admin create -f "$tmp/invalid.yaml"
check "role resources" '* rules[0].resources: Required value: resource rules must supply at least one resource' admin create -f "$tmp/invalid.yaml"
check "namespaced non-resource rule" '* rules[1].nonResourceURLs: Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs' admin create -f "$tmp/invalid.yaml"
cat >"$tmp/invalid-binding.yaml" <<'YAML'
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: bad-binding}
subjects:
- {kind: ServiceAccount, name: sa}
- {kind: Robot, name: r2}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: x}
YAML
check "binding roleRef kind" '* roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"' admin create -f "$tmp/invalid-binding.yaml"
check "service account namespace" '* subjects[0].namespace: Required value' admin create -f "$tmp/invalid-binding.yaml"
check "subject kind" '* subjects[1].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"' admin create -f "$tmp/invalid-binding.yaml"
check "roleRef is immutable" 'roleRef: Invalid value: {"APIGroup":"rbac.authorization.k8s.io","Kind":"ClusterRole","Name":"edit"}: field is immutable' \
  sh -c "kubectl --kubeconfig /dev/null --server $url --certificate-authority $tmp/ca.crt --token admin-token get rolebinding qa-admins -n team-b -o json |
    sed 's/\"name\": \"admin\"/\"name\": \"edit\"/' |
    kubectl --kubeconfig /dev/null --server $url --certificate-authority $tmp/ca.crt --token admin-token replace -f -"
check "aggregationRule is stored" "aggregate-me" \
  sh -c "printf 'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: agg}\naggregationRule:\n  clusterRoleSelectors: [{matchLabels: {aggregate-me: \"true\"}}]\n' |
    kubectl --kubeconfig /dev/null --server $url --certificate-authority $tmp/ca.crt --token admin-token apply -f - >/dev/null &&
    kubectl --kubeconfig /dev/null --server $url --certificate-authority $tmp/ca.crt --token admin-token get clusterrole agg -o yaml"

# ---- the DRA rule: ResourceClaim status ----
cat >"$tmp/claim.yaml" <<'YAML'
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c1, namespace: team-a}
spec: {devices: {requests: [{name: r, exactly: {deviceClassName: gpu}}]}}
YAML
admin create -f "$tmp/claim.yaml" >/dev/null
cat >"$tmp/status-rbac.yaml" <<'YAML'
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: claim-status-writer}
rules:
- apiGroups: [resource.k8s.io]
  resources: [resourceclaims, resourceclaims/status]
  verbs: [get, update, patch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: gpu-driver-on-its-node}
rules:
- apiGroups: [resource.k8s.io]
  resources: [resourceclaims/driver]
  verbs: [associated-node:update, associated-node:patch]
  resourceNames: [gpu.example.com]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: writers}
subjects: [{kind: User, name: gpu-driver}, {kind: Group, name: system:nodes}]
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: claim-status-writer}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: node-drivers}
subjects: [{kind: Group, name: system:nodes}]
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: gpu-driver-on-its-node}
YAML
admin apply -f "$tmp/status-rbac.yaml" >/dev/null
CS=/apis/resource.k8s.io/v1/namespaces/team-a/resourceclaims/c1/status
alloc='{"status":{"allocation":{"devices":{"results":[{"request":"r","driver":"gpu.example.com","pool":"node-1","device":"gpu-0"}]},"nodeSelector":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["node-1"]}]}]}}}}'
# status_patch NAME TOKEN BODY CODE [TEXT]: a merge patch of c1's status
# answers CODE, with TEXT in the answer
status_patch() {
  name=$1; tok=$2; body=$3; want=$4; text=${5:-}
  got=$(code PATCH $CS "$tok" -H 'Content-Type: application/merge-patch+json' --data "$body")
  if [ "$got" = "$want" ] && { [ -z "$text" ] || grep -qF -- "$text" "$tmp/out"; }; then passed=$((passed+1))
  else failed=$((failed+1)); echo "FAIL $name: HTTP $got: $(head -c 800 "$tmp/out")"; fi
}
status_patch "allocation needs resourceclaims/binding" driver-token "$alloc" 422 \
  'status.allocation: Forbidden: changing status.allocation or status.reservedFor requires resource=\"resourceclaims/binding\", verb=\"patch\" permission: resourceclaims.resource.k8s.io is forbidden: User \"gpu-driver\" cannot patch resource \"resourceclaims/binding\" in API group \"resource.k8s.io\" at the cluster scope'
status_patch "admin allocates" admin-token "$alloc" 200
devstatus='{"status":{"devices":[{"driver":"gpu.example.com","pool":"node-1","device":"gpu-0","conditions":[{"type":"Ready","status":"True","reason":"Up","message":"","lastTransitionTime":"2026-01-01T00:00:00Z"}]}]}}'
status_patch "a driver off the node" driver-token "$devstatus" 422 \
  'status.devices: Forbidden: changing status.devices requires resource=\"resourceclaims/driver\", verb=\"[arbitrary-node:patch]\" permission: resourceclaims.resource.k8s.io \"gpu.example.com\" is forbidden: User \"gpu-driver\" cannot arbitrary-node:patch resource \"resourceclaims/driver\" in API group \"resource.k8s.io\" in the namespace \"team-a\"'
status_patch "the claim's node writes its driver's status" node-token "$devstatus" 200
other='{"status":{"devices":[{"driver":"gpu.example.com","pool":"node-1","device":"gpu-0"},{"driver":"nic.example.com","pool":"node-1","device":"nic-0"}]}}'
status_patch "another driver's status" node-token "$other" 422 \
  'verb=\"[associated-node:patch arbitrary-node:patch]\" permission: resourceclaims.resource.k8s.io \"nic.example.com\" is forbidden: User \"system:node:node-1\" cannot associated-node:patch resource \"resourceclaims/driver\"'

# ---- --authorization-mode ----
kill $server; wait $server 2>/dev/null
serve_https "$tmp/data" --token-file "$tmp/tokens" --authorization-mode AlwaysAllow
check "AlwaysAllow" "No resources found" as bob-token get nodes
check "bad mode" 'authorization-mode "Magic" is not a valid mode' "$dra" serve --authorization-mode Magic --data-dir "$tmp/x"
summary
