// known.go: dra's CEL disagreements with upstream found by celdiff that are
// deliberate; they pass as KNOWN (celdiff says FIXED when dra agrees again:
// remove them then). tests/upstream/DISAGREEMENTS.md ("CEL") describes each
// class, with the seed that found it.
package main

import "regexp"

// known: disagreements by exact expression (none open: the runtime-cost
// classes R1-R3 and the unclassified device cases of seed 20261204 are
// fixed in dra).
var known = map[string]string{}

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
