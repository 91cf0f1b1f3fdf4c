// Running a case through upstream's structured allocator, set up as
// kube-scheduler's DynamicResources plugin sets it up.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/dynamic-resource-allocation/cel"
	"k8s.io/dynamic-resource-allocation/structured"
)

type classLister []*resourceapi.DeviceClass

func (l classLister) List() ([]*resourceapi.DeviceClass, error) { return l, nil }
func (l classLister) Get(name string) (*resourceapi.DeviceClass, error) {
	for _, c := range l {
		if c.Name == name {
			return c, nil
		}
	}
	// What the scheduler's lister answers.
	return nil, apierrors.NewNotFound(schema.GroupResource{Group: "resource.k8s.io", Resource: "deviceclass"}, name)
}

type cluster struct {
	nodes   []*v1.Node
	classes classLister
	slices  []*resourceapi.ResourceSlice
	claims  []*resourceapi.ResourceClaim
}

func decodeObjects(objs []json.RawMessage) (*cluster, error) {
	cl := &cluster{}
	for i, raw := range objs {
		var tm struct {
			Kind string `json:"kind"`
		}
		if err := json.Unmarshal(raw, &tm); err != nil {
			return nil, fmt.Errorf("object %d: %w", i, err)
		}
		var err error
		switch tm.Kind {
		case "Node":
			o := &v1.Node{}
			err = json.Unmarshal(raw, o)
			cl.nodes = append(cl.nodes, o)
		case "DeviceClass":
			o := &resourceapi.DeviceClass{}
			err = json.Unmarshal(raw, o)
			cl.classes = append(cl.classes, o)
		case "ResourceSlice":
			o := &resourceapi.ResourceSlice{}
			err = json.Unmarshal(raw, o)
			cl.slices = append(cl.slices, o)
		case "ResourceClaim":
			o := &resourceapi.ResourceClaim{}
			err = json.Unmarshal(raw, o)
			if o.Namespace == "" {
				o.Namespace = "default"
			}
			cl.claims = append(cl.claims, o)
		case "Namespace":
		default:
			return nil, fmt.Errorf("object %d: kind %q is not used by the allocator", i, tm.Kind)
		}
		if err != nil {
			return nil, fmt.Errorf("object %d (%s): %w", i, tm.Kind, err)
		}
	}
	return cl, nil
}

// cluster: the case's objects for upstream. A run gets lists of its own
// (the objects are shared, and upstream does not change them).
func (c *Case) cluster() (*cluster, error) {
	if c.typed == nil {
		return decodeObjects(c.Objects)
	}
	t := c.typed
	return &cluster{nodes: slices.Clone(t.nodes), classes: slices.Clone(t.classes), slices: slices.Clone(t.slices),
		claims: slices.Clone(t.claims)}, nil
}

// features maps the gates as kube-scheduler does (pkg/scheduler/framework/plugins/feature).
func features(c *Case) (structured.Features, cel.Features) {
	f := structured.Features{
		AdminAccess:            c.gate("DRAAdminAccess"),
		PrioritizedList:        c.gate("DRAPrioritizedList"),
		DeviceTaints:           c.gate("DRADeviceTaints"),
		PartitionableDevices:   c.gate("DRAPartitionableDevices"),
		ConsumableCapacity:     c.gate("DRAConsumableCapacity"),
		DeviceBindingAndStatus: c.gate("DRADeviceBindingConditions") && c.gate("DRAResourceClaimDeviceStatus"),
		ListTypeAttributes:     c.gate("DRAListTypeAttributes"),
		DerivedAttributes:      c.gate("DRADerivedAttributes"),
	}
	return f, cel.Features{EnableConsumableCapacity: f.ConsumableCapacity, EnableListTypeAttributes: f.ListTypeAttributes}
}

// allocatedState is what kube-scheduler gathers from allocated claims
// (foreachAllocatedDevice in the DynamicResources plugin): admin-access
// results do not count; with consumable capacity a result with a shareID
// is a share (and its consumed capacity is added up), any other result
// holds its device.
func allocatedState(claims []*resourceapi.ResourceClaim, consumable bool) structured.AllocatedState {
	st := structured.AllocatedState{
		AllocatedDevices:         sets.New[structured.DeviceID](),
		AllocatedSharedDeviceIDs: sets.New[structured.SharedDeviceID](),
		AggregatedCapacity:       structured.NewConsumedCapacityCollection(),
	}
	for _, claim := range claims {
		if claim.Status.Allocation == nil {
			continue
		}
		for _, r := range claim.Status.Allocation.Devices.Results {
			if r.AdminAccess != nil && *r.AdminAccess {
				continue
			}
			id := structured.MakeDeviceID(r.Driver, r.Pool, r.Device)
			if consumable && r.ShareID != nil {
				st.AllocatedSharedDeviceIDs.Insert(structured.MakeSharedDeviceID(id, r.ShareID))
				if r.ConsumedCapacity != nil {
					st.AggregatedCapacity.Insert(structured.NewDeviceConsumedCapacity(id, r.ConsumedCapacity))
				}
				continue
			}
			st.AllocatedDevices.Insert(id)
		}
	}
	return st
}

// claimsToAllocate: the named claims ("ns/name" or "name" in default), or
// every claim without an allocation, in input order (as dra allocate).
func claimsToAllocate(c *Case, cl *cluster) ([]*resourceapi.ResourceClaim, error) {
	if len(c.Claims) == 0 {
		var out []*resourceapi.ResourceClaim
		for _, claim := range cl.claims {
			if claim.Status.Allocation == nil {
				out = append(out, claim)
			}
		}
		return out, nil
	}
	var out []*resourceapi.ResourceClaim
	for _, name := range c.Claims {
		ns, n, ok := strings.Cut(name, "/")
		if !ok {
			ns, n = "default", name
		}
		var found *resourceapi.ResourceClaim
		for _, claim := range cl.claims {
			if claim.Namespace == ns && claim.Name == n {
				found = claim
			}
		}
		if found == nil {
			return nil, fmt.Errorf("claim %s not found", name)
		}
		out = append(out, found)
	}
	return out, nil
}

var errUpstreamTimeout = errors.New("upstream timed out")
var errUpstreamPanic = errors.New("upstream panicked")

// noVerdict: upstream could not judge the case.
func noVerdict(r Result) bool {
	return r.Error == errUpstreamTimeout.Error() || strings.HasPrefix(r.Error, "load: ") ||
		strings.HasPrefix(r.Error, errUpstreamPanic.Error())
}

// celCaches holds one compile cache per CEL feature set, shared by every
// case: a compiled expression depends only on its text and the features,
// and compiling was most of upstream's time on small cases.
var celCaches sync.Map // cel.Features -> *cel.Cache

func celCacheFor(cf cel.Features) *cel.Cache {
	if c, ok := celCaches.Load(cf); ok {
		return c.(*cel.Cache)
	}
	c, _ := celCaches.LoadOrStore(cf, cel.NewCache(4096, cf))
	return c.(*cel.Cache)
}

// variantLock: structured.EnableAllocators is process-wide, so a run that
// forces a variant excludes the runs (on other workers) that do not.
var variantLock sync.RWMutex

// runUpstream answers a case with upstream's allocator. The second value
// is the allocator channel NewAllocator picked.
func runUpstream(c *Case, timeout time.Duration) (Result, string) {
	return runUpstreamWith(c, timeout, "")
}

// runUpstreamWith: force names the allocator variant ("experimental") to
// use instead of the one NewAllocator picks for the features.
func runUpstreamWith(c *Case, timeout time.Duration, force string) (res Result, channel string) {
	// Upstream may panic on input validation would have refused (the
	// minimizer makes such input, e.g. a request with neither exactly nor
	// firstAvailable): not a verdict.
	defer func() {
		if p := recover(); p != nil {
			res, channel = Result{ID: c.ID, Status: statusError, Error: errUpstreamPanic.Error() + fmt.Sprint(": ", p)}, ""
		}
	}()
	if force != "" {
		variantLock.Lock()
		defer variantLock.Unlock()
		structured.EnableAllocators(force)
		defer structured.EnableAllocators()
	} else {
		variantLock.RLock()
		defer variantLock.RUnlock()
	}
	res = Result{ID: c.ID}
	fail := func(err error) (Result, string) {
		res.Status, res.Error = statusError, "load: "+err.Error()
		return res, ""
	}
	cl, err := c.cluster()
	if err != nil {
		return fail(err)
	}
	var node *v1.Node
	for _, n := range cl.nodes {
		if n.Name == c.Node {
			node = n
		}
	}
	if node == nil {
		return fail(fmt.Errorf("node %s not found", c.Node))
	}
	toAllocate, err := claimsToAllocate(c, cl)
	if err != nil {
		return fail(err)
	}
	f, cf := features(c)
	withCPUBudget(timeout, func(ctx context.Context) {
		res, channel = allocate(ctx, c, cl, node, toAllocate, f, cf)
	})
	return res, channel
}

// allocate runs NewAllocator and Allocate; the channel is the variant
// NewAllocator picked.
func allocate(ctx context.Context, c *Case, cl *cluster, node *v1.Node, toAllocate []*resourceapi.ResourceClaim,
	f structured.Features, cf cel.Features) (res Result, channel string) {
	res = Result{ID: c.ID}
	alloc, err := structured.NewAllocator(ctx, f, allocatedState(cl.claims, f.ConsumableCapacity), cl.classes, cl.slices, celCacheFor(cf))
	if err != nil {
		res.Status, res.Error = statusError, "load: "+err.Error()
		return res, ""
	}
	channel = strings.TrimSuffix(strings.TrimPrefix(fmt.Sprintf("%T", alloc), "*"), ".Allocator")
	results, err := alloc.Allocate(ctx, node, toAllocate)
	switch {
	case err != nil && ctx.Err() != nil:
		res.Status, res.Error = statusError, errUpstreamTimeout.Error()
	case err != nil:
		res.Status, res.Error = statusError, err.Error()
	case results == nil:
		res.Status = statusUnsatisfiable
	default:
		res.Status = statusOK
		for _, r := range results {
			b, err := json.Marshal(r)
			if err != nil {
				res.Status, res.Error, res.Allocations = statusError, "load: "+err.Error(), nil
				return res, ""
			}
			res.Allocations = append(res.Allocations, b)
		}
	}
	return res, channel
}
