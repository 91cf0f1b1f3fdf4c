#!/bin/sh
# dra serve deleting namespaces and cascading deletes as kube-apiserver and
# kube-controller-manager do, with the machine's kubectl: a namespace with
# pods, allocated claims, templates, events and a held object shows
# Terminating with the namespace controller's conditions, then goes with
# everything in it and the devices are free again; /finalize; kubectl
# delete --cascade=orphan|foreground|background on a Deployment;
# DeleteOptions preconditions (409) and bad options (400, 422) with
# upstream's texts.
dra=${1:-build/dra}
. tests/lib/serve.sh
skip_without kubectl serve_namespaces
skip_without curl serve_namespaces
serve "$tmp/data"
export KUBECONFIG="$tmp/data/kubeconfig"
d=tests/data/workloads
wait_for() { # description, command: polls until the command succeeds
  for i in $(seq 100); do sh -c "$2" >/dev/null 2>&1 && { echo "$1"; return; }; sleep 0.2; done
  echo "timed out"
}
in_ns() { sed "s/namespace: default/namespace: $1/" "$2"; }

check "cluster" "resourceslice.resource.k8s.io/node-2-gpus created" kubectl apply -f $d/serve/cluster.yaml
check "namespace" "namespace/ml created" kubectl create namespace ml
in_ns ml $d/valid/deployment-claim-template.yaml >"$tmp/dep.yaml"
check "deployment" "deployment.apps/inference created" kubectl apply -f "$tmp/dep.yaml"
check "claims allocated" "allocated" wait_for allocated \
  "test \$(kubectl get resourceclaims -n ml --no-headers | grep -c allocated,reserved) = 2"
check "events recorded" "Scheduled" kubectl get events -n ml
# objects whose finalizer another controller would remove
check "held pod" "pod/held created" kubectl run held -n ml --image=busybox \
  --overrides='{"metadata":{"finalizers":["example.com/hold"]}}'
check "held template" "resourceclaimtemplate.resource.k8s.io/single-gpu patched" \
  kubectl patch resourceclaimtemplate single-gpu -n ml --type=merge -p '{"metadata":{"finalizers":["example.com/hold"]}}'

check "delete namespace" 'namespace "ml" deleted' kubectl delete namespace ml --wait=false
check "terminating" "Terminating" kubectl get namespace ml
check "deletionTimestamp" "kubernetes" kubectl get namespace ml -o jsonpath='{.metadata.deletionTimestamp} {.spec.finalizers}'
check "create refused" 'Error from server (Forbidden): error when creating "STDIN": pods "late" is forbidden: unable to create new content in namespace ml because it is being terminated' \
  sh -c "kubectl run late -n ml --image=busybox --dry-run=client -o yaml | kubectl create -f -"
check "create by generateName refused" '"message":"pods \"late-\" is forbidden: unable to create new content in namespace ml because it is being terminated","reason":"Forbidden","details":{"name":"late-","kind":"pods","causes":[{"reason":"NamespaceTerminating","message":"namespace ml is being terminated","field":"metadata.namespace"}]},"code":403' \
  curl -s -X POST -H 'Content-Type: application/json' "$url/api/v1/namespaces/ml/pods" \
  -d '{"apiVersion":"v1","kind":"Pod","metadata":{"generateName":"late-"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}'
check "pods first" "only the held pod" wait_for "only the held pod" "test \"\$(kubectl get pods -n ml -o name)\" = pod/held"
check "the rest waits for the pods" "deployment.apps/inference" kubectl get deployments -n ml -o name
check "conditions while pods remain" "NamespaceDeletionDiscoveryFailure NamespaceDeletionGroupVersionParsingFailure NamespaceDeletionContentFailure NamespaceContentRemaining NamespaceFinalizersRemaining" \
  kubectl get namespace ml -o jsonpath='{.status.conditions[*].type}'
check "discovery condition" "False ResourcesDiscovered All resources successfully discovered" \
  kubectl get namespace ml -o jsonpath='{range .status.conditions[0]}{.status} {.reason} {.message}{end}'
check "release the pod" "pod/held patched" kubectl patch pod held -n ml --type=merge -p '{"metadata":{"finalizers":null}}'
check "other content gone" "only the held template" wait_for "only the held template" \
  "test \"\$(kubectl get pods,resourceclaims,resourceclaimtemplates,deployments,replicasets,events -n ml -o name)\" = resourceclaimtemplate.resource.k8s.io/single-gpu"
check "content remaining" "True SomeResourcesRemain Some resources are remaining: resourceclaimtemplates.resource.k8s.io has 1 resource instances" \
  kubectl get namespace ml -o jsonpath='{range .status.conditions[?(@.type=="NamespaceContentRemaining")]}{.status} {.reason} {.message}{end}'
check "finalizers remaining" "True SomeFinalizersRemain Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances" \
  kubectl get namespace ml -o jsonpath='{range .status.conditions[?(@.type=="NamespaceFinalizersRemaining")]}{.status} {.reason} {.message}{end}'
check "describe" "Terminating" kubectl describe namespace ml
check "release the template" "patched" kubectl patch resourceclaimtemplate single-gpu -n ml --type=merge -p '{"metadata":{"finalizers":null}}'
check "namespace gone" "gone" wait_for gone "! kubectl get namespace ml"
check "devices free" "No resources found" kubectl get resourceclaims -A
check "devices reusable" "2 allocated" sh -c "kubectl create namespace ml2 >/dev/null && in_ns() { sed \"s/namespace: default/namespace: \$1/\" \"\$2\"; } && in_ns ml2 $d/valid/deployment-claim-template.yaml | kubectl apply -f - >/dev/null && for i in \$(seq 100); do n=\$(kubectl get resourceclaims -n ml2 --no-headers 2>/dev/null | grep -c allocated); [ \"\$n\" = 2 ] && break; sleep 0.2; done; echo \"\$n allocated\""

# /finalize, as the namespace controller calls it
check "finalize ns" "namespace/fin created" kubectl create namespace fin
check "finalize bad name" 'Namespace "fin" is invalid: spec.finalizers[0]: Invalid value: "nope": name is neither a standard finalizer name nor is it fully qualified' \
  sh -c "kubectl get namespace fin -o json | sed 's/\"kubernetes\"/\"nope\"/' | kubectl replace --raw /api/v1/namespaces/fin/finalize -f -"
check "finalize keeps status" '"example.com/x"' \
  sh -c "kubectl get namespace fin -o json | sed 's/\"kubernetes\"/\"example.com\\/x\"/' | kubectl replace --raw /api/v1/namespaces/fin/finalize -f -"
check "finalize discovery" "finalize" sh -c "kubectl get --raw /api/v1 | tr '{' '\n' | grep namespaces/finalize"

# spec and status as the namespace strategy keeps them and
# ValidateNamespace/ValidateNamespaceStatusUpdate check them (the texts are
# kube-apiserver 1.37's for the same commands)
ns_file() { printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n%s\n' "$1" "$2" >"$tmp/$1.yaml"; echo "$tmp/$1.yaml"; }
check "create checks finalizers" 'The Namespace "badfin" is invalid: spec.finalizers: Invalid value: "nope": name is neither a standard finalizer name nor is it fully qualified' \
  kubectl create -f "$(ns_file badfin 'spec: {finalizers: [nope]}')"
check "finalizer is a qualified name" 'spec.finalizers: Invalid value: \"a b/c\": prefix part a lowercase RFC 1123 subdomain must consist of' \
  curl -s -X POST -H 'Content-Type: application/json' "$url/api/v1/namespaces" \
  -d '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"badfin"},"spec":{"finalizers":["a b/c"]}}'
check "finalizers are strings" 'Namespace in version \"v1\" cannot be handled as a Namespace: cannot unmarshal string into field spec.finalizers' \
  curl -s -X POST -H 'Content-Type: application/json' "$url/api/v1/namespaces" \
  -d '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"badfin"},"spec":{"finalizers":"x"}}'
check "spec fields known" 'strict decoding error: unknown field "spec.foo"' kubectl create -f "$(ns_file badfin 'spec: {foo: 1}')"
check "status set on create" 'namespace/st created' kubectl create -f "$(ns_file st 'status: {phase: Terminating}')"
check "created Active" 'Active ["kubernetes"]' kubectl get namespace st -o jsonpath='{.status.phase} {.spec.finalizers}'
check "status refused" 'The Namespace "st" is invalid: status.Phase: Invalid value: "Terminating": may only be '"'Active'"' if `deletionTimestamp` is empty' \
  kubectl patch namespace st --subresource=status --type=merge -p '{"status":{"phase":"Terminating"}}'
check "update keeps finalizers and status" 'Active ["kubernetes"]' sh -c "kubectl patch namespace st --type=merge \
  -p '{\"spec\":{\"finalizers\":[\"example.com/a\"]},\"status\":{\"phase\":\"Terminating\"}}' >/dev/null &&
  kubectl get namespace st -o jsonpath='{.status.phase} {.spec.finalizers}'"
check "status writes metadata, not spec" 'a ["kubernetes"]' sh -c "kubectl patch namespace st --subresource=status --type=merge \
  -p '{\"metadata\":{\"labels\":{\"team\":\"a\"}},\"spec\":{\"finalizers\":[\"example.com/a\"]}}' >/dev/null &&
  kubectl get namespace st -o jsonpath='{.metadata.labels.team} {.spec.finalizers}'"
check "phase defaulted" '"status":{"phase":"Active","conditions":[{"type":"A","status":"True","lastTransitionTime":null,"reason":"R"}]}' \
  curl -s -X PUT -H 'Content-Type: application/json' "$url/api/v1/namespaces/st/status" \
  -d '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"st"},"status":{"conditions":[{"type":"A","status":"True","reason":"R"}]}}'

# cascading deletes of a Deployment (pods without claims: a bound pod
# deleted in the foreground keeps its claims reserved until a kubelet
# stops it, and dra serve has no kubelet)
web() { kubectl create deployment web --image=busybox --replicas=2; }
check "web deployment" "deployment.apps/web created" web
check "replicaset made" "replicaset" wait_for replicaset "kubectl get rs -o name | grep -q web-"
rs=$(kubectl get rs -o name | grep web-)
check "pods made" "2 pods" wait_for "2 pods" "test \$(kubectl get pods -l app=web --no-headers | wc -l) = 2"
check "orphan" 'deployment.apps "web" deleted' kubectl delete deploy web --cascade=orphan
check "replicaset kept" "$rs" kubectl get "$rs" -o name
check "owner reference removed" "none" sh -c "r=\$(kubectl get $rs -o jsonpath='{.metadata.ownerReferences}'); echo \${r:-none}"
check "its pods kept" "2" sh -c "kubectl get pods -l app=web --no-headers | wc -l"
# dra's deployment controller does not adopt orphans: the orphaned
# ReplicaSet goes before the Deployment comes back
check "orphans deleted" 'replicaset.apps "' kubectl delete "$rs"
check "foreground deployment" "deployment.apps/web created" web
check "new replicaset" "Deployment" wait_for Deployment \
  "kubectl get $rs -o jsonpath='{.metadata.ownerReferences[0].kind}' | grep -q Deployment"
check "held deployment" "deployment.apps/web patched" \
  kubectl patch deploy web --type=merge -p '{"metadata":{"finalizers":["example.com/hold"]}}'
check "held replicaset" "patched" kubectl patch "$rs" --type=merge -p '{"metadata":{"finalizers":["example.com/hold"]}}'
check "blocking reference" "true" kubectl get "$rs" -o jsonpath='{.metadata.ownerReferences[0].blockOwnerDeletion}'
check "foreground" 'deployment.apps "web" deleted' kubectl delete deploy web --cascade=foreground --wait=false
check "foreground finalizer" '["example.com/hold","foregroundDeletion"]' kubectl get deploy web -o jsonpath='{.metadata.finalizers}'
check "pods first" "pods gone" wait_for "pods gone" "test -z \"\$(kubectl get pods -l app=web -o name)\""
check "replicaset deleted in the foreground, its finalizer done" '["example.com/hold"] 20' \
  kubectl get "$rs" -o jsonpath='{.metadata.finalizers} {.metadata.deletionTimestamp}'
check "owner waits for the replicaset" "foregroundDeletion" kubectl get deploy web -o jsonpath='{.metadata.finalizers}'
check "release the replicaset" "patched" kubectl patch "$rs" --type=json -p '[{"op":"remove","path":"/metadata/finalizers/0"}]'
check "replicaset gone" "gone" wait_for gone "! kubectl get $rs"
check "owner keeps its own finalizer" "kept" wait_for kept \
  "test \"\$(kubectl get deploy web -o jsonpath='{.metadata.finalizers}')\" = '[\"example.com/hold\"]'"
check "release" "deployment.apps/web patched" kubectl patch deploy web --type=merge -p '{"metadata":{"finalizers":null}}'
check "owner gone" "gone" wait_for gone "! kubectl get deploy web"
web >/dev/null
check "background" 'deployment.apps "web" deleted' kubectl delete deploy web --cascade=background
check "background dependents" "gone" wait_for gone "test -z \"\$(kubectl get rs,pods -l app=web -o name)\""

# DeleteOptions: preconditions and validation
check "pod for options" "pod/opt created" kubectl run opt --image=busybox
uid=$(kubectl get pod opt -o jsonpath='{.metadata.uid}')
del() { curl -s -X DELETE -H 'Content-Type: application/json' "$url/api/v1/namespaces/default/pods/opt$1" ${2:+-d "$2"}; }
check "uid precondition" '"message":"Operation cannot be fulfilled on Pod \"opt\": the UID in the precondition (other) does not match the UID in record ('"$uid"'). The object might have been deleted and then recreated","reason":"Conflict","details":{"name":"opt","kind":"Pod"},"code":409' \
  del "" '{"preconditions":{"uid":"other"}}'
check "rv precondition" 'the ResourceVersion in the precondition (1) does not match the ResourceVersion in record' del "?resourceVersion=1"
check "bad policy" '"message":"DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Unsupported value: \"Sideways\": supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\"","reason":"Invalid"' \
  del "?propagationPolicy=Sideways"
check "both set" 'DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Invalid value: \"Orphan\": orphanDependents and deletionPropagation cannot be both set' \
  del "" '{"orphanDependents":false,"propagationPolicy":"Orphan"}'
check "bad dryRun" 'dryRun: Unsupported value: [\"x\"]: supported values: \"All\"' del "?dryRun=x"
check "bad grace" '"message":"strconv.ParseInt: parsing \"soon\": invalid syntax","reason":"BadRequest","code":400' del "?gracePeriodSeconds=soon"
check "bad body type" 'json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64' \
  del "" '{"gracePeriodSeconds":"soon"}'
check "bad body" "couldn't get version/kind; json parse error: unexpected end of JSON input" del "" '{'
check "ns namespace precondition" 'Operation cannot be fulfilled on namespaces \"fin\": Precondition failed: UID in precondition: other, UID in object meta: ' \
  curl -s -X DELETE -H 'Content-Type: application/json' "$url/api/v1/namespaces/fin" -d '{"preconditions":{"uid":"other"}}'
check "unsafe deletecollection" 'DeleteOptions.meta.k8s.io \"\" is invalid: ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: is not allowed with DELETECOLLECTION, try again after removing the option' \
  curl -s -X DELETE "$url/api/v1/namespaces/default/pods?ignoreStoreReadErrorWithClusterBreakingPotential=true"
check "dry run keeps" "pod/opt" sh -c "curl -s -X DELETE '$url/api/v1/namespaces/default/pods/opt?dryRun=All' >/dev/null; kubectl get pod opt -o name"
check "uid precondition holds" '"kind":"Pod"' del "" '{"preconditions":{"uid":"'"$uid"'"}}'

# the garbage collector counts the owners that stored objects name when it
# starts: a dependent stored before a restart goes with its owner after it
printf 'apiVersion: v1\nkind: PodTemplate\nmetadata: {name: gc-owner}\ntemplate: {spec: {containers: [{name: c, image: pause}]}}\n' >"$tmp/owner.yaml"
check "owner" "podtemplate/gc-owner created" kubectl create -f "$tmp/owner.yaml"
owner_uid=$(kubectl get podtemplate gc-owner -o jsonpath='{.metadata.uid}')
printf 'apiVersion: v1\nkind: PodTemplate\nmetadata:\n  name: gc-dependent\n  ownerReferences: [{apiVersion: v1, kind: PodTemplate, name: gc-owner, uid: "%s"}]\ntemplate: {spec: {containers: [{name: c, image: pause}]}}\n' \
  "$owner_uid" >"$tmp/dependent.yaml"
check "dependent" "podtemplate/gc-dependent created" kubectl create -f "$tmp/dependent.yaml"
kill $server; wait $server 2>/dev/null
serve "$tmp/data"
check "owner deleted after a restart" 'podtemplate "gc-owner" deleted' kubectl delete podtemplate gc-owner
check "its dependent goes" "gone" wait_for gone "! kubectl get podtemplate gc-dependent"
summary
