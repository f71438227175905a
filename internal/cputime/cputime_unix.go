//go:build unix

// Package cputime reads the CPU time the process has used, on every thread,
// user and system: what the benchmarks and the load test report an action
// or a write costs, so that figures from a shared machine can be compared.
package cputime

import (
	"syscall"
	"time"
)

// Process returns the CPU time this process has used so far, or 0 where
// the system cannot tell.
func Process() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
