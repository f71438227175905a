package match_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"sortie/bot"
	"sortie/engine"
	"sortie/internal/match"
	"sortie/internal/match/matchtest"
	"sortie/internal/store"
)

// gated is the test card game under another id, with a bot policy "gate"
// whose bots say when they are asked and then think until the test lets
// them answer.
type gated struct {
	matchtest.Cards
	asked chan struct{}
	gate  chan struct{}
}

func (g gated) Info() engine.Info {
	i := g.Cards.Info()
	i.ID = "testgated"
	return i
}

func (g gated) Policies() []bot.Policy { return []bot.Policy{gatePolicy{g}} }

type gatePolicy struct{ g gated }

func (gatePolicy) Name() string { return "gate" }

func (p gatePolicy) NewBot(engine.Game, bot.Seating) bot.Bot { return gateBot(p) }

type gateBot gatePolicy

func (b gateBot) Decide(_ engine.View, legal []engine.Action, _ engine.Millis) bot.Decision {
	b.g.asked <- struct{}{}
	<-b.g.gate
	return bot.Decision{Action: legal[0]}
}

// gatedMatch starts a match of the gated game; release opens the gate (once).
func gatedMatch(t *testing.T, req match.CreateRequest) (g gated, x *match.Match, st *store.SQLite, release func()) {
	t.Helper()
	g = gated{asked: make(chan struct{}), gate: make(chan struct{})}
	st = openStore(t)
	m := match.NewManager(match.Config{
		Store: st, Games: []engine.Game{g}, ClockSpeed: 50,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	t.Cleanup(func() { m.Shutdown(context.Background()) })
	var open sync.Once
	release = func() {
		open.Do(func() {
			close(g.gate)
			go func() { // later questions pass the gate at once
				for range g.asked {
				}
			}()
		})
	}
	t.Cleanup(release) // first: a failing test must not leave the bot stuck
	req.Game = "testgated"
	return g, startMatch(t, m, req), st, release
}

// answersWhileThinking waits until the gate bot is asked, then checks that
// the match answers a human while the bot thinks — a snapshot, and an
// action of seat other, out of turn, refused — and returns once it has, or
// fails. (If the bot thought in the match's run, these calls would
// wait for the gate, which opens only after them.)
func answersWhileThinking(t *testing.T, g gated, x *match.Match, other engine.Seat, seq uint64, a []byte) {
	t.Helper()
	select {
	case <-g.asked:
	case <-time.After(10 * time.Second):
		t.Fatal("the bot was never asked")
	}
	answered := make(chan error, 1)
	go func() {
		b, err := x.Snapshot(context.Background(), other)
		if err == nil && len(b) == 0 {
			err = errors.New("empty snapshot")
		}
		if err == nil {
			if err = x.Act(context.Background(), other, seq, a); match.AsError(err).Code == engine.CodeNotYourTurn {
				err = nil
			} else {
				err = fmt.Errorf("an action out of turn: %v", err)
			}
		}
		answered <- err
	}()
	select {
	case err := <-answered:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the match did not answer while its bot was thinking")
	}
}

// waitSeq waits until the match has reached record seq.
func waitSeq(t *testing.T, x *match.Match, seq uint64) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for snapshot(t, x, 0).Seq < seq {
		if time.Now().After(deadline) {
			t.Fatalf("the bot's answer was never played (seq %d)", seq)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// A bot that thinks for a long time does not hold up its match: while it
// thinks, the match answers its human at once, and the bot's move is played
// when it answers.
func TestBotsThinkAside(t *testing.T) {
	g, x, _, release := gatedMatch(t, match.CreateRequest{Seats: []match.SeatRequest{
		{Kind: match.Human}, {Kind: match.Bot, Bot: "gate"},
	}})
	first := snapshot(t, x, 0)
	if err := x.Act(context.Background(), 0, first.Seq, first.Legal[0]); err != nil {
		t.Fatal(err)
	}
	answersWhileThinking(t, g, x, 0, first.Seq+1, first.Legal[0])
	release()
	waitSeq(t, x, first.Seq+2)
}

// The same holds for the bot that plays for a human out of time: the match
// answers while it thinks; if the human moves meanwhile, the bot's answer
// is dropped (never a second move for the seat), and otherwise it is played
// for the human.
func TestForcedMovesThinkAside(t *testing.T) {
	g, x, st, release := gatedMatch(t, match.CreateRequest{MoveLimitMs: new(int64(100)), Seats: []match.SeatRequest{
		{Kind: match.Human, Bot: "gate"}, {Kind: match.Human, Bot: "gate"},
	}})
	first := snapshot(t, x, 0)
	// Seat 0 does not move: once the limit is past its bot thinks, and
	// seat 1 may not act meanwhile.
	answersWhileThinking(t, g, x, 1, first.Seq, first.Legal[0])
	// Seat 0's human moves after all, before the bot answers.
	if err := x.Act(context.Background(), 0, first.Seq, first.Legal[0]); err != nil {
		t.Fatalf("the human's own move while their bot thinks: %v", err)
	}
	release() // the answer for seat 0 is stale; seat 1's bot then plays for it
	waitSeq(t, x, first.Seq+2)
	log, err := st.Log(context.Background(), x.ID())
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []engine.Seat{0, 1} {
		r, err := engine.DecodeRecord(g, log[int(first.Seq)+i])
		if err != nil {
			t.Fatal(err)
		}
		if r.Seat != want {
			t.Fatalf("record %d is seat %d's, want seat %d's (a stale answer played?)", int(first.Seq)+i+1, r.Seat, want)
		}
	}
}
