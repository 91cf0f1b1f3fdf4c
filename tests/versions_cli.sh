#!/bin/sh
# The file commands on beta manifests (tests/data/versions): v1beta1 and
# v1beta2 objects validate, allocate and schedule as their v1 conversion
# does, each with kube-apiserver's deprecation warning on stderr; v1beta1
# mistakes are reported under the paths kube-apiserver uses; a version
# dra does not have is kubectl's "no matches" with a hint.
dra=${1:-build/dra}
d=tests/data/versions
. tests/lib/check.sh
warnings() { "$@" 2>&1 >/dev/null | grep '^Warning'; }
check "quickstart valid" 0 "6 objects valid" "$dra" validate -f $d/quickstart-v1beta1.yaml
check "quickstart warnings" 0 "Warning: resource.k8s.io/v1beta1 DeviceClass is deprecated in v1.35+, unavailable in v1.38+
Warning: resource.k8s.io/v1beta1 ResourceSlice is deprecated in v1.35+, unavailable in v1.38+
Warning: resource.k8s.io/v1beta1 ResourceClaimTemplate is deprecated in v1.35+, unavailable in v1.38+" \
  warnings "$dra" validate -f $d/quickstart-v1beta1.yaml
check "v1beta2 valid" 0 "2 objects valid" "$dra" validate -f $d/class-v1beta2.yaml
check "v1beta2 warning" 0 "Warning: resource.k8s.io/v1beta2 ResourceClaim is deprecated in v1.36+, unavailable in v1.39+" \
  "$dra" validate -f $d/class-v1beta2.yaml
check "v1 does not warn" 0 "warnings: 0" sh -c "echo warnings: \$('$dra' validate -f tests/data/serve/cluster.yaml 2>&1 | grep -c Warning)"
check "v1beta1 invalid class name: v1 path" 1 \
  'ResourceClaim.resource.k8s.io "bad-class" is invalid: spec.devices.requests[0].exactly.deviceClassName: Invalid value: "GPU_Class"' \
  "$dra" validate -f $d/invalid-v1beta1.yaml
check "v1beta1 field beside basic" 1 \
  'ResourceSlice in version "v1beta1" cannot be handled as a ResourceSlice: strict decoding error: unknown field "spec.devices[0].attributes"' \
  "$dra" validate -f $d/invalid-v1beta1.yaml
check "v1beta1 defaults need a class name" 1 \
  'ResourceClaim.resource.k8s.io "no-class" is invalid: [spec.devices.requests[0].exactly.deviceClassName: Required value, spec.devices.requests[0].exactly.allocationMode: Unsupported value: "": supported values: "All", "ExactCount"]' \
  "$dra" validate -f $d/invalid-v1beta1.yaml
check "podgroup v1alpha2" 1 'error: unable to recognize "tests/data/versions/podgroup-v1alpha2.yaml": no matches for kind "PodGroup" in version "scheduling.k8s.io/v1alpha2"
hint: dra has PodGroup in scheduling.k8s.io/v1beta1, scheduling.k8s.io/v1alpha3' "$dra" validate -f $d/podgroup-v1alpha2.yaml
check "podgroup v1alpha3 (alpha: no warning)" 0 "1 objects valid" sh -c "sed s/v1alpha2/v1alpha3/ $d/podgroup-v1alpha2.yaml | '$dra' validate -f - 2>&1 | grep -v Warning"
check "taint rules in v1alpha3 and v1beta2" 0 "2 objects valid" "$dra" validate -f $d/taint-rules-prerelease.yaml
check "only v1alpha3 is deprecated by 1.37" 0 "Warning: resource.k8s.io/v1alpha3 DeviceTaintRule is deprecated in v1.36+, unavailable in v1.39+" \
  warnings "$dra" validate -f $d/taint-rules-prerelease.yaml
check "allocate a v1beta1 claim" 0 "device: gpu-1" \
  "$dra" allocate -f $d/quickstart-v1beta1.yaml -f $d/claim-v1beta1.yaml --node worker-1
check "allocated claim printed in v1" 0 "exactly:" \
  "$dra" allocate -f $d/quickstart-v1beta1.yaml -f $d/claim-v1beta1.yaml --node worker-1
check "schedule the v1beta1 quickstart" 0 "nodeName: worker-1" "$dra" schedule -f $d/quickstart-v1beta1.yaml
check_done
