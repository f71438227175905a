package evades

import (
	"testing"

	"sortie/bot"
	"sortie/engine"
)

// midGame returns a two-player match after the heuristic has played 24
// actions from seed 3, and the seat to decide.
func midGame(t testing.TB) (*State, engine.Seat) {
	t.Helper()
	g := Game{}
	st, err := g.New(engine.Setup{Players: 2, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	bots := []bot.Bot{
		Heuristic{}.NewBot(g, bot.Seating{Seat: 0, Players: 2}),
		Heuristic{}.NewBot(g, bot.Seating{Seat: 1, Players: 2}),
	}
	for range 24 {
		p := s.Actors()[0]
		d := bots[p].Decide(s.View(p), s.Legal(p), 0)
		if _, err := s.Apply(p, d.Action, 0); err != nil {
			t.Fatal(err)
		}
	}
	p := s.Actors()[0]
	for len(s.Legal(p)) < 2 {
		s.Apply(p, s.Legal(p)[0], 0)
		p = s.Actors()[0]
	}
	return s, p
}

// BenchmarkISMCTSDecision times one decision from a two-player mid-game
// position (go test -run xxx -bench ISMCTS -cpu 1): "ismcts" is the generic
// search of 1,000 iterations with playouts cut at bot.HardHorizon moves and
// judged by Evaluate (the target is 50 ms on one core), "hard" the game's
// hard level.
func BenchmarkISMCTSDecision(b *testing.B) {
	for _, pol := range []bot.Policy{bot.ISMCTS{Iterations: 1000, Horizon: bot.HardHorizon}, Hard{}} {
		b.Run(pol.Name(), func(b *testing.B) {
			s, p := midGame(b)
			bt := pol.NewBot(Game{}, bot.Seating{Seat: p, Players: 2, Seed: 1})
			legal := s.Legal(p)
			b.ReportAllocs()
			for b.Loop() {
				bot.Ask(bt, s, p, legal, 0)
			}
		})
	}
}

// BenchmarkEvaluate times the evaluation of a four-player position.
func BenchmarkEvaluate(b *testing.B) {
	s := newGame(b, 4)
	b.ReportAllocs()
	for b.Loop() {
		s.Evaluate()
	}
}

// BenchmarkHeuristicDecide times one heuristic decision, the view included.
func BenchmarkHeuristicDecide(b *testing.B) {
	s, p := midGame(b)
	bt := Heuristic{}.NewBot(Game{}, bot.Seating{Seat: p, Players: 2})
	b.ReportAllocs()
	for b.Loop() {
		bt.Decide(s.View(p), s.Legal(p), 0)
	}
}
