// cronnext prints what github.com/robfig/cron/v3 (through k8s.io/kubernetes
// pkg/util/parsers) makes of schedules, one per input line: "spec<TAB>error"
// or the next three activations after a start time (RFC 3339, UTC), to
// check src/api/cron_schedule.c against (tests/unit/test_cron_schedule.c).
// Usage: cronnext -from 2026-03-07T10:30:00Z < schedules
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"k8s.io/kubernetes/pkg/util/parsers"
)

func main() {
	from := flag.String("from", "2026-03-07T10:30:00Z", "start time")
	flag.Parse()
	t0, err := time.Parse(time.RFC3339, *from)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		spec := in.Text()
		s, err := parsers.ParseCronScheduleWithPanicRecovery(spec)
		if err != nil {
			fmt.Printf("%q\terror %s\n", spec, err)
			continue
		}
		var out []string
		t := t0
		for i := 0; i < 3; i++ {
			t = s.Next(t)
			if t.IsZero() {
				out = append(out, "none")
				break
			}
			out = append(out, t.UTC().Format(time.RFC3339))
		}
		fmt.Printf("%q\t%s\n", spec, strings.Join(out, " "))
	}
}
