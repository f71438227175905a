//go:build unix

package plandesecours

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process has used (user and system), so that
// benchmarks on a shared machine can report a rate per CPU second.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
