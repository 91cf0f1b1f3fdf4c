// Command versiondiff checks dra's resource.k8s.io objects against
// k8s.io/api's Go types of their version: each JSON line of the input
// (written by dra's tests/unit/test_versions.c with DRA_VERSIONS_DUMP)
// must decode strictly into the type its apiVersion and kind name (no
// unknown field: dra wrote nothing that version lacks) and encode back to
// the same JSON (dra left out nothing Go writes, e.g. v1beta1's
// deviceClassName "" or an empty basic). Exit 1 on any difference.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"

	resourcev1 "k8s.io/api/resource/v1"
	resourcev1beta1 "k8s.io/api/resource/v1beta1"
	resourcev1beta2 "k8s.io/api/resource/v1beta2"
)

func newObject(apiVersion, kind string) any {
	types := map[string]map[string]func() any{
		"resource.k8s.io/v1": {
			"DeviceClass":           func() any { return &resourcev1.DeviceClass{} },
			"ResourceClaim":         func() any { return &resourcev1.ResourceClaim{} },
			"ResourceClaimTemplate": func() any { return &resourcev1.ResourceClaimTemplate{} },
			"ResourceSlice":         func() any { return &resourcev1.ResourceSlice{} },
		},
		"resource.k8s.io/v1beta1": {
			"DeviceClass":           func() any { return &resourcev1beta1.DeviceClass{} },
			"ResourceClaim":         func() any { return &resourcev1beta1.ResourceClaim{} },
			"ResourceClaimTemplate": func() any { return &resourcev1beta1.ResourceClaimTemplate{} },
			"ResourceSlice":         func() any { return &resourcev1beta1.ResourceSlice{} },
		},
		"resource.k8s.io/v1beta2": {
			"DeviceClass":           func() any { return &resourcev1beta2.DeviceClass{} },
			"ResourceClaim":         func() any { return &resourcev1beta2.ResourceClaim{} },
			"ResourceClaimTemplate": func() any { return &resourcev1beta2.ResourceClaimTemplate{} },
			"ResourceSlice":         func() any { return &resourcev1beta2.ResourceSlice{} },
		},
	}
	if f := types[apiVersion][kind]; f != nil {
		return f()
	}
	return nil
}

// check returns what is wrong with one line, "" when nothing.
func check(line []byte) string {
	var head struct{ APIVersion, Kind string }
	if err := json.Unmarshal(line, &head); err != nil {
		return "not JSON: " + err.Error()
	}
	obj := newObject(head.APIVersion, head.Kind)
	if obj == nil {
		return fmt.Sprintf("no Go type for %s %s", head.APIVersion, head.Kind)
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(obj); err != nil {
		return fmt.Sprintf("%s %s: strict decoding: %v", head.APIVersion, head.Kind, err)
	}
	again, err := json.Marshal(obj)
	if err != nil {
		return "marshal: " + err.Error()
	}
	var want, got any
	_ = json.Unmarshal(line, &got)
	_ = json.Unmarshal(again, &want)
	if !reflect.DeepEqual(want, got) {
		return fmt.Sprintf("%s %s: Go writes\n  %s\ndra wrote\n  %s", head.APIVersion, head.Kind, again, line)
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
