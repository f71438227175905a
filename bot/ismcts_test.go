package bot_test

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"sortie/bot"
	"sortie/engine"
	"sortie/engine/enginetest"
	"sortie/sim"
)

// The test game is itself a sound game: deterministic, keeping its secrets,
// with a Determinize that changes nothing its seat sees.
func TestDuelConformance(t *testing.T) {
	enginetest.Run(t, enginetest.Harness{Game: duel{}, Playouts: 50})
}

// scaled returns n, or short under -short.
func scaled(n, short int) int {
	if testing.Short() {
		return short
	}
	return n
}

// versus plays a batch between two policies with rotated seats and returns
// the first policy's record.
func versus(t *testing.T, g engine.Game, opts map[string]string, a, b bot.Policy, games int) sim.PolicyStats {
	t.Helper()
	st, err := sim.Run(context.Background(), sim.Config{
		Game: g, Players: 2, Options: opts, Policies: []bot.Policy{a, b},
		Games: games, Seed: 7, Rotate: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range st.Policies {
		if p.Policy == a.Name() {
			t.Logf("%s vs %s: %s, mean score %.2f", a.Name(), b.Name(), p.WinRate, p.MeanScore)
			return p
		}
	}
	t.Fatalf("no record of %s in %+v", a.Name(), st.Policies)
	return sim.PolicyStats{}
}

// Given the duel, where the seat that answers should beat the table as
// cheaply as it can, when a search bot plays a random one, then it wins
// clearly more than half the games.
func TestISMCTSBeatsRandomInTurns(t *testing.T) {
	st := versus(t, duel{}, nil, bot.ISMCTS{Iterations: scaled(200, 100)}, bot.Random{}, scaled(300, 60))
	if st.WinRate.Lo <= 0.5 {
		t.Fatalf("ISMCTS won %s against random", st.WinRate)
	}
}

// Given the duel played face down and all at once, when a search bot plays
// a random one, then it still wins more than half the games: its choice is
// made without seeing the others' cards.
func TestISMCTSBeatsRandomAtOnce(t *testing.T) {
	st := versus(t, duel{}, map[string]string{"simultaneous": "true"}, bot.ISMCTS{Iterations: scaled(200, 100)}, bot.Random{}, scaled(300, 60))
	if st.WinRate.Lo <= 0.5 {
		t.Fatalf("ISMCTS won %s against random", st.WinRate)
	}
}

// Given Draw, where drawing always adds to the hand, when a search bot
// plays a random one, then it wins more than half the games.
func TestISMCTSBeatsRandomAtDraw(t *testing.T) {
	st := versus(t, detDraw{}, nil, bot.ISMCTS{Iterations: scaled(200, 100)}, bot.Random{}, scaled(200, 60))
	if st.WinRate.Lo <= 0.5 {
		t.Fatalf("ISMCTS won %s against random", st.WinRate)
	}
}

// Given Taps in real time, when a search bot with a 600 ms reaction plays a
// random one (0.4 to 1.6 s), then it taps more and wins nearly every game.
func TestISMCTSBeatsRandomInRealTime(t *testing.T) {
	st := versus(t, detTaps{}, nil, bot.ISMCTS{Iterations: 20}, bot.Random{}, 40)
	if st.WinRate.P < 0.9 {
		t.Fatalf("ISMCTS won %s against random", st.WinRate)
	}
}

// Given two duel states that differ only in what seat 1 may not know, when
// the same search bot is asked in each, then it answers the same: it knows
// nothing but its view and what it samples itself.
func TestISMCTSDecidesFromTheViewAlone(t *testing.T) {
	for seed := range uint64(20) {
		s, _ := duel{}.New(engine.Setup{Players: 3, Seed: seed})
		// Seat 0 leads; seat 1 answers.
		s.Apply(0, s.Legal(0)[0], 0)
		other := s.(engine.Determinizer).Determinize(1, rand.New(rand.NewPCG(seed, 99)))
		ask := func(st engine.State) engine.Action {
			b := bot.ISMCTS{Iterations: 300}.NewBot(duel{}, bot.Seating{Seat: 1, Players: 3, Seed: 5})
			return bot.Ask(b, st, 1, st.Legal(1), 0).Action
		}
		if a, b := ask(s), ask(other); a != b {
			t.Fatalf("seed %d: the bot played %v on the state and %v on another with the same view", seed, a, b)
		}
	}
}

// Given a driver without a sampler, when it asks a guided search bot, then
// the bot plays its guide's move.
func TestISMCTSWithoutSamplerPlaysItsGuide(t *testing.T) {
	s, _ := duel{}.New(engine.Setup{Players: 2, Seed: 3})
	s.Apply(0, s.Legal(0)[2], 0)
	b := bot.ISMCTS{Guide: duelHeuristic{}}.NewBot(duel{}, bot.Seating{Seat: 1, Players: 2, Seed: 1})
	got := b.Decide(s.View(1), s.Legal(1), 0).Action
	want := duelHeuristicBot{}.Decide(s.View(1), s.Legal(1), 0).Action
	if got != want {
		t.Fatalf("played %v, the guide plays %v", got, want)
	}
}

// Given a wall-time budget, when the iterations would take longer, then
// the search stops in time.
func TestISMCTSKeepsItsBudget(t *testing.T) {
	s, _ := duel{}.New(engine.Setup{Players: 3, Seed: 3})
	b := bot.ISMCTS{Iterations: 1 << 30, Budget: 20 * time.Millisecond}.NewBot(duel{}, bot.Seating{Seat: 0, Players: 3, Seed: 1})
	start := time.Now()
	d := bot.Ask(b, s, 0, s.Legal(0), 0)
	if el := time.Since(start); el > 200*time.Millisecond || d.Action == nil {
		t.Fatalf("decided %v in %v with a budget of 20 ms", d.Action, el)
	}
}

// Given a guided search bot, when it plays the duel, then it beats the
// random bot too (its playouts are played by the guide).
func TestGuidedISMCTSBeatsRandom(t *testing.T) {
	st := versus(t, duel{}, nil, bot.ISMCTS{Iterations: scaled(100, 50), Guide: duelHeuristic{}, Epsilon: 0.2}, bot.Random{}, scaled(100, 60))
	if st.WinRate.Lo <= 0.5 {
		t.Fatalf("guided ISMCTS won %s against random", st.WinRate)
	}
}

func BenchmarkISMCTSDecisionDuel(b *testing.B) {
	s, _ := duel{}.New(engine.Setup{Players: 3, Seed: 3})
	bt := bot.ISMCTS{}.NewBot(duel{}, bot.Seating{Seat: 0, Players: 3, Seed: 1})
	legal := s.Legal(0)
	b.ReportAllocs()
	for b.Loop() {
		bot.Ask(bt, s, 0, legal, 0)
	}
}

// duelEval is the duel whose states judge a position by the rounds taken.
type duelEval struct{ duel }

func (g duelEval) New(s engine.Setup) (engine.State, error) {
	st, err := g.duel.New(s)
	if err != nil {
		return nil, err
	}
	return evalState{st.(*duelState)}, nil
}

type evalState struct{ *duelState }

func (s evalState) Clone() engine.State { return evalState{s.duelState.Clone().(*duelState)} }

func (s evalState) Determinize(p engine.Seat, r *rand.Rand) engine.State {
	return evalState{s.duelState.Determinize(p, r).(*duelState)}
}

// Evaluate gives each seat its share of the rounds taken so far.
func (s evalState) Evaluate() []float64 {
	v := make([]float64, len(s.points))
	total := 0
	for _, x := range s.points {
		total += x
	}
	for p, x := range s.points {
		v[p] = 0.5
		if total > 0 {
			v[p] = float64(x) / float64(total)
		}
	}
	return v
}

// Given playouts cut after two moves and judged by the state's Evaluator,
// the search still beats random play.
func TestISMCTSWithHorizonUsesTheEvaluator(t *testing.T) {
	st := versus(t, duelEval{}, nil, bot.ISMCTS{Iterations: scaled(200, 100), Horizon: 2}, bot.Random{}, scaled(200, 60))
	if st.WinRate.Lo <= 0.5 {
		t.Fatalf("ISMCTS with a horizon won %s against random", st.WinRate)
	}
	hard, _ := bot.Level(duelEval{}, "hard")
	if h := hard.(bot.ISMCTS); h.Horizon != bot.HardHorizon {
		t.Fatalf("the hard level of a game with an evaluator has horizon %d", h.Horizon)
	}
}

func TestFindReadsSearchSettings(t *testing.T) {
	g := duelWithHeuristic{}
	p, err := bot.Find(g, "ismcts:250:guide=heuristic:horizon=7")
	if err != nil {
		t.Fatal(err)
	}
	m := p.(bot.ISMCTS)
	if m.Iterations != 250 || m.Guide == nil || m.Guide.Name() != "heuristic" || m.Horizon != 7 || m.Epsilon != 0.2 || m.Name() != "ismcts:250:guide=heuristic:horizon=7" {
		t.Fatalf("read %+v", m)
	}
	for _, bad := range []string{"ismcts:x", "ismcts:guide=nobody", "ismcts:depth=3"} {
		if _, err := bot.Find(g, bad); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
}

// slowTapper taps after two seconds.
type slowTapper struct{}

func (slowTapper) Name() string { return "slow" }

func (slowTapper) NewBot(engine.Game, bot.Seating) bot.Bot { return slowTapperBot{} }

type slowTapperBot struct{}

func (slowTapperBot) Decide(_ engine.View, legal []engine.Action, _ engine.Millis) bot.Decision {
	return bot.Decision{Action: legal[0], Delay: 2000}
}

// Given a real-time game and a search bot falling back on a policy that
// takes two seconds a move, the search bot takes two seconds too: it thinks
// no faster than the person its fallback models.
func TestISMCTSTakesItsFallbacksTime(t *testing.T) {
	s, _ := detTaps{}.New(engine.Setup{Players: 2, Seed: 1})
	b := bot.ISMCTS{Iterations: 10, Fallback: slowTapper{}}.NewBot(detTaps{}, bot.Seating{Seat: 0, Players: 2, Seed: 1})
	if d := bot.Ask(b, s, 0, s.Legal(0), 0); d.Delay != 2000 {
		t.Fatalf("decided %v after %d ms", d.Action, d.Delay)
	}
	b = bot.ISMCTS{Iterations: 10}.NewBot(detTaps{}, bot.Seating{Seat: 0, Players: 2, Seed: 1})
	if d := bot.Ask(b, s, 0, s.Legal(0), 0); d.Delay != bot.DefaultReaction || d.Action == nil {
		t.Fatalf("decided %v after %d ms", d.Action, d.Delay)
	}
}
