package plandesecours

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"sortie/engine"
	"sortie/engine/enginetest"
	"sortie/engine/jsonw"
)

// TestViewWritesItsOwnJSON plays random games of every setup (2–5 players,
// DANGER mode off and on) and, at every state up to the end of the game,
// checks that every seat's view and the spectator's write with AppendJSON
// exactly what encoding/json writes. When it fails after a change to a view
// type: a field added to View, TopItem, Reveal or any type in them must be
// written by viewjson.go too, in the same place and with the same omission
// rule. It also checks that the playouts reached every optional field, so
// that each omission rule was tried both ways.
func TestViewWritesItsOwnJSON(t *testing.T) {
	playouts := 50 // per setup: about a second in all
	if testing.Short() {
		playouts = 12
	}
	if os.Getenv("SORTIE_LONG") == "1" {
		playouts = 1000
	}
	// Keys that only some views write: each must be seen at least once.
	optional := []string{`"hand":`, `"chain":{`, `"dangers":`, `"danger_deck":`, `"last_reveal":`,
		`"blocked":`, `"scoring_chain":`, `"outcome":`, `"face_down":`, `"status":`, `"pass":`,
		`"character":`, `"next_facing":"free"`, `"kind":"face_down"`, `"kind":"lost"`, `"kind":"start"`}
	seen := map[string]bool{}
	states := 0
	var setups []engine.Setup
	for n := MinPlayers; n <= MaxPlayers; n++ {
		for _, danger := range []string{"false", "true"} {
			setups = append(setups, engine.Setup{Players: n, Options: map[string]string{"danger": danger}})
		}
	}
	for _, setup := range setups {
		name := enginetest.SetupName(setup)
		for i := range playouts {
			setup.Seed = uint64(i)
			es, err := Game{}.New(setup)
			if err != nil {
				t.Fatal(err)
			}
			s := es.(*State)
			r := rand.New(rand.NewPCG(uint64(i), 20))
			for step := 0; ; step++ {
				for p := engine.Spectator; int(p) < setup.Players; p++ {
					got, err := enginetest.OwnJSON(s.View(p))
					if err != nil {
						t.Fatalf("%s, game %d, step %d, view of %s: %v", name, i, step, p, err)
					}
					for _, k := range optional {
						if !seen[k] && strings.Contains(got, k) {
							seen[k] = true
						}
					}
				}
				states++
				if s.phase == phaseOver {
					break
				}
				p := s.Actors()[0]
				legal := s.Legal(p)
				if _, err := s.Apply(p, legal[r.IntN(len(legal))], 0); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	t.Logf("%d states checked", states)
	for _, k := range optional {
		if !seen[k] {
			t.Errorf("no view wrote %s: the playouts no longer reach it", k)
		}
	}
}

// TestTableIDsNeedNoEscaping holds the promise of appendName: every id it
// writes is written by encoding/json between quotes unchanged.
func TestTableIDsNeedNoEscaping(t *testing.T) {
	var ids []string
	for _, x := range tiles {
		ids = append(ids, x.id)
	}
	for _, x := range tileTypes {
		ids = append(ids, x.id)
	}
	for _, x := range floors {
		ids = append(ids, x.id)
	}
	for _, x := range dangers {
		ids = append(ids, x.id)
	}
	ids = append(ids, characterNames[:]...)
	ids = append(ids, moveNames[:]...)
	ids = append(ids, headingNames[:]...)
	ids = append(ids, itemKindNames[:]...)
	ids = append(ids, lostStatusNames[:]...)
	for _, id := range ids {
		if got, want := string(appendName(nil, id)), string(jsonw.String(nil, id)); got != want {
			t.Errorf("appendName writes %s, encoding/json %s", got, want)
		}
	}
}

// BenchmarkViewJSON encodes seat 1's view of a game in its second round
// (with the first round's reveal) by encoding/json and by AppendJSON into a
// reused buffer, as the server does, for 2 to 5 players.
func BenchmarkViewJSON(b *testing.B) {
	for n := MinPlayers; n <= MaxPlayers; n++ {
		s := midGame(b, n)
		v := s.View(1)
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

// midGame plays random legal actions until the middle of round 2: the view
// then holds a reveal, a LOST tile or two and a few tiles on the stack.
func midGame(b *testing.B, n int) *State {
	r := rand.New(rand.NewPCG(5, 6))
	for seed := uint64(1); ; seed++ {
		s := newState(n, false, seed)
		for s.phase != phaseOver && (s.round < 2 || s.numDir < 10) {
			p := s.Actors()[0]
			legal := s.Legal(p)
			if _, err := s.Apply(p, legal[r.IntN(len(legal))], 0); err != nil {
				b.Fatal(err)
			}
		}
		if s.phase != phaseOver {
			return s
		}
	}
}
