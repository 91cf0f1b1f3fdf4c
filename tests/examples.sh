#!/bin/sh
# The seed examples: examples/ validates cleanly, and each seed mistake kept in
# examples/invalid/ is refused with its exit code and a clear message.
dra=${1:-build/dra}
. tests/lib/check.sh
check "examples valid" 0 "objects valid" "$dra" validate -f examples/
check "name inside exactly" 1 'unknown field "spec.devices.requests[0].exactly.name"' \
  "$dra" validate -f examples/invalid/name-inside-exactly.yaml
check "template without inner spec" 1 'unknown field "spec.devices"' \
  "$dra" validate -f examples/invalid/template-without-inner-spec.yaml
check "capacity 10Gb" 1 "spec.devices[0].capacity[memory].value: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)\$'" \
  "$dra" validate -f examples/invalid/capacity-10Gb.yaml
check "list attribute name" 1 'spec.devices[0].attributes: Invalid value: "supported-models": a valid C identifier must start with alphabetic character' \
  "$dra" validate -f examples/invalid/list-attribute-not-c-identifier.yaml
check "podgroup ellipsis" 2 "podgroup-ellipsis.yaml:10:" \
  "$dra" validate -f examples/invalid/podgroup-ellipsis.yaml
for want in 'unknown field "spec.devices.requests[0].exactly.name"' 'unknown field "spec.devices"' \
    'capacity[memory].value: quantities must match' 'Invalid value: "supported-models"' 'podgroup-ellipsis.yaml:10:17'; do
  check "whole invalid directory: $want" 2 "$want" "$dra" validate -f examples/invalid/
done
check "stdin" 0 "1 objects valid" sh -c "\"$dra\" validate -f - < examples/20-slices-cats.yaml"
check "unknown gate" 2 "unrecognized feature gate: NoSuchGate" \
  "$dra" validate -f examples/ --feature-gates NoSuchGate=true
check "missing file" 2 "examples/no-such-file.yaml" "$dra" validate -f examples/no-such-file.yaml
check "gate off drops with warning" 0 'Warning: ResourceClaimTemplate "prioritized-list-claim-template": spec.spec.devices.requests[0].firstAvailable: dropped, feature gate DRAPrioritizedList is disabled' \
  sh -c "\"$dra\" validate -f examples/30-templates.yaml --feature-gates DRAPrioritizedList=false; test \$? = 1"
check_done
