#!/bin/sh
# The everyday kubectl commands against dra serve, answered as
# kube-apiserver answers them: paginated lists that follow the store order
# across namespaces, Warning headers kubectl can read, 400s for bad
# parameters, server-set system fields, Pod and Namespace status, the
# built-in namespaces and NamespaceLifecycle, single-object tables, `get
# all`, field selectors, DeviceTaintRules (columns, generation, status), and
# watches as Tables.
dra=${1:-build/dra}
. tests/lib/serve.sh
skip_without kubectl serve_kubectl_get
serve "$tmp/data"
export KUBECONFIG="$tmp/data/kubeconfig"
tmpl() { # namespace name
  printf 'apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: %s, namespace: %s}\nspec: {spec: {devices: {requests: [{name: r, exactly: {deviceClassName: gpu}}]}}}\n---\n' "$2" "$1"
}

# 1. pages follow the store order, kube-apiserver's: the text
# "<namespace>/<name>" ("team-b/b" < "team/a", since '-' < '/')
printf "apiVersion: v1\nkind: Namespace\nmetadata: {name: team}\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: team-b}\n" | kubectl apply -f - >/dev/null
{ tmpl team a; tmpl team z; tmpl team-b a; tmpl team-b b; } >"$tmp/tmpl.yaml"
kubectl apply -f "$tmp/tmpl.yaml" >/dev/null
check "pages across namespaces" "team-b/a team-b/b team/a team/z " sh -c \
  "kubectl get resourceclaimtemplates -A --chunk-size=1 -o jsonpath='{range .items[*]}{.metadata.namespace}/{.metadata.name} {end}'"
check "pages across namespaces (table)" "4" sh -c \
  "kubectl get resourceclaimtemplates -A --chunk-size=1 --no-headers | wc -l"

# 2. Warning headers are 299 - "<Go-quoted text>", which kubectl prints
printf 'apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: warned}\nspec: {bogus: 1}\n' >"$tmp/warn.yaml"
check "warning printed" 'Warning: unknown field "spec.bogus"' kubectl apply --validate=warn -f "$tmp/warn.yaml"
check "warning header quoted" 'Warning: 299 - "unknown field \"spec.bogus\""' sh -c \
  "curl -s -D - -o /dev/null -X POST -H 'Content-Type: application/yaml' --data-binary @$tmp/warn.yaml '$url/apis/resource.k8s.io/v1/deviceclasses?fieldValidation=Warn&dryRun=All'"

# 3. parameters that cannot be read are 400s with kube-apiserver's texts
status() { # path: "<code> <message>"
  curl -s -w ' %{http_code}' "$url$1" | tr -d '\n'
}
check "rv=abc on list" 'invalid resource version: resourceVersion: Invalid value: \"abc\": strconv.ParseUint: parsing \"abc\": invalid syntax","reason":"BadRequest","code":400} 400' \
  status '/api/v1/namespaces?resourceVersion=abc'
check "rv=abc on watch" 'strconv.ParseUint: parsing \"abc\": invalid syntax","reason":"BadRequest","code":400} 400' \
  status '/api/v1/namespaces?watch=true&resourceVersion=abc'
check "rv=-1" 'parsing \"-1\": invalid syntax' status '/api/v1/pods?resourceVersion=-1'
check "limit=abc" '"message":"strconv.ParseInt: parsing \"abc\": invalid syntax","reason":"BadRequest","code":400} 400' \
  status '/api/v1/pods?limit=abc'
check "timeoutSeconds=abc" 'strconv.ParseInt: parsing \"abc\": invalid syntax' status '/api/v1/pods?watch=1&timeoutSeconds=abc'
check "timeoutSeconds out of range" 'strconv.ParseInt: parsing \"99999999999999999999\": value out of range' \
  status '/api/v1/pods?timeoutSeconds=99999999999999999999'
check "rv with continue" 'specifying resource version is not allowed when using continue' \
  status '/api/v1/pods?continue=abc&resourceVersion=5'
check "limit=-1 lists everything, as upstream" '"kind":"NamespaceList"' status '/api/v1/namespaces?limit=-1'
check "kubectl get with a bad rv" 'invalid resource version' kubectl get --raw '/api/v1/namespaces?resourceVersion=x'

# 4. a create sets uid, creationTimestamp, generation and clears
# deletionTimestamp whatever the client sent
cat >"$tmp/dump.yaml" <<'YAML'
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: from-a-dump
  uid: 11111111-2222-3333-4444-555555555555
  creationTimestamp: "2020-01-01T00:00:00Z"
  deletionTimestamp: "2020-01-02T00:00:00Z"
  generation: 7
  resourceVersion: "12345"
spec: {}
YAML
check "dump applies" "deviceclass.resource.k8s.io/from-a-dump created" kubectl apply -f "$tmp/dump.yaml"
check "new uid" "new uid" sh -c "kubectl get deviceclass from-a-dump -o jsonpath='{.metadata.uid}' | grep -qv 11111111 && echo new uid"
check "new creationTimestamp" "new time" sh -c "kubectl get deviceclass from-a-dump -o jsonpath='{.metadata.creationTimestamp}' | grep -qv '^2020' && echo new time"
check "age in the table" "from-a-dump" sh -c "kubectl get deviceclass from-a-dump --no-headers | grep -v 'y\|d\$'"
check "generation 1, no deletionTimestamp" "1:" kubectl get deviceclass from-a-dump -o jsonpath='{.metadata.generation}:{.metadata.deletionTimestamp}'
check "resourceVersion on a raw create" '"message":"resourceVersion should not be set on objects to be created","code":500' \
  curl -s -X POST -H 'Content-Type: application/yaml' --data-binary @"$tmp/dump.yaml" "$url/apis/resource.k8s.io/v1/deviceclasses"

# 5. Pods are stored Pending with their QoS class, Namespaces Active with the
# kubernetes.io/metadata.name label; limits fill missing requests, so an
# extended resource asked only under limits gets devices
check "namespace Active" "Active" kubectl get ns team -o jsonpath='{.status.phase}'
check "namespace name label" "team-b" kubectl get ns team-b -o jsonpath='{.metadata.labels.kubernetes\.io/metadata\.name}'
check "namespace finalizer" "kubernetes" kubectl get ns team -o jsonpath='{.spec.finalizers}'
printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: team, labels: {tier: web}}\n' | kubectl replace -f - >/dev/null && echo replaced >"$tmp/replaced"
check "namespace replaced" "replaced" cat "$tmp/replaced"
check "namespace finalizer kept on update" "kubernetes" kubectl get ns team -o jsonpath='{.spec.finalizers}'
check "name label kept on update" "team" kubectl get ns team -o jsonpath='{.metadata.labels.kubernetes\.io/metadata\.name}'
check "namespace label selector" "team-b" kubectl get ns -l kubernetes.io/metadata.name=team-b -o name
pod() { # name, limits
  printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: %s}\nspec:\n  containers:\n  - name: c\n    image: x\n    resources: {limits: {%s}}\n' "$1" "$2"
}
kubectl apply -f tests/data/serve/extended.yaml >/dev/null
pod ext-1 'example.com/gpu: "2", cpu: "1", memory: 1Gi' | kubectl apply -f - >/dev/null
check "ext-1 bound" "condition met" kubectl wait --for=jsonpath='{.spec.nodeName}'=node-x pod/ext-1 --timeout=20s
check "requests from limits" '"example.com/gpu":"2"' kubectl get pod ext-1 -o jsonpath='{.spec.containers[0].resources.requests}'
check "devices for the extended resource" "example.com/gpu" kubectl get pod ext-1 -o jsonpath='{.status.extendedResourceClaimStatus}'
check "Running once bound (node-simulator)" "Running" kubectl get pod ext-1 -o jsonpath='{.status.phase}'
check "QoS Guaranteed" "Guaranteed" kubectl get pod ext-1 -o jsonpath='{.status.qosClass}'
pod ext-2 'example.com/gpu: "2"' | kubectl apply -f - >/dev/null
unschedulable() { for i in $(seq 100); do kubectl get pod ext-2 -o jsonpath='{.status.conditions[0].reason}' | grep -q Unschedulable && { echo unschedulable; return; }; sleep 0.2; done; }
check "ext-2 does not fit" "unschedulable" unschedulable
check "ext-2 unbound" ":Pending" kubectl get pod ext-2 -o jsonpath='{.spec.nodeName}:{.status.phase}'
check "QoS BestEffort" "BestEffort" kubectl get pod ext-2 -o jsonpath='{.status.qosClass}'
check "describe shows QoS" "BestEffort" kubectl describe pod ext-2

# 6. the system namespaces exist from the start; NamespaceLifecycle
check "system namespaces" "default kube-node-lease kube-public kube-system " sh -c \
  "kubectl get ns -o jsonpath='{range .items[*]}{.metadata.name} {end}' | tr ' ' '\n' | grep '^default\|^kube-' | tr '\n' ' '"
pod p-nowhere 'cpu: "1"' >"$tmp/nowhere.yaml"
check "create into a missing namespace" "error when creating \"$tmp/nowhere.yaml\": namespaces \"nowhere\" not found" \
  kubectl apply -n nowhere -f "$tmp/nowhere.yaml"
check "404 body" '"message":"namespaces \"nowhere\" not found","reason":"NotFound","details":{"name":"nowhere","kind":"namespaces"},"code":404}' \
  curl -s -X POST -H 'Content-Type: application/json' \
  --data '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"x"}]}}' "$url/api/v1/namespaces/nowhere/pods"
printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: going, finalizers: [example.com/hold]}\n' | kubectl apply -f - >/dev/null
tmpl going t1 | kubectl apply -f - >/dev/null
check "delete a namespace" 'namespace "going" deleted' kubectl delete ns going --wait=false
check "Terminating" "Terminating" kubectl get ns going -o jsonpath='{.status.phase}'
check "its content deleted" "No resources found" kubectl get resourceclaimtemplates -n going
tmpl going t2 >"$tmp/t2.yaml"
check "create into a terminating namespace" 'Error from server (Forbidden): error when creating' kubectl apply -f "$tmp/t2.yaml"
check "terminating text" 'resourceclaimtemplates.resource.k8s.io "t2" is forbidden: unable to create new content in namespace going because it is being terminated' \
  kubectl apply -f "$tmp/t2.yaml"
check "403 cause" '"causes":[{"reason":"NamespaceTerminating","message":"namespace going is being terminated","field":"metadata.namespace"}]' \
  curl -s -X POST -H 'Content-Type: application/yaml' --data-binary "$(tmpl going t3 | sed '/^---$/d')" "$url/apis/resource.k8s.io/v1/namespaces/going/resourceclaimtemplates"
check "default may not be deleted" 'Error from server (Forbidden): namespaces "default" is forbidden: this namespace may not be deleted' \
  kubectl delete ns default
kubectl patch ns going --type=json -p '[{"op":"remove","path":"/metadata/finalizers"}]' >/dev/null
check "namespace gone with its finalizer" "NotFound" kubectl get ns going

# 7. one object as a Table (every column), includeObject=Object for --sort-by
check "get one pod: columns" "NAME    READY   STATUS    RESTARTS   AGE" kubectl get pod ext-1
check "get one pod: row" "ext-1   1/1     Running   0" kubectl get pod ext-1
check "get one namespace" "STATUS" kubectl get ns team
check "namespaces STATUS" "team-b            Active" kubectl get ns
check "sort-by a spec field" "ext-2 ext-1 " sh -c \
  "kubectl get pods --sort-by=.spec.nodeName --no-headers | awk '{printf \"%s \", \$1}'"
check "sort-by on resourceclaimtemplates" "a a b z" sh -c \
  "kubectl get resourceclaimtemplates -A --sort-by=.metadata.name --no-headers 2>&1 | awk '{printf \"%s \", \$2}'"
check "includeObject=Object rows" '"object":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"ext-1"' \
  curl -s -H 'Accept: application/json;as=Table;v=v1;g=meta.k8s.io' "$url/api/v1/namespaces/default/pods/ext-1?includeObject=Object"
check "includeObject=None" '"rows":[{"cells":["ext-1"' \
  curl -s -H 'Accept: application/json;as=Table;v=v1;g=meta.k8s.io' "$url/api/v1/namespaces/default/pods/ext-1?includeObject=None"
check "includeObject=bad" '"message":"unrecognized includeObject value: \"bad\"","reason":"BadRequest"' \
  curl -s -H 'Accept: application/json;as=Table;v=v1;g=meta.k8s.io' "$url/api/v1/namespaces/default/pods?includeObject=bad"

# 8. kubectl get all: the kinds in category "all" (pods, as upstream)
check "get all" "pod/ext-1   1/1     Running   0" kubectl get all
check "category in discovery" '"shortNames":["po"],"categories":["all"]' kubectl get --raw /api/v1

# 9. field selectors kubectl uses, per kind as kube-apiserver serves them
fs() { # resource, selector: the names listed
  kubectl get "$1" -A --field-selector "$2" -o jsonpath='{range .items[*]}{.metadata.name} {end}' 2>&1
}
check "pods status.phase" "ext-2 " fs pods status.phase=Pending
check "pods status.phase Running" "ext-1 " fs pods status.phase=Running
check "pods status.phase!=" "ext-1 ext-2 " fs pods status.phase!=Failed,status.phase!=Succeeded
check "pods spec.nodeName" "ext-1 " fs pods spec.nodeName=node-x
check "pods unbound" "ext-2 " fs pods spec.nodeName=
check "pods spec.schedulerName (default)" "ext-1 ext-2 " fs pods spec.schedulerName=default-scheduler
check "pods spec.restartPolicy (default)" "ext-1 ext-2 " fs pods spec.restartPolicy=Always
check "pods spec.serviceAccountName (default)" "ext-1 ext-2 " fs pods spec.serviceAccountName=default
check "pods spec.hostNetwork" "ext-1 ext-2 " fs pods spec.hostNetwork=false
check "pods status.podIP" "ext-2 " fs pods status.podIP=
check "pods status.nominatedNodeName" "ext-1 ext-2 " fs pods status.nominatedNodeName=
check "slices spec.driver" "node-x-gpus " fs resourceslices spec.driver=gpu.example.com
check "slices spec.pool.name" "node-x-gpus " fs resourceslices spec.pool.name=node-x
check "slices other pool" "[]" sh -c "echo [\$(kubectl get resourceslices --field-selector spec.pool.name=nope -o name)]"
check "namespaces status.phase" "team " fs namespaces status.phase=Active,metadata.name=team
check "bad pod label" 'field label not supported: spec.x' fs pods spec.x=1
check "bad claim label" '"spec.x" is not a known field selector: only "metadata.name", "metadata.namespace"' \
  fs resourceclaims spec.x=1
check "bad slice label" 'field label not supported for resource.k8s.io/v1, Kind=ResourceSlice: metadata.namespace' \
  fs resourceslices metadata.namespace=x
check "400 on watch too" '"reason":"BadRequest","code":400' curl -s "$url/api/v1/pods?watch=1&fieldSelector=spec.x%3D1"
cat >"$tmp/nodes.yaml" <<'YAML'
apiVersion: v1
kind: Node
metadata:
  name: node-ready
  labels: {node-role.kubernetes.io/worker: "", node-role.kubernetes.io/gpu: "", kubernetes.io/role: gpu}
spec: {unschedulable: true}
status:
  conditions: [{type: Ready, status: "True"}]
  nodeInfo: {kubeletVersion: v1.37.0, machineID: m, systemUUID: s, bootID: b, kernelVersion: k, osImage: o, containerRuntimeVersion: c, kubeProxyVersion: "", operatingSystem: linux, architecture: amd64}
YAML
kubectl apply -f "$tmp/nodes.yaml" >/dev/null
check "nodes: columns" "NAME         STATUS                     ROLES        AGE   VERSION" kubectl get nodes
check "nodes: a ready one" "node-ready   Ready,SchedulingDisabled   gpu,worker" kubectl get nodes
check "nodes: version" "v1.37.0" kubectl get node node-ready
check "nodes: reported by the node simulator" "node-x       Ready                      <none>" kubectl get nodes
check "nodes: field selector" "node-ready " fs nodes spec.unschedulable=true
check "describe node" "default                     ext-1" kubectl describe node node-x
check "describe node: allocated" "Allocated resources:" kubectl describe node node-x

# kubectl create namespace sends protobuf (client-go's typed client)
check "create namespace (protobuf)" "namespace/made-by-create created" kubectl create namespace made-by-create
check "its name label" "made-by-create" kubectl get ns made-by-create -o jsonpath='{.metadata.labels.kubernetes\.io/metadata\.name}'
check "a text/plain body" '"reason":"UnsupportedMediaType","code":415' \
  curl -s -X POST -H 'Content-Type: text/plain' --data-binary '{}' "$url/apis/resource.k8s.io/v1/namespaces/default/resourceclaims"
check "not protobuf" 'provided data does not appear to be a protobuf message' \
  curl -s -X POST -H 'Content-Type: application/vnd.kubernetes.protobuf' --data-binary '{}' "$url/api/v1/namespaces"

# DeviceTaintRule: upstream's columns, timeAdded and generation on an effect
# change, the controller's EvictionInProgress condition, the status subresource
rule='apiVersion: resource.k8s.io/v1\nkind: DeviceTaintRule\nmetadata: {name: %s}\nspec: {deviceSelector: {driver: none.example.com}, taint: {key: example.com/maintenance, value: planned, effect: %s}}\n'
printf "$rule" drain NoExecute | kubectl apply -f - >/dev/null
check "rule columns" "NAME    KEY                       VALUE     EFFECT      TIMEADDED   AGE" kubectl get devicetaintrules
check "rule row" "drain   example.com/maintenance   planned   NoExecute" kubectl get devicetaintrule drain
condition() { for i in $(seq 100); do r=$(kubectl get devicetaintrule drain -o jsonpath='{.status.conditions[0].reason}/{.status.conditions[0].observedGeneration}'); [ "$r" = "$1" ] && { echo "$r"; return; }; sleep 0.1; done; echo "$r"; }
check "rule condition" "NotStarted/1" condition NotStarted/1
kubectl patch devicetaintrule drain --type=merge -p '{"spec":{"taint":{"timeAdded":"2020-01-01T00:00:00Z"}}}' >/dev/null
printf "$rule" drain None | kubectl apply -f - >/dev/null
check "effect change: generation 3 (timeAdded was 2)" "3" kubectl get devicetaintrule drain -o jsonpath='{.metadata.generation}'
check "effect change: timeAdded restarts" "restarted" sh -c "kubectl get devicetaintrule drain -o jsonpath='{.spec.taint.timeAdded}' | grep -qv '^2020' && echo restarted"
check "None: what NoExecute would do" "NoEffect/3" condition NoEffect/3
check "status: conditions validated" 'status.conditions[0].status: Unsupported value: "Maybe"' kubectl patch devicetaintrule drain \
  --subresource=status --type=merge -p '{"status":{"conditions":[{"type":"X","status":"Maybe","reason":"R","message":"","lastTransitionTime":"2026-01-01T00:00:00Z"}]}}'
check "rule update needs a resourceVersion" 'devicetaintrules.resource.k8s.io \"drain\" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update' \
  sh -c "kubectl get devicetaintrule drain -o json | sed '/\"resourceVersion\"/d' | curl -s -X PUT -H 'Content-Type: application/json' --data-binary @- $url/apis/resource.k8s.io/v1/devicetaintrules/drain"
check "rule update with its resourceVersion" "devicetaintrule.resource.k8s.io/drain replaced" sh -c "kubectl get devicetaintrule drain -o yaml | kubectl replace -f -"
check "bad rule" 'spec.taint.effect: Unsupported value: "PreferNoSchedule"' sh -c "printf '$rule' bad PreferNoSchedule | kubectl apply -f -"


# 10. watches as Tables (kube-apiserver's watchEmbeddedEncoder): each event
# a one-row Table, the columnDefinitions only in the first, so `get -w`
# keeps every column, wide ones too, from Pending to Running
timeout 8 kubectl get pods -n team -w -o wide >"$tmp/watch-pods" 2>&1 &
pods_watch=$!
timeout 8 kubectl get resourceclaims -n team -w >"$tmp/watch-claims" 2>&1 &
claims_watch=$!
sleep 1
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: watched, namespace: team}\nspec: {containers: [{name: c, image: x}]}\n' | kubectl apply -f - >/dev/null
kubectl wait --for=jsonpath='{.status.phase}'=Running pod/watched -n team --timeout=20s >/dev/null
printf 'apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: w-claim, namespace: team}\nspec: {devices: {requests: [{name: r, exactly: {deviceClassName: gpu}}]}}\n' | kubectl apply -f - >/dev/null
kubectl delete resourceclaim w-claim -n team --wait=false >/dev/null
wait $pods_watch $claims_watch
check "watch -w: the columns once" "1" grep -c "^NAME *READY *STATUS *RESTARTS *AGE *IP *NODE *NOMINATED NODE *READINESS GATES" "$tmp/watch-pods"
check "watch -w: Pending with READY and STATUS" "watched" grep -E "^watched +0/1 +Pending +0 " "$tmp/watch-pods"
check "watch -w: Running with the wide columns" "node-x" grep -E "^watched +1/1 +Running +0 +[^ ]+ +[^ ]+ +node-x " "$tmp/watch-pods"
check "watch -w claims: the columns once" "1" grep -c "^NAME *STATE " "$tmp/watch-claims"
check "watch -w claims: added and deleted rows" "2" grep -cE "^w-claim +pending +" "$tmp/watch-claims"
table_watch() { # the raw events of a streaming list of team's pods as Tables
  curl -s -m 3 -H 'Accept: application/json;as=Table;v=v1;g=meta.k8s.io' \
    "$url/api/v1/namespaces/team/pods?watch=1&timeoutSeconds=1&allowWatchBookmarks=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=0$1"
}
event() { # n, extra query: the n-th event's line
  table_watch "$2" | sed -n "$1p"
}
check "watch Table: first event has the columns" '{"type":"ADDED","object":{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"' \
  event 1
check "watch Table: first event's columnDefinitions" '"columnDefinitions":[{"name":"Name","type":"string","format":"name"' event 1
check "watch Table: a row with metadata" '"rows":[{"cells":["watched","1/1","Running","0",' event 1
check "watch Table: bookmark without columns, its row the empty object's" \
  '{"type":"BOOKMARK","object":{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"' event 2
check "watch Table: later events have null columnDefinitions" '"columnDefinitions":null,"rows":[{"cells":["","0/0","","0","<unknown>"' \
  event 2
check "watch Table: the end bookmark's row carries its metadata" \
  '"object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"' event 2 '&includeObject=None'
check "watch Table: includeObject=Object" '"object":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"watched"' \
  event 1 '&includeObject=Object'
check "watch Table: includeObject=bad" '"message":"unrecognized includeObject value: \"bad\"","reason":"BadRequest"' \
  table_watch '&includeObject=bad'

summary
