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

// A bot that thinks for a long time does not hold up its match: while it
// thinks, the match answers its human (a snapshot, a refused action) at
// once, and the bot's move is played when it answers.
func TestBotsThinkAside(t *testing.T) {
	ctx := context.Background()
	g := gated{asked: make(chan struct{}), gate: make(chan struct{})}
	m := match.NewManager(match.Config{
		Store: openStore(t), Games: []engine.Game{g}, ClockSpeed: 50,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	t.Cleanup(func() { m.Shutdown(context.Background()) })
	var open sync.Once
	release := func() { open.Do(func() { close(g.gate) }) }
	t.Cleanup(release) // first: a failing test must not leave the bot stuck
	c, err := m.Create(ctx, match.CreateRequest{Game: "testgated", Seats: []match.SeatRequest{
		{Kind: match.Human}, {Kind: match.Bot, Bot: "gate"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	x, err := m.Get(ctx, c.Match.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.Start(ctx); err != nil {
		t.Fatal(err)
	}
	first := snapshot(t, x, 0)
	if err := x.Act(ctx, 0, first.Seq, first.Legal[0]); err != nil {
		t.Fatal(err)
	}
	select {
	case <-g.asked: // the bot's turn: it thinks until the gate opens
	case <-time.After(10 * time.Second):
		t.Fatal("the bot was never asked")
	}
	// The match answers while the bot thinks. (If the bot thought on the
	// match's goroutine, these calls would wait for the gate, which opens
	// only after them.)
	answered := make(chan error, 1)
	go func() {
		b, err := x.Snapshot(ctx, 0)
		if err == nil && len(b) == 0 {
			err = errors.New("empty snapshot")
		}
		if err == nil {
			if err = x.Act(ctx, 0, first.Seq+1, first.Legal[0]); match.AsError(err).Code == engine.CodeNotYourTurn {
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
	release() // the bot answers; later questions pass the gate at once
	go func() {
		for range g.asked {
		}
	}()
	deadline := time.Now().Add(10 * time.Second)
	for snapshot(t, x, 0).Seq < first.Seq+2 {
		if time.Now().After(deadline) {
			t.Fatal("the bot's answer was never played")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
