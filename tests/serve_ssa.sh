#!/bin/sh
# Server-side apply in dra serve with the machine's kubectl, against
# kube-apiserver's behaviour and texts: apply --server-side creates, a
# re-apply without a field removes it, a field another manager took is a
# conflict (409, upstream's message) until --force-conflicts, managedFields
# as `kubectl get --show-managed-fields` shows them (Apply and Update
# entries, list-map keys, the user agent's manager names), and the apply
# request's own errors (curl).
dra=${1:-build/dra}
. tests/lib/serve.sh
skip_without kubectl serve_ssa
skip_without curl serve_ssa
serve "$tmp/data"
export KUBECONFIG="$tmp/data/kubeconfig"
d=tests/data/ssa
mf() { kubectl get "$@" -o yaml --show-managed-fields | sed -n '/managedFields:/,/^  name:/p'; }
apply() { # url path, query, body
  curl -s -X PATCH -H "Content-Type: application/apply-patch+yaml" --data-binary "$3" "$url$1$2"
}

check "create" "pod/p1 serverside-applied" kubectl apply --server-side -f $d/pod.yaml
check "apply entry" "manager: kubectl
    operation: Apply" mf pod p1
check "list-map key" 'k:{"name":"app"}:
            .: {}
            f:image: {}
            f:name: {}' mf pod p1
check "label owned" "f:labels:
          f:a: {}" mf pod p1
# a second applier shares the object
check "other manager" "pod/p1 serverside-applied" \
  kubectl apply --server-side --field-manager=labeller -f - <<'Y'
apiVersion: v1
kind: Pod
metadata: {name: p1, namespace: default, labels: {team: ml}}
Y
check "both appliers" "manager: labeller" mf pod p1
# re-applying without label a removes it; labeller's label stays
sed '/    a: "1"/d; s/  labels:/  labels: {b: "2"}/' $d/pod.yaml >"$tmp/pod-b.yaml"
check "re-apply" "pod/p1 serverside-applied" kubectl apply --server-side -f "$tmp/pod-b.yaml"
check "field removed" '{"b":"2","team":"ml"}' kubectl get pod p1 -o 'jsonpath={.metadata.labels}'
# a client-side write takes the image: a conflict, then forced
check "patch" "pod/p1 patched" kubectl patch pod p1 -p '{"spec":{"containers":[{"name":"app","image":"nginx:2"}]}}'
check "update entry" "manager: kubectl-patch
    operation: Update" mf pod p1
check "conflict" 'Apply failed with 1 conflict: conflict with "kubectl-patch" using v1: .spec.containers[name="app"].image' \
  kubectl apply --server-side -f "$tmp/pod-b.yaml"
check "image kept" "nginx:2" kubectl get pod p1 -o 'jsonpath={.spec.containers[0].image}'
check "forced" "pod/p1 serverside-applied" kubectl apply --server-side --force-conflicts -f "$tmp/pod-b.yaml"
check "image applied" "nginx:1" kubectl get pod p1 -o 'jsonpath={.spec.containers[0].image}'
check "patch manager gone" "0" sh -c "kubectl get pod p1 -o yaml --show-managed-fields | grep -c kubectl-patch"
check "409 body" '"reason":"Conflict","details":{"causes":[{"type":"FieldManagerConflict","message":"conflict with \"labeller\"","field":".metadata.labels.team"}]},"code":409' \
  apply /api/v1/namespaces/default/pods/p1 "?fieldManager=x" '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p1","labels":{"team":"other"}}}'
# client-side writes are Update entries named after the user agent
check "create entry" "manager: kubectl-create
    operation: Update" sh -c 'kubectl create namespace ssa >/dev/null && kubectl get namespace ssa -o yaml --show-managed-fields'
check "dry run" "pod/p2 serverside-applied (server dry run)" \
  sh -c "sed s/p1/p2/ $d/pod.yaml | kubectl apply --server-side --dry-run=server -f -"
check "dry run wrote nothing" 'pods "p2" not found' kubectl get pod p2
# the apply request's own errors, with upstream's texts
check "fieldManager required" 'PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch' \
  apply /api/v1/namespaces/default/pods/p1 "" '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p1"}}'
check "force non-apply" 'force: Forbidden: may not be specified for non-apply patch' \
  curl -s -X PATCH -H "Content-Type: application/merge-patch+json" -d '{}' "$url/api/v1/namespaces/default/pods/p1?force=true"
check "kind" "invalid object type: /v1, Kind=Node" \
  apply /api/v1/namespaces/default/pods/p1 "?fieldManager=x" '{"apiVersion":"v1","kind":"Node","metadata":{"name":"p1"}}'
check "name" "the name of the object (p2) does not match the name on the URL (p1)" \
  apply /api/v1/namespaces/default/pods/p1 "?fieldManager=x" '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p2"}}'
check "unknown field" "failed to create typed patch object (/p1; /v1, Kind=Pod): .spec.foo: field not declared in schema" \
  apply /api/v1/namespaces/default/pods/p1 "?fieldManager=x" '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p1"},"spec":{"foo":1}}'
check "managedFields in apply" "metadata.managedFields must be nil" \
  apply /api/v1/namespaces/default/pods/p1 "?fieldManager=x" '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p1","managedFields":[]}}'
check "invalid manager" 'Namespace \"bad\" is invalid: metadata.managedFields[0].manager: Invalid value: \"x\\x01y\": invalid character U+0001 (at position 1)' \
  curl -s -X POST -H "Content-Type: application/json" "$url/api/v1/namespaces" -d '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"bad","managedFields":[{"manager":"x\u0001y","operation":"Update","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{"f:q":{}}}}}]}}'
# an empty list resets them: the object is no longer tracked
check "reset" "managers: 0" sh -c "kubectl patch pod p1 --type=merge -p '{\"metadata\":{\"managedFields\":[]}}' >/dev/null &&
  echo managers: \$(kubectl get pod p1 -o yaml --show-managed-fields | grep -c 'manager:')"
# the field manager records a write as decoded and defaulted, before
# mutating admission and the strategy, as kube-apiserver's handlers do:
# the defaults are the writer's; Priority's and DefaultTolerationSeconds'
# fields, and what PrepareForUpdate puts back, are no one's (the texts are
# kube-apiserver 1.37's for the same commands)
run_entry='{"f:metadata":{"f:labels":{".":{},"f:run":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"p3\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:resources":{},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:enableServiceLinks":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}'
check "run" "pod/p3 created" kubectl run p3 --image=busybox
check "admission's fields are no one's" "$run_entry 0 300" kubectl get pod p3 --show-managed-fields \
  -o jsonpath='{.metadata.managedFields[?(@.manager=="kubectl-run")].fieldsV1} {.spec.priority} {.spec.tolerations[0].tolerationSeconds}'
check "finalizers patched" "namespace/ssa patched" kubectl patch namespace ssa -p '{"spec":{"finalizers":["example.com/a"]}}'
check "patch owns what it sent" '{"f:spec":{"f:finalizers":{}}} ["kubernetes"]' kubectl get namespace ssa --show-managed-fields \
  -o jsonpath='{.metadata.managedFields[?(@.manager=="kubectl-patch")].fieldsV1} {.spec.finalizers}'
summary
