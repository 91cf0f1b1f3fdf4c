// Disagreement classes that do not fail the test, each with its reason
// (tests/upstream/DISAGREEMENTS.md, "Validation"). A class is matched by
// a substring of its name.
package main

import "strings"

var known = []struct{ match, reason string }{}

func knownReason(class string) string {
	for _, k := range known {
		if strings.Contains(class, k.match) {
			return k.reason
		}
	}
	return ""
}
