package temple

import (
	"testing"

	"sortie/engine"
	"sortie/sim"
)

// randomPlayout plays one whole game of random legal actions on the virtual
// clock (a random seat acts every 0–2 s; deadlines fire when due) and
// returns the number of actions applied.
func randomPlayout(b *testing.B, players int, seed uint64) int {
	s, _ := Game{}.New(engine.Setup{Players: players, Seed: seed})
	r := newTestRand(seed)
	now, actions := engine.Millis(0), 0
	for {
		if _, over := s.Outcome(); over {
			return actions
		}
		now += engine.Millis(r.IntN(2_001))
		if dl, ok := s.Deadline(); ok && dl <= now {
			now = dl
			s.Advance(dl)
			continue
		}
		s.Advance(now)
		p := engine.Seat(r.IntN(players))
		l := s.Legal(p)
		if len(l) == 0 {
			continue
		}
		if _, err := s.Apply(p, l[r.IntN(len(l))], now); err != nil {
			b.Fatal(err)
		}
		actions++
	}
}

// BenchmarkRandomPlayout plays a whole ten-minute 4-player game of random
// legal actions per op.
func BenchmarkRandomPlayout(b *testing.B) {
	actions := 0
	for i := 0; b.Loop(); i++ {
		actions += randomPlayout(b, 4, uint64(i))
	}
	b.ReportMetric(float64(actions)/b.Elapsed().Seconds(), "actions/s")
	b.ReportMetric(float64(actions)/float64(b.N), "actions/op")
}

// BenchmarkView builds a seat's view of a mid-game 4-player state.
func BenchmarkView(b *testing.B) {
	s := midGame(b)
	for b.Loop() {
		s.View(1)
	}
}

// BenchmarkLegal lists a seat's legal actions in a mid-game 4-player state.
func BenchmarkLegal(b *testing.B) {
	s := midGame(b)
	for b.Loop() {
		s.Legal(1)
	}
}

// midGame replays two minutes of a heuristic 4-player game.
func midGame(b *testing.B) *State {
	setup := engine.Setup{Players: 4, Seed: 3}
	res, err := sim.Play(Game{}, setup, team(Heuristic(), 4), true)
	if err != nil {
		b.Fatal(err)
	}
	st, _ := Game{}.New(setup)
	s := st.(*State)
	for _, r := range res.Log {
		if r.At > 120_000 {
			break
		}
		engine.Play(s, r)
	}
	return s
}
