// Minimizing a disagreeing case, and printing it as YAML.
package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"sigs.k8s.io/yaml"
)

// stillDisagrees: the variant disagrees in the same class, with the same
// error texts as want (when set).
func stillDisagrees(c *Case, class string, want *answers) bool {
	force := ""
	if strings.HasPrefix(class, "known: ") {
		// Judged by the variant dra follows; the class must stay known.
		up, ch := runUpstream(c, *flagTimeout)
		if noVerdict(up) {
			return false
		}
		dr := runDraOne(c)
		k, _ := compare(up, dr)
		if k == "" || ch == "experimental" {
			return false
		}
		_, class, _ = strings.Cut(class, "): ")
		if k != class {
			return false
		}
		force = "experimental"
	}
	up, _ := runUpstreamWith(c, *flagTimeout, force)
	if noVerdict(up) {
		return false
	}
	if force != "" {
		dr := runDraOne(c)
		k, _ := compare(up, dr)
		return k == ""
	}
	dr := runDraOne(c)
	got, _ := compare(up, dr)
	if got != class {
		return false
	}
	// Also the same messages: the class alone lets a minimized case drift
	// to another cause (an error of its own making).
	return want == nil || (up.Error == want.up.Error && dr.Error == want.dr.Error)
}

// minimize drops objects, claims to allocate and array elements anywhere
// in the objects (requests, devices, selectors, constraints, ...) one at a
// time while the disagreement persists, until nothing more can go.
type answers struct{ up, dr Result }

func minimize(c *Case, class string) *Case {
	cur := cloneCase(c)
	var want *answers
	if !strings.HasPrefix(class, "known: ") {
		up, _ := runUpstream(c, *flagTimeout)
		want = &answers{up, runDraOne(c)}
	}
	budget := 3000
	try := func(v *Case) bool {
		if budget <= 0 {
			return false
		}
		budget--
		if stillDisagrees(v, class, want) {
			cur = v
			return true
		}
		return false
	}
	for progress := true; progress && budget > 0; {
		progress = false
		// Whole objects (the node stays).
		for i := len(cur.Objects) - 1; i >= 0; i-- {
			if isNode(cur.Objects[i], cur.Node) {
				continue
			}
			v := cloneCase(cur)
			v.Objects = append(v.Objects[:i:i], v.Objects[i+1:]...)
			v.Claims = keepExisting(v)
			if len(v.Claims) == 0 {
				continue
			}
			if try(v) {
				progress = true
			}
		}
		// Claims to allocate.
		for i := len(cur.Claims) - 1; i >= 0 && len(cur.Claims) > 1; i-- {
			v := cloneCase(cur)
			v.Claims = append(v.Claims[:i:i], v.Claims[i+1:]...)
			if try(v) {
				progress = true
			}
		}
		// Array elements and optional map entries inside objects.
		for i := range cur.Objects {
			for k := 0; ; k++ {
				var tree any
				json.Unmarshal(cur.Objects[i], &tree)
				if !dropNth(tree, k, new(int)) {
					break
				}
				v := cloneCase(cur)
				b, _ := json.Marshal(tree)
				v.Objects[i] = cleanDrops(b)
				if try(v) {
					progress = true
					k--
				}
			}
		}
	}
	return cur
}

// dropNth removes the n-th droppable thing of tree in walk order: an array
// element, or a map entry that is not identity or required structure.
func dropNth(v any, n int, seen *int) bool {
	switch x := v.(type) {
	case map[string]any:
		keys := sortedKeys(x)
		for _, k := range keys {
			if droppableKey(k) {
				if *seen == n {
					delete(x, k)
					return true
				}
				*seen++
			}
			if dropNth(x[k], n, seen) {
				return true
			}
		}
	case []any:
		for i := range x {
			// The last element stays: an empty list is often invalid
			// (attribute values, selector terms) and takes the minimized
			// case elsewhere; optional lists are dropped by key instead.
			if len(x) > 1 {
				if *seen == n {
					// Shrink in place through the parent is not possible:
					// the marker at the end is cut out after marshalling.
					copy(x[i:], x[i+1:])
					x[len(x)-1] = dropMarker{}
					return true
				}
				*seen++
			}
			if dropNth(x[i], n, seen) {
				return true
			}
		}
	}
	return false
}

type dropMarker struct{}

func (dropMarker) MarshalJSON() ([]byte, error) { return []byte(`"__drop__"`), nil }

func droppableKey(k string) bool {
	switch k {
	case "selectors", "constraints", "config", "tolerations", "capacity", "attributes", "taints",
		"bindingConditions", "bindingFailureConditions", "bindsToNode", "consumesCounters",
		"allowMultipleAllocations", "requestPolicy", "adminAccess", "labels", "nodeSelector", "requests":
		return true
	}
	return false
}

func sortedKeys(m map[string]any) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	for i := 1; i < len(ks); i++ {
		for j := i; j > 0 && ks[j] < ks[j-1]; j-- {
			ks[j], ks[j-1] = ks[j-1], ks[j]
		}
	}
	return ks
}

func cloneCase(c *Case) *Case {
	v := *c
	v.typed = nil // the copy's objects are changed as JSON
	v.Claims = append([]string(nil), c.Claims...)
	v.Objects = nil
	v.Objects = append([]json.RawMessage(nil), c.Objects...)
	return &v
}

// cleanDrops removes the marker dropNth leaves at the end of a shortened array.
func cleanDrops(b []byte) json.RawMessage {
	s := strings.ReplaceAll(string(b), `,"__drop__"`, "")
	return json.RawMessage(strings.ReplaceAll(s, `["__drop__"]`, `[]`))
}

func isNode(raw json.RawMessage, name string) bool {
	var o struct {
		Kind     string `json:"kind"`
		Metadata struct {
			Name string `json:"name"`
		} `json:"metadata"`
	}
	json.Unmarshal(raw, &o)
	return o.Kind == "Node" && o.Metadata.Name == name
}

// keepExisting: the claims to allocate that are still among the objects.
func keepExisting(c *Case) []string {
	have := map[string]bool{}
	for _, raw := range c.Objects {
		var o struct {
			Kind     string `json:"kind"`
			Metadata struct {
				Name, Namespace string
			} `json:"metadata"`
		}
		json.Unmarshal(raw, &o)
		if o.Kind == "ResourceClaim" {
			ns := o.Metadata.Namespace
			if ns == "" {
				ns = "default"
			}
			have[ns+"/"+o.Metadata.Name] = true
		}
	}
	var out []string
	for _, n := range c.Claims {
		if have[n] {
			out = append(out, n)
		}
	}
	return out
}

// caseYAML writes a case in the allocator vector format of
// tests/data/allocator: a header document (upstream's answer as expect),
// then the objects.
func caseYAML(c *Case, up Result, class string) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "# Found by tests/upstream allocdiff (case %s): %s.\n", c.ID, class)
	claims := strings.Join(c.Claims, " --claim ")
	gates := []string{}
	for _, g := range allocatorGates {
		gates = append(gates, fmt.Sprintf("%s=%v", g, c.gate(g)))
	}
	fmt.Fprintf(&sb, "# dra allocate -f <objects> --node %s --claim %s --feature-gates %s\n", c.Node, claims, strings.Join(gates, ","))
	header := map[string]any{"case": "upstream-diff-" + c.ID, "node": c.Node, "claims": c.Claims}
	fg := map[string]bool{}
	for _, g := range allocatorGates {
		fg[g] = c.gate(g)
	}
	header["featureGates"] = fg
	switch up.Status {
	case statusOK:
		var allocs []any
		for _, a := range up.Allocations {
			var v any
			json.Unmarshal(a, &v)
			allocs = append(allocs, v)
		}
		header["expect"] = map[string]any{"allocations": allocs}
	case statusUnsatisfiable:
		header["expect"] = map[string]any{"unsatisfiable": true}
	default:
		header["expect"] = map[string]any{"error": up.Error}
	}
	b, _ := yaml.Marshal(header)
	sb.Write(b)
	for _, o := range c.Objects {
		y, err := yaml.JSONToYAML(pruned(o))
		if err != nil {
			y = o
		}
		sb.WriteString("---\n")
		sb.Write(y)
	}
	return sb.String()
}
