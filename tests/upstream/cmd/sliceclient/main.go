// Command sliceclient runs upstream's ResourceSlice publishing controller
// (k8s.io/dynamic-resource-allocation/resourceslice, the one every DRA
// driver's kubelet plugin runs, with client-go informers) against dra
// serve, as a driver on one Node would:
//
//  1. it publishes one pool of two devices, and the slice appears;
//  2. the driver adds a device and a second pool: both show up;
//  3. it removes a device and the second pool: dra serve drops them;
//  4. a Pod with a claim for one device of the driver's class is
//     scheduled by dra serve, and the claim gets one of the published
//     devices.
//
// Every step waits (up to -wait) until dra serve answers as expected,
// read with a client of its own. The controller's error handler must never
// be called (it would be, e.g., when dra serve drops a field the
// controller sent: DroppedFieldsError). Exit 0 when every step worked, 1
// otherwise (tests/upstream_resourceslice.sh).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/dynamic-resource-allocation/resourceslice"
	"k8s.io/utils/ptr"
)

const driver = "gpu.example.com"

var (
	flagKubeconfig = flag.String("kubeconfig", os.Getenv("KUBECONFIG"), "dra serve's kubeconfig")
	flagNode       = flag.String("node", "slice-node", "the Node the driver runs on (created)")
	flagNamespace  = flag.String("namespace", "slices", "namespace of the claim and the pod (created)")
	flagWait       = flag.Duration("wait", 30*time.Second, "how long each step may take")
)

var failures int

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "FAIL "+format+"\n", args...)
	failures++
}

func step(format string, args ...any) { fmt.Printf("--- "+format+"\n", args...) }

func devices(names ...string) []resourceapi.Device {
	var out []resourceapi.Device
	for _, n := range names {
		out = append(out, resourceapi.Device{
			Name: n,
			Attributes: map[resourceapi.QualifiedName]resourceapi.DeviceAttribute{
				"model": {StringValue: ptr.To("a100")},
			},
		})
	}
	return out
}

// resources: the driver's pools, each pool one slice of the named devices.
func resources(pools map[string][]string) *resourceslice.DriverResources {
	r := &resourceslice.DriverResources{Pools: map[string]resourceslice.Pool{}}
	for name, devs := range pools {
		r.Pools[name] = resourceslice.Pool{Slices: []resourceslice.Slice{{Devices: devices(devs...)}}}
	}
	return r
}

// published: what dra serve holds of the driver's slices on the node, as
// pool -> sorted device names of the pool's newest generation.
func published(ctx context.Context, cs kubernetes.Interface) (map[string][]string, error) {
	sel := fields.Set{resourceapi.ResourceSliceSelectorDriver: driver, resourceapi.ResourceSliceSelectorNodeName: *flagNode}
	list, err := cs.ResourceV1().ResourceSlices().List(ctx, metav1.ListOptions{FieldSelector: sel.String()})
	if err != nil {
		return nil, err
	}
	pools, gens := map[string][]string{}, map[string]int64{}
	for _, s := range list.Items {
		p := s.Spec.Pool.Name
		if s.Spec.Pool.Generation < gens[p] {
			continue // an older generation the controller is about to remove
		}
		if s.Spec.Pool.Generation > gens[p] {
			pools[p] = nil
		}
		gens[p] = s.Spec.Pool.Generation
		pools[p] = append(pools[p], deviceNames(s.Spec.Devices)...)
		if s.Spec.NodeName == nil || *s.Spec.NodeName != *flagNode {
			return nil, fmt.Errorf("slice %s: spec.nodeName %v, want %s", s.Name, s.Spec.NodeName, *flagNode)
		}
		if len(s.OwnerReferences) != 1 || s.OwnerReferences[0].Kind != "Node" || s.OwnerReferences[0].Name != *flagNode {
			return nil, fmt.Errorf("slice %s: ownerReferences %v, want the Node", s.Name, s.OwnerReferences)
		}
	}
	for p := range pools {
		sort.Strings(pools[p])
	}
	return pools, nil
}

func deviceNames(ds []resourceapi.Device) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Name)
	}
	return out
}

// waitFor polls until cond is true (nil) or the step's time is up (the
// last error).
func waitFor(ctx context.Context, what string, cond func() error) bool {
	deadline := time.Now().Add(*flagWait)
	var err error
	for time.Now().Before(deadline) {
		if err = cond(); err == nil {
			fmt.Printf("ok %s\n", what)
			return true
		}
		select {
		case <-ctx.Done():
			fail("%s: %v", what, ctx.Err())
			return false
		case <-time.After(100 * time.Millisecond):
		}
	}
	fail("%s: %v", what, err)
	return false
}

// waitPublished waits until dra serve holds exactly want (pool -> devices).
func waitPublished(ctx context.Context, cs kubernetes.Interface, what string, want map[string][]string) {
	waitFor(ctx, what, func() error {
		got, err := published(ctx, cs)
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(got, want) {
			return fmt.Errorf("dra serve has %v, want %v", got, want)
		}
		return nil
	})
}

func main() {
	flag.Parse()
	cfg, err := clientcmd.BuildConfigFromFlags("", *flagKubeconfig)
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(2)
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	run(ctx, cs)
	if failures > 0 {
		fmt.Printf("%d failures\n", failures)
		os.Exit(1)
	}
	fmt.Println("0 failures")
}

func run(ctx context.Context, cs kubernetes.Interface) {
	node, err := cs.CoreV1().Nodes().Create(ctx, &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: *flagNode}}, metav1.CreateOptions{})
	if err != nil {
		fail("create node: %v", err)
		return
	}
	var mu sync.Mutex
	var controllerErrors []string
	syncDelay := 200 * time.Millisecond
	want := map[string][]string{"pool-a": {"gpu-0", "gpu-1"}}

	step("1. publish pool-a with two devices")
	ctl, err := resourceslice.StartController(ctx, resourceslice.Options{
		DriverName: driver,
		KubeClient: cs,
		// The UID is left out: the controller reads it from the Node, as
		// a kubelet plugin's does.
		Owner:     &resourceslice.Owner{APIVersion: "v1", Kind: "Node", Name: node.Name},
		Resources: resources(want),
		SyncDelay: &syncDelay,
		ErrorHandler: func(_ context.Context, err error, msg string) {
			mu.Lock()
			defer mu.Unlock()
			controllerErrors = append(controllerErrors, fmt.Sprintf("%s: %v", msg, err))
		},
	})
	if err != nil {
		fail("start controller: %v", err)
		return
	}
	defer ctl.Stop()
	waitPublished(ctx, cs, "pool-a published", want)

	step("2. add a device to pool-a and a second pool")
	want = map[string][]string{"pool-a": {"gpu-0", "gpu-1", "gpu-2"}, "pool-b": {"gpu-b0"}}
	ctl.Update(resources(want))
	waitPublished(ctx, cs, "gpu-2 and pool-b published", want)

	step("3. remove gpu-0 and pool-b")
	want = map[string][]string{"pool-a": {"gpu-1", "gpu-2"}}
	ctl.Update(resources(want))
	waitPublished(ctx, cs, "gpu-0 and pool-b gone", want)

	step("4. a pod with a claim gets one of the devices")
	allocated := schedule(ctx, cs)
	if allocated != "" && allocated != "gpu-1" && allocated != "gpu-2" {
		fail("the claim got %s, not a device pool-a publishes now", allocated)
	}

	stats := ctl.GetStats()
	fmt.Printf("controller: %d creates, %d updates, %d deletes\n", stats.NumCreates, stats.NumUpdates, stats.NumDeletes)
	mu.Lock()
	for _, e := range controllerErrors {
		fail("controller error: %s", e)
	}
	mu.Unlock()
}

// schedule creates a DeviceClass for the driver, a claim for one device of
// it and a pod using the claim; it waits until dra serve binds the pod to
// the node with the claim allocated, and returns the allocated device.
func schedule(ctx context.Context, cs kubernetes.Interface) string {
	ns := *flagNamespace
	create := func(what string, err error) bool {
		if err != nil {
			fail("create %s: %v", what, err)
		}
		return err == nil
	}
	_, err := cs.CoreV1().Namespaces().Create(ctx, &v1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
	if !create("namespace", err) {
		return ""
	}
	_, err = cs.ResourceV1().DeviceClasses().Create(ctx, &resourceapi.DeviceClass{
		ObjectMeta: metav1.ObjectMeta{Name: driver},
		Spec: resourceapi.DeviceClassSpec{Selectors: []resourceapi.DeviceSelector{{
			CEL: &resourceapi.CELDeviceSelector{Expression: `device.driver == "` + driver + `"`},
		}}},
	}, metav1.CreateOptions{})
	if !create("device class", err) {
		return ""
	}
	_, err = cs.ResourceV1().ResourceClaims(ns).Create(ctx, &resourceapi.ResourceClaim{
		ObjectMeta: metav1.ObjectMeta{Name: "gpu"},
		Spec: resourceapi.ResourceClaimSpec{Devices: resourceapi.DeviceClaim{Requests: []resourceapi.DeviceRequest{{
			Name:    "gpu",
			Exactly: &resourceapi.ExactDeviceRequest{DeviceClassName: driver},
		}}}},
	}, metav1.CreateOptions{})
	if !create("claim", err) {
		return ""
	}
	_, err = cs.CoreV1().Pods(ns).Create(ctx, &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "user"},
		Spec: v1.PodSpec{
			Containers: []v1.Container{{
				Name: "c", Image: "busybox",
				Resources: v1.ResourceRequirements{Claims: []v1.ResourceClaim{{Name: "gpu"}}},
			}},
			ResourceClaims: []v1.PodResourceClaim{{Name: "gpu", ResourceClaimName: ptr.To("gpu")}},
		},
	}, metav1.CreateOptions{})
	if !create("pod", err) {
		return ""
	}
	var device string
	waitFor(ctx, "pod bound with its claim allocated", func() error {
		pod, err := cs.CoreV1().Pods(ns).Get(ctx, "user", metav1.GetOptions{})
		if err != nil {
			return err
		}
		if pod.Spec.NodeName != *flagNode {
			return fmt.Errorf("pod on node %q, want %s", pod.Spec.NodeName, *flagNode)
		}
		claim, err := cs.ResourceV1().ResourceClaims(ns).Get(ctx, "gpu", metav1.GetOptions{})
		if err != nil {
			return err
		}
		if claim.Status.Allocation == nil || len(claim.Status.Allocation.Devices.Results) != 1 {
			return fmt.Errorf("claim not allocated: %+v", claim.Status)
		}
		r := claim.Status.Allocation.Devices.Results[0]
		if r.Driver != driver || r.Pool != "pool-a" {
			return fmt.Errorf("claim got %s/%s/%s", r.Driver, r.Pool, r.Device)
		}
		device = r.Device
		reserved := []string{}
		for _, ref := range claim.Status.ReservedFor {
			reserved = append(reserved, ref.Resource+"/"+ref.Name)
		}
		if strings.Join(reserved, ",") != "pods/user" {
			return fmt.Errorf("claim reserved for %v, want the pod", reserved)
		}
		return nil
	})
	return device
}
