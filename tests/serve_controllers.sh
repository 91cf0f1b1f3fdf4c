#!/bin/sh
# dra serve --controllers, with kube-controller-manager's syntax: without
# the scheduler ("*,-scheduler", as when a real kube-scheduler runs) pods
# get their claims from templates but stay unbound; without the
# resourceclaim controller no claim is made; without the deployment
# controller a Deployment gets no ReplicaSet; an unknown name is refused with
# kube-controller-manager's message.
dra=${1:-build/dra}
. tests/lib/serve.sh
skip_without curl serve_controllers
ok() { passed=$((passed+1)); }
bad() { failed=$((failed+1)); echo "FAIL $*"; }
check "unknown controller" '"bogus-controller" is not in the list of known controllers' \
  "$dra" serve --insecure-http --controllers '*,-bogus-controller' --listen 127.0.0.1:0 --data-dir "$tmp/x"
post() { curl -s -o /dev/null -X POST -H 'Content-Type: application/yaml' --data-binary @"$2" "$url$1"; }
load() { # the serve test cluster, its claim template and the pod
  awk -v dir="$tmp" 'BEGIN{n=0} /^---/{n++; next} {print > (dir "/doc" n ".yaml")}' tests/data/serve/cluster.yaml
  for f in "$tmp"/doc*.yaml; do
    case $(sed -n 's/^kind: //p' "$f") in
    Node) post /api/v1/nodes "$f" ;;
    ResourceSlice) post /apis/resource.k8s.io/v1/resourceslices "$f" ;;
    DeviceClass) post /apis/resource.k8s.io/v1/deviceclasses "$f" ;;
    ResourceClaimTemplate) post /apis/resource.k8s.io/v1/namespaces/default/resourceclaimtemplates "$f" ;;
    esac
  done
  rm -f "$tmp"/doc*.yaml
  post /api/v1/namespaces/default/pods tests/data/serve/pod.yaml
  sleep 1
}
claims() { curl -s "$url/apis/resource.k8s.io/v1/namespaces/default/resourceclaims" | grep -o '"name":"trainer-gpu-[a-z0-9]*"' | wc -l; }
node_of_pod() { curl -s "$url/api/v1/namespaces/default/pods/trainer" | grep -o '"nodeName":"[^"]*"'; }

serve "$tmp/a" --controllers '*,-scheduler'
load
[ "$(claims)" = 1 ] && ok || bad "*,-scheduler: the claim controller made $(claims) claims, want 1"
[ -z "$(node_of_pod)" ] && ok || bad "*,-scheduler: the pod was bound ($(node_of_pod))"
kill $server; wait $server 2>/dev/null

serve "$tmp/b" --controllers 'scheduler,-resourceclaim-controller'
load
[ "$(claims)" = 0 ] && ok || bad "without the resourceclaim controller: $(claims) claims"
[ -z "$(node_of_pod)" ] && ok || bad "a pod without its claim was bound"
kill $server; wait $server 2>/dev/null

serve "$tmp/c" --controllers '-scheduler,*'
load
[ -z "$(node_of_pod)" ] && ok || bad "-scheduler,*: the first mention decides, but the pod was bound"
kill $server; wait $server 2>/dev/null

serve "$tmp/e" --controllers '*,-deployment-controller'
dep='{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":1,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}'
curl -s -o /dev/null -X POST -H 'Content-Type: application/json' --data "$dep" "$url/apis/apps/v1/namespaces/default/deployments"
sleep 1
curl -s "$url/apis/apps/v1/namespaces/default/replicasets" | grep -q '"name":"web-' && bad "-deployment-controller: a ReplicaSet was made" || ok
curl -s "$url/apis/apps/v1/namespaces/default/deployments/web" | grep -q '"name":"web"' && ok || bad "the Deployment was not stored"
kill $server; wait $server 2>/dev/null

serve "$tmp/d"
load
[ -n "$(node_of_pod)" ] && ok || bad "default (all controllers): the pod was not bound"
summary
