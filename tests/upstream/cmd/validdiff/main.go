// validdiff: upstream's admission (defaulting, registry strategy and
// validation of k8s.io/kubernetes v1.37.2) as the judge of `dra validate`.
//
//	validdiff -count N -seed S [-dra build/dra]   generate N cases, run upstream
//	                                              in-process and `dra validate
//	                                              --batch` as one subprocess, compare
//	validdiff -gen -count N -seed S               print the cases (NDJSON)
//	validdiff -upstream < cases.ndjson            upstream's results (NDJSON)
//
// Every disagreement class prints the seed, the case id, how to reproduce it
// and a minimized case as YAML; the summary counts cases per class. Classes
// listed in known.go (with their reason; DISAGREEMENTS.md) do not fail.
// Exit 0 when dra agrees on every case but known ones, 1 otherwise, 2 on a
// usage or tool error.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"dra.test/upstream/internal/ndjson"
)

var (
	flagCount    = flag.Int("count", 100, "cases to generate")
	flagSeed     = flag.Uint64("seed", 1, "generator seed")
	flagOnly     = flag.Int("only", -1, "run only case number i of the seed")
	flagDra      = flag.String("dra", "build/dra", "the dra binary")
	flagExamples = flag.String("examples", "examples", "the directory of valid objects the cases start from")
	flagGen      = flag.Bool("gen", false, "print the generated cases as NDJSON and exit")
	flagUpstream = flag.Bool("upstream", false, "read NDJSON cases on stdin, print upstream's results")
	flagShow     = flag.Int("show", 1, "minimized cases printed per disagreement class (all are counted)")
	flagVerbose  = flag.Bool("v", false, "print each new class and a line per 10000 cases")
	flagMinimize = flag.Bool("minimize", true, "minimize the cases shown (false: show them as generated)")
)

func main() {
	flag.Parse()
	if *flagUpstream {
		os.Exit(upstreamMode())
	}
	if err := loadBases(*flagExamples); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(2)
	}
	if *flagGen {
		w := bufio.NewWriter(os.Stdout)
		each(func(i int) {
			b, _ := json.Marshal(generate(*flagSeed, i))
			w.Write(append(b, '\n'))
		})
		w.Flush()
		return
	}
	os.Exit(diffMode())
}

func each(f func(i int)) { ndjson.EachCase(*flagOnly, *flagCount, f) }

func upstreamMode() int {
	err := ndjson.Answer(os.Stdin, os.Stdout, func(line []byte) (any, error) {
		var c Case
		if err := json.Unmarshal(line, &c); err != nil {
			return nil, err
		}
		return runUpstream(&c), nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		return 2
	}
	return 0
}

// runDraOne answers one case with a fresh dra process (for minimizing).
func runDraOne(c *Case) Result {
	var r Result
	if err := ndjson.One(*flagDra, c, &r, "validate", "--batch"); err != nil {
		return Result{ID: c.ID, Status: "crash", Error: err.Error()}
	}
	return r
}

type disagreement struct {
	class, detail string
	c             *Case
}

func diffMode() int {
	if _, err := os.Stat(*flagDra); err != nil {
		fmt.Fprintf(os.Stderr, "error: %v (build it with make, or pass -dra)\n", err)
		return 2
	}
	start := time.Now()
	p, err := ndjson.Start(*flagDra, "validate", "--batch")
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		return 2
	}
	cases := make(chan *Case, 64)
	go func() {
		each(func(i int) {
			c := generate(*flagSeed, i)
			p.Send(c)
			cases <- c
		})
		close(cases)
		p.CloseInput()
	}()
	classes := map[string]int{}
	statuses := map[string]int{}
	first := map[string][]disagreement{}
	n, skipped := 0, 0
	var upTime time.Duration
	crashed := false
	for c := range cases {
		t0 := time.Now()
		up := runUpstream(c)
		upTime += time.Since(t0)
		var dr Result
		if !crashed {
			dr = Result{}
			if err = p.Read(&dr); err != nil {
				crashed = true
				dr = Result{ID: c.ID, Status: "crash", Error: err.Error()}
			}
		} else {
			dr = runDraOne(c)
		}
		n++
		if *flagVerbose && n%10000 == 0 {
			fmt.Fprintf(os.Stderr, "%d cases, %s\n", n, time.Since(start).Round(time.Second))
		}
		if dr.ID != c.ID && dr.Status != "crash" {
			fmt.Fprintf(os.Stderr, "error: dra answered %s for case %s\n", dr.ID, c.ID)
			return 2
		}
		if up.Status == statusError {
			// Not a verdict: the old object of an update is itself invalid.
			skipped++
			continue
		}
		statuses[up.Status]++
		class, detail := compare(c, up, dr)
		if class == "" {
			continue
		}
		if reason := knownReason(class); reason != "" {
			class = "known: " + class
		}
		classes[class]++
		if len(first[class]) < *flagShow {
			first[class] = append(first[class], disagreement{class, detail, c})
		}
		if *flagVerbose && classes[class] == 1 {
			fmt.Fprintf(os.Stderr, "new class %q at case %s\n", class, c.ID)
		}
	}
	p.Close()
	var names []string
	for k := range classes {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		for _, d := range first[k] {
			report(d)
		}
	}
	fmt.Printf("seed %d: %d cases (%d skipped: invalid old object), upstream answers: %d ok, %d invalid, %d badrequest\n",
		*flagSeed, n, skipped, statuses[statusOK], statuses[statusInvalid], statuses[statusBadRequest])
	fmt.Printf("time: %s total, %s in upstream\n", time.Since(start).Round(time.Millisecond), upTime.Round(time.Millisecond))
	total, known := 0, 0
	for _, k := range names {
		fmt.Printf("disagreement class %q: %d cases\n", k, classes[k])
		if strings.HasPrefix(k, "known: ") {
			known += classes[k]
		} else {
			total += classes[k]
		}
	}
	fmt.Printf("%d disagreements (%d more in known classes)\n", total, known)
	// The script tests' summary line: a case passes when dra agrees with
	// upstream or the disagreement is of a known class (listed above).
	fmt.Printf("%d passed, %d failed\n", n-skipped-total, total)
	if total > 0 {
		return 1
	}
	return 0
}

func report(d disagreement) {
	class := strings.TrimPrefix(d.class, "known: ")
	m := d.c
	if *flagMinimize {
		m = minimize(d.c, class)
	}
	up := runUpstream(m)
	_, detail := compare(m, up, runDraOne(m))
	fmt.Printf("=== DISAGREEMENT seed %d case %s: %s\n", *flagSeed, d.c.ID, d.class)
	if r := knownReason(class); r != "" {
		fmt.Printf("known because: %s\n", r)
	}
	fmt.Printf("reproduce: validdiff -seed %d -only %s -dra %s\n", *flagSeed,
		strings.TrimPrefix(d.c.ID, fmt.Sprint(*flagSeed, "-")), *flagDra)
	fmt.Println(detail)
	if *flagMinimize {
		fmt.Println("--- minimized case:")
	} else {
		fmt.Println("--- case:")
	}
	fmt.Print(caseYAML(m))
	fmt.Println("=== END")
}
