// A budget of CPU time for one upstream Allocate: the context ends when
// the OS thread running it has used the budget. A wall-clock timeout
// would skip other cases on a loaded machine than on an idle one; CPU
// time keeps the skipped cases (nearly) the same from run to run.
package main

import (
	"context"
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// threadCPU is the CPU time the thread tid has used.
func threadCPU(tid int) time.Duration {
	// Linux's clock id of a thread's CPU clock: MAKE_THREAD_CPUCLOCK(tid,
	// CPUCLOCK_SCHED) in include/linux/posix-timers.h.
	var ts unix.Timespec
	if unix.ClockGettime(int32(^tid<<3|6), &ts) != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}

// withCPUBudget runs f with a context that is cancelled once f's thread
// has used budget of CPU time (checked when that much wall time has
// passed, and again as long as the thread has used less).
func withCPUBudget(budget time.Duration, f func(ctx context.Context)) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	tid := unix.Gettid()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	start := threadCPU(tid)
	var check func()
	timer := time.AfterFunc(budget, func() { check() })
	check = func() {
		if used := threadCPU(tid) - start; used < budget {
			timer.Reset(budget - used)
			return
		}
		cancel()
	}
	defer timer.Stop()
	f(ctx)
}
