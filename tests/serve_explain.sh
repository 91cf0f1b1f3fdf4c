#!/bin/sh
# kubectl explain against dra serve: every property of every schema of the
# resource.k8s.io versions (v1, the betas with their own shapes, v1alpha3)
# has a description, in the v3 documents and the v2 one; and kubectl prints
# them, from OpenAPI v3 and from the v2 protobuf (api/field_docs.c).
dra=${1:-build/dra}
. tests/lib/serve.sh
skip_without curl serve_explain
skip_without jq serve_explain
have_kubectl=true
command -v kubectl >/dev/null 2>&1 || { have_kubectl=false; skipped=$((skipped+1)); }

serve "$tmp/all" --runtime-config api/all=true
# "none missing", or the properties without a description of the schemas
# ours to describe, whose names match a pattern
undescribed() { # jq path to the schemas, URL path, grep pattern
  out=$(curl -s "$url$2" | jq -r "$1"' | to_entries[] | select(.key | startswith("io.k8s.api.")) | .key as $schema
    | (.value.properties // {}) | to_entries[] | select(.value.description == null) | "\($schema).\(.key)"' |
    grep -e "$3")
  echo "${out:-none missing}"
}
for v in v1 v1beta1 v1beta2 v1alpha3; do
  check "resource.k8s.io/$v: schemas served" "io.k8s.api.resource.$v.Device" \
    sh -c "curl -s '$url/openapi/v3/apis/resource.k8s.io/$v' | jq -r '.components.schemas | keys[]'"
  check "resource.k8s.io/$v: every property described" "none missing" \
    undescribed .components.schemas "/openapi/v3/apis/resource.k8s.io/$v" .
done
check "v1beta1: BasicDevice described" "(v1beta1) Where v1 has them on the device itself" \
  curl -s "$url/openapi/v3/apis/resource.k8s.io/v1beta1"
check "v2: resource kinds described" "none missing" \
  undescribed .definitions /openapi/v2 '\.resource\.'
check "v2: PodGroup described" "none missing" \
  undescribed .definitions /openapi/v2 '\.PodGroup[A-Za-z]*\.'

if $have_kubectl; then
  export KUBECONFIG="$tmp/all/kubeconfig"
  check "explain requests (v3)" "Alternatives tried in order: the first one that can be satisfied is" \
    kubectl explain resourceclaim.spec.devices.requests
  check "explain requests' own text" "The device requests of the claim, each with a unique name. At most 32." \
    sh -c 'kubectl explain resourceclaim.spec.devices.requests | tr -s " \n" "  "'
  check "explain requests (v2 protobuf)" "The device requests of the claim, each with a unique name." \
    sh -c 'kubectl explain --output=plaintext-openapiv2 resourceclaim.spec.devices.requests | tr -s " \n" "  "'
  check "explain a kind" "A ResourceSlice is a driver's list of the devices of one pool" \
    sh -c 'kubectl explain resourceslice | tr -s " \n" "  "'
  check "explain the pod's claims" "Which of the pod's resourceClaims" \
    sh -c 'kubectl explain pod.spec.containers.resources.claims | tr -s " \n" "  "'
  check "explain a gang" "How many pods of the group must be placeable at once before any is bound." \
    sh -c 'kubectl explain podgroup.spec.schedulingPolicy.gang.minCount | tr -s " \n" "  "'
fi
summary
