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
	"runtime/debug"
	"runtime/pprof"
	"sort"
	"strings"
	"sync"
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
	flagTimeout  = flag.Duration("timeout", 10*time.Second, "upstream's budget of CPU time per case (and dra's --timeout)")
	flagShow     = flag.Int("show", 3, "minimized cases printed per disagreement class (all are counted)")
	flagVerbose  = flag.Bool("v", false, "print a line per 10,000 cases, each new disagreement class and each skipped case")
	flagCases    = flag.String("cases", "", "judge the NDJSON cases of this file instead of generated ones")
	flagWorkers  = flag.Int("j", runtime.GOMAXPROCS(0), "workers: cases answered at once, each worker with its own dra process")
	flagProfile  = flag.String("cpuprofile", "", "write a Go CPU profile of the run to this file")
	flagBench    = flag.String("bench", "", "time upstream's Allocate on the claim shapes of this cluster (bench_alloc_cluster --emit)")
	flagBenchFor = flag.String("benchtime", "1s", "with -bench: testing's benchtime per shape (a duration, or Nx)")
)

func main() {
	flag.Parse()
	if os.Getenv("GOGC") == "" {
		// The heap is small and short-lived (one case a worker): fewer
		// collections cut about an eighth of the CPU time.
		debug.SetGCPercent(400)
	}
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

// runDraOne answers one case with a fresh dra process (for minimizing).
func runDraOne(c *Case) Result { return runDraWith(c, *flagTimeout) }

func runDraWith(c *Case, budget time.Duration) Result {
	var r Result
	if err := ndjson.One(*flagDra, c, &r, draArgs(budget)...); err != nil {
		return Result{ID: c.ID, Status: "crash", Error: err.Error()}
	}
	return r
}

// draArgs: `dra allocate --batch` with upstream's budget, so that a case
// upstream gives up on does not cost dra more.
func draArgs(budget time.Duration) []string {
	return []string{"allocate", "--batch", "--timeout", budget.String()}
}

// draBudgetRetry: dra's budget is wall-clock time, upstream's CPU time; on
// a loaded machine dra can run out where upstream did not. Such a case
// is asked again with this many times the budget before it is skipped.
const draBudgetRetry = 10

// draBudgetPrefix starts dra's error for a search cut by its budget: like
// upstream's timeout, no verdict.
const draBudgetPrefix = "allocation aborted: "

func isDraBudget(r Result) bool {
	return r.Status == statusError && strings.HasPrefix(r.Error, draBudgetPrefix)
}

// job is one case on its way through a worker: generated, answered by
// the worker's dra process and by upstream at the same time, compared.
// The summary takes the jobs in case order, so the output does not depend
// on which worker ran which case.
type job struct {
	i       int
	c       *Case
	up, dr  Result
	channel string
	class   string // "" when they agree
	detail  string
	none    bool   // past the end of -cases
	skip    string // why the case has no verdict ("" if it has one)
	took    time.Duration
	done    chan struct{}
}

type disagreement struct {
	class, detail string
	c             *Case
	up            Result
}

// worker answers jobs with upstream in-process and with its own dra
// subprocess; one case at a time is in flight to that process.
type worker struct{ p *ndjson.Proc }

func (w *worker) dra(c *Case) Result {
	if w.p == nil {
		p, err := ndjson.Start(*flagDra, draArgs(*flagTimeout)...)
		if err != nil {
			return Result{ID: c.ID, Status: "crash", Error: err.Error()}
		}
		w.p = p
	}
	if err := w.p.SendLine(c.line()); err != nil {
		return w.crashed(c, err)
	}
	return Result{}
}

func (w *worker) read(c *Case) Result {
	var r Result
	if err := w.p.Read(&r); err != nil {
		return w.crashed(c, err)
	}
	return r
}

// crashed: the process is gone; the next case starts a new one.
func (w *worker) crashed(c *Case, err error) Result {
	w.p.Close()
	w.p = nil
	return Result{ID: c.ID, Status: "crash", Error: err.Error()}
}

func (w *worker) run(j *job) {
	defer close(j.done)
	j.c = caseAt(j.i)
	if j.c == nil {
		j.none = true
		return
	}
	sent := w.dra(j.c)
	t0 := time.Now()
	j.up, j.channel = runUpstream(j.c, *flagTimeout)
	j.took = time.Since(t0)
	j.dr = sent
	if sent.Status == "" {
		j.dr = w.read(j.c)
	}
	if isDraBudget(j.dr) && !noVerdict(j.up) {
		j.dr = runDraWith(j.c, draBudgetRetry**flagTimeout)
	}
	switch {
	case j.dr.ID != j.c.ID && j.dr.Status != "crash":
		j.class, j.detail = "dra answered another case", fmt.Sprintf("dra answered %s for case %s", j.dr.ID, j.c.ID)
		return
	case noVerdict(j.up):
		j.skip = j.up.Error
		return
	case isDraBudget(j.dr):
		j.skip = draBudgetPrefix + "dra's budget"
		return
	}
	j.class, j.detail = compare(j.up, j.dr)
	if j.class != "" && j.channel != "experimental" {
		// kube-scheduler would run the stable or incubating variant
		// for these gates; dra follows the experimental one.
		if ex, _ := runUpstreamWith(j.c, *flagTimeout, "experimental"); func() bool { k, _ := compare(ex, j.dr); return k == "" }() {
			j.class = "known: (kube-scheduler runs upstream's " + j.channel + " allocator here, dra follows experimental): " + j.class
			j.up = ex
		}
	}
	if j.class == "" {
		// Agreed: only the counts are kept while the job waits its turn.
		j.c, j.dr = nil, Result{}
		j.up = Result{Status: j.up.Status}
	}
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
	if *flagWorkers < 1 {
		*flagWorkers = 1
	}
	start := time.Now()
	// The feeder hands the case numbers to whichever worker is free (a
	// case upstream needs seconds for holds up one worker only); the main
	// loop takes the jobs back in case order. The order buffer lets the
	// other workers go on meanwhile.
	inOrder := make(chan *job, 8192)
	work := make(chan *job, *flagWorkers)
	go func() {
		each(func(i int) {
			j := &job{i: i, done: make(chan struct{})}
			inOrder <- j
			work <- j
		})
		close(work)
		close(inOrder)
	}()
	var workers sync.WaitGroup
	for w := 0; w < *flagWorkers; w++ {
		workers.Add(1)
		go func() {
			defer workers.Done()
			wk := &worker{}
			for j := range work {
				wk.run(j)
			}
			if wk.p != nil {
				wk.p.Close()
			}
		}()
	}
	classes := map[string]int{}
	statuses := map[string]int{}
	channels := map[string]int{}
	skips := map[string]int{}
	var first = map[string][]disagreement{}
	n, skipped := 0, 0
	var upTime time.Duration
	for j := range inOrder {
		<-j.done
		if j.none {
			continue
		}
		upTime += j.took
		n++
		if *flagVerbose && n%10000 == 0 {
			fmt.Fprintf(os.Stderr, "%d cases, %s\n", n, time.Since(start).Round(time.Second))
		}
		if j.skip != "" {
			// Not a verdict: the case is too hard for upstream (or dra's
			// budget), or not a case.
			skipped++
			reason, _, _ := strings.Cut(j.skip, ":")
			skips[reason]++
			if j.skip != errUpstreamTimeout.Error() && !strings.HasPrefix(j.skip, draBudgetPrefix) {
				fmt.Fprintf(os.Stderr, "generator bug? seed %d case %s: %s\n", *flagSeed, j.c.ID, j.skip)
			} else if *flagVerbose {
				fmt.Fprintf(os.Stderr, "skipped case %s: %s\n", j.c.ID, j.skip)
			}
			continue
		}
		statuses[j.up.Status]++
		channels[j.channel]++
		if j.class == "" {
			continue
		}
		classes[j.class]++
		if len(first[j.class]) < *flagShow {
			first[j.class] = append(first[j.class], disagreement{j.class, j.detail, j.c, j.up})
		}
		if *flagVerbose && classes[j.class] == 1 {
			fmt.Fprintf(os.Stderr, "new class %q at case %s\n", j.class, j.c.ID)
		}
	}
	workers.Wait()
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
	fmt.Printf("seed %d: %d cases (%d skipped: %v), upstream answers: %d ok, %d unsatisfiable, %d error; allocators: %v\n",
		*flagSeed, n, skipped, skips, statuses[statusOK], statuses[statusUnsatisfiable], statuses[statusError], channels)
	fmt.Printf("time: %s total, %s in upstream (summed over %d workers)\n", time.Since(start).Round(time.Millisecond), upTime.Round(time.Millisecond), *flagWorkers)
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
