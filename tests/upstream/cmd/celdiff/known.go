// known.go: dra's CEL disagreements with upstream found by celdiff (seed
// 20261201 of tests/upstream_cel.sh, generated and device cases), by exact
// expression; they pass as
// KNOWN until src/cel is fixed (then celdiff says FIXED);
// tests/upstream/DISAGREEMENTS.md ("CEL") describes each class.
package main

// known: dra's disagreements with upstream, by exact expression
// (DISAGREEMENTS.md, "CEL"). All are runtime costs of values both sides
// agree on.
const (
	runtimeFailedArg = "runtime cost: an index or method call on a failing index inside || (cel-go charges the failed qualifier path differently)"
	runtimeK8sMethod = "runtime cost: Kubernetes semver/quantity methods (isGreaterThan, compareTo, isInteger) on dyn device attributes, some missing"
)

var known = map[string]string{
	"(([-5, -1][(-9223372036854775807 - 4611686018427387904)] < 9223372036854775807) || true)": runtimeFailedArg, // upstream 4, dra 2
	"((device.attributes[\"dra.example.com\"].firmware.compareTo(semver(\"1.2.3-alpha\")) != 0 && device.attributes[\"dra.example.com\"][\"firmware\"].compareTo(semver(\"1.10.0\")) >= 1) && device.attributes[?\"dra.example.com\"][?\"pcieRoot\"].orValue(\"\") == \"A\")":                                                                                                                                                                                                                                                  runtimeK8sMethod, // upstream 20, dra 18
	"(device.attributes[\"gpu.example.com\"][\"firmware\"].isGreaterThan(device.attributes[\"numa.example.com\"].firmware) || !(device.attributes[\"dra.example.com\"].firmware == semver(\"1.2.3-alpha\") && \"gpu.example.com\" in device.attributes))":                                                                                                                                                                                                                                                                      runtimeK8sMethod, // upstream 15, dra 20
	"(device.attributes[\"dra.example.com\"].driverVersion.isGreaterThan(device.attributes[\"dra.example.com\"].driverVersion) && (device.capacity[\"dra.example.com\"].memory.isLessThan(device.capacity[\"dra.example.com\"].slices) && \"numa\" in device.attributes[\"numa.example.com\"]))":                                                                                                                                                                                                                               runtimeK8sMethod, // upstream 18, dra 17
	"((!device.attributes[\"dra.example.com\"].versions.map(x, x.isGreaterThan(semver(\"01.2.3\", true))).exists(y, y) && device.attributes[\"numa.example.com\"].exists_one(k, k == \"flags\")) ? device.capacity[\"gpu.example.com\"].memory == quantity(\"7\") : ((\"A\" in device.attributes[\"dra.example.com\"].flags || device.attributes[\"dra.example.com\"].firmware.compareTo(semver(\"2.0.0-rc.1\")) < 0) && (device.driver != \"dra.example.com\" && device.attributes[?\"gpu.example.com\"].?numa.hasValue())))": runtimeK8sMethod, // upstream 42, dra 31
}
