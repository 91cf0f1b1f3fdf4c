// celdiff: the real DRA CEL environment (k8s.io/dynamic-resource-allocation/cel
// v0.37.2: its compiler, with the device variable and its libraries) as the
// judge of dra's CEL (src/cel). It reads expressions, one JSON string a line
// (tests/upstream_cel.sh makes them with tests/cel_differential/gen.mjs),
// adds -devices device-shaped cases of its own generator (devicegen.go: an
// expression naming `device` and the ResourceSlice device it runs on),
// answers each one in-process with upstream's compiler, and all of them with
// dra's bench_cel_diff (one subprocess), the same way bench_cel_diff does:
//
//   - compiled as a device selector (StoredExpressions) on its device (the
//     empty one for plain expressions); refused by the type checker: a
//     compile error on both sides;
//   - of type bool: DeviceMatches, plus the estimated cost of both;
//   - uint, double, bytes: string(E) as a derived attribute, compared as text;
//   - anything else: dyn(E) as a derived attribute (int, bool, string and
//     lists of them compared by value; other runtime types only as "opaque").
//
// Every value also compares its runtime cost (cel-go's ActualCost). Errors
// compare by class (no such overload, division by zero, modulus by zero,
// invalid argument, no such key, type conversion/range, bad device). Every
// disagreement prints the seed and the expression (and for a device case
// the device); the ones listed in `known` (DISAGREEMENTS.md, "CEL") pass,
// as KNOWN. Exit 1 on any other.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"

	"github.com/google/cel-go/cel"
	resourceapi "k8s.io/api/resource/v1"
	dracel "k8s.io/dynamic-resource-allocation/cel"
)

type result struct {
	Stage  string // "compile", "eval" or "" (a value)
	Error  string
	Type   string // bool, int, string, uint, double, bytes, list(int|bool|string), or opaque
	Value  string // canonical text of the value
	Cost   string // estimated cost of a selector, "" when none
	Actual string // runtime cost of a value, "" when none
	Opaque bool
}

var errorClasses = []struct {
	name string
	re   *regexp.Regexp
}{
	{"no such overload", regexp.MustCompile(`(?i)no such overload|no matching overload|undeclared reference`)},
	{"division by zero", regexp.MustCompile(`(?i)division by zero|divide by zero`)},
	{"modulus by zero", regexp.MustCompile(`(?i)modulus by zero|modulo by zero`)},
	{"invalid argument", regexp.MustCompile(`(?i)index out of bounds|unsupported index|index out of range|invalid argument`)},
	{"no such key", regexp.MustCompile(`(?i)no such key|field not found`)},
	{"type conversion/range", regexp.MustCompile(`(?i)overflow|type conversion error|cannot convert|invalid UTF-8|out of range`)},
	{"bad device", regexp.MustCompile(`parse semantic version`)},
	{"not iterable", regexp.MustCompile(`expected iterable type`)},
	{"NaN ordering", regexp.MustCompile(`NaN values cannot be ordered`)},
}

func errorClass(msg string) string {
	for _, c := range errorClasses {
		if c.re.MatchString(msg) {
			return c.name
		}
	}
	return "unclassified"
}

func (r result) String() string {
	switch {
	case r.Stage == "compile":
		return "compile error: " + r.Error
	case r.Stage != "":
		return fmt.Sprintf("eval error [%s]: %s", errorClass(r.Error), r.Error)
	case r.Opaque:
		return r.Type + " (opaque)"
	}
	s := r.Type + " " + r.Value
	if r.Cost != "" {
		s += " (estimated cost " + r.Cost + ")"
	}
	if r.Actual != "" {
		s += " (runtime cost " + r.Actual + ")"
	}
	return s
}

// differ says how a (upstream) and b (dra) differ, "" when they agree.
func differ(a, b result) string {
	if (a.Stage == "compile") != (b.Stage == "compile") {
		return "compile accept/refuse"
	}
	if a.Stage == "compile" {
		return ""
	}
	if (a.Stage != "") != (b.Stage != "") {
		return "value or error"
	}
	if a.Stage != "" {
		ca, cb := errorClass(a.Error), errorClass(b.Error)
		if ca != cb || ca == "unclassified" {
			return "error class"
		}
		return ""
	}
	if a.Opaque || b.Opaque {
		if a.Opaque != b.Opaque {
			return "value type"
		}
		return ""
	}
	if a.Type != b.Type {
		return "value type"
	}
	if a.Value != b.Value {
		return "value"
	}
	if a.Cost != "" && b.Cost != "" && a.Cost != b.Cost {
		return "estimated cost"
	}
	if a.Actual != "" && b.Actual != "" && a.Actual != b.Actual {
		return "runtime cost"
	}
	return ""
}

var compiler = dracel.GetCompiler(dracel.Features{EnableConsumableCapacity: true, EnableListTypeAttributes: true})

// testCase: an expression, on the empty device or on dev of driver.
type testCase struct {
	expr   string
	driver string
	dev    *resourceapi.Device
}

func (c testCase) celDevice() dracel.Device {
	if c.dev == nil {
		return dracel.Device{}
	}
	return dracel.Device{Driver: c.driver, AllowMultipleAllocations: c.dev.AllowMultipleAllocations,
		Attributes: c.dev.Attributes, Capacity: c.dev.Capacity}
}

func actualCost(d *cel.EvalDetails) string {
	if d == nil || d.ActualCost() == nil {
		return ""
	}
	return strconv.FormatUint(*d.ActualCost(), 10)
}

// upstream answers c with cel-go; a panic outside cel-go's own recovery
// (planning a map literal with bytes keys panics) becomes an evaluation
// error, so the case is reported as a difference instead of ending the run.
func upstream(c testCase) (r result) {
	defer func() {
		if p := recover(); p != nil {
			r = result{Stage: "eval", Error: fmt.Sprintf("upstream panic: %v", p)}
		}
	}()
	ctx := context.Background()
	expr, dev := c.expr, c.celDevice()
	sel := compiler.CompileCELExpression(expr, dracel.Options{})
	if sel.Error != nil && strings.HasPrefix(sel.Error.Detail, "compilation failed") {
		return result{Stage: "compile", Error: sel.Error.Detail}
	}
	if sel.Error == nil && sel.OutputType.IsExactType(cel.BoolType) {
		ok, details, err := sel.DeviceMatches(ctx, dev)
		if err != nil {
			return result{Stage: "eval", Error: err.Error()}
		}
		return result{Type: "bool", Value: strconv.FormatBool(ok), Cost: strconv.FormatUint(sel.MaxCost, 10), Actual: actualCost(details)}
	}
	// Not a bool: its type, checked in the same environment.
	env := compiler.CompileCELExpression("true", dracel.Options{}).Environment
	ast, iss := env.Compile(expr)
	if iss.Err() != nil {
		return result{Stage: "compile", Error: iss.Err().Error()}
	}
	t := ast.OutputType()
	asText := t.IsExactType(cel.UintType) || t.IsExactType(cel.DoubleType) || t.IsExactType(cel.BytesType)
	wrapped := "dyn(" + expr + ")"
	if asText {
		wrapped = "string(" + expr + ")"
	}
	der := compiler.CompileCELExpression(wrapped, dracel.Options{DerivedAttribute: true})
	if der.Error != nil {
		return result{Stage: "compile", Error: der.Error.Detail}
	}
	attr, details, err := der.EvaluateDerivedAttribute(ctx, dev)
	if err != nil {
		if strings.HasPrefix(err.Error(), "unsupported ") {
			return result{Type: "opaque", Opaque: true}
		}
		return result{Stage: "eval", Error: err.Error()}
	}
	r = derivedResult(attr, t, asText)
	if !r.Opaque {
		r.Actual = actualCost(details)
	}
	return r
}

func derivedResult(attr *resourceapi.DeviceAttribute, t *cel.Type, asText bool) result {
	if asText {
		return result{Type: t.String(), Value: strconv.Quote(*attr.StringValue)}
	}
	switch {
	case attr.BoolValue != nil:
		return result{Type: "bool", Value: strconv.FormatBool(*attr.BoolValue)}
	case attr.IntValue != nil:
		return result{Type: "int", Value: strconv.FormatInt(*attr.IntValue, 10)}
	case attr.StringValue != nil:
		return result{Type: "string", Value: strconv.Quote(*attr.StringValue)}
	case attr.IntValues != nil:
		return result{Type: "list(int)", Value: listText(attr.IntValues)}
	case attr.BoolValues != nil:
		return result{Type: "list(bool)", Value: listText(attr.BoolValues)}
	case attr.StringValues != nil:
		if len(attr.StringValues) == 0 { // upstream: an empty list of any type
			return result{Type: "list()", Value: "[]"}
		}
		return result{Type: "list(string)", Value: listText(attr.StringValues)}
	}
	return result{Type: "opaque", Opaque: true}
}

func listText[T any](xs []T) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		switch v := any(x).(type) {
		case string:
			parts[i] = strconv.Quote(v)
		default:
			parts[i] = fmt.Sprint(v)
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// fromDra reads one bench_cel_diff line.
func fromDra(line []byte) (result, error) {
	var d struct {
		Error   *string          `json:"error"`
		Stage   string           `json:"stage"`
		Type    string           `json:"type"`
		Value   *json.RawMessage `json:"value"`
		Text    *string          `json:"text"`
		Cost    string           `json:"cost"`
		Runtime string           `json:"runtimeCost"`
	}
	if err := json.Unmarshal(line, &d); err != nil {
		return result{}, err
	}
	if d.Error != nil {
		return result{Stage: d.Stage, Error: *d.Error}, nil
	}
	if d.Text != nil {
		return result{Type: d.Type, Value: strconv.Quote(*d.Text), Actual: d.Runtime}, nil
	}
	if d.Value == nil {
		return result{Type: "opaque", Opaque: true}, nil
	}
	r := result{Type: d.Type, Cost: d.Cost, Actual: d.Runtime}
	switch d.Type {
	case "bool":
		var b bool
		err := json.Unmarshal(*d.Value, &b)
		r.Value = strconv.FormatBool(b)
		return r, err
	case "int":
		var s string
		err := json.Unmarshal(*d.Value, &s)
		r.Value = s
		return r, err
	case "string":
		var s string
		err := json.Unmarshal(*d.Value, &s)
		r.Value = strconv.Quote(s)
		return r, err
	case "list(int)":
		var xs []string
		err := json.Unmarshal(*d.Value, &xs)
		r.Value = "[" + strings.Join(xs, ", ") + "]"
		if len(xs) == 0 {
			r.Type, r.Value = "list()", "[]"
		}
		return r, err
	case "list(bool)":
		var xs []bool
		err := json.Unmarshal(*d.Value, &xs)
		r.Value = listText(xs)
		if len(xs) == 0 {
			r.Type, r.Value = "list()", "[]"
		}
		return r, err
	case "list(string)":
		var xs []string
		err := json.Unmarshal(*d.Value, &xs)
		r.Value = listText(xs)
		if len(xs) == 0 {
			r.Type, r.Value = "list()", "[]"
		}
		return r, err
	}
	return result{Type: "opaque", Opaque: true}, nil
}

// input: c as one bench_cel_diff line.
func (c testCase) input() []byte {
	if c.dev == nil {
		b, _ := json.Marshal(c.expr)
		return b
	}
	b, _ := json.Marshal(map[string]any{"expr": c.expr, "driver": c.driver, "device": c.dev})
	return b
}

// describe: the expression, and for a device case the device (JSON).
func (c testCase) describe() string {
	if c.dev == nil {
		return c.expr
	}
	b, _ := json.Marshal(c.dev)
	return c.expr + "\n  device (driver " + c.driver + "): " + string(b)
}

func main() {
	helper := flag.String("dra", "build/bench_cel_diff", "dra's side: the bench_cel_diff binary")
	in := flag.String("exprs", "-", "expressions, one JSON string a line (- for stdin); a line may also be a device case as bench_cel_diff reads it, {\"expr\", \"driver\", \"device\"}")
	printAll := flag.Bool("print", false, "print both answers of every case, agreeing or not")
	seed := flag.String("seed", "?", "the generator's seed, printed with each disagreement")
	devices := flag.Int("devices", 0, "device-shaped cases to generate (devicegen.go) from -seed")
	flag.Parse()

	f := os.Stdin
	if *in != "-" {
		var err error
		if f, err = os.Open(*in); err != nil {
			fmt.Println("celdiff:", err)
			os.Exit(2)
		}
	}
	var cases []testCase
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var e string
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			var dc struct {
				Expr   string              `json:"expr"`
				Driver string              `json:"driver"`
				Device *resourceapi.Device `json:"device"`
			}
			if err := json.Unmarshal(sc.Bytes(), &dc); err != nil || dc.Device == nil {
				fmt.Println("celdiff: input is neither a JSON string nor a device case:", sc.Text())
				os.Exit(2)
			}
			cases = append(cases, testCase{expr: dc.Expr, driver: dc.Driver, dev: dc.Device})
			continue
		}
		if !seen[e] {
			seen[e] = true
			cases = append(cases, testCase{expr: e})
		}
	}
	for e := range known {
		// device cases are regenerated from -seed; the rest run on the empty device
		if !seen[e] && !strings.Contains(e, "device.") {
			seen[e] = true
			cases = append(cases, testCase{expr: e})
		}
	}
	if *devices > 0 {
		n, err := strconv.ParseInt(*seed, 10, 64)
		if err != nil {
			fmt.Println("celdiff: -devices needs a numeric -seed")
			os.Exit(2)
		}
		for _, dc := range deviceCases(n, *devices) {
			// As the scheduler sees it: decoded from the API's JSON (a
			// quantity parsed from its canonical text, "1.5Gi" as "1536Mi").
			var dev resourceapi.Device
			b, _ := json.Marshal(dc.device)
			if err := json.Unmarshal(b, &dev); err != nil {
				fmt.Println("celdiff: generated device does not round-trip:", err)
				os.Exit(2)
			}
			cases = append(cases, testCase{expr: dc.expr, driver: genDriver, dev: &dev})
		}
	}

	var input bytes.Buffer
	for _, c := range cases {
		input.Write(c.input())
		input.WriteByte('\n')
	}
	cmd := exec.Command(*helper, "-")
	cmd.Stdin = &input
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		fmt.Printf("celdiff: %s: %v\n0 passed, 1 failed\n", *helper, err)
		os.Exit(1)
	}
	lines := bytes.Split(bytes.TrimRight(out, "\n"), []byte("\n"))
	if len(lines) != len(cases) {
		fmt.Printf("celdiff: %s answered %d lines for %d cases\n0 passed, 1 failed\n", *helper, len(lines), len(cases))
		os.Exit(1)
	}
	passed, failed, knownN, costs, runtimes, deviceN := 0, 0, 0, 0, 0, 0
	kinds := map[string]int{} // upstream's answers: compile error, eval error, value
	for i, c := range cases {
		if c.dev != nil {
			deviceN++
		}
		u := upstream(c)
		d, err := fromDra(lines[i])
		if err != nil {
			fmt.Printf("FAIL (seed %s): %s\n  dra's line unreadable: %s\n", *seed, c.describe(), lines[i])
			failed++
			continue
		}
		switch {
		case u.Stage == "compile":
			kinds["compile error"]++
		case u.Stage != "":
			kinds["eval error"]++
		default:
			kinds["value"]++
		}
		if u.Cost != "" && d.Cost != "" {
			costs++
		}
		if u.Actual != "" && d.Actual != "" {
			runtimes++
		}
		what := differ(u, d)
		if *printAll {
			fmt.Printf("CASE: %s\n  upstream: %s\n  dra:      %s\n", c.describe(), u, d)
		}
		why, isKnown := known[c.expr]
		if bug := knownUpstreamError(u); bug != "" && what != "" {
			why, isKnown = bug, true
		}
		switch {
		case what == "" && isKnown && (c.dev != nil) == strings.Contains(c.expr, "device."):
			fmt.Printf("FIXED (remove from known in celdiff and DISAGREEMENTS.md): %s\n", c.expr)
			passed++
		case what == "":
			passed++
		case isKnown:
			fmt.Printf("KNOWN (seed %s, %s: %s): %s\n  upstream: %s\n  dra:      %s\n", *seed, what, why, c.describe(), u, d)
			knownN++
			passed++
		default:
			fmt.Printf("FAIL (seed %s, %s): %s\n  upstream: %s\n  dra:      %s\n", *seed, what, c.describe(), u, d)
			failed++
		}
	}
	fmt.Printf("celdiff: %d cases, %d of them on generated devices (upstream: %d values, %d eval errors, %d compile errors), %d estimated and %d runtime costs compared, %d known disagreements\n",
		len(cases), deviceN, kinds["value"], kinds["eval error"], kinds["compile error"], costs, runtimes, knownN)
	fmt.Printf("%d passed, %d failed\n", passed, failed)
	if failed > 0 {
		os.Exit(1)
	}
}
