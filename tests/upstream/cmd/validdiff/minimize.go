// Minimizing a disagreeing case (dropping subtrees of the object, and of the
// old object with it, while the disagreement keeps its class) and printing
// it as YAML.
package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"sigs.k8s.io/yaml"
)

const minimizeTries = 400

func stillDisagrees(c *Case, class string) bool {
	up := runUpstream(c)
	if up.Status == statusError {
		return false
	}
	k, _ := compare(c, up, runDraOne(c))
	return k == class
}

func minimize(c *Case, class string) *Case {
	best := *c
	tries := 0
	for changed := true; changed && tries < minimizeTries; {
		changed = false
		var obj map[string]any
		json.Unmarshal(best.Object, &obj)
		var all []node
		walk(obj, nil, &all)
		for _, n := range all[1:] {
			if tries >= minimizeTries {
				break
			}
			ps := pathString(n.path)
			if ps == "apiVersion" || ps == "kind" || ps == "metadata" || ps == "metadata.name" {
				continue
			}
			tries++
			cand := best
			o := deepCopy(obj)
			remove(o, n.path)
			cand.Object = mustJSON(o)
			if len(best.Old) > 0 {
				var old any
				json.Unmarshal(best.Old, &old)
				if has(old, n.path) {
					remove(old, n.path)
					cand.Old = mustJSON(old)
				}
			}
			if stillDisagrees(&cand, class) {
				best = cand
				changed = true
				break
			}
		}
	}
	best.Mutations = append(best.Mutations, "minimized")
	return &best
}

func has(v any, path []step) bool {
	for _, s := range path {
		switch s := s.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return false
			}
			if v, ok = m[s]; !ok {
				return false
			}
		case int:
			l, ok := v.([]any)
			if !ok || s >= len(l) {
				return false
			}
			v = l[s]
		}
	}
	return true
}

func toYAML(raw json.RawMessage) string {
	y, err := yaml.JSONToYAML(raw)
	if err != nil {
		return string(raw) + "\n"
	}
	return string(y)
}

// caseYAML: the namespaces and old object (created first) and the object,
// as `dra validate -f` / kubectl take them; the first document comments.
func caseYAML(c *Case) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "# case %s\n", c.ID)
	for _, m := range c.Mutations {
		fmt.Fprintf(&sb, "# %s\n", m)
	}
	for _, g := range draGates {
		if v, ok := c.FeatureGates[g]; ok {
			fmt.Fprintf(&sb, "# feature gate %s=%v\n", g, v)
		}
	}
	if len(c.Old) > 0 {
		sb.WriteString("# old (created first):\n---\n")
		sb.WriteString(toYAML(c.Old))
		sb.WriteString("# object (an update of old):\n")
	}
	sb.WriteString("---\n")
	sb.WriteString(toYAML(c.Object))
	return sb.String()
}
