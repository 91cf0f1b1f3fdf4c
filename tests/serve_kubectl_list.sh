#!/bin/sh
# kubectl apply of `kind: List` files against dra serve. kubectl cannot ask
# the server to validate a v1 List, so it validates the items itself with the
# OpenAPI v2 document, which client-go only reads as protobuf (gnostic's
# openapi.v2.Document): /openapi/v2 must answer in protobuf when asked, in
# JSON otherwise; every example file (including the List) applies; an unknown
# field inside a List item is reported by kubectl's client-side validation.
dra=${1:-build/dra}
. tests/lib/serve.sh
skip_without kubectl serve_kubectl_list
serve "$tmp/data"
export KUBECONFIG="$tmp/data/kubeconfig"
content_type() { # accept header
  curl -s -o /dev/null -w '%{content_type}' -H "Accept: $1" "$url/openapi/v2"
}
check "v2 as protobuf" "application/com.github.proto-openapi.spec.v2.v1.0+protobuf" \
  content_type "application/com.github.proto-openapi.spec.v2@v1.0+protobuf"
check "v2 as json" "application/json" content_type "application/json"
check "v2 json content" '{"swagger":"2.0"' sh -c "curl -s $url/openapi/v2 | head -c 100"
check "apply examples/ (the List item)" "resourceslice.resource.k8s.io/dra-example-driver-slice created" \
  kubectl apply -f examples/
check "apply examples/ again" "resourceslice.resource.k8s.io/dra-example-driver-slice unchanged" \
  kubectl apply -f examples/
check "no apply errors" "errors: 0" sh -c 'echo "errors: $(kubectl apply -f examples/ 2>&1 | grep -c -i error)"'
cat >"$tmp/list.yaml" <<'YAML'
apiVersion: v1
kind: List
items:
- apiVersion: resource.k8s.io/v1
  kind: DeviceClass
  metadata:
    name: from-a-list
  spec:
    selectorz: []
- apiVersion: v1
  kind: Namespace
  metadata:
    name: list-ns
    labelz: {}
- apiVersion: resource.k8s.io/v1
  kind: ResourceSlice
  metadata:
    name: typed-wrong
  spec:
    driver: d.example.com
    allNodes: "yes"
    pool: {name: p, generation: 0, resourceSliceCount: 1}
YAML
check "unknown field in a List item" \
  'unknown field "selectorz" in io.k8s.api.resource.v1.DeviceClassSpec' kubectl apply -f "$tmp/list.yaml"
check "unknown metadata field in a List item" \
  'unknown field "labelz" in io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' kubectl apply -f "$tmp/list.yaml"
check "wrong type in a List item" 'ResourceSlice.spec.allNodes): invalid type for io.k8s.api.resource.v1.ResourceSliceSpec.allNodes: got "string", expected "boolean"' \
  kubectl apply -f "$tmp/list.yaml"
check "nothing of an invalid List created" "NotFound" kubectl get deviceclass from-a-list
sed -e 's/selectorz/selectors/' -e '/labelz/d' -e 's/allNodes: "yes"/allNodes: true/' "$tmp/list.yaml" >"$tmp/list-ok.yaml"
check "valid List applies" "resourceslice.resource.k8s.io/typed-wrong created" kubectl apply -f "$tmp/list-ok.yaml"
check "List item stored" "from-a-list" kubectl get deviceclasses -o name
summary
