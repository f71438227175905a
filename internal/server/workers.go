package server

import "time"

// workers runs short tasks — a socket's reading when readiness tells it has
// something to read, a socket's writing of what its match published — on
// goroutines kept between tasks, instead of a new goroutine a task. A new
// goroutine starts on a small stack, and an action's path (decoding it,
// playing it, SQLite, encoding the views) grows it several times, copying
// it each time: a tenth of a busy server's CPU went to growing stacks. A
// kept goroutine has grown its stack once. A worker with no task for idle
// ends, so that a quiet server keeps none.
type workers struct {
	tasks chan func() // unbuffered: a send lands only with an idle worker
	idle  time.Duration
}

func newWorkers(idle time.Duration) *workers {
	return &workers{tasks: make(chan func()), idle: idle}
}

// run runs fn on an idle worker, or on a new one if none is idle. It never
// blocks.
func (w *workers) run(fn func()) {
	select {
	case w.tasks <- fn:
	default:
		go w.work(fn)
	}
}

// work runs fn, then the tasks that come while it waits, until none has
// come for w.idle.
func (w *workers) work(fn func()) {
	// The collector halves the stack of a goroutine that uses less than a
	// quarter of it when it looks, as a worker waiting between tasks
	// would: the next task then grew it again, copying it (a twentieth of
	// a busy server's CPU). A worker waits with floor in use, so that its
	// stack stays at the size its tasks need, up to four times floor.
	var floor [stackFloor]byte
	holdStack(&floor)
	t := time.NewTimer(w.idle)
	defer t.Stop()
	for {
		fn()
		fn = nil // let what the task held go while the worker waits
		t.Reset(w.idle)
		select {
		case fn = <-w.tasks:
		case <-t.C:
			return
		}
	}
}

// stackFloor is how much of its stack a worker keeps in use while it waits
// (see work): an action's path, at its deepest, needs a few times that.
const stackFloor = 8 << 10

// holdStack keeps its argument, on the caller's stack, from being optimised
// away.
//
//go:noinline
func holdStack(*[stackFloor]byte) {}
