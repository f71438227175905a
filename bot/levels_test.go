package bot_test

import (
	"testing"

	"sortie/bot"
	"sortie/engine"
)

// ownHard is a game's own policy for the hard level.
type ownHard struct{ bot.Random }

func (ownHard) Name() string { return "hard" }

type duelWithHard struct{ duel }

func (duelWithHard) Policies() []bot.Policy { return []bot.Policy{ownHard{}, duelHeuristic{}} }

func TestLevels(t *testing.T) {
	for _, tc := range []struct {
		g     engine.Game
		level string
		want  string // the policy behind the level: its type, or ismcts+guide
	}{
		{duel{}, "easy", "random"},
		{duel{}, "medium", "random"},
		{duel{}, "hard", "ismcts"},
		{duelWithHeuristic{}, "medium", "heuristic"},
		{duelWithHeuristic{}, "hard", "ismcts falling back on heuristic"},
		{duelWithHard{}, "hard", "own"},
		{duelWithHard{}, "medium", "heuristic"},
		{detTaps{}, "hard", "random"}, // real time without an evaluator: medium
	} {
		p, err := bot.Level(tc.g, tc.level)
		if err != nil {
			t.Fatal(err)
		}
		if p.Name() != tc.level {
			t.Errorf("%s %s is named %q", tc.g.Info().ID, tc.level, p.Name())
		}
		got := "random"
		switch q := p.(type) {
		case ownHard:
			got = "own"
		case bot.ISMCTS:
			got = "ismcts"
			if q.Guide != nil {
				got += " guided by " + q.Guide.Name()
			}
			if q.Fallback != nil {
				got += " falling back on " + q.Fallback.Name()
			}
		default:
			if _, ok := p.NewBot(tc.g, bot.Seating{Players: 2}).(duelHeuristicBot); ok {
				got = "heuristic"
			}
		}
		if got != tc.want {
			t.Errorf("%s %s plays %s, want %s", tc.g.Info().ID, tc.level, got, tc.want)
		}
	}
	if _, err := bot.Level(duel{}, "expert"); err == nil {
		t.Error("an unknown level was accepted")
	}
}

// Given a game without determinization, its hard level is its medium one.
func TestHardWithoutSearchIsMedium(t *testing.T) {
	p, err := bot.Level(duelUnsearchable{}, "hard")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.NewBot(duelUnsearchable{}, bot.Seating{Players: 2}).(duelHeuristicBot); !ok || p.Name() != "hard" {
		t.Fatalf("hard is %T named %q", p, p.Name())
	}
	if bot.Searchable(duelUnsearchable{}) || !bot.Searchable(duel{}) {
		t.Fatal("Searchable is wrong")
	}
}

// duelUnsearchable hides its states' Determinize.
type duelUnsearchable struct{ duelWithHeuristic }

func (g duelUnsearchable) New(s engine.Setup) (engine.State, error) {
	st, err := g.duelWithHeuristic.New(s)
	return opaque{st}, err
}

type opaque struct{ engine.State }

func TestFindKnowsLevels(t *testing.T) {
	for _, name := range []string{"random", "ismcts", "easy", "medium", "hard", "heuristic"} {
		p, err := bot.Find(duelWithHeuristic{}, name)
		if err != nil || p.Name() != name {
			t.Errorf("Find(%q) = %v, %v", name, p, err)
		}
	}
	if _, err := bot.Find(duel{}, "heuristic"); err == nil {
		t.Error("found a heuristic in a game without one")
	}
}

// Given the duel with its heuristic, when the levels meet, then hard beats
// medium and medium beats easy.
func TestLevelsAreOrdered(t *testing.T) {
	g := duelWithHeuristic{}
	easy, _ := bot.Level(g, "easy")
	medium, _ := bot.Level(g, "medium")
	hard, _ := bot.Level(g, "hard")
	h := hard.(bot.ISMCTS)
	h.Iterations = scaled(300, 150)
	hard = h
	games := scaled(200, 60)
	if st := versus(t, g, nil, medium, easy, games); st.WinRate.Lo <= 0.5 {
		t.Errorf("medium won %s against easy", st.WinRate)
	}
	if st := versus(t, g, nil, hard, medium, games); st.WinRate.Lo <= 0.5 {
		t.Errorf("hard won %s against medium", st.WinRate)
	}
}

// duelNobodyWins is the duel where nobody ever wins: random playouts tell
// a search nothing.
type duelNobodyWins struct{ duelWithHeuristic }

func (g duelNobodyWins) New(s engine.Setup) (engine.State, error) {
	st, err := g.duelWithHeuristic.New(s)
	if err != nil {
		return nil, err
	}
	return nobodyWins{st.(*duelState)}, nil
}

type nobodyWins struct{ *duelState }

func (s nobodyWins) Outcome() (engine.Outcome, bool) {
	out, over := s.duelState.Outcome()
	out.Winners = nil
	return out, over
}

// Given a game that random play never wins, the hard level lets the
// heuristic play its playouts.
func TestHardGuidesPlayoutsThatNeverWin(t *testing.T) {
	p, _ := bot.Level(duelNobodyWins{}, "hard")
	m := p.(bot.ISMCTS)
	if m.Guide == nil || m.Guide.Name() != "heuristic" || m.Iterations != bot.GuidedIterations {
		t.Fatalf("hard is %+v", m)
	}
	p, _ = bot.Level(duelWithHeuristic{}, "hard")
	if m := p.(bot.ISMCTS); m.Guide != nil {
		t.Fatalf("the hard duel, which random play wins, is guided: %+v", m)
	}
}
