// known.go: dra's CEL disagreements with upstream found by celdiff that are
// deliberate; they pass as KNOWN (celdiff says FIXED when dra agrees again:
// remove them then). tests/upstream/DISAGREEMENTS.md ("CEL") describes each
// class, with the seed that found it.
package main

import "regexp"

// known: disagreements by exact expression (the runtime-cost classes R1-R3
// and the unclassified device cases of seed 20261204 are fixed in dra).
var known = map[string]string{
	// U2 (seed 20261204, device case): upstream 25, dra 19.
	"(device.capacity[\"dra.example.com\"].slices.isGreaterThan(quantity(\"1.5Gi\")) || (!device.capacity[\"gpu.example.com\"].cores.add(0).isGreaterThan(quantity(\"100m\")) ? !has(device.attributes[\"dra.example.com\"].numa) : (device.capacity[\"dra.example.com\"].slices.isInteger() || device.attributes[\"dra.example.com\"][\"model\"].matches(\"[0-9]+\"))))": quantityCmpMutates,
}

// U2: Kubernetes' quantity comparison (resource.Quantity.Cmp) moves a
// quantity held as an int64 onto its inf.Dec form in place when the other
// side is a decimal (quantity("1.5Gi")), so a later isInteger()/asInteger()
// of the same device capacity answers false/an error
// (kubernetes/kubernetes#142104). dra keeps the device's quantity as it was.
const quantityCmpMutates = "U2: a quantity comparison changes the compared capacity's isInteger() (upstream bug, kubernetes/kubernetes#142104)"

// knownUpstreamErrors: upstream bugs, recognised by upstream's error text,
// that dra does not follow.
var knownUpstreamErrors = []struct {
	re  *regexp.Regexp
	why string
}{
	// U1 (seeds 20261201 and 20261204): `x in ["a", "b"]` with x a semver
	// (or other unhashable Kubernetes value) attribute: cel-go's constant
	// set lookup (interpreter/decorators.go maybeOptimizeSetMembership)
	// puts the value in a Go map and panics; dra answers false.
	{regexp.MustCompile(`hash of unhashable type`), "U1: cel-go's constant-set lookup panics on a Kubernetes value (upstream bug)"},
}

// knownUpstreamError: why upstream's answer u is a known upstream bug, or "".
func knownUpstreamError(u result) string {
	for _, k := range knownUpstreamErrors {
		if u.Stage != "" && k.re.MatchString(u.Error) {
			return k.why
		}
	}
	return ""
}
