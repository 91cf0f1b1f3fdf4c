// Command schemagen writes dra's protobuf schema tables
// (src/codec/pb_schema_gen.c): for every kind of k8s.io/api that client-go's
// scheme registers, and for the meta.k8s.io/v1 envelopes (Status,
// WatchEvent, DeleteOptions, List, PartialObjectMetadata...), every message
// reachable from it with each field's protobuf number, JSON name, kind and
// the presence rule Go's generated Marshal follows. Only facts: numbers,
// names and types, from the Go types' struct tags, cross-checked against
// each package's generated.proto. `make schema` runs it; the CTest
// pb_schema_current checks the committed file is what it writes.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes/scheme"
)

// Field kinds, in the order of pb_kind in src/codec/pb_schema.h.
var kindNames = []string{"PBK_STRING", "PBK_BYTES", "PBK_BOOL", "PBK_INT32", "PBK_INT64", "PBK_UINT32",
	"PBK_UINT64", "PBK_DOUBLE", "PBK_MESSAGE", "PBK_QUANTITY", "PBK_TIME", "PBK_MICRO_TIME", "PBK_DURATION",
	"PBK_INT_OR_STRING", "PBK_RAW_JSON"}

const (
	kString = iota
	kBytes
	kBool
	kInt32
	kInt64
	kUint32
	kUint64
	kDouble
	kMessage
	kQuantity
	kTime
	kMicroTime
	kDuration
	kIntOrString
	kRawJSON
)

// Flags, as PB_* in pb_schema.h.
const (
	fRepeated  = 1  // one protobuf field per element; JSON array
	fNilable   = 2  // Go writes it only when set (pointer, []byte, wrapped list)
	fOmitEmpty = 4  // JSON leaves it out at its zero value
	fMap       = 8  // repeated entry message (key = 1, value = 2); JSON object
	fInline    = 16 // embedded: JSON shows the message's fields in the parent
	fWrapped   = 32 // a message whose field 1 repeats the elements; JSON array
	fOmitZero  = 64 // JSON leaves it out at its zero value, structs included
)

type field struct {
	json    string
	number  int
	kind    int
	flags   int
	message string // proto name of the message, for kMessage
}

type message struct {
	name   string
	fields []field
}

var (
	messages = map[string]*message{}
	special  = map[reflect.Type]int{
		reflect.TypeOf(resource.Quantity{}):    kQuantity,
		reflect.TypeOf(metav1.Time{}):          kTime,
		reflect.TypeOf(metav1.MicroTime{}):     kMicroTime,
		reflect.TypeOf(metav1.Duration{}):      kDuration,
		reflect.TypeOf(intstr.IntOrString{}):   kIntOrString,
		reflect.TypeOf(runtime.RawExtension{}): kRawJSON,
		reflect.TypeOf(metav1.FieldsV1{}):      kRawJSON,
	}
	protoFiles = map[string]map[string]map[int]protoField{} // package -> message -> number -> field
	moduleDirs = map[string]string{}
)

func protoName(t reflect.Type) string {
	return strings.ReplaceAll(t.PkgPath(), "/", ".") + "." + t.Name()
}

// scalarKind classifies a Go scalar by the wire type word of its tag.
func scalarKind(t reflect.Type, wire string) int {
	switch t.Kind() {
	case reflect.String:
		return kString
	case reflect.Bool:
		return kBool
	case reflect.Int32:
		return kInt32
	case reflect.Int64, reflect.Int:
		return kInt64
	case reflect.Uint32:
		return kUint32
	case reflect.Uint64:
		return kUint64
	case reflect.Float64:
		if wire != "fixed64" {
			panic("float64 not fixed64")
		}
		return kDouble
	}
	panic(fmt.Sprintf("unsupported Go kind %v", t))
}

// elem classifies the type of one value (not a slice/map level): its kind
// and, for messages, the proto message name (walked).
func elem(t reflect.Type, wire string) (int, string) {
	if k, ok := special[t]; ok {
		return k, ""
	}
	if t.Kind() == reflect.Struct {
		return kMessage, walk(t)
	}
	if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
		return kBytes, ""
	}
	return scalarKind(t, wire), ""
}

// wrapper makes the message go-to-protobuf gives a named slice type kept
// as one field (metav1.Verbs, authentication ExtraValue): field 1 repeats
// the elements.
func wrapper(t reflect.Type) string {
	if t.Name() == "" {
		panic(fmt.Sprintf("unnamed wrapped list %v", t))
	}
	name := protoName(t)
	if _, ok := messages[name]; ok {
		return name
	}
	m := &message{name: name}
	messages[name] = m
	k, msg := elem(t.Elem(), "bytes")
	m.fields = []field{{json: "items", number: 1, kind: k, flags: fRepeated, message: msg}}
	checkProto(t, m)
	return name
}

func parseTag(tag string) (wire string, number int, repeated bool, name string) {
	parts := strings.Split(tag, ",")
	wire = parts[0]
	number, err := strconv.Atoi(parts[1])
	if err != nil {
		panic(tag)
	}
	repeated = parts[2] == "rep"
	for _, p := range parts[3:] {
		if strings.HasPrefix(p, "name=") {
			name = strings.TrimPrefix(p, "name=")
		}
	}
	return
}

func walk(t reflect.Type) string {
	name := protoName(t)
	if _, ok := messages[name]; ok {
		return name
	}
	m := &message{name: name}
	messages[name] = m
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		ptag, ok := sf.Tag.Lookup("protobuf")
		if !ok || ptag == "-" {
			continue
		}
		wire, number, _, _ := parseTag(ptag)
		jtag := strings.Split(sf.Tag.Get("json"), ",")
		f := field{json: jtag[0], number: number}
		for _, o := range jtag[1:] {
			if o == "omitempty" {
				f.flags |= fOmitEmpty
			}
			if o == "omitzero" {
				f.flags |= fOmitZero
			}
			if o == "inline" {
				f.flags |= fInline
			}
		}
		if sf.Anonymous && f.json == "" {
			f.flags |= fInline
		}
		if f.json == "" && f.flags&fInline == 0 {
			f.json = sf.Name
		}
		ft := sf.Type
		if ft.Kind() == reflect.Pointer {
			f.flags |= fNilable
			ft = ft.Elem()
		}
		switch {
		case ft.Kind() == reflect.Map:
			if ft.Key().Kind() != reflect.String {
				panic("map key not string in " + name)
			}
			f.kind, f.message = kMessage, mapEntry(name, sf, ft)
			f.flags |= fMap | fRepeated
		case ft.Kind() == reflect.Slice && ft.Elem().Kind() != reflect.Uint8 && !protoRepeated(t, number):
			f.kind, f.message = kMessage, wrapper(ft)
			f.flags |= fWrapped | fNilable
		case ft.Kind() == reflect.Slice && ft.Elem().Kind() != reflect.Uint8:
			et := ft.Elem()
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			f.kind, f.message = elem(et, wire)
			f.flags |= fRepeated
		default:
			f.kind, f.message = elem(ft, wire)
			if f.kind == kBytes {
				f.flags |= fNilable
			}
		}
		m.fields = append(m.fields, f)
	}
	sort.Slice(m.fields, func(a, b int) bool { return m.fields[a].number < m.fields[b].number })
	checkProto(t, m)
	return name
}

// mapEntry makes the entry message of a map field: key = 1, value = 2.
func mapEntry(owner string, sf reflect.StructField, ft reflect.Type) string {
	name := owner + "." + sf.Name + "Entry"
	if _, ok := messages[name]; ok {
		return name
	}
	m := &message{name: name}
	messages[name] = m
	vwire := strings.Split(sf.Tag.Get("protobuf_val"), ",")[0]
	vt := ft.Elem()
	v := field{json: "value", number: 2}
	switch {
	case vt.Kind() == reflect.Pointer:
		v.flags |= fNilable
		v.kind, v.message = elem(vt.Elem(), vwire)
	case vt.Kind() == reflect.Slice && vt.Elem().Kind() != reflect.Uint8:
		v.kind, v.message = kMessage, wrapper(vt)
		v.flags |= fWrapped
	default:
		v.kind, v.message = elem(vt, vwire)
		if v.kind == kBytes {
			v.flags |= fNilable
		}
	}
	m.fields = []field{{json: "key", number: 1, kind: kString}, v}
	return name
}

var (
	reMessage = regexp.MustCompile(`^message (\w+) \{`)
	reField   = regexp.MustCompile(`^\s*(?:optional|repeated)\s+\S+\s+(\w+)\s*=\s*(\d+)|^\s*map<[^>]+>\s+(\w+)\s*=\s*(\d+)`)
)

type protoField struct {
	name     string
	repeated bool
}

// readProto reads a generated.proto: message -> field number -> field.
func readProto(path string) map[string]map[int]protoField {
	out := map[string]map[int]protoField{}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var cur map[int]protoField
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		if m := reMessage.FindStringSubmatch(line); m != nil {
			cur = map[int]protoField{}
			out[m[1]] = cur
			continue
		}
		if m := reField.FindStringSubmatch(line); m != nil && cur != nil {
			name, num := m[1], m[2]
			if name == "" {
				name, num = m[3], m[4]
			}
			n, _ := strconv.Atoi(num)
			cur[n] = protoField{name, strings.HasPrefix(strings.TrimSpace(line), "repeated ")}
		}
	}
	return out
}

// protoMessage is t's message in its package's generated.proto.
func protoMessage(t reflect.Type) map[int]protoField {
	pkg := t.PkgPath()
	file, ok := protoFiles[pkg]
	if !ok {
		for mod, dir := range moduleDirs {
			if strings.HasPrefix(pkg, mod+"/") {
				file = readProto(filepath.Join(dir, strings.TrimPrefix(pkg, mod+"/"), "generated.proto"))
			}
		}
		protoFiles[pkg] = file
	}
	pm, ok := file[t.Name()]
	if !ok {
		fail("%s: no message %s in its generated.proto", pkg, t.Name())
	}
	return pm
}

// protoRepeated: whether generated.proto declares field number of t's
// message repeated (a Go slice it does not is a wrapped list).
func protoRepeated(t reflect.Type, number int) bool {
	return protoMessage(t)[number].repeated
}

// checkProto stops the generator when the Go tags and generated.proto
// disagree on a message's field numbers.
func checkProto(t reflect.Type, m *message) {
	pm := protoMessage(t)
	if len(pm) != len(m.fields) {
		fail("%s: %d fields in generated.proto, %d tagged in Go", m.name, len(pm), len(m.fields))
	}
	for _, f := range m.fields {
		if _, ok := pm[f.number]; !ok {
			fail("%s: field %d not in generated.proto", m.name, f.number)
		}
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "schemagen: "+format+"\n", args...)
	os.Exit(1)
}

type root struct {
	apiVersion, kind, message string
}

func main() {
	out := flag.String("o", "", "output file (default stdout)")
	flag.Parse()
	for _, mod := range []string{"k8s.io/api", "k8s.io/apimachinery"} {
		dir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", mod).Output()
		if err != nil {
			fail("go list -m %s: %v", mod, err)
		}
		moduleDirs[mod] = strings.TrimSpace(string(dir))
	}
	var roots []root
	seen := map[string]bool{}
	add := func(apiVersion, kind string, t reflect.Type) {
		key := apiVersion + "/" + kind
		if seen[key] {
			return
		}
		seen[key] = true
		roots = append(roots, root{apiVersion, kind, walk(t)})
	}
	for gvk, t := range scheme.Scheme.AllKnownTypes() {
		if strings.HasPrefix(t.PkgPath(), "k8s.io/api/") {
			add(gvk.GroupVersion().String(), gvk.Kind, t)
		}
	}
	// The envelopes of meta.k8s.io/v1, found by kind whatever the group
	// version of the request (Table is not a protobuf message upstream).
	meta := "meta.k8s.io/v1"
	for _, o := range []runtime.Object{&metav1.Status{}, &metav1.WatchEvent{}, &metav1.DeleteOptions{},
		&metav1.List{}, &metav1.PartialObjectMetadata{}, &metav1.PartialObjectMetadataList{},
		&metav1.ListOptions{}, &metav1.GetOptions{}, &metav1.CreateOptions{}, &metav1.UpdateOptions{},
		&metav1.PatchOptions{}, &metav1.APIGroup{}, &metav1.APIGroupList{}, &metav1.APIResourceList{},
		&metav1.APIVersions{}} {
		t := reflect.TypeOf(o).Elem()
		add(meta, t.Name(), t)
	}
	sort.Slice(roots, func(a, b int) bool {
		if roots[a].apiVersion != roots[b].apiVersion {
			return roots[a].apiVersion < roots[b].apiVersion
		}
		return roots[a].kind < roots[b].kind
	})
	w := &bytes.Buffer{}
	write(w, roots)
	if *out == "" {
		os.Stdout.Write(w.Bytes())
		return
	}
	if err := os.WriteFile(*out, w.Bytes(), 0o644); err != nil {
		fail("%v", err)
	}
}

func write(w *bytes.Buffer, roots []root) {
	names := make([]string, 0, len(messages))
	for n := range messages {
		names = append(names, n)
	}
	sort.Strings(names)
	index := map[string]int{}
	for i, n := range names {
		index[n] = i
	}
	fmt.Fprintln(w, "/* pb_schema_gen.c: GENERATED by tests/upstream/cmd/schemagen (`make schema`)")
	fmt.Fprintln(w, " * from k8s.io/api and k8s.io/apimachinery as pinned in tests/upstream/go.mod;")
	fmt.Fprintln(w, " * do not edit. The messages, fields and kinds pb_schema.h describes. */")
	fmt.Fprintln(w, "#include \"codec/pb_schema.h\"")
	fmt.Fprintln(w)
	for _, f := range flagLetters {
		fmt.Fprintf(w, "#define %s %s\n", f.letter, f.name)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "const pb_field pb_fields[] = {")
	first := make([]int, len(names))
	n := 0
	for i, name := range names {
		first[i] = n
		fmt.Fprintf(w, "    /* %d %s */\n", i, name)
		for _, f := range messages[name].fields {
			json := "NULL"
			if f.flags&fInline == 0 {
				json = strconv.Quote(f.json)
			}
			msg := 0
			if f.kind == kMessage {
				msg = index[f.message]
			}
			fmt.Fprintf(w, "    {%s, %d, %s, %s, %d},\n", json, f.number, kindNames[f.kind], flagText(f.flags), msg)
			n++
		}
	}
	fmt.Fprintln(w, "};")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "const pb_message pb_messages[] = {")
	for i, name := range names {
		fmt.Fprintf(w, "    {%q, %d, %d},\n", name, first[i], len(messages[name].fields))
	}
	fmt.Fprintln(w, "};")
	fmt.Fprintf(w, "const size_t pb_n_messages = %d;\n\n", len(names))
	fmt.Fprintln(w, "const pb_type pb_types[] = {")
	for _, r := range roots {
		fmt.Fprintf(w, "    {%q, %q, %d},\n", r.apiVersion, r.kind, index[r.message])
	}
	fmt.Fprintln(w, "};")
	fmt.Fprintf(w, "const size_t pb_n_types = %d;\n", len(roots))
}

// flagLetters: the short names the generated file gives the PB_* flags.
var flagLetters = []struct {
	bit          int
	letter, name string
}{{fRepeated, "R", "PB_REPEATED"}, {fNilable, "N", "PB_NILABLE"}, {fOmitEmpty, "O", "PB_OMITEMPTY"},
	{fMap, "M", "PB_MAP"}, {fInline, "I", "PB_INLINE"}, {fWrapped, "W", "PB_WRAPPED"}, {fOmitZero, "Z", "PB_OMITZERO"}}

func flagText(flags int) string {
	var parts []string
	for _, f := range flagLetters {
		if flags&f.bit != 0 {
			parts = append(parts, f.letter)
		}
	}
	if len(parts) == 0 {
		return "0"
	}
	return strings.Join(parts, "|")
}
