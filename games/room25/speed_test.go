package room25

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"sortie/engine"
)

// The state hands out lists carved from its chunks and lists shared by
// every state (memory.go): whoever was given one may keep it. These tests
// check that nothing handed out changes afterwards, whatever the state, its
// clones and other games do next.

// keptList is a list handed out by a state and its JSON when it was.
type keptList struct {
	what string
	list any
	was  string
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	var parts []json.RawMessage
	switch l := v.(type) {
	case []engine.Action:
		for _, a := range l {
			b, err := engine.MarshalTyped(a)
			if err != nil {
				t.Fatal(err)
			}
			parts = append(parts, b)
		}
	case []engine.Event:
		for _, e := range l {
			b, err := json.Marshal(e)
			if err != nil {
				t.Fatal(err)
			}
			parts = append(parts, json.RawMessage(fmt.Sprintf(`{"to":%d,"event":%s}`, e.To, b)))
		}
	default:
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	b, err := json.Marshal(parts)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestHandedOutListsStayPut(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var kept []keptList
	keep := func(what string, l any) { kept = append(kept, keptList{what, l, jsonOf(t, l)}) }
	// play plays s at random for at most n actions, keeping what it hands out.
	play := func(s engine.State, n int) {
		for range n {
			actors := s.Actors()
			if len(actors) == 0 {
				return
			}
			keep("actors", actors)
			p := actors[r.IntN(len(actors))]
			legal := s.Legal(p)
			keep("legal", legal)
			evs, err := s.Apply(p, legal[r.IntN(len(legal))], 0)
			if err != nil {
				t.Fatal(err)
			}
			keep("events", evs)
		}
	}
	for i, setup := range traceSetups {
		setup.Seed = uint64(i + 1)
		st, err := Game{}.New(setup)
		if err != nil {
			t.Fatal(err)
		}
		for step := 0; ; step++ {
			if _, over := st.Outcome(); over {
				break
			}
			if step%7 == 0 {
				play(st.Clone(), 12)
				play(st.(engine.Determinizer).Determinize(engine.Seat(r.IntN(setup.Players)), r), 12)
			}
			play(st, 1)
		}
	}
	for _, k := range kept {
		if now := jsonOf(t, k.list); now != k.was {
			t.Fatalf("a %s list changed after it was handed out:\nwas %s\nnow %s", k.what, k.was, now)
		}
	}
}

// midGameState returns a state a few random actions into a game of setup.
func midGameState(b *testing.B, setup engine.Setup, actions int) *State {
	st, err := Game{}.New(setup)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(setup.Seed, 9))
	for range actions {
		actors := st.Actors()
		if len(actors) == 0 {
			break
		}
		p := actors[r.IntN(len(actors))]
		legal := st.Legal(p)
		if _, err := st.Apply(p, legal[r.IntN(len(legal))], 0); err != nil {
			b.Fatal(err)
		}
	}
	return st.(*State)
}

// BenchmarkClone clones a state of a 5-seat Suspicion game in its second
// turn.
func BenchmarkClone(b *testing.B) {
	s := midGameState(b, engine.Setup{Players: 5, Seed: 3, Options: map[string]string{optMode: "suspicion"}}, 40)
	b.ReportAllocs()
	for b.Loop() {
		sink = s.Clone()
	}
}

// sink keeps what a benchmark makes from being optimised away.
var sink engine.State

// BenchmarkDeterminize draws a determinization for a seat of the same
// game, as a search bot does at every iteration.
func BenchmarkDeterminize(b *testing.B) {
	s := midGameState(b, engine.Setup{Players: 5, Seed: 3, Options: map[string]string{optMode: "suspicion"}}, 40)
	r := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	for b.Loop() {
		sink = s.Determinize(1, r)
	}
}

// BenchmarkSearchPlayout is a search bot's iteration without the tree: a
// determinization of a 2-seat Cooperation game early in turn 1, played out
// at random to the end.
func BenchmarkSearchPlayout(b *testing.B) {
	s := midGameState(b, engine.Setup{Players: 2, Seed: 1}, 5)
	r := rand.New(rand.NewPCG(1, 2))
	actions := 0
	b.ReportAllocs()
	for b.Loop() {
		d := s.Determinize(0, r)
		for {
			actors := d.Actors()
			if len(actors) == 0 {
				break
			}
			p := actors[r.IntN(len(actors))]
			legal := d.Legal(p)
			d.Apply(p, legal[r.IntN(len(legal))], 0)
			actions++
		}
		d.Outcome()
	}
	b.ReportMetric(float64(actions)/float64(b.N), "actions/op")
}
