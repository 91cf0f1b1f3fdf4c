// Comparing dra's answer with upstream's, and naming the disagreement's
// class: the kind, create or update, and the first difference with indices
// and map keys blanked ("ResourceClaim create: missing error
// FieldValueInvalid spec.devices.requests[*].name").
package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

var bracketRE = regexp.MustCompile(`\[[^\]]*\]`)

func fieldPattern(f string) string { return bracketRE.ReplaceAllString(f, "[*]") }

func errPattern(e FieldError) string { return e.Type + " " + fieldPattern(e.Field) }

// dra's own warning for a field it drops because its gate is off; upstream
// drops the field silently (DISAGREEMENTS.md, "Validation").
func isDroppedWarning(w string) bool { return strings.Contains(w, ": dropped, feature gate ") }

func upstreamWarnings(r Result) []string { return r.Warnings }

func draWarnings(r Result) []string {
	var out []string
	for _, w := range r.Warnings {
		if !isDroppedWarning(w) {
			out = append(out, w)
		}
	}
	return out
}

func caseKind(c *Case) string {
	var tm struct{ Kind string }
	json.Unmarshal(c.Object, &tm)
	op := "create"
	if len(c.Old) > 0 {
		op = "update"
	}
	if tm.Kind == "" {
		tm.Kind = "?"
	}
	return tm.Kind + " " + op
}

func firstPattern(errs []FieldError) string {
	if len(errs) == 0 {
		return "no errors"
	}
	return errPattern(errs[0])
}

// compare returns "" when dra agrees, else the class and a description.
func compare(c *Case, up, dr Result) (class, detail string) {
	ko := caseKind(c)
	if dr.Status == "crash" {
		return ko + ": dra crashed", dr.Error
	}
	if up.Status != dr.Status {
		side := up.Errors
		if len(side) == 0 {
			side = dr.Errors
		}
		return fmt.Sprintf("%s: upstream %s, dra %s: %s", ko, up.Status, dr.Status, firstPattern(side)),
			describe(up, dr)
	}
	if up.Status == statusBadRequest && up.Error != dr.Error {
		return ko + ": badrequest message: " + decodeProblem(up.Error), describe(up, dr)
	}
	if up.Status == statusInvalid {
		n := len(up.Errors)
		if len(dr.Errors) > n {
			n = len(dr.Errors)
		}
		for i := 0; i < n; i++ {
			switch {
			case i >= len(dr.Errors):
				return fmt.Sprintf("%s: missing error %s", ko, errPattern(up.Errors[i])), describe(up, dr)
			case i >= len(up.Errors):
				return fmt.Sprintf("%s: extra error %s", ko, errPattern(dr.Errors[i])), describe(up, dr)
			case up.Errors[i] == dr.Errors[i]:
				continue
			case errPattern(up.Errors[i]) == errPattern(dr.Errors[i]):
				return fmt.Sprintf("%s: different text %s", ko, errPattern(up.Errors[i])), describe(up, dr)
			case contains(dr.Errors, up.Errors[i]) && contains(up.Errors, dr.Errors[i]):
				return fmt.Sprintf("%s: order %s", ko, errPattern(up.Errors[i])), describe(up, dr)
			case contains(dr.Errors, up.Errors[i]):
				return fmt.Sprintf("%s: extra error %s", ko, errPattern(dr.Errors[i])), describe(up, dr)
			default:
				return fmt.Sprintf("%s: missing error %s", ko, errPattern(up.Errors[i])), describe(up, dr)
			}
		}
	}
	uw, dw := upstreamWarnings(up), draWarnings(dr)
	if strings.Join(uw, "\n") != strings.Join(dw, "\n") {
		first := func(l []string) string {
			if len(l) == 0 {
				return "none"
			}
			return strings.SplitN(l[0], ":", 2)[0]
		}
		return fmt.Sprintf("%s: warnings: upstream %s, dra %s", ko, first(uw), first(dw)), describe(up, dr)
	}
	return "", ""
}

func contains(l []FieldError, e FieldError) bool {
	for _, x := range l {
		if x == e {
			return true
		}
	}
	return false
}

func describe(up, dr Result) string {
	var sb strings.Builder
	for _, side := range []struct {
		name string
		r    Result
	}{{"upstream", up}, {"dra", dr}} {
		fmt.Fprintf(&sb, "%s: %s", side.name, side.r.Status)
		if side.r.Error != "" {
			fmt.Fprintf(&sb, " (%s)", side.r.Error)
		}
		sb.WriteByte('\n')
		for _, e := range side.r.Errors {
			fmt.Fprintf(&sb, "  %s %s: %s\n", e.Type, e.Field, clip(e.Body, 300))
		}
		for _, w := range side.r.Warnings {
			fmt.Fprintf(&sb, "  warning: %s\n", clip(w, 300))
		}
	}
	return strings.TrimRight(sb.String(), "\n")
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return fmt.Sprintf("%s... (%d bytes)", s[:n], len(s))
}

// decodeProblem: what kind of decoding problem upstream's message names.
func decodeProblem(msg string) string {
	if _, after, ok := strings.Cut(msg, " cannot be handled as a "); ok {
		if _, rest, ok := strings.Cut(after, ": "); ok {
			msg = rest
		}
	}
	switch {
	case strings.HasPrefix(msg, "json: cannot unmarshal"):
		return "wrong JSON type"
	case strings.HasPrefix(msg, "strict decoding error"):
		return "strict decoding"
	case strings.Contains(msg, "quantities must match"):
		return "quantity"
	}
	f := strings.Fields(msg)
	if len(f) > 4 {
		f = f[:4]
	}
	return strings.Join(f, " ")
}
