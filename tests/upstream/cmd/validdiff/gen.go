// A seeded generator of admission cases: valid objects of every kind dra
// validates (the documents of examples/, which the tool reads at start and
// keeps when upstream admits them) mutated by one to three random edits of
// the JSON tree: a field dropped, a bad value (names, label keys,
// quantities, CEL expressions, lengths over limits, wrong types), a list
// item duplicated, a list grown past its limit, a field grafted from
// another object of the kind; a quarter of the cases are updates of the
// unmutated object. Case i of seed s is a pure function of (s, i) and the
// examples: `-seed s -only i` gives it again.
package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"
)

// base is one valid example object.
type base struct {
	origin string // "examples/40-claims.yaml#2"
	kind   string
	obj    map[string]any
}

var (
	bases       []base
	byKind      = map[string][]int{}
	kinds       []string
	nsObjects   []json.RawMessage
	nsNames     []string
	handled     = map[string]bool{"DeviceClass": true, "ResourceClaim": true, "ResourceClaimTemplate": true, "ResourceSlice": true, "Pod": true, "PodGroup": true, "Workload": true, "Node": true, "Namespace": true}
	namespaced  = map[string]bool{"ResourceClaim": true, "ResourceClaimTemplate": true, "Pod": true, "PodGroup": true, "Workload": true}
	docSplitter = regexp.MustCompile(`(?m)^---\s*$`)
)

// Where random edits may land, by kind (patterns over paths with [*] for
// any index and map key): for Pods, Nodes and Namespaces only what dra
// models (their DRA parts and metadata); elsewhere everywhere.
var allowed = map[string][]string{
	"Pod": {"metadata.", "spec.resourceClaims", "spec.containers[*].resources.claims", "spec.initContainers[*].resources.claims",
		"spec.resources.claims", "spec.schedulingGroup"},
	"Node":      {"metadata."},
	"Namespace": {"metadata."},
}

// Extra bases the examples lack: a Node, and a Namespace that may grant adminAccess.
const extraBases = `apiVersion: v1
kind: Node
metadata:
  name: node-1
  labels: {kubernetes.io/hostname: node-1, topology.kubernetes.io/zone: z1}
---
apiVersion: v1
kind: Namespace
metadata:
  name: admin-ns
  labels: {resource.kubernetes.io/admin-access: "true"}
---
apiVersion: v1
kind: Namespace
metadata:
  name: default
`

func loadBases(dir string) error {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "invalid" {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(files)
	texts := map[string]string{"(built in)": extraBases}
	origins := []string{"(built in)"}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		texts[f] = string(b)
		origins = append(origins, f)
	}
	// Namespaces first: the other objects' cases carry them.
	var docs []base
	for _, f := range origins {
		for i, doc := range docSplitter.Split(texts[f], -1) {
			j, err := yaml.YAMLToJSON([]byte(doc))
			if err != nil || string(j) == "null" {
				continue
			}
			var o map[string]any
			if json.Unmarshal(j, &o) != nil {
				continue
			}
			items := []any{o}
			if o["kind"] == "List" {
				items, _ = o["items"].([]any)
			}
			for k, it := range items {
				m, ok := it.(map[string]any)
				kind, _ := m["kind"].(string)
				md, _ := m["metadata"].(map[string]any)
				if !ok || !handled[kind] || md == nil {
					continue
				}
				if namespaced[kind] && md["namespace"] == nil {
					md["namespace"] = "default"
				}
				origin := fmt.Sprintf("%s#%d", f, i)
				if o["kind"] == "List" {
					origin = fmt.Sprintf("%s#%d.%d", f, i, k)
				}
				docs = append(docs, base{origin, kind, m})
			}
		}
	}
	sort.SliceStable(docs, func(a, b int) bool { return docs[a].kind == "Namespace" && docs[b].kind != "Namespace" })
	seenNS := map[string]bool{}
	for _, b := range docs {
		c := &Case{ID: b.origin, Object: mustJSON(b.obj)}
		if b.kind != "Namespace" {
			c.Objects = nsObjects
		}
		// Keep what upstream admits as it is.
		if r := runUpstream(c); r.Status != statusOK {
			if *flagVerbose {
				fmt.Fprintf(os.Stderr, "not a base: %s: %s %s %v\n", b.origin, r.Status, r.Error, r.Errors)
			}
			continue
		}
		if b.kind == "Namespace" {
			name, _ := b.obj["metadata"].(map[string]any)["name"].(string)
			if seenNS[name] {
				continue
			}
			seenNS[name] = true
			nsObjects = append(nsObjects, mustJSON(b.obj))
			nsNames = append(nsNames, name)
		}
		if len(byKind[b.kind]) == 0 {
			kinds = append(kinds, b.kind)
		}
		byKind[b.kind] = append(byKind[b.kind], len(bases))
		bases = append(bases, b)
	}
	if len(bases) == 0 {
		return fmt.Errorf("%s: no valid example objects", dir)
	}
	return nil
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func deepCopy(v any) any {
	var out any
	json.Unmarshal(mustJSON(v), &out)
	return out
}

type gen struct {
	r    *rand.Rand
	kind string
	upd  bool
	log  []string
}

func (g *gen) p(prob float64) bool { return g.r.Float64() < prob }
func pick[T any](g *gen, v ...T) T { return v[g.r.IntN(len(v))] }

// generate builds case i of seed.
func generate(seed uint64, i int) *Case {
	g := &gen{r: rand.New(rand.NewPCG(seed, uint64(i)))}
	c := &Case{ID: fmt.Sprintf("%d-%d", seed, i)}
	g.kind = pick(g, kinds...)
	b := bases[pick(g, byKind[g.kind]...)]
	obj := deepCopy(b.obj).(map[string]any)
	c.Mutations = append(c.Mutations, "base "+b.origin)
	if g.kind != "Namespace" {
		c.Objects = nsObjects
	}
	if g.p(0.1) {
		// Some gates flipped: dra drops the fields of gates off (with a
		// warning) as upstream does.
		c.FeatureGates = map[string]bool{}
		for _, name := range draGates {
			if g.p(0.3) {
				c.FeatureGates[name] = offGates[name]
			}
		}
	}
	g.upd = g.p(0.25)
	if g.upd {
		if g.p(0.3) {
			g.graft(obj)
		}
		c.Old = mustJSON(obj)
		c.Mutations = append(c.Mutations, g.log...)
		g.log = nil
		obj = deepCopy(obj).(map[string]any)
	}
	n := 1 + g.r.IntN(3)
	if g.p(0.03) {
		n = 0
	}
	for k := 0; k < n; k++ {
		g.mutate(obj)
	}
	c.Mutations = append(c.Mutations, g.log...)
	c.Object = mustJSON(obj)
	return c
}

// ---- paths in the JSON tree ----

type step = any // string (map key) or int (list index)

type node struct {
	path []step
	v    any
}

func pathString(p []step) string {
	var sb strings.Builder
	for _, s := range p {
		switch s := s.(type) {
		case string:
			if sb.Len() > 0 {
				sb.WriteByte('.')
			}
			sb.WriteString(s)
		case int:
			fmt.Fprintf(&sb, "[%d]", s)
		}
	}
	return sb.String()
}

// pattern: the path with every index as [*] and, below a map of free keys,
// the key as [*] too.
func pattern(p []step) string {
	return indexRE.ReplaceAllString(pathString(p), "[*]")
}

var indexRE = regexp.MustCompile(`\[\d+\]`)

func walk(v any, path []step, out *[]node) {
	*out = append(*out, node{append([]step(nil), path...), v})
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			walk(v[k], append(path, k), out)
		}
	case []any:
		for i, e := range v {
			walk(e, append(path, i), out)
		}
	}
}

// nodes: every node of obj an edit may touch.
func (g *gen) nodes(obj map[string]any) []node {
	var all []node
	walk(obj, nil, &all)
	var out []node
	for _, n := range all[1:] {
		ps := pathString(n.path)
		if ps == "apiVersion" || ps == "kind" {
			continue
		}
		if g.upd && (ps == "metadata.name" || ps == "metadata.namespace" || ps == "metadata") {
			continue // an update names the stored object
		}
		if pre, ok := allowed[g.kind]; ok {
			pat := pattern(n.path)
			ok := false
			for _, p := range pre {
				if strings.HasPrefix(pat, p) {
					ok = true
				}
			}
			if !ok {
				continue
			}
		}
		out = append(out, n)
	}
	return out
}

func parentOf(obj any, path []step) any {
	v := obj
	for _, s := range path[:len(path)-1] {
		switch s := s.(type) {
		case string:
			v = v.(map[string]any)[s]
		case int:
			v = v.([]any)[s]
		}
	}
	return v
}

// set replaces the value at path (its parent must exist).
func set(obj any, path []step, val any) {
	switch p := parentOf(obj, path).(type) {
	case map[string]any:
		p[path[len(path)-1].(string)] = val
	case []any:
		p[path[len(path)-1].(int)] = val
	}
}

func remove(obj any, path []step) {
	parent := path[:len(path)-1]
	switch p := parentOf(obj, path).(type) {
	case map[string]any:
		delete(p, path[len(path)-1].(string))
	case []any:
		i := path[len(path)-1].(int)
		set(obj, parent, append(append([]any{}, p[:i]...), p[i+1:]...))
	}
}

// ---- the edits ----

var (
	badNames = []string{"", "Bad_Name", "UPPER", "-lead", "trail-", "a.b", "a..b", "a/b", "x y", "ünicode", "1",
		strings.Repeat("a", 63), strings.Repeat("a", 64), strings.Repeat("a", 253), strings.Repeat("a", 254),
		"example.com/" + strings.Repeat("a", 63), "example.com/" + strings.Repeat("a", 64), "a.example.com/b/c",
		strings.Repeat("a.", 120) + "com", "*", "a_b.example.com"}
	badCEL = []string{"", "true", "false", "1", "device.driver == 'a.example.com'", "device.nosuch",
		"x +", "'a' + 1", "device.attributes['a.example.com'].model == 'x'",
		"device.capacity['a.example.com'].memory.compareTo(quantity('1Gi')) >= 0",
		"device.attributes['a.example.com'].numa", "device.driver.matches('[')", "[1, 2].all(x, x > 0)",
		"true" + strings.Repeat(" ", 10240), strings.Repeat("true && ", 40) + "true", "device.allowMultipleAllocations"}
	badQuantities = []string{"0", "-1", "1Gi", "1.5", "10Gb", "1e3", "abc", "", "0.001m", "9223372036854775807", "1Ei"}
	badNumbers    = []any{-1, 0, 1, 2, 31, 32, 33, 63, 64, 65, 128, 129, 256, 257, 4294967296, 1.5}
	badKeys       = []string{"Bad Key", "a/b/c", "-x", strings.Repeat("k", 64), "example.com/" + strings.Repeat("k", 64),
		"kubernetes.io/x", "UPPER.com/x", "", "x.example.com/", "a_b", "resource.kubernetes.io/admin-access"}
	listSizes = []int{5, 8, 9, 16, 17, 32, 33, 64, 65, 128, 129, 256, 257}
)

func (g *gen) logf(format string, a ...any) { g.log = append(g.log, fmt.Sprintf(format, a...)) }

func (g *gen) mutate(obj map[string]any) {
	ns := g.nodes(obj)
	if len(ns) == 0 {
		return
	}
	n := ns[g.r.IntN(len(ns))]
	ps := pathString(n.path)
	last, _ := n.path[len(n.path)-1].(string)
	switch x := g.r.IntN(100); {
	case x < 15:
		remove(obj, n.path)
		g.logf("drop %s", ps)
	case x < 45:
		var v any
		switch {
		case strings.Contains(strings.ToLower(last), "expression"):
			v = pick(g, badCEL...)
		case isQuantityPath(n.path):
			v = pick(g, badQuantities...)
		case last == "namespace" && g.p(0.5):
			v = pick(g, append(append([]string{}, nsNames...), "nowhere")...)
		default:
			switch n.v.(type) {
			case float64:
				v = pick(g, badNumbers...)
			case bool:
				v = !n.v.(bool)
			case string:
				v = pick(g, badNames...)
			default:
				return // a list or an object: only the wrong-type edit replaces those
			}
		}
		set(obj, n.path, v)
		g.logf("set %s = %s", ps, short(v))
	case x < 55:
		m, ok := n.v.(map[string]any)
		if !ok {
			return
		}
		k := pick(g, badKeys...)
		var val any = "v"
		for _, vv := range m {
			val = deepCopy(vv)
			break
		}
		m[k] = val
		g.logf("add key %q to %s", k, ps)
	case x < 70:
		l, ok := n.v.([]any)
		if !ok || len(l) == 0 {
			return
		}
		set(obj, n.path, append(l, deepCopy(l[g.r.IntN(len(l))])))
		g.logf("duplicate an item of %s", ps)
	case x < 80:
		l, ok := n.v.([]any)
		if !ok || len(l) == 0 {
			return
		}
		size := pick(g, listSizes...)
		for k := len(l); k < size; k++ {
			item := deepCopy(l[k%len(l)])
			if m, ok := item.(map[string]any); ok {
				if name, ok := m["name"].(string); ok {
					m["name"] = fmt.Sprintf("%s-%d", name, k)
				}
			}
			l = append(l, item)
		}
		set(obj, n.path, l)
		g.logf("grow %s to %d items", ps, size)
	case x < 82:
		var v any
		switch n.v.(type) {
		case string:
			v = 7
		case float64:
			v = "7"
		case bool:
			v = "yes"
		case []any:
			v = map[string]any{}
		default:
			v = []any{}
		}
		set(obj, n.path, v)
		g.logf("set %s = %s (wrong type)", ps, short(v))
	default:
		g.graft(obj)
	}
}

// graft copies a field from another object of the kind to the same place.
func (g *gen) graft(obj map[string]any) {
	donor := bases[pick(g, byKind[g.kind]...)]
	ds := g.nodes(donor.obj)
	if len(ds) == 0 {
		return
	}
	d := ds[g.r.IntN(len(ds))]
	// The parent must exist here, a map for a key, a list for an index.
	var cur any = obj
	path := append([]step(nil), d.path...)
	for k, s := range path[:len(path)-1] {
		switch s := s.(type) {
		case string:
			m, ok := cur.(map[string]any)
			if !ok {
				return
			}
			if m[s] == nil {
				// Create the missing map or list from the donor's shape.
				switch parentOf(donor.obj, path[:k+2]).(type) {
				case []any:
					m[s] = []any{}
				default:
					m[s] = map[string]any{}
				}
			}
			cur = m[s]
		case int:
			l, ok := cur.([]any)
			if !ok || len(l) == 0 {
				return
			}
			if s >= len(l) {
				path[k] = len(l) - 1
				s = len(l) - 1
			}
			cur = l[s]
		}
	}
	val := deepCopy(d.v)
	switch p := cur.(type) {
	case map[string]any:
		k, ok := path[len(path)-1].(string)
		if !ok {
			return
		}
		p[k] = val
	case []any:
		i, ok := path[len(path)-1].(int)
		if !ok {
			return
		}
		if i >= len(p) {
			set(obj, path[:len(path)-1], append(p, val))
		} else {
			p[i] = val
		}
	default:
		return
	}
	g.logf("graft %s from %s", pathString(path), donor.origin)
}

// Quantities: capacity values, resource requests and limits.
func isQuantityPath(p []step) bool {
	pat := pattern(p)
	return strings.Contains(pat, "capacity") || strings.Contains(pat, "resources.requests") ||
		strings.Contains(pat, "resources.limits") || strings.HasSuffix(pat, "allocatable")
}

func short(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 60 {
		return fmt.Sprintf("%s... (%d bytes)", b[:40], len(b))
	}
	return string(b)
}
