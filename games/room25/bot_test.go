package room25

import (
	"fmt"
	"os"
	"testing"

	"sortie/bot"
	"sortie/engine"
	"sortie/sim"
)

// matchup is one measured setting: each seat's policy and the side whose
// results are counted, for game i (whose initial state is s).
type matchup struct {
	name    string
	mode    string
	players int
	seats   func(s *State, i int) []string
	side    func(s *State, i int) []engine.Seat
}

// tally is what a matchup gave.
type tally struct {
	games, wins, draws, actions int
	opp                         int // games another side won
}

func (t tally) String() string {
	s := fmt.Sprintf("%5.1f%% won", 100*float64(t.wins)/float64(t.games))
	if t.draws > 0 {
		s += fmt.Sprintf(", %4.1f%% drawn", 100*float64(t.draws)/float64(t.games))
	}
	return s + fmt.Sprintf(" (%d games, %.0f actions/game)", t.games, float64(t.actions)/float64(t.games))
}

func same(name string) func(*State, int) []string {
	return func(s *State, _ int) []string {
		out := make([]string, s.seats)
		for p := range out {
			out[p] = name
		}
		return out
	}
}

func everyone(s *State, _ int) []engine.Seat {
	out := make([]engine.Seat, s.seats)
	for p := range out {
		out[p] = engine.Seat(p)
	}
	return out
}

// oneSeat gives the heuristic seat i%players, random the others; the
// heuristic's seat is counted.
func oneSeat(s *State, i int) []string {
	out := same("random")(s, i)
	out[i%s.seats] = "heuristic"
	return out
}

func theSeat(s *State, i int) []engine.Seat { return []engine.Seat{engine.Seat(i % s.seats)} }

// teamA gives team A (even seats) to the heuristic on even games and team B
// on odd ones; the heuristic's team is counted.
func oneTeam(s *State, i int) []string {
	out := same("random")(s, i)
	for p := range out {
		if p%2 == i%2 {
			out[p] = "heuristic"
		}
	}
	return out
}

func theTeam(s *State, i int) []engine.Seat {
	var out []engine.Seat
	for p := range s.seats {
		if p%2 == i%2 {
			out = append(out, engine.Seat(p))
		}
	}
	return out
}

// byRole gives each Suspicion role its policy; roleSide counts a role.
func byRole(prisoner, guard string) func(*State, int) []string {
	return func(s *State, _ int) []string {
		out := make([]string, s.seats)
		for p := range out {
			out[p] = prisoner
			if s.role[p] == Guard {
				out[p] = guard
			}
		}
		return out
	}
}

func roleSide(r Role) func(*State, int) []engine.Seat {
	return func(s *State, _ int) []engine.Seat {
		var out []engine.Seat
		for p := range s.seats {
			if s.role[p] == r {
				out = append(out, engine.Seat(p))
			}
		}
		return out
	}
}

// play plays n games of a matchup on seeds 1..n.
func (m matchup) play(t testing.TB, n int) tally {
	var res tally
	for i := range n {
		setup := engine.Setup{Players: m.players, Options: map[string]string{optMode: m.mode}, Seed: uint64(i) + 1}
		st, err := Game{}.New(setup)
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		side := m.side(s, i)
		if len(side) == 0 {
			continue // Suspicion without a Guard, when Guards are counted
		}
		names := m.seats(s, i)
		ps := make([]bot.Policy, m.players)
		for p, name := range names {
			if ps[p], err = bot.Find(Game{}, name); err != nil {
				t.Fatal(err)
			}
		}
		r, err := sim.PlayOne(Game{}, setup, ps)
		if err != nil {
			t.Fatal(err)
		}
		res.games++
		res.actions += r.Actions
		switch {
		case r.Outcome.Won(side[0]):
			res.wins++
		case s.mode >= Competition && r.Outcome.Scores[side[0]] == drawScore:
			res.draws++
		case len(r.Outcome.Winners) > 0:
			res.opp++
		}
	}
	return res
}

// TestBotBeatsRandom is a quick check that the heuristic does better than
// random play in Cooperation and Competition.
func TestBotBeatsRandom(t *testing.T) {
	n := 100
	if testing.Short() {
		n = 12
	}
	h := matchup{mode: "cooperation", players: 4, seats: same("heuristic"), side: everyone}.play(t, n)
	r := matchup{mode: "cooperation", players: 4, seats: same("random"), side: everyone}.play(t, n)
	if h.wins <= r.wins {
		t.Errorf("cooperation: heuristic %v, random %v", h, r)
	}
	c := matchup{mode: "competition", players: 2, seats: oneSeat, side: theSeat}.play(t, n)
	if 2*c.wins <= c.games {
		t.Errorf("competition: the heuristic %v", c)
	}
}

// matchups are the settings measured for README.md.
var matchups = []matchup{
	{"cooperation 2 seats (duos), all heuristic", "cooperation", 2, same("heuristic"), everyone},
	{"cooperation 4, all heuristic", "cooperation", 4, same("heuristic"), everyone},
	{"cooperation 6, all heuristic", "cooperation", 6, same("heuristic"), everyone},
	{"cooperation 4, all random", "cooperation", 4, same("random"), everyone},
	{"solo, heuristic", "solo", 1, same("heuristic"), everyone},
	{"solo, random", "solo", 1, same("random"), everyone},
	{"suspicion 5, all heuristic: Prisoners", "suspicion", 5, same("heuristic"), roleSide(Prisoner)},
	{"suspicion 5, heuristic Prisoners vs random Guards: Prisoners", "suspicion", 5, byRole("heuristic", "random"), roleSide(Prisoner)},
	{"suspicion 5, random Prisoners vs heuristic Guards: Guards", "suspicion", 5, byRole("random", "heuristic"), roleSide(Guard)},
	{"suspicion 5, all random: Prisoners", "suspicion", 5, same("random"), roleSide(Prisoner)},
	{"competition 2, heuristic seat vs random", "competition", 2, oneSeat, theSeat},
	{"competition 3, heuristic seat vs 2 random", "competition", 3, oneSeat, theSeat},
	{"competition 2, all random: seat 0", "competition", 2, same("random"), func(*State, int) []engine.Seat { return []engine.Seat{0} }},
	{"team 4, heuristic team vs random team", "team", 4, oneTeam, theTeam},
	{"team 6, heuristic team vs random team", "team", 6, oneTeam, theTeam},
	{"team 4, all random: team A", "team", 4, same("random"), func(*State, int) []engine.Seat { return []engine.Seat{0, 2} }},
}

// TestBotRates measures the heuristic against random play over 10,000
// games per matchup (SORTIE_LONG=1; the figures go in README.md).
func TestBotRates(t *testing.T) {
	if os.Getenv("SORTIE_LONG") == "" || testing.Short() {
		t.Skip("set SORTIE_LONG=1 to measure the bot over 10,000 games per matchup")
	}
	for _, m := range matchups {
		fmt.Printf("| %s | %v |\n", m.name, m.play(t, 10000))
	}
}
