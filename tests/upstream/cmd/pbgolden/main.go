// Command pbgolden writes the golden protobuf cases of dra's protobuf
// codec (tests/data/protobuf/golden.ndjson; tests/unit/test_pb_codec.c
// reads them): for every kind of k8s.io/api that client-go's scheme
// registers and the meta.k8s.io/v1 envelopes, one object filled with
// seeded random values, as JSON ("json": Go's encoding/json of the object
// after a JSON round trip), as the bytes k8s.io/apimachinery's protobuf
// serializer writes for it ("pb", base64: the "k8s\0" envelope and
// k8s.io/api's generated Marshal), and as the JSON of what Go unmarshals
// from those bytes ("decoded"). One more case is a watch frame as
// kube-apiserver writes it (length-delimited framer, raw WatchEvent whose
// object is an enveloped Pod). `make pb-golden` runs it.
package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/randfill"
)

type goldenCase struct {
	Name    string          `json:"name"`
	JSON    json.RawMessage `json:"json,omitempty"`
	Decoded json.RawMessage `json:"decoded,omitempty"`
	PB      string          `json:"pb,omitempty"`
	Event   json.RawMessage `json:"event,omitempty"`
	Frame   string          `json:"frame,omitempty"`
}

const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._/<&>\"é"

func randString(c randfill.Continue) string {
	r := []rune(letters)
	n := c.Intn(8)
	out := make([]rune, n)
	for i := range out {
		out[i] = r[c.Intn(len(r))]
	}
	return string(out)
}

func filler(seed int64) *randfill.Filler {
	return randfill.NewWithSeed(seed).NilChance(0.3).NumElements(1, 2).MaxDepth(12).Funcs(
		func(s *string, c randfill.Continue) { *s = randString(c) },
		func(q *resource.Quantity, c randfill.Continue) {
			*q = *resource.NewMilliQuantity(c.Int63n(100000), resource.DecimalSI)
			q.String() // caches the canonical form, as a parsed Quantity has it
		},
		func(t *metav1.Time, c randfill.Continue) { *t = metav1.Unix(c.Int63n(4e9)-1e9, 0) },
		func(t *metav1.MicroTime, c randfill.Continue) {
			*t = metav1.NewMicroTime(metav1.Unix(c.Int63n(4e9), c.Int63n(1e6)*1000).Time)
		},
		func(d *metav1.Duration, c randfill.Continue) { d.Duration = time.Duration(c.Int63n(1e13) - 5e9) },
		func(v *intstr.IntOrString, c randfill.Continue) {
			if c.Bool() {
				*v = intstr.FromInt32(c.Int31() - 1<<30)
			} else {
				*v = intstr.FromString(randString(c))
			}
		},
		func(r *runtime.RawExtension, c randfill.Continue) {
			if c.Bool() {
				r.Raw = []byte(fmt.Sprintf(`{"apiVersion":"example.com/v1","kind":"Thing","spec":{"size":%d,"name":%q}}`, c.Intn(100), randString(c)))
			}
		},
		func(f *metav1.FieldsV1, c randfill.Continue) {
			f.Raw = []byte(fmt.Sprintf(`{"f:metadata":{"f:labels":{"f:%s":{}}}}`, "app"))
		},
		func(m *metav1.TypeMeta, c randfill.Continue) {},
		func(f *float64, c randfill.Continue) { *f = float64(c.Intn(1000)) / 8 },
		func(u *uint64, c randfill.Continue) { *u = uint64(c.Int63()) },
	)
}

var codec = protobuf.NewSerializer(scheme.Scheme, scheme.Scheme)

func marshalJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func objectCase(name string, gvk schema.GroupVersionKind, obj runtime.Object) goldenCase {
	obj.GetObjectKind().SetGroupVersionKind(gvk)
	// what Go's JSON decoding of the JSON gives: the object dra's tree stands for
	text := marshalJSON(obj)
	round := reflect.New(reflect.TypeOf(obj).Elem()).Interface().(runtime.Object)
	if err := json.Unmarshal(text, round); err != nil {
		panic(fmt.Sprintf("%s: %v", name, err))
	}
	round.GetObjectKind().SetGroupVersionKind(gvk)
	var pb bytes.Buffer
	if err := codec.Encode(round, &pb); err != nil {
		panic(fmt.Sprintf("%s: %v", name, err))
	}
	back := reflect.New(reflect.TypeOf(obj).Elem()).Interface().(runtime.Object)
	var unknown runtime.Unknown
	if err := unknown.Unmarshal(pb.Bytes()[4:]); err != nil {
		panic(fmt.Sprintf("%s: %v", name, err))
	}
	if err := back.(interface{ Unmarshal([]byte) error }).Unmarshal(unknown.Raw); err != nil {
		panic(fmt.Sprintf("%s: %v", name, err))
	}
	back.GetObjectKind().SetGroupVersionKind(gvk)
	return goldenCase{Name: name, JSON: marshalJSON(round), Decoded: marshalJSON(back),
		PB: base64.StdEncoding.EncodeToString(pb.Bytes())}
}

func watchCase() goldenCase {
	pod := &corev1.Pod{}
	filler(7).Fill(pod)
	c := objectCase("v1 Pod (watch)", schema.GroupVersionKind{Version: "v1", Kind: "Pod"}, pod)
	raw, _ := base64.StdEncoding.DecodeString(c.PB)
	var frame bytes.Buffer
	w := protobuf.LengthDelimitedFramer.NewFrameWriter(&frame)
	event := &metav1.WatchEvent{Type: "MODIFIED", Object: runtime.RawExtension{Raw: raw}}
	if err := protobuf.NewRawSerializer(scheme.Scheme, scheme.Scheme).Encode(event, w); err != nil {
		panic(err)
	}
	ev, _ := json.Marshal(map[string]any{"type": "MODIFIED", "object": json.RawMessage(c.JSON)})
	return goldenCase{Name: "watch frame", Event: ev, Frame: base64.StdEncoding.EncodeToString(frame.Bytes())}
}

func main() {
	out := flag.String("o", "", "output file (default stdout)")
	flag.Parse()
	type kind struct {
		gvk schema.GroupVersionKind
		t   reflect.Type
	}
	var kinds []kind
	for gvk, t := range scheme.Scheme.AllKnownTypes() {
		if strings.HasPrefix(t.PkgPath(), "k8s.io/api/") {
			kinds = append(kinds, kind{gvk, t})
		}
	}
	meta := schema.GroupVersion{Group: "meta.k8s.io", Version: "v1"}
	for _, o := range []runtime.Object{&metav1.Status{}, &metav1.DeleteOptions{}, &metav1.PartialObjectMetadata{},
		&metav1.PartialObjectMetadataList{}, &metav1.APIResourceList{}} {
		t := reflect.TypeOf(o).Elem()
		gv := meta
		if t.Name() == "Status" || t.Name() == "APIResourceList" {
			gv = schema.GroupVersion{Version: "v1"}
		}
		kinds = append(kinds, kind{gv.WithKind(t.Name()), t})
	}
	sort.Slice(kinds, func(a, b int) bool { return kinds[a].gvk.String() < kinds[b].gvk.String() })
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for i, k := range kinds {
		obj := reflect.New(k.t).Interface().(runtime.Object)
		filler(int64(i + 1)).Fill(obj)
		name := k.gvk.GroupVersion().String() + " " + k.gvk.Kind
		if err := enc.Encode(objectCase(name, k.gvk, obj)); err != nil {
			panic(err)
		}
	}
	if err := enc.Encode(watchCase()); err != nil {
		panic(err)
	}
	if *out == "" {
		os.Stdout.Write(buf.Bytes())
		return
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
