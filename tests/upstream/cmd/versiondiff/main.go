// Command versiondiff judges dra's API version conversion with upstream's.
// Each input line (written by dra's tests/unit/test_versions.c with
// DRA_VERSIONS_DUMP) is {"from": object in its internal version, "to": the
// same object as dra converted it to another version}. For each line:
//   - both objects must decode strictly into k8s.io/api's type of their
//     version (no unknown field: dra wrote nothing that version lacks) and
//     encode back to the same JSON (dra left out nothing Go writes, e.g.
//     v1beta1's deviceClassName "" or an empty basic);
//   - upstream's conversion functions (k8s.io/kubernetes' scheme, through
//     the internal version, as kube-apiserver converts) turn "from" into
//     exactly "to", and "to" back into exactly "from".
//
// Exit 1 on any difference.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	_ "k8s.io/kubernetes/pkg/apis/resource/install"
	_ "k8s.io/kubernetes/pkg/apis/scheduling/install"
)

// decodeStrict decodes one object into its version's Go type, refusing
// unknown fields, and checks Go writes it back the same.
func decodeStrict(text json.RawMessage) (runtime.Object, string) {
	var head struct{ APIVersion, Kind string }
	if err := json.Unmarshal(text, &head); err != nil {
		return nil, "not JSON: " + err.Error()
	}
	gvk := schema.FromAPIVersionAndKind(head.APIVersion, head.Kind)
	obj, err := legacyscheme.Scheme.New(gvk)
	if err != nil {
		return nil, fmt.Sprintf("no Go type for %s %s", head.APIVersion, head.Kind)
	}
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(obj); err != nil {
		return nil, fmt.Sprintf("%s %s: strict decoding: %v", head.APIVersion, head.Kind, err)
	}
	if problem := sameJSON(obj, text, "Go writes"); problem != "" {
		return nil, fmt.Sprintf("%s %s: %s", head.APIVersion, head.Kind, problem)
	}
	return obj, ""
}

// sameJSON: "" when obj marshals to the JSON value of text.
func sameJSON(obj runtime.Object, text []byte, what string) string {
	again, err := json.Marshal(obj)
	if err != nil {
		return "marshal: " + err.Error()
	}
	var want, got any
	_ = json.Unmarshal(text, &got)
	_ = json.Unmarshal(again, &want)
	if !reflect.DeepEqual(want, got) {
		return fmt.Sprintf("%s\n  %s\ndra wrote\n  %s", what, again, text)
	}
	return ""
}

// convert converts obj to gv through the internal version, with upstream's
// registered conversion functions.
func convert(obj runtime.Object, gv schema.GroupVersion) (runtime.Object, error) {
	internal, err := legacyscheme.Scheme.ConvertToVersion(obj.DeepCopyObject(),
		schema.GroupVersion{Group: gv.Group, Version: runtime.APIVersionInternal})
	if err != nil {
		return nil, err
	}
	return legacyscheme.Scheme.ConvertToVersion(internal, gv)
}

// check returns what is wrong with one line, "" when nothing.
func check(line []byte) string {
	var pair struct{ From, To json.RawMessage }
	if err := json.Unmarshal(line, &pair); err != nil || pair.From == nil || pair.To == nil {
		return "not a {from, to} pair"
	}
	from, problem := decodeStrict(pair.From)
	if problem != "" {
		return problem
	}
	to, problem := decodeStrict(pair.To)
	if problem != "" {
		return problem
	}
	for _, step := range []struct {
		in, out runtime.Object
		outText []byte
	}{{from, to, pair.To}, {to, from, pair.From}} {
		inGVK, outGVK := step.in.GetObjectKind().GroupVersionKind(), step.out.GetObjectKind().GroupVersionKind()
		converted, err := convert(step.in, outGVK.GroupVersion())
		if err != nil {
			return fmt.Sprintf("%s -> %s: upstream conversion: %v", inGVK, outGVK.GroupVersion(), err)
		}
		if problem := sameJSON(converted, step.outText, "upstream converts to"); problem != "" {
			return fmt.Sprintf("%s %s -> %s: %s", inGVK.Kind, inGVK.Version, outGVK.Version, problem)
		}
	}
	return ""
}

func main() {
	in := flag.String("in", "", "JSON lines to check")
	flag.Parse()
	f, err := os.Open(*in)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	defer f.Close()
	scanner := bufio.NewScanner(f)
	scanner.Buffer(make([]byte, 1<<20), 1<<24)
	passed, failed := 0, 0
	for scanner.Scan() {
		if problem := check(scanner.Bytes()); problem != "" {
			failed++
			fmt.Println("FAIL", problem)
		} else {
			passed++
		}
	}
	fmt.Printf("%d passed, %d failed\n", passed, failed)
	if failed > 0 || passed == 0 {
		os.Exit(1)
	}
}
