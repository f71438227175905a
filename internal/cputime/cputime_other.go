//go:build !unix

// Package cputime reads the CPU time the process has used, on every thread,
// user and system: what the benchmarks and the load test report an action
// or a write costs, so that figures from a shared machine can be compared.
package cputime

import "time"

// Process returns 0: this system's CPU time is not read.
func Process() time.Duration { return 0 }
