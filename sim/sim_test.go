package sim_test

import (
	"context"
	"math"
	"testing"

	"sortie/bot"
	"sortie/engine"
	tg "sortie/engine/enginetest/testgames"
	"sortie/sim"
)

func TestPlayOneIsReproducible(t *testing.T) {
	setup := engine.Setup{Players: 3, Seed: 42}
	pols := []bot.Policy{bot.Random{}, bot.Random{}, bot.Random{}}
	a, err := sim.Play(tg.Draw{}, setup, pols, true)
	if err != nil {
		t.Fatal(err)
	}
	b, err := sim.Play(tg.Draw{}, setup, pols, true)
	if err != nil {
		t.Fatal(err)
	}
	if a.Actions != b.Actions || len(a.Log) != a.Actions {
		t.Fatalf("two plays of one seed differ: %d and %d actions, log of %d", a.Actions, b.Actions, len(a.Log))
	}
	// The log replays to the same outcome.
	s, err := engine.Replay(tg.Draw{}, setup, a.Log)
	if err != nil {
		t.Fatal(err)
	}
	out, over := s.Outcome()
	if !over || out.Summary != a.Outcome.Summary || len(out.Winners) != len(a.Outcome.Winners) {
		t.Fatalf("the replayed log ends elsewhere: %+v vs %+v", out, a.Outcome)
	}
}

// A game whose states say what a match is for rating hands it over with
// the outcome; one that does not leaves it nil.
func TestPlayKeepsTheRatedResult(t *testing.T) {
	res, err := sim.PlayOne(tg.Draw{}, engine.Setup{Players: 3, Seed: 5}, []bot.Policy{bot.Random{}, bot.Random{}, bot.Random{}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Rated == nil || res.Rated.Family != engine.FreeForAll || len(res.Rated.Sides) != 3 {
		t.Fatalf("rated result %+v", res.Rated)
	}
	for _, s := range res.Rated.Sides {
		if s.Rank != res.Outcome.Ranks[s.Seats[0]] {
			t.Fatalf("rated %+v, outcome ranks %v", res.Rated, res.Outcome.Ranks)
		}
	}
	taps, err := sim.PlayOne(tg.Taps{}, engine.Setup{Players: 2, Seed: 7}, []bot.Policy{bot.Random{}, bot.Random{}})
	if err != nil || taps.Rated != nil {
		t.Fatalf("a game without ratings: %+v, %v", taps.Rated, err)
	}
}

// Given a real-time game of ten seconds with taps at most every half second,
// when random bots (reaction 0.4 to 1.6 s) play it on the virtual clock,
// then it ends at ten seconds with a plausible number of taps per seat.
func TestRealTimeRunsOnTheVirtualClock(t *testing.T) {
	res, err := sim.PlayOne(tg.Taps{}, engine.Setup{Players: 2, Seed: 7}, []bot.Policy{bot.Random{}, bot.Random{}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Clock != 10000 {
		t.Fatalf("the game ended at %d ms, not at its ten-second deadline", res.Clock)
	}
	for p, taps := range res.Outcome.Scores {
		if taps < 10000/1600-1 || taps > 10000/400+1 {
			t.Fatalf("seat %d tapped %d times in ten seconds with a 0.4–1.6 s reaction", p, taps)
		}
	}
}

func TestRunSumsUpABatch(t *testing.T) {
	done := 0
	seen := make([]int, 2000)
	st, err := sim.Run(context.Background(), sim.Config{
		Game: tg.Draw{}, Players: 2, Policies: []bot.Policy{bot.Random{}, bot.Random{}},
		Games: 2000, Seed: 1, Rotate: true, Progress: func(n int) { done = n },
		Each: func(i int, r sim.Result) {
			if r.Rated != nil {
				seen[i]++
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if st.Games != 2000 || done != 2000 {
		t.Fatalf("played %d games, progress said %d", st.Games, done)
	}
	for i, n := range seen {
		if n != 1 {
			t.Fatalf("game %d was handed to Each %d times with its rated result", i, n)
		}
	}
	if len(st.Policies) != 1 || st.Policies[0].Seatings != 4000 {
		t.Fatalf("policy stats: %+v", st.Policies)
	}
	// Every win is counted once for its seat and once for its policy; a
	// tie is a win for both seats, so the wins cover every game.
	seatWins := st.Seats[0].Wins + st.Seats[1].Wins
	if seatWins != st.Policies[0].Wins || seatWins < st.Games {
		t.Fatalf("seat wins %d, policy wins %d, games %d", seatWins, st.Policies[0].Wins, st.Games)
	}
}

func TestWilson(t *testing.T) {
	// 50 of 100: the classic interval is about [40.4%, 59.6%].
	iv := sim.Wilson(50, 100)
	if math.Abs(iv.Lo-0.4038) > 0.001 || math.Abs(iv.Hi-0.5962) > 0.001 {
		t.Fatalf("Wilson(50,100) = %+v", iv)
	}
	if iv := sim.Wilson(0, 0); iv != (sim.Interval{}) {
		t.Fatalf("Wilson(0,0) = %+v", iv)
	}
}
