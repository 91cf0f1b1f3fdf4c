// The benchmark mode (-bench FILE): upstream's allocator on the clusters
// bench/upstream.sh compares dra with (bench_alloc_cluster --emit N writes
// them; the same file is what dra's side loads).
//
// Per shape (the claim <shape>-a of the file) and per gate set, one allocator
// is made with NewAllocator over every slice, as kube-scheduler's
// DynamicResources plugin makes one per pod in PreFilter; then each
// benchmark op is one Allocate of the claim <shape>-a on the next node in
// turn, as Filter calls it once per node. Timed and counted by
// testing.Benchmark: ns/op and allocs/op (Go heap allocations) are per
// Allocate and include nothing but Allocate (no decoding, no NewAllocator).
// One line per shape and gate set: "shape fit ns allocs allocator", fit
// being all, none or some: where the claim fits among the first
// fitSample nodes (an upstream Allocate costs up to tens of ms at 5,000
// nodes, so not all are tried).
//
// Two gate sets: every allocator gate on (dra's default; NewAllocator picks
// "experimental"), and only the gates "stable" supports (AdminAccess,
// PrioritizedList, PartitionableDevices, DeviceTaints), upstream's most
// conservative allocator.
//
// An Allocate that runs past -timeout (stable's search on a prioritized
// list whose first choice asks for more devices than a node has does not
// end in minutes) is reported as "timeout" instead of a figure.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/dynamic-resource-allocation/cel"
	"k8s.io/dynamic-resource-allocation/structured"
	"sigs.k8s.io/yaml"
)

// readYAMLObjects: the documents of a multi-document YAML file, as JSON.
func readYAMLObjects(path string) ([]json.RawMessage, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var objs []json.RawMessage
	for i, doc := range strings.Split("\n"+string(b), "\n---\n") {
		if strings.TrimSpace(doc) == "" {
			continue
		}
		j, err := yaml.YAMLToJSON([]byte(doc))
		if err != nil {
			return nil, fmt.Errorf("%s: document %d: %w", path, i+1, err)
		}
		objs = append(objs, j)
	}
	return objs, nil
}

const fitSample = 20

// benchGateSets: every allocator gate on, then only what "stable" supports.
func benchGateSets() []*Case {
	stable := map[string]bool{}
	for _, g := range allocatorGates {
		stable[g] = false
	}
	for _, g := range []string{"DRAAdminAccess", "DRAPrioritizedList", "DRAPartitionableDevices", "DRADeviceTaints"} {
		stable[g] = true
	}
	return []*Case{{}, {FeatureGates: stable}}
}

func benchMode(path string, benchtime string, timeout time.Duration) int {
	objs, err := readYAMLObjects(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		return 2
	}
	cl, err := decodeObjects(objs)
	if err != nil || len(cl.nodes) == 0 {
		fmt.Fprintln(os.Stderr, "error: cluster does not load:", err)
		return 2
	}
	testing.Init()
	if err := flag.Set("test.benchtime", benchtime); err != nil {
		fmt.Fprintln(os.Stderr, "error: -benchtime:", err)
		return 2
	}
	ctx := context.Background()
	for _, claim := range cl.claims {
		shape, ok := strings.CutSuffix(claim.Name, "-a")
		if !ok {
			continue
		}
		for _, gates := range benchGateSets() {
			line, err := benchShape(ctx, cl, claim, gates, timeout)
			if err != nil {
				fmt.Fprintln(os.Stderr, "error:", err)
				return 2
			}
			fmt.Println(shape, line)
		}
	}
	return 0
}

// benchShape: "fit ns allocs allocator" for one claim under one gate set.
func benchShape(ctx context.Context, cl *cluster, claim *resourceapi.ResourceClaim, gates *Case, timeout time.Duration) (string, error) {
	f, cf := features(gates)
	alloc, err := structured.NewAllocator(ctx, f, allocatedState(cl.claims, f.ConsumableCapacity), cl.classes, cl.slices, cel.NewCache(10, cf))
	if err != nil {
		return "", err
	}
	claims := []*resourceapi.ResourceClaim{claim}
	fit, tried := 0, min(fitSample, len(cl.nodes))
	channel := strings.TrimSuffix(strings.TrimPrefix(fmt.Sprintf("%T", alloc), "*"), ".Allocator")
	for _, node := range cl.nodes[:tried] {
		once, cancel := context.WithTimeout(ctx, timeout)
		results, err := alloc.Allocate(once, node, claims)
		timedOut := once.Err() != nil
		cancel()
		if timedOut {
			return fmt.Sprintf("timeout - - %s", channel), nil
		}
		if err != nil {
			return "", fmt.Errorf("%s on %s: %w", claim.Name, node.Name, err)
		}
		if results != nil {
			fit++
		}
	}
	r := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := alloc.Allocate(ctx, cl.nodes[i%len(cl.nodes)], claims); err != nil {
				b.Fatal(err)
			}
		}
	})
	return fmt.Sprintf("%s %d %d %s", fitWord(fit, tried), r.NsPerOp(), r.AllocsPerOp(), channel), nil
}

// fitWord: all, none or some of tried.
func fitWord(fit, tried int) string {
	switch fit {
	case tried:
		return "all"
	case 0:
		return "none"
	}
	return "some"
}
