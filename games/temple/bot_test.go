package temple

import (
	"testing"

	"sortie/bot"
	"sortie/engine"
	"sortie/sim"
)

func TestPolicies(t *testing.T) {
	ps := Game{}.Policies()
	if len(ps) != 3 || ps[0].Name() != "easy" || ps[1].Name() != "heuristic" || ps[2].Name() != "hard" {
		t.Fatalf("policies %v", ps)
	}
	if p, err := bot.Find(Game{}, "heuristic"); err != nil || p.Name() != "heuristic" {
		t.Fatalf("bot.Find: %v %v", p, err)
	}
	// The levels: easy is the heuristic at the easy pace, medium the
	// heuristic, hard the game's own "hard".
	for level, want := range map[string]heuristicPolicy{"easy": Easy().(heuristicPolicy), "medium": Heuristic().(heuristicPolicy), "hard": Hard().(heuristicPolicy)} {
		p, err := bot.Level(Game{}, level)
		if err != nil {
			t.Fatal(err)
		}
		b, ok := p.NewBot(Game{}, bot.Seating{Players: 2}).(*heuristicBot)
		if !ok || b.hard != want.hard || b.react != want.react {
			t.Fatalf("level %s plays %T %+v", level, p, p)
		}
	}
	if h := Hard().(heuristicPolicy); !h.hard || h.react.Level != "hard" {
		t.Fatalf("hard policy %+v", h)
	}
	if e := Easy().(heuristicPolicy); e.hard || e.react.Level != "easy" || e.Name() != "easy" {
		t.Fatalf("easy policy %+v", e)
	}
	if HeuristicAt("easy").Name() != "heuristic_easy" || HeuristicAt("hard").Name() != "heuristic_hard" {
		t.Fatal("level names")
	}
}

// TestHeuristicBotsPlayEveryVariant plays a few games of every player count
// and variant: no bot may stall the game or have its actions refused for long
// (sim.Play fails then), and every delay is a human reaction time.
func TestHeuristicBotsPlayEveryVariant(t *testing.T) {
	games := 4
	if testing.Short() {
		games = 1
	}
	for _, setup := range append(conformanceSetups(), untimedSetups()...) {
		for i := range games {
			setup.Seed = uint64(i)
			for _, pol := range []bot.Policy{Easy(), Heuristic(), Hard()} {
				if _, err := sim.PlayOne(Game{}, setup, team(floorCheck{t, pol}, setup.Players)); err != nil {
					t.Fatalf("%s, %v seed %d: %v", pol.Name(), setup, i, err)
				}
			}
		}
	}
}

// floorCheck wraps a policy and checks every decision's delay.
type floorCheck struct {
	t *testing.T
	bot.Policy
}

func (f floorCheck) NewBot(g engine.Game, s bot.Seating) bot.Bot {
	return floorBot{f.t, f.Policy.NewBot(g, s)}
}

type floorBot struct {
	t *testing.T
	bot.Bot
}

func (b floorBot) Decide(v engine.View, l []engine.Action, now engine.Millis) bot.Decision {
	d := b.Bot.Decide(v, l, now)
	if d.Action != nil && d.Delay < reactionFloor || d.Delay <= 0 {
		b.t.Fatalf("decision %+v at %d: delay under the floor", d, now)
	}
	return d
}

// TestHeuristicTeamsWin guards the bots' strength: at normal difficulty a
// team of three wins most games (README: about 90 %).
func TestHeuristicTeamsWin(t *testing.T) {
	games := 60
	if testing.Short() {
		games = 15
	}
	rate, _ := winRate(t, 3, nil, games, 1)
	if rate < 0.6 {
		t.Fatalf("three heuristic bots won %.0f %% of %d games", 100*rate, games)
	}
}
