package room25

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"slices"
	"testing"

	"sortie/bot"
	"sortie/engine"
	"sortie/sim"
)

// TestEasyLevel checks that the easy level of Room 25 is the game's own
// Easy policy, not random play.
func TestEasyLevel(t *testing.T) {
	p, err := bot.Level(Game{}, "easy")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.(Easy); !ok {
		t.Fatalf("the easy level is %T, want room25.Easy", p)
	}
}

// TestEasyPlays plays whole games with easy bots in every mode, alone and
// beside the heuristic: every answer is one of the legal actions, the game
// accepts it, and the game ends.
func TestEasyPlays(t *testing.T) {
	setups := []engine.Setup{
		{Players: 2, Options: map[string]string{optMode: "cooperation"}, Seed: 1},
		{Players: 4, Options: map[string]string{optMode: "cooperation"}, Seed: 2},
		{Players: 1, Options: map[string]string{optMode: "solo"}, Seed: 3},
		{Players: 5, Options: map[string]string{optMode: "suspicion"}, Seed: 4},
		{Players: 2, Options: map[string]string{optMode: "competition"}, Seed: 5},
		{Players: 3, Options: map[string]string{optMode: "competition"}, Seed: 6},
		{Players: 4, Options: map[string]string{optMode: "team"}, Seed: 7},
		{Players: 6, Options: map[string]string{optMode: "team", optBeacons: "off"}, Seed: 8},
	}
	seeds := 20
	if testing.Short() {
		seeds = 4
	}
	for _, setup := range setups {
		for mixed := range 2 {
			for k := range seeds {
				setup := setup
				setup.Seed += uint64(100 * k)
				ps := make([]bot.Policy, setup.Players)
				for p := range ps {
					ps[p] = Easy{}
					if mixed == 1 && p%2 == 1 {
						ps[p] = Heuristic{}
					}
				}
				playStrictly(t, setup, ps)
			}
		}
	}
}

// TestEasyDeterministic plays the same easy game twice: the same seeds give
// the same actions.
func TestEasyDeterministic(t *testing.T) {
	setup := engine.Setup{Players: 3, Options: map[string]string{optMode: "competition"}, Seed: 9}
	ps := []bot.Policy{Easy{}, Easy{}, Heuristic{}}
	var logs [2][]engine.Record
	for i := range logs {
		r, err := sim.Play(Game{}, setup, ps, true)
		if err != nil {
			t.Fatal(err)
		}
		logs[i] = r.Log
	}
	if !reflect.DeepEqual(logs[0], logs[1]) {
		t.Fatal("the same easy game played twice went two ways")
	}
}

// playStrictly plays one game between bots of the given policies and fails
// the test on any answer that is not among the seat's legal actions or that
// the game refuses, and on an easy bot moving its character into a room it
// sees face up as deadly when another move was legal.
func playStrictly(t *testing.T, setup engine.Setup, ps []bot.Policy) {
	t.Helper()
	st, err := Game{}.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	bots := make([]bot.Bot, setup.Players)
	for p := range bots {
		bots[p] = ps[p].NewBot(Game{}, bot.Seating{Seat: engine.Seat(p), Players: setup.Players, Seed: engine.Mix(setup.Seed, uint64(p))})
	}
	for steps := 0; !s.over; steps++ {
		if steps > 4*(Game{}).Info().MaxActions {
			t.Fatalf("%v seed %d: the game did not end after %d actions", setup.Options, setup.Seed, steps)
		}
		p := s.Actors()[0]
		legal := s.Legal(p)
		a := bots[p].Decide(s.View(p), legal, 0).Action
		if !slices.Contains(legal, a) {
			t.Fatalf("%v seed %d: seat %d (%s) answered %#v, not a legal action", setup.Options, setup.Seed, p, ps[p].Name(), a)
		}
		v := s.View(p).(View)
		if _, ok := ps[p].(Easy); ok && intoSeenDeath(v, a) && slices.ContainsFunc(legal, func(o engine.Action) bool {
			_, move := o.(Move)
			return move && !intoSeenDeath(v, o)
		}) {
			t.Fatalf("%v seed %d: seat %d (easy) moved into a face-up Deadly Room: %#v", setup.Options, setup.Seed, p, a)
		}
		if _, err := s.Apply(p, a, 0); err != nil {
			t.Fatalf("%v seed %d: seat %d (%s): %v", setup.Options, setup.Seed, p, ps[p].Name(), err)
		}
	}
}

// intoSeenDeath reports whether a is a Move of the deciding character into
// a room face up as a Deadly Room in v.
func intoSeenDeath(v View, a engine.Action) bool {
	m, ok := a.(Move)
	if !ok || v.Decision == nil {
		return false
	}
	for _, c := range v.Characters {
		if c.ID == v.Decision.Character && c.Alive {
			n := neighbour(int8(c.Cell), m.Dir)
			return n >= 0 && v.Cells[n].FaceUp && v.Cells[n].Room == rooms[RoomDeadly].id
		}
	}
	return false
}

// easyGames is the number of games per setting of TestEasyRates.
const easyGames = 1000

// easyBatch plays a batch of the given policies (rotated one seat on at each
// game) as `sortie sim room25 --seed 1` does, on one core.
func easyBatch(t *testing.T, players int, mode string, ps ...bot.Policy) sim.Stats {
	t.Helper()
	var opts map[string]string
	if mode != "" {
		opts = map[string]string{optMode: mode}
	}
	st, err := sim.Run(context.Background(), sim.Config{
		Game: Game{}, Players: players, Options: opts, Policies: ps,
		Games: easyGames, Seed: 1, Workers: 1, Rotate: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// policyRate returns the win rate of the named policy in a batch.
func policyRate(st sim.Stats, name string) sim.Interval {
	for _, p := range st.Policies {
		if p.Policy == name {
			return p.WinRate
		}
	}
	return sim.Interval{}
}

// TestEasyRates measures the easy bot against medium (SORTIE_LONG=1; the
// figures go in README.md) and fails unless medium does significantly
// better: a medium team escapes more often than an easy one in Cooperation,
// medium beats easy head to head in Competition; and unless an easy team
// escapes at all and is a partner a medium bot can win with.
func TestEasyRates(t *testing.T) {
	if os.Getenv("SORTIE_LONG") == "" || testing.Short() {
		t.Skip("set SORTIE_LONG=1 to measure the easy bot against medium")
	}
	random, medium := bot.Random{}, Heuristic{}
	coopMedium := easyBatch(t, 2, "", medium, medium)
	coopEasy := easyBatch(t, 2, "", Easy{}, Easy{})
	coopMixed := easyBatch(t, 2, "", Easy{}, medium)
	coopRandom := easyBatch(t, 2, "", random, medium)
	fourMedium := easyBatch(t, 4, "", medium, medium, medium, medium)
	fourEasy := easyBatch(t, 4, "", Easy{}, Easy{}, Easy{}, Easy{})
	soloMedium := easyBatch(t, 1, "", medium)
	soloEasy := easyBatch(t, 1, "", Easy{})
	comp := easyBatch(t, 2, "competition", Easy{}, medium)

	fmt.Printf("| Setting (%d games each) | Success or wins [95%% interval] |\n", easyGames)
	fmt.Println("|---|---|")
	for _, row := range []struct {
		name string
		rate sim.Interval
	}{
		{"Cooperation 2 seats: medium + medium", coopMedium.AllWon},
		{"Cooperation 2 seats: easy + easy", coopEasy.AllWon},
		{"Cooperation 2 seats: easy + medium", coopMixed.AllWon},
		{"Cooperation 2 seats: random + medium (the engine's default easy)", coopRandom.AllWon},
		{"Cooperation 4 seats: all medium", fourMedium.AllWon},
		{"Cooperation 4 seats: all easy", fourEasy.AllWon},
		{"Solo: medium", soloMedium.AllWon},
		{"Solo: easy", soloEasy.AllWon},
		{"Competition 2 seats, easy vs medium: medium wins", policyRate(comp, "heuristic")},
		{"Competition 2 seats, easy vs medium: easy wins", policyRate(comp, "easy")},
		{"Competition 2 seats, easy vs medium: no winner (drawn or all lost)", comp.NoneWon},
	} {
		fmt.Printf("| %s | %v |\n", row.name, row.rate)
	}

	above := func(what string, hi, lo sim.Interval) {
		if hi.Lo <= lo.Hi {
			t.Errorf("%s: %v is not significantly above %v", what, hi, lo)
		}
	}
	above("cooperation 2: medium team over easy team", coopMedium.AllWon, coopEasy.AllWon)
	above("cooperation 2: easy + medium over random + medium", coopMixed.AllWon, coopRandom.AllWon)
	above("competition 2: medium over easy", policyRate(comp, "heuristic"), policyRate(comp, "easy"))
	if coopEasy.AllWon.Lo <= 0 {
		t.Errorf("cooperation 2: an easy team escapes %v, about never", coopEasy.AllWon)
	}
}
