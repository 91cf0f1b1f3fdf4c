// celdiff: the real DRA CEL environment (k8s.io/dynamic-resource-allocation/cel
// v0.37.2: its compiler, with the device variable and its libraries) as the
// judge of dra's CEL (src/cel). It reads expressions, one JSON string a line
// (tests/upstream_cel.sh makes them with tests/cel_differential/gen.mjs),
// answers each one in-process with upstream's compiler, and all of them with
// dra's bench_cel_diff (one subprocess), the same way bench_cel_diff does:
//
//   - compiled as a device selector (StoredExpressions) on an empty device;
//     refused by the type checker: a compile error on both sides;
//   - a bool: DeviceMatches, plus the estimated cost of both;
//   - uint, double, bytes: string(E) as a derived attribute, compared as text;
//   - anything else: dyn(E) as a derived attribute (int, bool, string and
//     lists of them compared by value; other runtime types only as "opaque").
//
// Errors compare by class (no such overload, division by zero, modulus by
// zero, invalid argument, no such key, type conversion/range). Every
// disagreement prints the seed and the expression; the ones listed in
// `known` (DISAGREEMENTS.md, "CEL") pass, as KNOWN. Exit 1 on any other.
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
	dracel "k8s.io/dynamic-resource-allocation/cel"
)

type result struct {
	Stage  string // "compile", "eval" or "" (a value)
	Error  string
	Type   string // bool, int, string, uint, double, bytes, list(int|bool|string), or opaque
	Value  string // canonical text of the value
	Cost   string // estimated cost of a selector, "" when none
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
	return ""
}

var compiler = dracel.GetCompiler(dracel.Features{EnableConsumableCapacity: true, EnableListTypeAttributes: true})
var emptyDevice = dracel.Device{}

func upstream(expr string) result {
	ctx := context.Background()
	sel := compiler.CompileCELExpression(expr, dracel.Options{})
	if sel.Error != nil && strings.HasPrefix(sel.Error.Detail, "compilation failed") {
		return result{Stage: "compile", Error: sel.Error.Detail}
	}
	if sel.Error == nil {
		ok, _, err := sel.DeviceMatches(ctx, emptyDevice)
		if err != nil {
			return result{Stage: "eval", Error: err.Error()}
		}
		return result{Type: "bool", Value: strconv.FormatBool(ok), Cost: strconv.FormatUint(sel.MaxCost, 10)}
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
	attr, _, err := der.EvaluateDerivedAttribute(ctx, emptyDevice)
	if err != nil {
		if strings.HasPrefix(err.Error(), "unsupported ") {
			return result{Type: "opaque", Opaque: true}
		}
		return result{Stage: "eval", Error: err.Error()}
	}
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
		Error *string          `json:"error"`
		Stage string           `json:"stage"`
		Type  string           `json:"type"`
		Value *json.RawMessage `json:"value"`
		Text  *string          `json:"text"`
		Cost  string           `json:"cost"`
	}
	if err := json.Unmarshal(line, &d); err != nil {
		return result{}, err
	}
	if d.Error != nil {
		return result{Stage: d.Stage, Error: *d.Error}, nil
	}
	if d.Text != nil {
		return result{Type: d.Type, Value: strconv.Quote(*d.Text)}, nil
	}
	if d.Value == nil {
		return result{Type: "opaque", Opaque: true}, nil
	}
	r := result{Type: d.Type, Cost: d.Cost}
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

func main() {
	helper := flag.String("dra", "build/bench_cel_diff", "dra's side: the bench_cel_diff binary")
	in := flag.String("exprs", "-", "expressions, one JSON string a line (- for stdin)")
	seed := flag.String("seed", "?", "the generator's seed, printed with each disagreement")
	flag.Parse()

	f := os.Stdin
	if *in != "-" {
		var err error
		if f, err = os.Open(*in); err != nil {
			fmt.Println("celdiff:", err)
			os.Exit(2)
		}
	}
	var exprs []string
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var e string
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			fmt.Println("celdiff: input is not a JSON string:", sc.Text())
			os.Exit(2)
		}
		if !seen[e] {
			seen[e] = true
			exprs = append(exprs, e)
		}
	}
	for e := range known {
		if !seen[e] {
			seen[e] = true
			exprs = append(exprs, e)
		}
	}

	var input bytes.Buffer
	for _, e := range exprs {
		b, _ := json.Marshal(e)
		input.Write(b)
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
	if len(lines) != len(exprs) {
		fmt.Printf("celdiff: %s answered %d lines for %d expressions\n0 passed, 1 failed\n", *helper, len(lines), len(exprs))
		os.Exit(1)
	}
	passed, failed, knownN, costs := 0, 0, 0, 0
	kinds := map[string]int{} // upstream's answers: compile error, eval error, value
	for i, e := range exprs {
		u := upstream(e)
		d, err := fromDra(lines[i])
		if err != nil {
			fmt.Printf("FAIL (seed %s): %s\n  dra's line unreadable: %s\n", *seed, e, lines[i])
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
		what := differ(u, d)
		why, isKnown := known[e]
		switch {
		case what == "" && isKnown:
			fmt.Printf("FIXED (remove from known in celdiff and DISAGREEMENTS.md): %s\n", e)
			passed++
		case what == "":
			passed++
		case isKnown:
			fmt.Printf("KNOWN (seed %s, %s: %s): %s\n  upstream: %s\n  dra:      %s\n", *seed, what, why, e, u, d)
			knownN++
			passed++
		default:
			fmt.Printf("FAIL (seed %s, %s): %s\n  upstream: %s\n  dra:      %s\n", *seed, what, e, u, d)
			failed++
		}
	}
	fmt.Printf("celdiff: %d expressions (upstream: %d values, %d eval errors, %d compile errors), %d estimated costs compared, %d known disagreements\n",
		len(exprs), kinds["value"], kinds["eval error"], kinds["compile error"], costs, knownN)
	fmt.Printf("%d passed, %d failed\n", passed, failed)
	if failed > 0 {
		os.Exit(1)
	}
}
