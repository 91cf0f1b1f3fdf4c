// allocdiff: upstream's structured allocator as the judge of dra's.
//
//	allocdiff -count N -seed S [-dra build/dra]   generate N cases, run upstream
//	                                              in-process and `dra allocate
//	                                              --batch` as one subprocess, compare
//	allocdiff -gen -count N -seed S               print the cases (NDJSON)
//	allocdiff -upstream < cases.ndjson            upstream's results (NDJSON)
//	allocdiff -bench cluster.yaml                 upstream's Allocate timed per
//	                                              claim shape (bench/upstream.sh)
//
// Every disagreement prints the seed, the case id, the class and a
// minimized case as YAML; the summary counts disagreements per class. Exit
// 0 when dra agrees on every case, 1 otherwise, 2 on a usage or tool error.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
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
	flagGen      = flag.Bool("gen", false, "print the generated cases as NDJSON and exit")
	flagUpstream = flag.Bool("upstream", false, "read NDJSON cases on stdin, print upstream's results")
	flagOut      = flag.String("out", "", "directory for minimized disagreements in the allocator vector format")
	flagTimeout  = flag.Duration("timeout", 10*time.Second, "upstream's budget per case")
	flagShow     = flag.Int("show", 3, "minimized cases printed per disagreement class (all are counted)")
	flagVerbose  = flag.Bool("v", false, "print a line per 10,000 cases, and each new disagreement class")
	flagCases    = flag.String("cases", "", "judge the NDJSON cases of this file instead of generated ones")
	flagWorkers  = flag.Int("j", runtime.GOMAXPROCS(0), "cases upstream answers at once")
	flagProfile  = flag.String("cpuprofile", "", "write a Go CPU profile of the run to this file")
	flagBench    = flag.String("bench", "", "time upstream's Allocate on the claim shapes of this cluster (bench_alloc_cluster --emit)")
	flagBenchFor = flag.String("benchtime", "1s", "with -bench: testing's benchtime per shape (a duration, or Nx)")
)

func main() {
	flag.Parse()
	if *flagProfile != "" {
		f, err := os.Create(*flagProfile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "error:", err)
			os.Exit(2)
		}
	}
	code := run()
	pprof.StopCPUProfile()
	os.Exit(code)
}

func run() int {
	switch {
	case *flagUpstream:
		return upstreamMode()
	case *flagBench != "":
		return benchMode(*flagBench, *flagBenchFor, *flagTimeout)
	case *flagGen:
		w := bufio.NewWriter(os.Stdout)
		each(func(i int) {
			b, _ := json.Marshal(generate(*flagSeed, i))
			w.Write(append(b, '\n'))
		})
		w.Flush()
		return 0
	default:
		return diffMode()
	}
}

var fileCases []*Case

// caseAt: case i, generated or from -cases (nil past the end).
func caseAt(i int) *Case {
	if *flagCases == "" {
		return generate(*flagSeed, i)
	}
	if i < len(fileCases) {
		return fileCases[i]
	}
	return nil
}

func loadCases() error {
	if *flagCases == "" {
		return nil
	}
	b, err := os.ReadFile(*flagCases)
	if err != nil {
		return err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var c Case
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			return fmt.Errorf("%s: %w", *flagCases, err)
		}
		fileCases = append(fileCases, &c)
	}
	*flagCount = len(fileCases)
	return nil
}

func each(f func(i int)) { ndjson.EachCase(*flagOnly, *flagCount, f) }

func upstreamMode() int {
	err := ndjson.Answer(os.Stdin, os.Stdout, func(line []byte) (any, error) {
		var c Case
		if err := json.Unmarshal(line, &c); err != nil {
			return nil, err
		}
		res, _ := runUpstream(&c, *flagTimeout)
		return res, nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		return 2
	}
	return 0
}

func startDra() (*ndjson.Proc, error) { return ndjson.Start(*flagDra, "allocate", "--batch") }

// runDraOne answers one case with a fresh dra process (for minimizing).
func runDraOne(c *Case) Result {
	var r Result
	if err := ndjson.One(*flagDra, c, &r, "allocate", "--batch"); err != nil {
		return Result{ID: c.ID, Status: "crash", Error: err.Error()}
	}
	return r
}

// job is one case on its way through the upstream workers.
type job struct {
	c       *Case
	up      Result
	channel string
	took    time.Duration
	done    chan struct{}
}

type disagreement struct {
	class, detail string
	c             *Case
	up            Result
}

func diffMode() int {
	if err := loadCases(); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		return 2
	}
	if _, err := os.Stat(*flagDra); err != nil {
		fmt.Fprintf(os.Stderr, "error: %v (build it with make, or pass -dra)\n", err)
		return 2
	}
	start := time.Now()
	p, err := startDra()
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		return 2
	}
	// The feeder hands each case to dra and to the upstream workers; the
	// main loop takes the cases back in order (dra answers in order) once
	// upstream has answered them.
	inOrder := make(chan *job, 256)
	work := make(chan *job, 256)
	go func() {
		each(func(i int) {
			c := caseAt(i)
			if c == nil {
				return
			}
			p.Send(c)
			j := &job{c: c, done: make(chan struct{})}
			work <- j
			inOrder <- j
		})
		close(work)
		close(inOrder)
		p.CloseInput()
	}()
	for w := 0; w < *flagWorkers; w++ {
		go func() {
			for j := range work {
				t0 := time.Now()
				j.up, j.channel = runUpstream(j.c, *flagTimeout)
				j.took = time.Since(t0)
				close(j.done)
			}
		}()
	}
	classes := map[string]int{}
	statuses := map[string]int{}
	channels := map[string]int{}
	var first = map[string][]disagreement{}
	n, skipped := 0, 0
	var upTime time.Duration
	crashed := false
	for j := range inOrder {
		<-j.done
		c, up, channel := j.c, j.up, j.channel
		upTime += j.took
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
		if noVerdict(up) {
			// Not a verdict: the case is too hard for upstream, or not a case.
			skipped++
			if up.Error != errUpstreamTimeout.Error() {
				fmt.Fprintf(os.Stderr, "generator bug? seed %d case %s: %s\n", *flagSeed, c.ID, up.Error)
			}
			continue
		}
		statuses[up.Status]++
		channels[channel]++
		class, detail := compare(up, dr)
		if class == "" {
			continue
		}
		if channel != "experimental" {
			// kube-scheduler would run the stable or incubating variant
			// for these gates; dra follows the experimental one.
			if ex, _ := runUpstreamWith(c, *flagTimeout, "experimental"); func() bool { k, _ := compare(ex, dr); return k == "" }() {
				class = "known: (kube-scheduler runs upstream's " + channel + " allocator here, dra follows experimental): " + class
				up = ex
			}
		}
		classes[class]++
		if len(first[class]) < *flagShow {
			first[class] = append(first[class], disagreement{class, detail, c, up})
		}
		if *flagVerbose && classes[class] == 1 {
			fmt.Fprintf(os.Stderr, "new class %q at case %s\n", class, c.ID)
		}
	}
	p.Close()
	// Report: every class, the first few cases of each minimized.
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
	total := 0
	for _, v := range classes {
		total += v
	}
	fmt.Printf("seed %d: %d cases (%d skipped), upstream answers: %d ok, %d unsatisfiable, %d error; allocators: %v\n",
		*flagSeed, n, skipped, statuses[statusOK], statuses[statusUnsatisfiable], statuses[statusError], channels)
	fmt.Printf("time: %s total, %s in upstream (summed over workers)\n", time.Since(start).Round(time.Millisecond), upTime.Round(time.Millisecond))
	known := 0
	for _, k := range names {
		fmt.Printf("disagreement class %q: %d cases\n", k, classes[k])
		if strings.HasPrefix(k, "known: ") {
			known += classes[k]
		}
	}
	total -= known
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
	m := minimize(d.c, d.class)
	up, _ := runUpstream(m, *flagTimeout)
	dr := runDraOne(m)
	_, detail := compare(up, dr)
	fmt.Printf("=== DISAGREEMENT seed %d case %s: %s\n", *flagSeed, d.c.ID, d.class)
	fmt.Printf("reproduce: allocdiff -seed %d -only %s -dra %s\n", *flagSeed, strings.TrimPrefix(d.c.ID, fmt.Sprint(*flagSeed, "-")), *flagDra)
	fmt.Println(detail)
	y := caseYAML(m, up, d.class)
	fmt.Println("--- minimized case (the vector format: `dra allocate` reads the documents after the first):")
	fmt.Print(y)
	if *flagOut != "" {
		os.MkdirAll(*flagOut, 0o755)
		f := filepath.Join(*flagOut, fmt.Sprintf("diff-%s.yaml", d.c.ID))
		os.WriteFile(f, []byte(y), 0o644)
		fmt.Println("--- written to", f)
	}
	fmt.Println("=== END")
}
