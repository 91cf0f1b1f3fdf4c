#!/bin/sh
# cel_cli.sh: `dra cel` compiles like API validation and evaluates selectors
# and derived attributes on ResourceSlice devices. $1 is the dra binary.
dra=$1
slice=tests/data/cel/cli/slice.yaml
fail=0
check() { # name, expected output, command...
  name=$1; want=$2; shift 2
  got=$("$@" 2>&1); rc=$?
  if [ "$got" != "$want" ]; then echo "FAIL $name: got [$got] want [$want]"; fail=1; fi
}
check compile "ok (estimated cost 5)" "$dra" cel -e 'device.attributes["gpu.example.com"].model == "a100"'
check select "gpu.example.com/node1/gpu-0: true
gpu.example.com/node1/gpu-1: false
gpu.example.com/node1/gpu-2: error: attribute fw: parse semantic version: No Major.Minor.Patch elements found" \
  "$dra" cel -e 'device.attributes["gpu.example.com"].model == "a100"' -f "$slice"
check derived "gpu.example.com/node1/gpu-0: 0
gpu.example.com/node1/gpu-1: 10
gpu.example.com/node1/gpu-2: error: attribute fw: parse semantic version: No Major.Minor.Patch elements found" \
  "$dra" cel --derived -e 'device.attributes["gpu.example.com"].index * 10' -f "$slice"
# cel-go's != is "not Equal() == true": a semver and a string are unequal,
# while == between them is no such overload (found by celdiff, seed 20261204)
check "!= across kinds" "gpu.example.com/node1/gpu-0: true
gpu.example.com/node1/gpu-1: true
gpu.example.com/node1/gpu-2: error: attribute fw: parse semantic version: No Major.Minor.Patch elements found" \
  "$dra" cel -e 'device.attributes["gpu.example.com"].fw != device.attributes["gpu.example.com"].model' -f "$slice"
check "== across kinds" "gpu.example.com/node1/gpu-0: error: no such overload
gpu.example.com/node1/gpu-1: error: no such overload
gpu.example.com/node1/gpu-2: error: attribute fw: parse semantic version: No Major.Minor.Patch elements found" \
  "$dra" cel -e 'device.attributes["gpu.example.com"].fw == device.attributes["gpu.example.com"].model' -f "$slice"
"$dra" cel -e 'device.nope' >/dev/null 2>&1; [ $? = 2 ] || { echo "FAIL refusal exit code"; fail=1; }
check refusal "compilation failed: ERROR: <input>:1:7: undefined field 'nope'
 | device.nope
 | ......^" "$dra" cel -e 'device.nope'
check gated "compilation failed: ERROR: <input>:1:7: undefined field 'allowMultipleAllocations'
 | device.allowMultipleAllocations
 | ......^" "$dra" cel --feature-gates DRAConsumableCapacity=false -e 'device.allowMultipleAllocations'
[ $fail = 0 ] && echo "cel_cli: ok"
exit $fail
