// devicegen.go: celdiff's generator of device-shaped cases: a seeded
// ResourceSlice device (driver, string/int/bool/version attributes and
// lists of them, capacity quantities, allowMultipleAllocations) and an
// expression naming `device` over it: attribute lookups by index, by field
// and by `.?` with orValue/hasValue, has() and `in` on the attribute maps,
// semver and quantity methods and comparisons, macros over list attributes
// and attribute maps, derived values (int, string, lists). Expressions are
// mostly well typed for the device they run on; the rest (a missing domain
// or name, an attribute of another type, a version that does not parse)
// make the runtime errors upstream's selectors meet.
package main

import (
	"fmt"
	"math/rand"
	"strings"

	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// deviceCase is one expression on one device of driver genDriver.
type deviceCase struct {
	expr   string
	device resourceapi.Device
}

const genDriver = "dra.example.com"

// The attribute names and their usual kinds; a device may give a name
// another kind (and the expression then meets a type error).
var attrKinds = map[string]string{
	"model": "string", "pcieRoot": "string", "index": "int", "numa": "int", "healthy": "bool",
	"shared": "bool", "driverVersion": "version", "firmware": "version", "cores": "ints",
	"features": "strings", "flags": "bools", "versions": "versions",
}

var (
	attrNames   = []string{"model", "pcieRoot", "index", "numa", "healthy", "shared", "driverVersion", "firmware", "cores", "features", "flags", "versions"}
	attrDomains = []string{genDriver, "gpu.example.com", "numa.example.com"}
	capNames    = []string{"memory", "cores", "slices"}
	models      = []string{"a100", "h100", "t4", "", "A100-80GB", "l4"}
	versions    = []string{"1.2.3", "2.0.0", "1.10.0", "2.0.0-rc.1", "0.9.9+build.5", "1.2.3-alpha", "10.0.0"}
	badVersions = []string{"01.2.3", "1.2", "v1.0.0"}
	quantities  = []string{"16Gi", "80Gi", "1Gi", "0", "500Mi", "1.5Gi", "8", "100m", "2", "7", "1k", "3.5"}
	strLits     = []string{"a100", "h100", "t4", "", "fp16", "int8", "pci-0", "A"}
	intLits     = []string{"0", "1", "2", "3", "7", "-1", "100", "9223372036854775807"}
)

type devGen struct{ r *rand.Rand }

func (g *devGen) pick(xs ...string) string { return xs[g.r.Intn(len(xs))] }
func (g *devGen) chance(p float64) bool    { return g.r.Float64() < p }

func (g *devGen) attrValue(kind string) resourceapi.DeviceAttribute {
	ver := func() string {
		if g.chance(0.03) {
			return g.pick(badVersions...)
		}
		return g.pick(versions...)
	}
	n := 1 + g.r.Intn(3) // an empty list does not survive JSON (omitempty): never stored
	switch kind {
	case "string":
		s := g.pick(models...)
		return resourceapi.DeviceAttribute{StringValue: &s}
	case "int":
		i := int64(g.r.Intn(9) - 1)
		return resourceapi.DeviceAttribute{IntValue: &i}
	case "bool":
		b := g.chance(0.5)
		return resourceapi.DeviceAttribute{BoolValue: &b}
	case "version":
		v := ver()
		return resourceapi.DeviceAttribute{VersionValue: &v}
	case "ints":
		xs := []int64{}
		for i := 0; i < n; i++ {
			xs = append(xs, int64(g.r.Intn(8)))
		}
		return resourceapi.DeviceAttribute{IntValues: xs}
	case "bools":
		xs := []bool{}
		for i := 0; i < n; i++ {
			xs = append(xs, g.chance(0.5))
		}
		return resourceapi.DeviceAttribute{BoolValues: xs}
	case "strings":
		xs := []string{}
		for i := 0; i < n; i++ {
			xs = append(xs, g.pick("fp16", "int8", "mig", "", "nvlink"))
		}
		return resourceapi.DeviceAttribute{StringValues: xs}
	default:
		xs := []string{}
		for i := 0; i < n; i++ {
			xs = append(xs, ver())
		}
		return resourceapi.DeviceAttribute{VersionValues: xs}
	}
}

func qualified(domain, name string) resourceapi.QualifiedName {
	if domain == genDriver {
		return resourceapi.QualifiedName(name)
	}
	return resourceapi.QualifiedName(domain + "/" + name)
}

func (g *devGen) device() resourceapi.Device {
	d := resourceapi.Device{Name: "dev-0", Attributes: map[resourceapi.QualifiedName]resourceapi.DeviceAttribute{},
		Capacity: map[resourceapi.QualifiedName]resourceapi.DeviceCapacity{}}
	kinds := []string{"string", "int", "bool", "version", "ints", "bools", "strings", "versions"}
	for _, dom := range attrDomains {
		if dom != genDriver && g.chance(0.4) {
			continue
		}
		for _, name := range attrNames {
			if g.chance(0.35) {
				continue
			}
			kind := attrKinds[name]
			if g.chance(0.05) {
				kind = g.pick(kinds...)
			}
			d.Attributes[qualified(dom, name)] = g.attrValue(kind)
		}
	}
	for _, dom := range attrDomains[:2] {
		for _, name := range capNames {
			if g.chance(0.4) {
				continue
			}
			d.Capacity[qualified(dom, name)] = resourceapi.DeviceCapacity{Value: resource.MustParse(g.pick(quantities...))}
		}
	}
	switch g.r.Intn(3) {
	case 0:
		t := true
		d.AllowMultipleAllocations = &t
	case 1:
		f := false
		d.AllowMultipleAllocations = &f
	}
	return d
}

func (g *devGen) str() string { return fmt.Sprintf("%q", g.pick(strLits...)) }

// attr: an attribute of the given usual kind, looked up one of the ways
// CEL allows; mostly in the driver's domain.
func (g *devGen) attr(kind string) string {
	var names []string
	for _, n := range attrNames {
		if attrKinds[n] == kind {
			names = append(names, n)
		}
	}
	dom := genDriver
	if g.chance(0.3) {
		dom = g.pick(attrDomains...)
	}
	name := g.pick(names...)
	if g.chance(0.3) {
		return fmt.Sprintf("device.attributes[%q][%q]", dom, name)
	}
	return fmt.Sprintf("device.attributes[%q].%s", dom, name)
}

// optAttr: an attribute through `.?` (or `[?]`), with a default of the kind.
func (g *devGen) optAttr(kind, def string) string {
	a := g.attr(kind)
	i := strings.LastIndexAny(a, ".[")
	sel := a[:i] + ".?" + a[i+1:]
	if a[i] == '[' {
		sel = a[:i] + "[?" + a[i+1:]
	}
	if g.chance(0.2) {
		sel = strings.Replace(sel, "device.attributes[", "device.attributes[?", 1)
	}
	return sel + ".orValue(" + def + ")"
}

func (g *devGen) semverLit() string {
	v := g.pick(versions...)
	if g.chance(0.05) {
		return fmt.Sprintf("semver(%q, true)", g.pick("1", "1.2", "v2.0.0", "01.2.3"))
	}
	return fmt.Sprintf("semver(%q)", v)
}

func (g *devGen) capacity() string {
	dom := genDriver
	if g.chance(0.3) {
		dom = "gpu.example.com"
	}
	name := g.pick(capNames...)
	if g.chance(0.3) {
		return fmt.Sprintf("device.capacity[%q][%q]", dom, name)
	}
	return fmt.Sprintf("device.capacity[%q].%s", dom, name)
}

func (g *devGen) quantityLit() string { return fmt.Sprintf("quantity(%q)", g.pick(quantities...)) }

func (g *devGen) cmp() string { return g.pick("==", "!=", "<", "<=", ">", ">=") }

func (g *devGen) intExpr(d int) string {
	if d <= 0 || g.chance(0.3) {
		return g.pick(intLits...)
	}
	switch g.r.Intn(9) {
	case 0, 1:
		return g.attr("int")
	case 2:
		return g.optAttr("int", g.pick(intLits...))
	case 3:
		return fmt.Sprintf("size(%s)", g.pick(g.attr("string"), g.attr("ints"), g.attr("strings"), "device.driver", fmt.Sprintf("device.attributes[%q]", g.pick(attrDomains...))))
	case 4:
		return fmt.Sprintf("(%s %s %s)", g.intExpr(d-1), g.pick("+", "-", "*", "/", "%"), g.intExpr(d-1))
	case 5:
		return fmt.Sprintf("%s.asInteger()", g.pick(g.capacity(), g.quantityLit()))
	case 6:
		return fmt.Sprintf("%s.%s()", g.pick(g.attr("version"), g.semverLit()), g.pick("major", "minor", "patch"))
	case 7:
		return fmt.Sprintf("%s.compareTo(%s)", g.attr("version"), g.semverLit())
	default:
		return fmt.Sprintf("%s.compareTo(%s)", g.capacity(), g.pick(g.quantityLit(), g.capacity()))
	}
}

func (g *devGen) strExpr(d int) string {
	if d <= 0 || g.chance(0.3) {
		return g.str()
	}
	switch g.r.Intn(5) {
	case 0, 1:
		return g.attr("string")
	case 2:
		return g.optAttr("string", g.str())
	case 3:
		return "device.driver"
	default:
		return fmt.Sprintf("(%s + %s)", g.strExpr(d-1), g.strExpr(d-1))
	}
}

func (g *devGen) boolExpr(d int) string {
	if d <= 0 || g.chance(0.15) {
		return g.leafBool()
	}
	switch g.r.Intn(6) {
	case 0:
		return fmt.Sprintf("(%s && %s)", g.boolExpr(d-1), g.boolExpr(d-1))
	case 1:
		return fmt.Sprintf("(%s || %s)", g.boolExpr(d-1), g.boolExpr(d-1))
	case 2:
		return "!" + g.boolExpr(d-1)
	case 3:
		return fmt.Sprintf("(%s ? %s : %s)", g.boolExpr(d-1), g.boolExpr(d-1), g.boolExpr(d-1))
	default:
		return g.leafBool()
	}
}

func (g *devGen) listPred(v, kind string) string {
	switch kind {
	case "ints":
		return fmt.Sprintf("%s %s %s", v, g.cmp(), g.pick(intLits[:6]...))
	case "strings":
		return fmt.Sprintf("%s.startsWith(%s)", v, g.str())
	case "bools":
		return v
	default:
		return fmt.Sprintf("%s.isGreaterThan(%s)", v, g.semverLit())
	}
}

func (g *devGen) leafBool() string {
	switch g.r.Intn(24) {
	case 0:
		return fmt.Sprintf("device.driver %s %q", g.pick("==", "!="), g.pick(genDriver, "other.example.com"))
	case 1:
		return fmt.Sprintf("%s %s %s", g.strExpr(1), g.pick("==", "!=", "<", ">="), g.strExpr(1))
	case 2:
		return fmt.Sprintf("%s.%s(%s)", g.strExpr(1), g.pick("startsWith", "endsWith", "contains", "matches"), g.str())
	case 3:
		return fmt.Sprintf("%s in [%s, %s]", g.attr("string"), g.str(), g.str())
	case 4, 5:
		return fmt.Sprintf("%s %s %s", g.intExpr(2), g.cmp(), g.intExpr(1))
	case 6:
		return g.pick(g.attr("bool"), "!"+g.attr("bool"), g.attr("bool")+" == true", g.optAttr("bool", g.pick("true", "false")))
	case 7:
		return fmt.Sprintf("%s.%s(%s)", g.pick(g.attr("version"), g.semverLit()), g.pick("isGreaterThan", "isLessThan"), g.pick(g.semverLit(), g.attr("version")))
	case 8:
		return fmt.Sprintf("%s.compareTo(%s) %s 0", g.attr("version"), g.semverLit(), g.cmp())
	case 9:
		return fmt.Sprintf("%s %s %s", g.attr("version"), g.pick("==", "!="), g.semverLit())
	case 10:
		return fmt.Sprintf("isSemver(%q)", g.pick(append(versions, badVersions...)...))
	case 11:
		return fmt.Sprintf("%s.%s(%s)", g.capacity(), g.pick("isGreaterThan", "isLessThan"), g.pick(g.quantityLit(), g.capacity()))
	case 12:
		return fmt.Sprintf("%s.compareTo(%s) %s 0", g.capacity(), g.quantityLit(), g.cmp())
	case 13:
		return fmt.Sprintf("%s %s %s", g.capacity(), g.pick("==", "!="), g.quantityLit())
	case 14:
		return fmt.Sprintf("%s.%s(%s).isGreaterThan(%s)", g.capacity(), g.pick("add", "sub"), g.pick(g.quantityLit(), g.pick(intLits[:6]...)), g.quantityLit())
	case 15:
		return fmt.Sprintf("%s.%s", g.capacity(), g.pick("isInteger()", "sign() == 1", "asApproximateFloat() > 1.5"))
	case 16:
		dom := g.pick(attrDomains...)
		return g.pick(
			fmt.Sprintf("has(device.attributes[%q].%s)", dom, g.pick(attrNames...)),
			fmt.Sprintf("%q in device.attributes[%q]", g.pick(attrNames...), dom),
			fmt.Sprintf("%q in device.attributes", dom),
			fmt.Sprintf("has(device.capacity[%q].%s)", g.pick(attrDomains[:2]...), g.pick(capNames...)),
			fmt.Sprintf("device.attributes[?%q].?%s.hasValue()", dom, g.pick(attrNames...)))
	case 17:
		return g.pick("device.allowMultipleAllocations", "!device.allowMultipleAllocations")
	case 18, 19:
		kind := g.pick("ints", "strings", "bools", "versions")
		l := g.attr(kind)
		switch g.r.Intn(6) {
		case 0:
			return fmt.Sprintf("%s.%s(x, %s)", l, g.pick("exists", "all", "exists_one"), g.listPred("x", kind))
		case 1:
			return fmt.Sprintf("size(%s) %s %s", l, g.cmp(), g.pick("0", "1", "2"))
		case 2:
			return fmt.Sprintf("size(%s.filter(x, %s)) > 0", l, g.listPred("x", kind))
		case 3:
			if kind == "ints" {
				return fmt.Sprintf("%s in %s", g.pick(intLits[:6]...), l)
			}
			return fmt.Sprintf("%s in %s", g.str(), l)
		case 4:
			if kind == "ints" {
				return fmt.Sprintf("%s.%s", l, g.pick("sum() > 3", "isSorted()", "min() == 0", "max() < 5", "indexOf(1) >= 0", "includes(2)"))
			}
			return fmt.Sprintf("%s.includes(%s)", l, g.str())
		default:
			return fmt.Sprintf("%s.map(x, %s).exists(y, y)", l, g.listPred("x", kind))
		}
	case 20:
		dom := g.pick(attrDomains...)
		return g.pick(
			fmt.Sprintf("size(device.attributes[%q].filter(k, k.startsWith(%q))) %s 1", dom, g.pick("m", "f", "d", "c"), g.cmp()),
			fmt.Sprintf("device.attributes[%q].exists_one(k, k == %q)", dom, g.pick(attrNames...)),
			fmt.Sprintf("device.attributes.exists_one(d, d == %q)", dom),
			fmt.Sprintf("device.capacity.all(d, size(d) > 0)"),
			fmt.Sprintf("device.attributes[%q].all(k, size(k) < 40)", dom))
	case 21:
		return fmt.Sprintf("%s.matches(%q)", g.attr("string"), g.pick("^a", "[0-9]+", "^$", "(?i)h"))
	case 22:
		return fmt.Sprintf("%s == %s", g.optAttr("string", g.str()), g.str())
	default:
		return g.pick("true", "false")
	}
}

// next: one case. Most are selectors (bool); some are derived values.
func (g *devGen) next() deviceCase {
	var e string
	switch g.r.Intn(10) {
	case 0:
		e = g.intExpr(3)
	case 1:
		e = g.strExpr(3)
	case 2:
		e = g.pick(g.attr("ints"), g.attr("strings"), g.attr("bools"),
			fmt.Sprintf("%s.filter(x, %s)", g.attr("ints"), g.listPred("x", "ints")),
			fmt.Sprintf("%s.map(x, x + %q)", g.attr("strings"), "-"))
	default:
		e = g.boolExpr(3)
	}
	return deviceCase{expr: e, device: g.device()}
}

// deviceCases: n cases from seed.
func deviceCases(seed int64, n int) []deviceCase {
	g := &devGen{r: rand.New(rand.NewSource(seed))}
	out := make([]deviceCase, n)
	for i := range out {
		out[i] = g.next()
	}
	return out
}
