// Command ssaschemagen writes dra's server-side apply schema tables
// (src/api/ssa_schema_gen.c): for every type of k8s.io/api and
// k8s.io/apimachinery that client-go's apply configurations know, its
// structured-merge-diff shape (struct fields, map and list element types,
// element relationship: separable, atomic or associative with the list-map
// keys), and which type each served apiVersion and kind is. The shapes are
// upstream's own conversion of the OpenAPI extensions (x-kubernetes-list-type,
// x-kubernetes-list-map-keys, x-kubernetes-map-type), as client-go embeds
// it; only facts are written. `make schema` runs it; the CTest
// pb_schema_current checks the committed file is what it writes.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/applyconfigurations"
	"k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/structured-merge-diff/v6/schema"
)

type node struct {
	kind, relation string
	elem           int
	fields         []fieldRef
	keys           []keyRef
}

// keyRef is a list-map key and its default (JSON text, "" for none): an
// item that leaves the key out has the default as its key part.
type keyRef struct {
	name, def string
}

type fieldRef struct {
	name string
	typ  int
}

var (
	sch    *schema.Schema
	nodes  []*node
	named  = map[string]int{}
	shapes = map[string]int{}
	keyTab []keyRef
)

func relation(r schema.ElementRelationship) string {
	switch r {
	case schema.Atomic:
		return "SSA_ATOMIC"
	case schema.Associative:
		return "SSA_ASSOCIATIVE"
	}
	return "SSA_SEPARABLE"
}

// ref gives the node of a type reference, resolving named types once.
func ref(tr schema.TypeRef) int {
	if tr.NamedType != nil && tr.ElementRelationship == nil {
		if i, ok := named[*tr.NamedType]; ok {
			return i
		}
		i := len(nodes)
		nodes = append(nodes, &node{})
		named[*tr.NamedType] = i
		a, ok := sch.Resolve(tr)
		if !ok {
			panic("unresolved " + *tr.NamedType)
		}
		*nodes[i] = build(a)
		return i
	}
	a, ok := sch.Resolve(tr)
	if !ok {
		panic("unresolved inline type")
	}
	n := build(a)
	if len(n.fields) == 0 { // the same shape once: scalars, lists and maps of a type
		key := fmt.Sprint(n.kind, n.relation, n.elem, n.keys)
		if i, ok := shapes[key]; ok {
			return i
		}
		shapes[key] = len(nodes)
	}
	nodes = append(nodes, &n)
	return len(nodes) - 1
}

// listKeys gives a list's keys with the defaults the item type declares
// for them (as structured-merge-diff's getAssociativeKeyDefault reads them).
func listKeys(l *schema.List) []keyRef {
	var keys []keyRef
	item, _ := sch.Resolve(l.ElementType)
	for _, k := range l.Keys {
		kr := keyRef{name: k}
		if item.Map != nil {
			if f, ok := item.Map.FindField(k); ok && f.Default != nil {
				b, err := json.Marshal(f.Default)
				if err != nil {
					panic(err)
				}
				kr.def = string(b)
			}
		}
		keys = append(keys, kr)
	}
	return keys
}

func build(a schema.Atom) node {
	n := node{elem: -1, relation: "SSA_SEPARABLE"}
	switch {
	case a.Scalar != nil && (a.Map != nil || a.List != nil):
		n.kind = "SSA_UNTYPED"
		if a.Map != nil {
			n.relation = relation(a.Map.ElementRelationship)
			n.elem = ref(a.Map.ElementType)
		}
	case a.Scalar != nil:
		n.kind = "SSA_SCALAR"
	case a.List != nil:
		n.kind = "SSA_LIST"
		n.relation = relation(a.List.ElementRelationship)
		n.keys = listKeys(a.List)
		n.elem = ref(a.List.ElementType)
	case a.Map != nil:
		n.kind = "SSA_MAP"
		n.relation = relation(a.Map.ElementRelationship)
		if a.Map.ElementType.NamedType != nil || a.Map.ElementType.Inlined != (schema.Atom{}) {
			n.elem = ref(a.Map.ElementType)
		}
		for _, f := range a.Map.Fields {
			n.fields = append(n.fields, fieldRef{name: f.Name, typ: ref(f.Type)})
		}
		sort.Slice(n.fields, func(i, j int) bool { return n.fields[i].name < n.fields[j].name })
	default:
		panic("empty atom")
	}
	return n
}

// typeName is the OpenAPI name of a k8s.io Go type: io.k8s.api.core.v1.Pod.
func typeName(t reflect.Type) string {
	parts := strings.SplitN(t.PkgPath(), "/", 2)
	host := strings.Split(parts[0], ".")
	for i, j := 0, len(host)-1; i < j; i, j = i+1, j-1 {
		host[i], host[j] = host[j], host[i]
	}
	return strings.Join(host, ".") + "." + strings.ReplaceAll(parts[1], "/", ".") + "." + t.Name()
}

type kindRow struct {
	apiVersion, kind, name string
	typ                    int
}

func main() {
	out := flag.String("o", "", "output file")
	flag.Parse()
	tc := applyconfigurations.NewTypeConverter(scheme.Scheme)
	tv, err := tc.ObjectToTyped(&corev1.Pod{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"}})
	if err != nil {
		panic(err)
	}
	sch = tv.Schema()
	known := map[string]bool{}
	for _, td := range sch.Types {
		known[td.Name] = true
	}
	var kinds []kindRow
	for gvk, t := range scheme.Scheme.AllKnownTypes() {
		name := typeName(t)
		if gvk.Version == "__internal" || strings.HasSuffix(gvk.Kind, "List") || !known[name] {
			continue
		}
		kinds = append(kinds, kindRow{apiVersion: gvk.GroupVersion().String(), kind: gvk.Kind, name: name})
	}
	sort.Slice(kinds, func(i, j int) bool {
		if kinds[i].apiVersion != kinds[j].apiVersion {
			return kinds[i].apiVersion < kinds[j].apiVersion
		}
		return kinds[i].kind < kinds[j].kind
	})
	for i := range kinds { // in that order, so the output is the same every run
		kinds[i].typ = ref(schema.TypeRef{NamedType: &kinds[i].name})
	}
	f, err := os.Create(*out)
	if err != nil {
		panic(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprint(w, "/* ssa_schema_gen.c: GENERATED by tests/upstream/cmd/ssaschemagen (`make schema`)\n"+
		" * from client-go's apply configuration schema (k8s.io/client-go as pinned in\n"+
		" * tests/upstream/go.mod); do not edit. The types ssa_schema.h describes. */\n"+
		"#include \"api/ssa_schema.h\"\n\n")
	var fields []fieldRef
	fmt.Fprint(w, "const ssa_type ssa_types[] = {\n")
	for i, n := range nodes {
		first := len(fields)
		fields = append(fields, n.fields...)
		firstKey := len(keyTab)
		keyTab = append(keyTab, n.keys...)
		fmt.Fprintf(w, "    /* %d */ {%s, %s, %d, %d, %d, %d, %d},\n", i, n.kind, n.relation, n.elem, first, len(n.fields),
			firstKey, len(n.keys))
	}
	fmt.Fprint(w, "};\n\nconst ssa_field ssa_fields[] = {\n")
	for _, fr := range fields {
		fmt.Fprintf(w, "    {%q, %d},\n", fr.name, fr.typ)
	}
	fmt.Fprint(w, "};\n\nconst ssa_key ssa_keys[] = {\n")
	for _, k := range keyTab {
		if k.def == "" {
			fmt.Fprintf(w, "    {%q, NULL},\n", k.name)
		} else {
			fmt.Fprintf(w, "    {%q, %q},\n", k.name, k.def)
		}
	}
	fmt.Fprint(w, "};\n\nconst ssa_kind ssa_kinds[] = {\n")
	for _, k := range kinds {
		fmt.Fprintf(w, "    {%q, %q, %d},\n", k.apiVersion, k.kind, k.typ)
	}
	fmt.Fprintf(w, "};\n\nconst size_t ssa_n_kinds = %d;\n", len(kinds))
	if err := w.Flush(); err != nil {
		panic(err)
	}
	f.Close()
}
