package room25

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"sortie/bot"
	"sortie/engine"
	"sortie/sim"
)

// decisionPoints plays heuristic games of the given setups and returns the
// states at which some seat has a choice, with that seat.
func decisionPoints(tb testing.TB, setups []engine.Setup, every int) (states []*State, seats []engine.Seat) {
	for _, setup := range setups {
		st, err := Game{}.New(setup)
		if err != nil {
			tb.Fatal(err)
		}
		s := st.(*State)
		bots := make([]bot.Bot, setup.Players)
		for p := range bots {
			bots[p] = Heuristic{}.NewBot(Game{}, bot.Seating{Seat: engine.Seat(p), Players: setup.Players, Seed: setup.Seed + uint64(p)})
		}
		for k := 0; !s.over; k++ {
			p := s.Actors()[0]
			legal := s.Legal(p)
			if len(legal) > 1 && k%every == 0 {
				states = append(states, s.clone())
				seats = append(seats, p)
			}
			d := bots[p].Decide(s.View(p), legal, 0)
			if _, err := s.Apply(p, d.Action, 0); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return states, seats
}

// BenchmarkHardDecision times one decision of the hard bot, over decision
// points of cooperative and competitive games (ms/decision).
func BenchmarkHardDecision(b *testing.B) {
	setups := []engine.Setup{
		{Players: 2, Options: map[string]string{optMode: "cooperation"}, Seed: 3},
		{Players: 2, Options: map[string]string{optMode: "competition"}, Seed: 4},
		{Players: 5, Options: map[string]string{optMode: "suspicion"}, Seed: 5},
	}
	states, seats := decisionPoints(b, setups, 3)
	bots := make([]bot.Bot, 6)
	for p := range bots {
		bots[p] = Hard{}.NewBot(Game{}, bot.Seating{Seat: engine.Seat(p), Players: 6, Seed: uint64(p)})
	}
	b.ResetTimer()
	var slowest time.Duration
	for i := 0; i < b.N; i++ {
		k := i % len(states)
		s, p := states[k], seats[k]
		start := time.Now()
		bot.Ask(bots[p], s, p, s.Legal(p), 0)
		slowest = max(slowest, time.Since(start))
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/decision")
	b.ReportMetric(float64(slowest.Microseconds())/1000, "max-ms")
}

// TestHardLevel checks that the hard level of Room 25 is the game's own
// Hard policy, and that it searches: asked through bot.Ask it may depart
// from the heuristic, asked without a sampler it plays the heuristic.
func TestHardLevel(t *testing.T) {
	p, err := bot.Level(Game{}, "hard")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.(Hard); !ok {
		t.Fatalf("the hard level is %T, want room25.Hard", p)
	}
	if _, ok := p.NewBot(Game{}, bot.Seating{Players: 2}).(bot.Searcher); !ok {
		t.Fatal("the hard bot is not a bot.Searcher")
	}
}

// TestHardPlays plays whole games with small hard bots in every mode: every
// answer is legal (sim.PlayOne stops on a refusal) and the game ends.
func TestHardPlays(t *testing.T) {
	setups := []engine.Setup{
		{Players: 2, Options: map[string]string{optMode: "cooperation"}, Seed: 1},
		{Players: 1, Options: map[string]string{optMode: "solo"}, Seed: 2},
		{Players: 5, Options: map[string]string{optMode: "suspicion"}, Seed: 3},
		{Players: 3, Options: map[string]string{optMode: "competition"}, Seed: 4},
		{Players: 4, Options: map[string]string{optMode: "team", optBeacons: "off"}, Seed: 5},
	}
	if testing.Short() {
		setups = setups[:1]
	}
	small := Hard{Rollouts: 12}
	for _, setup := range setups {
		ps := make([]bot.Policy, setup.Players)
		for p := range ps {
			ps[p] = small
			if p%2 == 1 {
				ps[p] = Heuristic{}
			}
		}
		if _, err := sim.PlayOne(Game{}, setup, ps); err != nil {
			t.Errorf("%v: %v", setup.Options, err)
		}
	}
}

// TestViewIntoReuse checks that a view refilled by viewInto, as the hard
// bot's playouts do at every move, says exactly what a fresh View says:
// random games in every mode, each seat's and a spectator's view compared
// as JSON after every action.
func TestViewIntoReuse(t *testing.T) {
	setups := []engine.Setup{
		{Players: 2, Options: map[string]string{optMode: "cooperation"}, Seed: 11},
		{Players: 1, Options: map[string]string{optMode: "solo"}, Seed: 12},
		{Players: 5, Options: map[string]string{optMode: "suspicion"}, Seed: 13},
		{Players: 3, Options: map[string]string{optMode: "competition"}, Seed: 14},
		{Players: 6, Options: map[string]string{optMode: "team"}, Seed: 15},
	}
	compared := 0
	for _, setup := range setups {
		st, err := Game{}.New(setup)
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		rng := rand.New(rand.NewPCG(setup.Seed, 1))
		reused := make([]View, setup.Players+1) // the last one the spectator's
		for steps := 0; ; steps++ {
			for q := range reused {
				p := engine.Seat(q)
				if q == setup.Players {
					p = engine.Spectator
				}
				s.viewInto(&reused[q], p)
				got, err := json.Marshal(reused[q])
				if err != nil {
					t.Fatal(err)
				}
				want, err := json.Marshal(s.View(p))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("%v, step %d, seat %d: refilled view\n%s\nfresh view\n%s", setup.Options, steps, p, got, want)
				}
				compared++
			}
			if s.over {
				break
			}
			p := s.Actors()[0]
			legal := s.Legal(p)
			if _, err := s.Apply(p, legal[rng.IntN(len(legal))], 0); err != nil {
				t.Fatal(err)
			}
		}
	}
	if compared < 100 {
		t.Fatalf("only %d views compared", compared)
	}
}

// rate is k successes of n with its 95% Wilson interval (sim.Wilson).
func rate(k, n int) sim.Interval { return sim.Wilson(float64(k), float64(n)) }

// hardMatchups are the settings in which hard is measured against medium:
// each pair plays the same seeds, first with medium in the place of the
// measured side, then with hard.
var hardMatchups = []struct {
	name         string
	medium, hard matchup
	head2head    bool // the other side is the opponent: report its wins too
	games        int  // seeds 1..games
}{
	{"cooperation 2 seats (duos): the table", matchup{mode: "cooperation", players: 2, seats: same("heuristic"), side: everyone}, matchup{mode: "cooperation", players: 2, seats: same("hard"), side: everyone}, false, 200},
	{"cooperation 4: the table", matchup{mode: "cooperation", players: 4, seats: same("heuristic"), side: everyone}, matchup{mode: "cooperation", players: 4, seats: same("hard"), side: everyone}, false, 100},
	{"solo", matchup{mode: "solo", players: 1, seats: same("heuristic"), side: everyone}, matchup{mode: "solo", players: 1, seats: same("hard"), side: everyone}, false, 100},
	{"competition 2: one seat (alternating) vs medium", matchup{mode: "competition", players: 2, seats: against("heuristic"), side: theSeat}, matchup{mode: "competition", players: 2, seats: against("hard"), side: theSeat}, true, 200},
	{"team 4: one team (alternating) vs a medium team", matchup{mode: "team", players: 4, seats: teamAgainst("heuristic"), side: theTeam}, matchup{mode: "team", players: 4, seats: teamAgainst("hard"), side: theTeam}, true, 200},
	{"suspicion 5: the Prisoners, medium Guards", matchup{mode: "suspicion", players: 5, seats: byRole("heuristic", "heuristic"), side: roleSide(Prisoner)}, matchup{mode: "suspicion", players: 5, seats: byRole("hard", "heuristic"), side: roleSide(Prisoner)}, false, 200},
	{"suspicion 5: the Guards, medium Prisoners", matchup{mode: "suspicion", players: 5, seats: byRole("heuristic", "heuristic"), side: roleSide(Guard)}, matchup{mode: "suspicion", players: 5, seats: byRole("heuristic", "hard"), side: roleSide(Guard)}, false, 200},
}

// against gives policy name seat i%players and the heuristic (medium) the
// others.
func against(name string) func(*State, int) []string {
	return func(s *State, i int) []string {
		out := same("heuristic")(s, i)
		out[i%s.seats] = name
		return out
	}
}

// teamAgainst gives policy name team A on even games and team B on odd
// ones, the heuristic (medium) the other team.
func teamAgainst(name string) func(*State, int) []string {
	return func(s *State, i int) []string {
		out := same("heuristic")(s, i)
		for p := range out {
			if p%2 == i%2 {
				out[p] = name
			}
		}
		return out
	}
}

// TestHardRates measures the hard level against medium (SORTIE_LONG=1; the
// figures go in README.md): the measured side's wins with 95% Wilson
// intervals, medium and hard on the same seeds.
func TestHardRates(t *testing.T) {
	if os.Getenv("SORTIE_LONG") == "" || testing.Short() {
		t.Skip("set SORTIE_LONG=1 to measure the hard bot against medium")
	}
	fmt.Println("| Setting | Games | Medium | Hard |")
	fmt.Println("|---|---|---|---|")
	for _, m := range hardMatchups {
		med, hard := m.medium.play(t, m.games), m.hard.play(t, m.games)
		cell := func(x tally) string {
			s := rate(x.wins, x.games).String()
			if m.head2head {
				s += fmt.Sprintf("; medium opponent %s", rate(x.opp, x.games))
			}
			if x.draws > 0 {
				s += fmt.Sprintf("; %.1f%% drawn", 100*float64(x.draws)/float64(x.games))
			}
			return s
		}
		fmt.Printf("| %s | %d | %s | %s |\n", m.name, hard.games, cell(med), cell(hard))
		// Hard must do significantly better than medium on the same seeds.
		if rate(hard.wins, hard.games).Lo <= rate(med.wins, med.games).Hi {
			t.Errorf("%s: hard %s does not beat medium %s", m.name, rate(hard.wins, hard.games), rate(med.wins, med.games))
		}
	}
}
