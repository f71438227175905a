package match

import (
	"context"
	"time"

	"sortie/engine"
	"sortie/internal/store"
)

// SetHistoryLimit lowers the bound of histories for a test, and returns
// what puts it back.
func SetHistoryLimit(n int) (restore func()) {
	old := historyLimit
	historyLimit = n
	return func() { historyLimit = old }
}

// Turn returns, for a benchmark, the seq of the match's state, a seat that
// may act in it and that seat's legal actions (none when nobody may act
// now), and whether the match is over.
func (x *Match) Turn(ctx context.Context, pick func(n int) int) (seq uint64, s engine.Seat, legal []engine.Action, over bool) {
	_ = x.do(ctx, func() error {
		seq, over = x.seq, x.rec.Status != store.Running
		if over {
			return nil
		}
		actors := x.state.Actors()
		if len(actors) == 0 {
			return nil
		}
		s = actors[pick(len(actors))]
		legal = x.state.Legal(s)
		return nil
	})
	return seq, s, legal, over
}

// PauseAfterArming has every goroutine that lets a match go, having armed
// the match's wake timer to ring within a second, pause until a little
// after it rings, as a preempted one would; it returns what puts it back
// (call it once the manager has shut down).
func PauseAfterArming() (restore func()) {
	testAfterArming = func(d time.Duration) {
		if d < time.Second {
			time.Sleep(d + 5*time.Millisecond)
		}
	}
	return func() { testAfterArming = nil }
}

// KnowsPeer reports whether this node has heard lately from node name,
// which is not draining.
func (m *Manager) KnowsPeer(name string) bool {
	for _, p := range m.node.livePeers() {
		if p.Node == name {
			return true
		}
	}
	return false
}
