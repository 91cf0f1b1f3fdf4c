// A seeded generator of random, valid clusters and claims. Case i of seed
// s is a pure function of (s, i): `-seed s -only i` gives it again.
package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sort"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
)

type gen struct {
	r       *rand.Rand
	drivers []string
	// what the generated cluster holds, for claims to refer to
	devices   []genDevice
	classes   []*resourceapi.DeviceClass
	listAttrs bool
}

type genDevice struct {
	driver, pool, name string
	multi              bool
	capacity           bool
}

func (g *gen) p(prob float64) bool { return g.r.Float64() < prob }
func (g *gen) n(lo, hi int) int    { return lo + g.r.IntN(hi-lo+1) }
func pick[T any](g *gen, v ...T) T { return v[g.r.IntN(len(v))] }

var drivers = []string{"a.example.com", "b.example.com"}

// generate builds case i of seed.
func generate(seed uint64, i int) *Case {
	g := &gen{r: rand.New(rand.NewPCG(seed, uint64(i)))}
	c := &Case{ID: fmt.Sprintf("%d-%d", seed, i), Node: "node-1", FeatureGates: map[string]bool{}}
	// Mostly dra's default (every gate on), sometimes some off.
	if g.p(0.25) {
		for _, name := range allocatorGates {
			c.FeatureGates[name] = !g.p(0.2)
		}
	}
	g.listAttrs = c.gate("DRAListTypeAttributes") && g.p(0.5)
	var objs []any
	// Nodes as plain maps: v1.Node would bring an empty status along.
	objs = append(objs,
		map[string]any{"apiVersion": "v1", "kind": "Node",
			"metadata": map[string]any{"name": "node-1", "labels": map[string]string{"region": "r1", "zone": "z1"}}},
		map[string]any{"apiVersion": "v1", "kind": "Node",
			"metadata": map[string]any{"name": "node-2", "labels": map[string]string{"region": "r2", "zone": "z1"}}})
	g.drivers = drivers[:g.n(1, 2)]
	var slices []any
	for _, d := range g.drivers {
		for p, np := 0, g.n(1, 3); p < np; p++ {
			slices = append(slices, g.pool(d, fmt.Sprintf("pool-%d", p))...)
		}
	}
	g.r.Shuffle(len(slices), func(i, j int) { slices[i], slices[j] = slices[j], slices[i] })
	g.makeClasses()
	for _, cl := range g.classes {
		objs = append(objs, cl)
	}
	objs = append(objs, slices...)
	// Claims already allocated, then the claims to allocate.
	for k, nk := 0, g.n(0, 3); k < nk; k++ {
		if claim := g.allocatedClaim(fmt.Sprintf("allocated-%d", k)); claim != nil {
			objs = append(objs, claim)
		}
	}
	for k, nk := 0, pick(g, 1, 1, 2, 3); k < nk; k++ {
		name := fmt.Sprintf("claim-%d", k)
		objs = append(objs, g.claim(name))
		c.Claims = append(c.Claims, "default/"+name)
	}
	for _, o := range objs {
		c.Objects = append(c.Objects, toJSON(o))
	}
	c.typed = typedCluster(objs)
	return c
}

// typedCluster: the generated objects as decodeObjects would give them
// from their JSON. Skipping that decoding saves about a tenth of a run's
// CPU; the objects are the ones just marshalled for dra, so both sides
// still judge the same case (and the 0 disagreements of runs before this
// shortcut stayed 0 with it).
func typedCluster(objs []any) *cluster {
	cl := &cluster{}
	for _, o := range objs {
		switch x := o.(type) {
		case map[string]any: // a Node
			md := x["metadata"].(map[string]any)
			cl.nodes = append(cl.nodes, &v1.Node{ObjectMeta: metav1.ObjectMeta{
				Name: md["name"].(string), Labels: md["labels"].(map[string]string)}})
		case *resourceapi.DeviceClass:
			cl.classes = append(cl.classes, x)
		case *resourceapi.ResourceSlice:
			cl.slices = append(cl.slices, x)
		case *resourceapi.ResourceClaim:
			if x.Namespace == "" {
				x = x.DeepCopy()
				x.Namespace = "default"
			}
			cl.claims = append(cl.claims, x)
		default:
			panic(fmt.Sprintf("typedCluster: %T", o))
		}
	}
	return cl
}

// toJSON marshals a typed object. The nulls and empty objects Go's
// encoding adds (creationTimestamp: null, status: {}) mean nothing to
// either side; they are left in (taking them out cost more than the
// allocation) and dropped from the YAML a disagreement prints (pruned).
func toJSON(o any) json.RawMessage {
	b, err := json.Marshal(o)
	if err != nil {
		panic(err)
	}
	return b
}

// pruned is the object without those nulls and empty objects.
func pruned(raw json.RawMessage) json.RawMessage {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return raw
	}
	b, _ := json.Marshal(prune(v))
	return b
}

func prune(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			e = prune(e)
			if e == nil {
				delete(x, k)
				continue
			}
			if m, ok := e.(map[string]any); ok && len(m) == 0 {
				delete(x, k)
				continue
			}
			x[k] = e
		}
		return x
	case []any:
		for i := range x {
			x[i] = prune(x[i])
		}
	}
	return v
}

func q(s string) resource.Quantity { return resource.MustParse(s) }

var models = []string{"a", "b", "c"}
var versions = []string{"1.0.0", "1.2.0", "2.0.0"}

func (g *gen) nodeSelector(match bool) *v1.NodeSelector {
	region := "r1"
	if !match {
		region = "r2"
	}
	op := v1.NodeSelectorOpIn
	if g.p(0.2) {
		// The other way round.
		op = v1.NodeSelectorOpNotIn
		if region == "r1" {
			region = "r2"
		} else {
			region = "r1"
		}
	}
	return &v1.NodeSelector{NodeSelectorTerms: []v1.NodeSelectorTerm{{
		MatchExpressions: []v1.NodeSelectorRequirement{{Key: "region", Operator: op, Values: []string{region}}}}}}
}

type scope struct {
	nodeName  *string
	allNodes  *bool
	nodeSel   *v1.NodeSelector
	perDevice *bool
}

func (g *gen) scope() scope {
	switch x := g.r.Float64(); {
	case x < 0.4:
		return scope{nodeName: ptr.To("node-1")}
	case x < 0.5:
		return scope{nodeName: ptr.To("node-2")}
	case x < 0.75:
		return scope{allNodes: ptr.To(true)}
	case x < 0.9:
		return scope{nodeSel: g.nodeSelector(g.p(0.7))}
	default:
		return scope{perDevice: ptr.To(true)}
	}
}

// pool makes the slices of one pool: one to three slices of devices, maybe
// a slice of shared counters, maybe an older generation left behind, rarely
// incomplete or with a duplicate device.
func (g *gen) pool(driver, pool string) []any {
	sc := g.scope()
	gen := int64(g.n(1, 2))
	nslices := g.n(1, 3)
	counters := g.p(0.2)
	total := nslices
	if counters {
		total++
	}
	declared := int64(total)
	if g.p(0.05) {
		declared++ // incomplete
	}
	multi := g.p(0.15)
	var out []any
	mk := func(idx int, generation int64) *resourceapi.ResourceSlice {
		s := &resourceapi.ResourceSlice{
			TypeMeta:   metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "ResourceSlice"},
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-%s-%d-g%d", driver[:1], pool, idx, generation)},
			Spec: resourceapi.ResourceSliceSpec{
				Driver:   driver,
				Pool:     resourceapi.ResourcePool{Name: pool, Generation: generation, ResourceSliceCount: declared},
				NodeName: sc.nodeName, AllNodes: sc.allNodes, NodeSelector: sc.nodeSel, PerDeviceNodeSelection: sc.perDevice,
			},
		}
		return s
	}
	if counters {
		s := mk(0, gen)
		s.Spec.SharedCounters = []resourceapi.CounterSet{{Name: "cs-0", Counters: map[string]resourceapi.Counter{
			"mem": {Value: q(fmt.Sprint(g.n(2, 6)))}, "cores": {Value: q(fmt.Sprint(g.n(1, 4)))}}}}
		if sc.perDevice != nil {
			// Counter slices have no devices to select nodes with.
			s.Spec.PerDeviceNodeSelection = nil
			s.Spec.AllNodes = ptr.To(true)
		}
		out = append(out, s)
	}
	dev := 0
	for k := 0; k < nslices; k++ {
		s := mk(k+1, gen)
		if k > 0 && sc.nodeName != nil && g.p(0.15) {
			// One pool, slices on different nodes.
			other := "node-2"
			if *sc.nodeName == "node-2" {
				other = "node-1"
			}
			s.Spec.NodeName = ptr.To(other)
		}
		for j, nj := 0, g.n(0, 5); j < nj; j++ {
			name := fmt.Sprintf("dev-%d", dev)
			dev++
			if g.p(0.02) && dev > 1 {
				name = fmt.Sprintf("dev-%d", dev-2) // duplicate: invalid pool
			}
			s.Spec.Devices = append(s.Spec.Devices, g.device(driver, pool, name, sc, counters, multi))
		}
		out = append(out, s)
	}
	if g.p(0.15) {
		// An older generation still around.
		s := mk(9, gen-1)
		if gen == 1 {
			s.Spec.Pool.Generation = 0
		}
		s.Spec.Devices = []resourceapi.Device{g.device(driver, pool, "dev-old", sc, false, false)}
		out = append(out, s)
	}
	return out
}

func (g *gen) device(driver, pool, name string, sc scope, counters, multi bool) resourceapi.Device {
	d := resourceapi.Device{Name: name, Attributes: map[resourceapi.QualifiedName]resourceapi.DeviceAttribute{}}
	if g.p(0.9) {
		d.Attributes["model"] = resourceapi.DeviceAttribute{StringValue: ptr.To(pick(g, models...))}
	}
	d.Attributes["index"] = resourceapi.DeviceAttribute{IntValue: ptr.To(int64(g.n(0, 3)))}
	if g.p(0.7) {
		d.Attributes["healthy"] = resourceapi.DeviceAttribute{BoolValue: ptr.To(g.p(0.8))}
	}
	if g.p(0.7) {
		d.Attributes["version"] = resourceapi.DeviceAttribute{VersionValue: ptr.To(pick(g, versions...))}
	}
	if g.p(0.3) {
		d.Attributes["example.com/zone"] = resourceapi.DeviceAttribute{StringValue: ptr.To(pick(g, "z1", "z2"))}
	}
	if g.listAttrs && g.p(0.6) {
		n := g.n(1, 3)
		perm := g.r.Perm(len(models))[:n]
		var l []string
		for _, k := range perm {
			l = append(l, models[k])
		}
		d.Attributes["models"] = resourceapi.DeviceAttribute{StringValues: l}
	}
	if g.listAttrs && g.p(0.3) {
		d.Attributes["example.com/zone"] = resourceapi.DeviceAttribute{StringValues: []string{pick(g, "z1", "z2"), "z3"}}
	}
	hasCap := g.p(0.6) || multi
	if hasCap {
		c := resourceapi.DeviceCapacity{Value: q(pick(g, "4Gi", "8Gi", "16Gi", "6Gi", "5000Mi"))}
		if multi {
			switch g.n(0, 4) {
			case 1:
				c.RequestPolicy = &resourceapi.CapacityRequestPolicy{Default: ptr.To(q("1Gi")),
					ValidRange: &resourceapi.CapacityRequestPolicyRange{Min: ptr.To(q("1Gi")), Step: ptr.To(q("1Gi"))}}
			case 2:
				c.RequestPolicy = &resourceapi.CapacityRequestPolicy{Default: ptr.To(q("1Gi")),
					ValidValues: []resource.Quantity{q("1Gi"), q("2Gi"), q("4Gi")}}
			case 3:
				c.RequestPolicy = &resourceapi.CapacityRequestPolicy{Default: ptr.To(q("2Gi")),
					ValidRange: &resourceapi.CapacityRequestPolicyRange{Min: ptr.To(q("1Gi")), Max: ptr.To(q("4Gi"))}}
			case 4:
				c.RequestPolicy = &resourceapi.CapacityRequestPolicy{Default: ptr.To(q("512Mi")),
					ValidRange: &resourceapi.CapacityRequestPolicyRange{Min: ptr.To(q("512Mi")), Max: ptr.To(q("6Gi")), Step: ptr.To(q("512Mi"))}}
			}
		}
		d.Capacity = map[resourceapi.QualifiedName]resourceapi.DeviceCapacity{"memory": c}
	}
	if multi && g.p(0.8) {
		d.AllowMultipleAllocations = ptr.To(true)
	}
	if counters && g.p(0.8) {
		cc := map[string]resourceapi.Counter{"mem": {Value: q(fmt.Sprint(g.n(1, 3)))}}
		if g.p(0.5) {
			cc["cores"] = resourceapi.Counter{Value: q("1")}
		}
		d.ConsumesCounters = []resourceapi.DeviceCounterConsumption{{CounterSet: "cs-0", Counters: cc}}
	}
	if sc.perDevice != nil {
		switch g.n(0, 2) {
		case 0:
			d.NodeName = ptr.To(pick(g, "node-1", "node-1", "node-2"))
		case 1:
			d.AllNodes = ptr.To(true)
		case 2:
			d.NodeSelector = g.nodeSelector(g.p(0.7))
		}
	}
	if g.p(0.15) {
		d.Taints = []resourceapi.DeviceTaint{{Key: pick(g, "k1", "k2"), Value: pick(g, "", "v"),
			Effect: pick(g, resourceapi.DeviceTaintEffectNoSchedule, resourceapi.DeviceTaintEffectNoExecute, resourceapi.DeviceTaintEffectNone)}}
	}
	if g.p(0.1) {
		d.BindingConditions = []string{"ready"}
		d.BindingFailureConditions = []string{"failed"}
		if g.p(0.5) {
			d.BindsToNode = ptr.To(true)
		}
	}
	g.devices = append(g.devices, genDevice{driver: driver, pool: pool, name: name, multi: d.AllowMultipleAllocations != nil, capacity: hasCap})
	return d
}

func (g *gen) makeClasses() {
	mk := func(name string, exprs ...string) *resourceapi.DeviceClass {
		c := &resourceapi.DeviceClass{TypeMeta: metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "DeviceClass"},
			ObjectMeta: metav1.ObjectMeta{Name: name}}
		for _, e := range exprs {
			c.Spec.Selectors = append(c.Spec.Selectors, resourceapi.DeviceSelector{CEL: &resourceapi.CELDeviceSelector{Expression: e}})
		}
		if g.p(0.2) {
			c.Spec.Config = append(c.Spec.Config, resourceapi.DeviceClassConfiguration{DeviceConfiguration: opaque(name, "class")})
		}
		g.classes = append(g.classes, c)
		return c
	}
	for _, d := range g.drivers {
		mk("class-"+d[:1], fmt.Sprintf("device.driver == %q", d))
		if g.p(0.3) {
			mk("class-"+d[:1]+"-healthy", fmt.Sprintf("device.driver == %q", d), g.selector(d))
		}
	}
	if g.p(0.3) {
		mk("class-any")
	}
}

func opaque(driverish, from string) resourceapi.DeviceConfiguration {
	b, _ := json.Marshal(map[string]any{"from": from, "name": driverish})
	return resourceapi.DeviceConfiguration{Opaque: &resourceapi.OpaqueDeviceConfiguration{
		Driver: "a.example.com", Parameters: runtime.RawExtension{Raw: b}}}
}

// selector: a CEL selector for devices of driver d; a few may fail at run
// time on devices without the attribute.
func (g *gen) selector(d string) string {
	a := fmt.Sprintf("device.attributes[%q]", d)
	menu := []string{
		a + `.model == "` + pick(g, models...) + `"`,
		`"model" in ` + a + ` && ` + a + `.model != "c"`,
		a + fmt.Sprintf(".index >= %d", g.n(0, 3)),
		a + `.index % 2 == 0`,
		`!("healthy" in ` + a + `) || ` + a + `.healthy`,
		`"version" in ` + a + ` && ` + a + `.version.isGreaterThan(semver("1.1.0"))`,
		`"memory" in device.capacity[` + fmt.Sprintf("%q", d) + `] && device.capacity[` + fmt.Sprintf("%q", d) + `].memory.compareTo(quantity("8Gi")) >= 0`,
		`device.attributes["example.com"].?zone.orValue("z1") == "z1"`,
		`"zone" in device.attributes["example.com"] && device.attributes["example.com"].zone == "z2"`,
		`"zone" in device.attributes["example.com"]`,
		`true`,
		`device.driver == "` + d + `" && "model" in ` + a,
	}
	if g.listAttrs {
		menu = append(menu, `"models" in `+a+` && `+a+`.models.includes("`+pick(g, models...)+`")`)
	}
	if g.p(0.05) {
		// Unguarded: fails at run time on devices without the attribute or capacity.
		return pick(g, `device.capacity[`+fmt.Sprintf("%q", d)+`].memory.compareTo(quantity("8Gi")) >= 0`,
			`device.attributes["example.com"].zone == "z1"`, a+`.model == "b"`)
	}
	return pick(g, menu...)
}

func (g *gen) classFor() (string, string) {
	cl := pick(g, g.classes...)
	d := g.drivers[0]
	for _, x := range g.drivers {
		if len(cl.Name) > 6 && cl.Name[6:7] == x[:1] {
			d = x
		}
	}
	if cl.Name == "class-any" {
		d = pick(g, g.drivers...)
	}
	return cl.Name, d
}

func (g *gen) tolerations() []resourceapi.DeviceToleration {
	if !g.p(0.2) {
		return nil
	}
	t := resourceapi.DeviceToleration{Key: pick(g, "k1", "k2"), Operator: resourceapi.DeviceTolerationOpExists}
	if g.p(0.5) {
		t.Operator, t.Value = resourceapi.DeviceTolerationOpEqual, pick(g, "", "v")
	}
	if g.p(0.5) {
		t.Effect = pick(g, resourceapi.DeviceTaintEffectNoSchedule, resourceapi.DeviceTaintEffectNoExecute)
	}
	return []resourceapi.DeviceToleration{t}
}

func (g *gen) capacity() *resourceapi.CapacityRequirements {
	if !g.p(0.15) {
		return nil
	}
	return &resourceapi.CapacityRequirements{Requests: map[resourceapi.QualifiedName]resource.Quantity{"memory": q(pick(g, "1Gi", "2Gi", "3Gi", "1500Mi", "512Mi", "2500Mi", "4Gi", "1G"))}}
}

func (g *gen) selectors(d string) []resourceapi.DeviceSelector {
	var out []resourceapi.DeviceSelector
	for k, nk := 0, g.n(0, 2); k < nk; k++ {
		if g.p(0.5) {
			out = append(out, resourceapi.DeviceSelector{CEL: &resourceapi.CELDeviceSelector{Expression: g.selector(d)}})
		}
	}
	return out
}

func (g *gen) exact() (*resourceapi.ExactDeviceRequest, string) {
	cl, d := g.classFor()
	r := &resourceapi.ExactDeviceRequest{DeviceClassName: cl, Selectors: g.selectors(d),
		AllocationMode: resourceapi.DeviceAllocationModeExactCount, Count: int64(g.n(1, 3))}
	if g.p(0.6) {
		r.Count = 1
	}
	if g.p(0.12) {
		r.AllocationMode, r.Count = resourceapi.DeviceAllocationModeAll, 0
	}
	if g.p(0.08) {
		r.AdminAccess = ptr.To(true)
	}
	r.Tolerations = g.tolerations()
	r.Capacity = g.capacity()
	if g.p(0.12) {
		r.DerivedAttributes = g.derived(d)
	}
	return r, d
}

// derived: one derived attribute, named derived/grp or shadowing the
// driver's model attribute; claim() adds a constraint on it.
func (g *gen) derived(d string) []resourceapi.DeviceDerivedAttribute {
	a := fmt.Sprintf("device.attributes[%q]", d)
	name := resourceapi.FullyQualifiedName("derived/grp")
	if g.p(0.2) {
		name = resourceapi.FullyQualifiedName(d + "/model")
	}
	menu := []string{
		a + `.index % 2`,
		`"model" in ` + a + ` ? ` + a + `.model : "none"`,
		a + `.index > 1`,
		`"version" in ` + a + ` ? ` + a + `.version : semver("0.0.1")`,
		`device.driver`,
	}
	if g.listAttrs {
		menu = append(menu, `"models" in `+a+` ? `+a+`.models : ["x"]`, `[`+a+`.index, 9]`)
	}
	expr := pick(g, menu...)
	if g.p(0.1) {
		expr = a + `.model` // fails on devices without it
	}
	return []resourceapi.DeviceDerivedAttribute{{Name: name, Expression: expr}}
}

func (g *gen) claim(name string) *resourceapi.ResourceClaim {
	c := &resourceapi.ResourceClaim{TypeMeta: metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "ResourceClaim"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"}}
	var names []string
	var drv []string
	for k, nk := 0, pick(g, 1, 1, 2, 2, 3); k < nk; k++ {
		rn := fmt.Sprintf("req-%d", k)
		req := resourceapi.DeviceRequest{Name: rn}
		if g.p(0.75) {
			var d string
			req.Exactly, d = g.exact()
			drv = append(drv, d)
			names = append(names, rn)
		} else {
			for s, ns := 0, g.n(1, 3); s < ns; s++ {
				e, d := g.exact()
				sub := resourceapi.DeviceSubRequest{Name: fmt.Sprintf("sub-%d", s), DeviceClassName: e.DeviceClassName,
					Selectors: e.Selectors, AllocationMode: e.AllocationMode, Count: e.Count,
					Tolerations: e.Tolerations, Capacity: e.Capacity, DerivedAttributes: e.DerivedAttributes}
				req.FirstAvailable = append(req.FirstAvailable, sub)
				drv = append(drv, d)
				if g.p(0.3) {
					names = append(names, rn+"/"+sub.Name)
				}
			}
			names = append(names, rn)
		}
		c.Spec.Devices.Requests = append(c.Spec.Devices.Requests, req)
	}
	subset := func() []string {
		if g.p(0.5) {
			return nil
		}
		var out []string
		for _, n := range names {
			if g.p(0.6) {
				out = append(out, n)
			}
		}
		return out
	}
	// Every derived attribute is used by a constraint (validation demands it).
	derivedNames := map[resourceapi.FullyQualifiedName]bool{}
	for _, req := range c.Spec.Devices.Requests {
		if req.Exactly != nil {
			for _, da := range req.Exactly.DerivedAttributes {
				derivedNames[da.Name] = true
			}
		}
		for _, sub := range req.FirstAvailable {
			for _, da := range sub.DerivedAttributes {
				derivedNames[da.Name] = true
			}
		}
	}
	for _, name := range sortedNames(derivedNames) {
		attr := name
		con := resourceapi.DeviceConstraint{Requests: subset()}
		if g.p(0.6) {
			con.MatchAttribute = &attr
		} else {
			con.DistinctAttribute = &attr
		}
		c.Spec.Devices.Constraints = append(c.Spec.Devices.Constraints, con)
	}
	for k := 0; k < 2; k++ {
		if !g.p(0.3) {
			continue
		}
		d := pick(g, drv...)
		attr := resourceapi.FullyQualifiedName(d + "/" + pick(g, "model", "index", "version", "healthy", "models"))
		if g.p(0.15) {
			attr = "example.com/zone"
		}
		con := resourceapi.DeviceConstraint{Requests: subset()}
		if g.p(0.6) {
			con.MatchAttribute = &attr
		} else {
			con.DistinctAttribute = &attr
		}
		c.Spec.Devices.Constraints = append(c.Spec.Devices.Constraints, con)
	}
	if g.p(0.2) {
		c.Spec.Devices.Config = append(c.Spec.Devices.Config, resourceapi.DeviceClaimConfiguration{Requests: subset(), DeviceConfiguration: opaque(name, "claim")})
	}
	return c
}

// allocatedClaim: a claim whose status holds devices picked at random
// (some shared, some admin access).
func (g *gen) allocatedClaim(name string) *resourceapi.ResourceClaim {
	if len(g.devices) == 0 {
		return nil
	}
	c := &resourceapi.ResourceClaim{TypeMeta: metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "ResourceClaim"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"}}
	c.Spec.Devices.Requests = []resourceapi.DeviceRequest{{Name: "req-0", Exactly: &resourceapi.ExactDeviceRequest{DeviceClassName: g.classes[0].Name}}}
	a := &resourceapi.AllocationResult{}
	for k, nk := 0, g.n(1, 2); k < nk; k++ {
		d := pick(g, g.devices...)
		r := resourceapi.DeviceRequestAllocationResult{Request: "req-0", Driver: d.driver, Pool: d.pool, Device: d.name}
		if g.p(0.1) {
			r.AdminAccess = ptr.To(true)
		}
		if d.multi {
			r.ShareID = ptr.To(types.UID(fmt.Sprintf("%08x-0000-4000-8000-000000000000", g.r.Uint32())))
			if d.capacity {
				r.ConsumedCapacity = map[resourceapi.QualifiedName]resource.Quantity{"memory": q(pick(g, "1Gi", "2Gi", "4Gi"))}
			}
		}
		a.Devices.Results = append(a.Devices.Results, r)
	}
	c.Status.Allocation = a
	return c
}

func sortedNames(m map[resourceapi.FullyQualifiedName]bool) []resourceapi.FullyQualifiedName {
	var out []resourceapi.FullyQualifiedName
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
