package cputime

import (
	"runtime"
	"testing"
)

// Work done on the CPU shows in the process's CPU time.
func TestProcessCountsWork(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("not read on this system")
	}
	before := Process()
	x := 0
	for i := range 50_000_000 {
		x += i % 7
	}
	if after := Process(); after <= before {
		t.Fatalf("CPU time %v after a busy loop (%d), %v before", after, x, before)
	}
}
