#!/bin/sh
# dra serve's API versions: by default (kube-apiserver 1.37) only
# resource.k8s.io/v1 is served and v1beta1 manifests get kubectl's "no
# matches"; --runtime-config turns the betas on in kube-apiserver's syntax
# (and refuses what it refuses); objects written in one version read back
# in every served one (get, list, watch, table), allocation status
# included; requests to a deprecated version carry its Warning header.
dra=${1:-build/dra}
. tests/lib/serve.sh
skip_without curl serve_versions
have_kubectl=true
command -v kubectl >/dev/null 2>&1 || { have_kubectl=false; skipped=$((skipped+1)); }
data=tests/data/versions
R=/apis/resource.k8s.io

# refused --runtime-config values, with kube-apiserver's messages
refused() { "$dra" serve --listen 127.0.0.1:0 --data-dir "$tmp/refused" --runtime-config "$1" 2>&1; }
check "only api/all=false" "error: invalid runtime-config with only api/all=false" refused api/all=false
check "unknown group" "error: unknown api groups example.com/v1" refused example.com/v1=true
check "unknown version" "error: group version resource.k8s.io/v7 that has not been registered" refused resource.k8s.io/v7=true
check "bad bool" 'invalid value of resource.k8s.io/v1beta1: maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax' \
  refused resource.k8s.io/v1beta1=maybe
check "bad matcher value" "error: invalid value api/beta=1" refused api/beta=1
check "bad key" "error: runtime-config invalid key resource.k8s.io" refused resource.k8s.io=true

# defaults: the betas are off
serve "$tmp/default"
check "default group versions" '"versions":[{"groupVersion":"resource.k8s.io/v1","version":"v1"}]' curl -s "$url$R"
check "default: v1beta1 not found" '"code":404' curl -s "$url$R/v1beta1/deviceclasses"
if $have_kubectl; then
  check "default: kubectl has no v1beta1" 'no matches for kind "DeviceClass" in version "resource.k8s.io/v1beta1"' \
    kubectl --kubeconfig "$tmp/default/kubeconfig" create -f "$data/quickstart-v1beta1.yaml"
fi
kill $server; wait $server 2>/dev/null

# one resource of one version
serve "$tmp/one" --runtime-config resource.k8s.io/v1beta1/resourceslices=true
check "resource level: listed" '"name":"resourceslices"' curl -s "$url$R/v1beta1"
check "resource level: others not" '"code":404' curl -s "$url$R/v1beta1/deviceclasses"
kill $server; wait $server 2>/dev/null

# DeviceTaintRule's alpha version: v1's JSON, deprecated in 1.36
serve "$tmp/alpha" --runtime-config resource.k8s.io/v1alpha3
check "alpha group versions" '"versions":[{"groupVersion":"resource.k8s.io/v1","version":"v1"},{"groupVersion":"resource.k8s.io/v1alpha3","version":"v1alpha3"}]' \
  curl -s "$url$R"
check "alpha resources: taint rules only" '"resources":[{"name":"devicetaintrules"' curl -s "$url$R/v1alpha3"
rule='{"apiVersion":"resource.k8s.io/v1alpha3","kind":"DeviceTaintRule","metadata":{"name":"r1"},"spec":{"deviceSelector":{"driver":"gpu.example.com"},"taint":{"key":"k","effect":"NoSchedule"}}}'
check "create v1alpha3 warns" 'Warning: 299 - "resource.k8s.io/v1alpha3 DeviceTaintRule is deprecated in v1.36+, unavailable in v1.39+"' \
  curl -s -D - -H 'Content-Type: application/json' --data "$rule" "$url$R/v1alpha3/devicetaintrules"
check "v1alpha3 rule read in v1" '"apiVersion":"resource.k8s.io/v1","kind":"DeviceTaintRule","metadata":{"name":"r1"' \
  curl -s "$url$R/v1/devicetaintrules/r1"
kill $server; wait $server 2>/dev/null

serve "$tmp/data" --runtime-config api/beta=true,resource.k8s.io/v1beta2=false,resource.k8s.io/v1beta2=true,scheduling.k8s.io/v1alpha3
check "scheduling versions" '"versions":[{"groupVersion":"scheduling.k8s.io/v1","version":"v1"},{"groupVersion":"scheduling.k8s.io/v1beta1","version":"v1beta1"},{"groupVersion":"scheduling.k8s.io/v1alpha3","version":"v1alpha3"}]' \
  curl -s "$url/apis/scheduling.k8s.io"
check "podgroup in v1alpha3, read in v1beta1" '"apiVersion":"scheduling.k8s.io/v1beta1","kind":"PodGroup"' sh -c "
  curl -s -H 'Content-Type: application/json' '$url/apis/scheduling.k8s.io/v1alpha3/namespaces/default/podgroups' \
    --data '{\"apiVersion\":\"scheduling.k8s.io/v1alpha3\",\"kind\":\"PodGroup\",\"metadata\":{\"name\":\"g\"},\"spec\":{\"schedulingPolicy\":{\"gang\":{\"minCount\":2}}}}' >/dev/null
  curl -s '$url/apis/scheduling.k8s.io/v1beta1/namespaces/default/podgroups/g'"
check "beta group versions" '"versions":[{"groupVersion":"resource.k8s.io/v1","version":"v1"},{"groupVersion":"resource.k8s.io/v1beta2","version":"v1beta2"},{"groupVersion":"resource.k8s.io/v1beta1","version":"v1beta1"}],"preferredVersion":{"groupVersion":"resource.k8s.io/v1","version":"v1"}' \
  curl -s "$url$R"
check "beta resource list" '"groupVersion":"resource.k8s.io/v1beta1"' curl -s "$url$R/v1beta1"
check "beta openapi" '"version":"v1beta2"' curl -s "$url/openapi/v3/apis/resource.k8s.io/v1beta2"
check "v1beta1 openapi: basic" '"basic":{"allOf":[{"$ref":"#/components/schemas/io.k8s.api.resource.v1beta1.BasicDevice"}]' \
  curl -s "$url/openapi/v3/apis/resource.k8s.io/v1beta1"
check "v1beta1 openapi: inline request" 'firstAvailable deviceClassName selectors allocationMode count' sh -c "curl -s '$url/openapi/v3/apis/resource.k8s.io/v1beta1' | jq -r '.components.schemas[\"io.k8s.api.resource.v1beta1.DeviceRequest\"].properties | keys_unsorted | join(\" \")'"

# create in v1beta1 (curl), read in v1 and v1beta2
slice='{"apiVersion":"resource.k8s.io/v1beta1","kind":"ResourceSlice","metadata":{"name":"s1"},"spec":{"driver":"gpu.example.com","nodeName":"n1","pool":{"name":"n1","resourceSliceCount":1},"devices":[{"name":"gpu-0","basic":{"attributes":{"model":{"string":"A"}}}}]}}'
check "create v1beta1 warns" 'Warning: 299 - "resource.k8s.io/v1beta1 ResourceSlice is deprecated in v1.35+, unavailable in v1.38+"' \
  curl -s -D - -H 'Content-Type: application/json' --data "$slice" "$url$R/v1beta1/resourceslices"
check "read in v1" '"devices":[{"name":"gpu-0","attributes":{"model":{"string":"A"}}}]' curl -s "$url$R/v1/resourceslices/s1"
check "v1 does not warn" 'warnings=0' sh -c "echo warnings=\$(curl -s -D - '$url$R/v1/resourceslices/s1' | grep -c '^Warning')"
check "read in v1beta2" '"apiVersion":"resource.k8s.io/v1beta2","kind":"ResourceSlice"' curl -s "$url$R/v1beta2/resourceslices/s1"
check "list in v1beta1" '{"kind":"ResourceSliceList","apiVersion":"resource.k8s.io/v1beta1"' curl -s "$url$R/v1beta1/resourceslices"
check "list items in v1beta1" '"basic":{"attributes":{"model":{"string":"A"}}}' curl -s "$url$R/v1beta1/resourceslices"
check "table object in v1beta1" '"basic":{' curl -s -H 'Accept: application/json;as=Table;v=v1;g=meta.k8s.io' \
  "$url$R/v1beta1/resourceslices?includeObject=Object"
check "watch in v1beta1" '{"type":"ADDED","object":{"apiVersion":"resource.k8s.io/v1beta1","kind":"ResourceSlice"' \
  curl -s "$url$R/v1beta1/resourceslices?watch=1&timeoutSeconds=1"
check "v1beta1 unknown field path" 'unknown field \"spec.devices[0].basic.bogus\"' \
  curl -s -H 'Content-Type: application/json' "$url$R/v1beta1/resourceslices?fieldValidation=Strict" \
  --data '{"apiVersion":"resource.k8s.io/v1beta1","kind":"ResourceSlice","metadata":{"name":"s2"},"spec":{"driver":"d","allNodes":true,"pool":{"name":"p","resourceSliceCount":1},"devices":[{"name":"a","basic":{"bogus":1}}]}}'
check "v1beta1 invalid: internal path" '"field":"spec.devices.requests[0].exactly.deviceClassName"' \
  curl -s -H 'Content-Type: application/json' "$url$R/v1beta1/namespaces/default/resourceclaims" \
  --data '{"apiVersion":"resource.k8s.io/v1beta1","kind":"ResourceClaim","metadata":{"name":"bad"},"spec":{"devices":{"requests":[{"name":"r","deviceClassName":"Not_A_Name"}]}}}'
check "body version must match the URL" 'the API version in the data (resource.k8s.io/v1) does not match the expected API version (resource.k8s.io/v1beta1)' \
  curl -s -H 'Content-Type: application/json' "$url$R/v1beta1/resourceslices" \
  --data '{"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"s3"}}'
check "patch in v1beta1 shape" '"labels":{"patched":"yes"}' curl -s -X PATCH -H 'Content-Type: application/json-patch+json' \
  "$url$R/v1beta1/resourceslices/s1" --data '[{"op":"add","path":"/metadata/labels","value":{"patched":"yes"}},{"op":"replace","path":"/spec/devices/0/basic/attributes/model/string","value":"B"}]'
check "patch reached the device" '"model":{"string":"B"}' curl -s "$url$R/v1/resourceslices/s1"

if $have_kubectl; then
  export KUBECONFIG="$tmp/data/kubeconfig"
  check "kubectl create v1beta1 quickstart" "resourceclaimtemplate.resource.k8s.io/single-gpu created" \
    kubectl create -f "$data/quickstart-v1beta1.yaml"
  check "kubectl prints the warning" "Warning: resource.k8s.io/v1beta1 ResourceClaimTemplate is deprecated in v1.35+, unavailable in v1.38+" \
    kubectl get resourceclaimtemplates.v1beta1.resource.k8s.io -n gpu-demo
  check "template read in v1" '"exactly":{"allocationMode":"ExactCount","count":1,"deviceClassName":"gpu.example.com"}' \
    sh -c 'kubectl get resourceclaimtemplates.v1.resource.k8s.io -n gpu-demo single-gpu -o json | tr -d " \n"'
  check "pod bound" "condition met" kubectl wait -n gpu-demo --for=jsonpath='{.spec.nodeName}'=worker-1 pod/pod-shared --timeout=20s
  claim=$(kubectl get pod -n gpu-demo pod-shared -o jsonpath='{.status.resourceClaimStatuses[0].resourceClaimName}')
  check "allocation read in v1beta1" "device: gpu-0" kubectl get resourceclaims.v1beta1.resource.k8s.io -n gpu-demo "$claim" -o yaml
  check "claim in v1beta1 has inline request" 'deviceClassName: gpu.example.com' \
    kubectl get resourceclaims.v1beta1.resource.k8s.io -n gpu-demo "$claim" -o yaml
  check "kubectl create v1beta2" "deviceclass.resource.k8s.io/nic.example.com created" kubectl create -f "$data/class-v1beta2.yaml"
  check "v1beta2 class read in v1beta1" "extendedResourceName: example.com/nic" \
    kubectl get deviceclasses.v1beta1.resource.k8s.io nic.example.com -o yaml
fi
summary
