#!/bin/sh
# Media types against dra serve. Protobuf (application/vnd.kubernetes.protobuf), as
# client-go speaks it: kubectl's typed commands (create namespace,
# deployment, job, cronjob, run) send and read protobuf; responses, lists,
# Status and watch frames in protobuf when asked; YAML answers; 415, 406 and 400 as
# kube-apiserver answers them; and with Go, tests/upstream/cmd/pbclient
# creates, gets, lists, watches and deletes one object of every served kind
# (tests/data/protobuf/kinds.yaml) in protobuf only, and compares every
# list, once the controllers have written to it, read in protobuf and in JSON.
dra=${1:-build/dra}
case $dra in /*) ;; *) dra=$(pwd)/$dra ;; esac
. tests/lib/serve.sh
skip_without kubectl serve_protobuf
skip_without curl serve_protobuf
serve "$tmp/data"
export KUBECONFIG="$tmp/data/kubeconfig"
PB=application/vnd.kubernetes.protobuf

# 1. kubectl's typed clients: protobuf bodies in, protobuf answers out
check "create namespace" "namespace/pbk created" kubectl create namespace pbk
check "create namespace sends protobuf" "Content-Type: $PB" sh -c "kubectl create namespace pbk2 -v=8 2>&1 | grep -m1 'Content-Type: $PB'"
check "create deployment" "deployment.apps/web created" kubectl create deployment web --image=nginx:1 --replicas=0 -n pbk
check "create job" "job.batch/j created" kubectl create job j --image=busybox -n pbk
check "create cronjob" "cronjob.batch/cj created" kubectl create cronjob cj --image=busybox --schedule='*/5 * * * *' -n pbk
check "run" "pod/p created" kubectl run p --image=nginx:1 --labels=app=p -n pbk
check "what was sent is stored" "nginx:1 busybox */5 * * * * p" sh -c \
  "kubectl get deploy web -n pbk -o jsonpath='{.spec.template.spec.containers[0].image} ';
   kubectl get job j -n pbk -o jsonpath='{.spec.template.spec.containers[0].image} ';
   kubectl get cronjob cj -n pbk -o jsonpath='{.spec.schedule} ';
   kubectl get pod p -n pbk -o jsonpath='{.metadata.labels.app}'"

# 2. answers in protobuf: an object, a list, a Status, a watch
check "get in protobuf" '6b 38 73 00' sh -c "curl -s -H 'Accept: $PB' '$url/api/v1/namespaces/pbk/pods/p' | head -c 4 | od -An -tx1"
check "content type" "Content-Type: $PB" sh -c "curl -s -D - -o /dev/null -H 'Accept: $PB, application/json' '$url/api/v1/namespaces/pbk/pods'"
check "list is a PodList" "PodList" sh -c "curl -s -H 'Accept: $PB' '$url/api/v1/namespaces/pbk/pods' | tr -c '[:print:]' ' '"
check "404 is a protobuf Status" 'pods "nope" not found' sh -c \
  "curl -s -H 'Accept: $PB' '$url/api/v1/namespaces/pbk/pods/nope' | tr -c '[:print:]' ' '"
check "watch frames" "Content-Type: $PB;stream=watch" sh -c \
  "curl -s -D - -o '$tmp/watch.bin' --max-time 10 -H 'Accept: $PB' '$url/api/v1/namespaces/pbk/pods?watch=1&timeoutSeconds=1'"
check "watch event" "ADDED" sh -c "tr -c '[:print:]' ' ' <'$tmp/watch.bin'"
check "discovery in protobuf" "Content-Type: $PB" sh -c "curl -s -D - -o '$tmp/disc.bin' -H 'Accept: $PB, */*' '$url/apis/resource.k8s.io/v1'"
check "an APIResourceList" "APIResourceList resource.k8s.io/v1" sh -c "tr -c '[:print:]' ' ' <'$tmp/disc.bin' | tr -s ' '"
check "discovery JSON by default" '"kind":"APIGroupList"' curl -s "$url/apis"
check "JSON by default" '"kind":"Pod"' curl -s "$url/api/v1/namespaces/pbk/pods/p"

# 3. what kube-apiserver refuses
check "415" 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf' \
  curl -s -X POST -H 'Content-Type: text/plain' --data-binary '{}' "$url/api/v1/namespaces"
check "406" 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf' \
  curl -s -H 'Accept: text/html' "$url/api/v1/namespaces"
check "no Table in protobuf" 'object *v1.Table does not implement the protobuf marshalling interface' sh -c \
  "curl -s -H 'Accept: $PB;as=Table;v=v1;g=meta.k8s.io' '$url/api/v1/namespaces' | tr -c '[:print:]' ' '"
check "YAML when asked" 'kind: Pod' curl -s -H 'Accept: application/yaml' "$url/api/v1/namespaces/pbk/pods/p"
check "no watch in YAML" 'only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch' \
  curl -s -H 'Accept: application/yaml' "$url/api/v1/namespaces?watch=1"
check "not protobuf" 'provided data does not appear to be a protobuf message' \
  curl -s -X POST -H "Content-Type: $PB" --data-binary '{}' "$url/api/v1/namespaces"

# 4. every served kind through client-go in protobuf only (needs Go)
go=$(command -v go 2>/dev/null || { [ -x /usr/local/go/bin/go ] && echo /usr/local/go/bin/go; })
bin=$(dirname "$dra")/upstream/pbclient
mkdir -p "$(dirname "$bin")"
if [ -n "$go" ] && (cd tests/upstream && "$go" build -o "$bin" ./cmd/pbclient) >"$tmp/go.log" 2>&1; then
  check "every kind in protobuf" "19 objects, 0 failures" "$bin" -kubeconfig "$KUBECONFIG" -f tests/data/protobuf/kinds.yaml
else
  echo "serve_protobuf: client-go part skipped: no Go or no module cache ($(head -n 1 "$tmp/go.log" 2>/dev/null))"
  skipped=$((skipped+1))
fi
summary
