package plandesecours

import (
	"context"
	"os"
	"testing"

	"sortie/bot"
	"sortie/engine"
	"sortie/sim"
)

// strength plays games with one heuristic seat (rotating) against random
// bots and returns the heuristic's record and the random bots'.
func strength(t *testing.T, n int, danger bool, games int) (heuristic, random sim.PolicyStats) {
	t.Helper()
	ps := []bot.Policy{Heuristic{}}
	for len(ps) < n {
		ps = append(ps, bot.Random{})
	}
	st, err := sim.Run(context.Background(), sim.Config{
		Game: Game{}, Players: n, Options: map[string]string{"danger": boolText(danger)},
		Policies: ps, Games: games, Seed: 42, Rotate: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range st.Policies {
		switch p.Policy {
		case "heuristic":
			heuristic = p
		case "random":
			random = p
		}
	}
	return heuristic, random
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// TestHeuristicBeatsRandom is a quick check that the heuristic wins clearly
// more than its share against random bots.
func TestHeuristicBeatsRandom(t *testing.T) {
	games := 400
	if testing.Short() {
		games = 100
	}
	for _, n := range []int{2, 4} {
		p, _ := strength(t, n, n == 4, games)
		if share := 1 / float64(n); p.WinRate.Lo <= share {
			t.Errorf("%d players: the heuristic wins %v of its games, not clearly more than its share %.2f", n, p.WinRate, share)
		}
	}
}

// TestHeuristicSelfPlay checks that games between heuristic bots end.
func TestHeuristicSelfPlay(t *testing.T) {
	for n := MinPlayers; n <= MaxPlayers; n++ {
		ps := make([]bot.Policy, n)
		for i := range ps {
			ps[i] = Heuristic{}
		}
		for seed := range uint64(20) {
			setup := engine.Setup{Players: n, Seed: seed, Options: map[string]string{"danger": boolText(seed%2 == 1)}}
			if _, err := sim.PlayOne(Game{}, setup, ps); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestHeuristicStrength measures the heuristic against random bots over
// 10,000 games per player count (the figures in README.md). It runs only
// with SORTIE_LONG=1.
func TestHeuristicStrength(t *testing.T) {
	if os.Getenv("SORTIE_LONG") != "1" || testing.Short() {
		t.Skip("set SORTIE_LONG=1 to measure the heuristic over 10,000 games per player count")
	}
	for _, danger := range []bool{false, true} {
		for n := MinPlayers; n <= MaxPlayers; n++ {
			p, r := strength(t, n, danger, 10000)
			t.Logf("players=%d danger=%v: heuristic wins %v (share %.1f%%), mean score %.2f; each random seat wins %v",
				n, danger, p.WinRate, 100/float64(n), p.MeanScore, r.WinRate)
			if p.WinRate.Lo <= 1/float64(n) {
				t.Errorf("%d players: not clearly more than its share", n)
			}
		}
	}
}

// TestHeuristicRemembersThePath checks the bot's memory on scenario S8's
// first moves: after left_4, left_5 and left_6 the path is lost (a dead
// end), so the bot calls LOST on its turn.
func TestHeuristicRemembersThePath(t *testing.T) {
	s := game(3, false, A)
	rig(s, []string{"left_4", "straight_5", "straight_6"}, []string{"left_5", "straight_7", "straight_8"},
		[]string{"left_6", "straight_9", "right_4"})
	b := Heuristic{}.NewBot(Game{}, bot.Seating{Seat: engine.Seat(A), Players: 3, Seed: 1})
	o := b.(bot.Observer)
	o.Observe(s.View(engine.Seat(A)), nil)
	for _, m := range []struct {
		p  engine.Seat
		id string
	}{{A, "left_4"}, {B, "left_5"}, {C, "left_6"}} {
		evs := lay(t, s, m.p, m.id)
		o.Observe(s.View(engine.Seat(A)), engine.Visible(nil, evs, engine.Seat(A)))
	}
	d := b.Decide(s.View(engine.Seat(A)), s.Legal(engine.Seat(A)), 0)
	if d.Action != engine.Action(PlayLost{}) {
		t.Fatalf("the bot played %s, want play_lost", js(d.Action))
	}
}
