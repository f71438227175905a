package server

import (
	"bytes"
	"runtime"
	"testing"
	"time"
)

// goroutineID reads the calling goroutine's number from its stack's head.
func goroutineID() string {
	b := make([]byte, 64)
	b = b[:runtime.Stack(b, false)]
	b = bytes.TrimPrefix(b, []byte("goroutine "))
	return string(b[:bytes.IndexByte(b, ' ')])
}

// Tasks that come one after another run on one kept goroutine; a task that
// comes while the others are busy gets a goroutine of its own at once; a
// worker with nothing to do ends.
func TestWorkersKeepTheirGoroutines(t *testing.T) {
	w := newWorkers(200 * time.Millisecond)
	before := runtime.NumGoroutine()
	ids := map[string]bool{}
	for range 50 {
		done := make(chan string)
		w.run(func() { done <- goroutineID() })
		ids[<-done] = true
		time.Sleep(time.Millisecond) // the worker waits for the next task again
	}
	if len(ids) > 2 {
		t.Errorf("50 tasks one after another ran on %d goroutines", len(ids))
	}

	release := make(chan struct{})
	w.run(func() { <-release })
	ran := make(chan struct{})
	w.run(func() { close(ran) })
	select {
	case <-ran:
	case <-time.After(5 * time.Second):
		t.Fatal("a task waited for a busy worker")
	}
	close(release)

	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines a second after the last task, %d before the first", runtime.NumGoroutine(), before)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
