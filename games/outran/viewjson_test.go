package outran

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"sortie/engine"
	"sortie/engine/enginetest"
)

// TestViewWritesItsOwnJSON plays random games of every setup of the
// conformance test (2–6 players × monster × exit boards, the stop vote off,
// a short round cap) and of the "line" path layout and, at every state up to
// the end of the game, checks that every seat's view and the spectator's
// write with AppendJSON exactly what encoding/json writes. When it fails
// after a change to a view type: a field added to View, SeatView or any type
// in them must be written by viewjson.go too, in the same place and with the
// same omission rule. It also checks that the playouts reached every
// optional field, so that each omission rule was tried both ways.
func TestViewWritesItsOwnJSON(t *testing.T) {
	playouts := 2
	if testing.Short() {
		playouts = 1
	}
	if os.Getenv("SORTIE_LONG") == "1" {
		playouts = 50
	}
	c := viewChecker{t: t, seen: map[string]bool{}}
	setups := append(conformanceSetups(), engine.Setup{Players: 5, Options: map[string]string{optPathLayout: "line"}})
	for _, setup := range setups {
		for i := range playouts {
			setup.Seed = uint64(i)
			s, err := Game{}.New(setup)
			if err != nil {
				t.Fatal(err)
			}
			c.playOut(s, rand.New(rand.NewPCG(uint64(i), 20)), 0, enginetest.SetupName(setup)+", game "+strconv.Itoa(i))
		}
	}
	// Random games seldom reach a choice of whom to infect: scenario S10
	// leads there, then the game goes on at random.
	s := newState(t, 4, "zombie")
	s.seats[A].Infected = true
	s.stackPath(t, "p01")
	reveal(t, s)
	for i, p := range []engine.Seat{B, A, C, D} {
		submitCorrect(t, s, p, engine.Millis(3000+1000*i))
	}
	c.playOut(s, rand.New(rand.NewPCG(1, 2)), s.revealAt+6000, "S10 at the infection choice")
	t.Logf("%d states checked", c.states)
	for _, k := range viewOptionalKeys {
		if !c.seen[k] {
			t.Errorf("no view wrote %s: the playouts no longer reach it", k)
		}
	}
}

// viewOptionalKeys are written by some views only: each must be seen at
// least once, so that both sides of its omission rule are checked.
var viewOptionalKeys = []string{`"deadline":`, `"path":{`, `"antidote":true`, `"centre":`, `"hand":`,
	`"palette":`, `"choice":{"kind":"place"`, `"choice":{"kind":"infect"`, `"position":`, `"candidates":`,
	`"turn":`, `"outcome":`, `"revealed":`, `"escaped":`, `"infected":`, `"immune":`, `"submitted":`,
	`"at":`, `"elapsed":`, `"rank":`, `"vote_open":`, `"voted":`, `"cards":`, `"result":`, `"canonical":`,
	`"path_layout":"line"`, `"stop_vote":false`}

// viewChecker compares the views' own JSON with encoding/json's and notes
// which optional keys it has seen.
type viewChecker struct {
	t      *testing.T
	seen   map[string]bool
	states int
}

// playOut plays s at random to the end, checking every audience's view at
// every state.
func (c *viewChecker) playOut(s engine.State, r *rand.Rand, now engine.Millis, name string) {
	c.t.Helper()
	n := len(s.(*state).seats)
	for step := 0; ; step++ {
		for p := engine.Spectator; int(p) < n; p++ {
			got, err := enginetest.OwnJSON(s.View(p))
			if err != nil {
				c.t.Fatalf("%s, step %d, view of %s: %v", name, step, p, err)
			}
			for _, k := range viewOptionalKeys {
				if !c.seen[k] && strings.Contains(got, k) {
					c.seen[k] = true
				}
			}
		}
		c.states++
		if _, over := s.Outcome(); over {
			return
		}
		now = randomStep(c.t, s, r, now)
	}
}

// randomStep plays a random legal action of a random actor after a pause
// of up to two seconds, or lets the clock reach the deadline first, and
// returns the new time.
func randomStep(tb testing.TB, s engine.State, r *rand.Rand, now engine.Millis) engine.Millis {
	pause := 2000
	if r.IntN(8) == 0 {
		pause = 20000 // long enough to open a stop vote now and then
	}
	at := now + engine.Millis(r.IntN(pause+1))
	actors := s.Actors()
	if dl, ok := s.Deadline(); ok && (dl <= at || len(actors) == 0) {
		s.Advance(dl)
		return dl
	}
	p := actors[r.IntN(len(actors))]
	legal := s.Legal(p)
	if _, err := s.Apply(p, legal[r.IntN(len(legal))], at); err != nil {
		tb.Fatal(err)
	}
	return at
}

// TestTableIDsNeedNoEscaping holds the promise of appendName: every id it
// writes is written by encoding/json between quotes unchanged.
func TestTableIDsNeedNoEscaping(t *testing.T) {
	for i := range cardCount {
		c := Card(i)
		if got, want := string(appendCard(nil, &c)), js(c); got != want {
			t.Errorf("appendCard writes %s, encoding/json %s", got, want)
		}
	}
	for tok := range tokenCount {
		if got, want := string(appendToken(nil, &tok)), js(tok); got != want {
			t.Errorf("appendToken writes %s, encoding/json %s", got, want)
		}
	}
}

// BenchmarkViewJSON encodes seat 1's view of a Vampire game in its fifth
// round by encoding/json and by AppendJSON into a reused buffer, as the
// server does, for 2 to 6 players.
func BenchmarkViewJSON(b *testing.B) {
	for n := 2; n <= 6; n++ {
		v := midGame(b, n).View(1)
		b.Run("players="+strconv.Itoa(n)+"/encoding_json", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := json.Marshal(v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("players="+strconv.Itoa(n)+"/AppendJSON", func(b *testing.B) {
			a := v.(engine.JSONAppender)
			buf := a.AppendJSON(nil)
			b.SetBytes(int64(len(buf)))
			b.ReportAllocs()
			for b.Loop() {
				buf = a.AppendJSON(buf[:0])
			}
		})
	}
}

// midGame plays random legal actions until the run of round 5.
func midGame(b *testing.B, n int) engine.State {
	r := rand.New(rand.NewPCG(5, 6))
	for seed := uint64(1); ; seed++ {
		s, err := Game{}.New(engine.Setup{Players: n, Seed: seed})
		if err != nil {
			b.Fatal(err)
		}
		var now engine.Millis
		st := s.(*state)
		for st.phase != PhaseOver && (st.round < 5 || st.phase != PhaseRun) {
			now = randomStep(b, s, r, now)
		}
		if st.phase != PhaseOver {
			return s
		}
	}
}
