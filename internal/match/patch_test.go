package match

import (
	"encoding/json"
	"maps"
	"math/rand/v2"
	"testing"

	"sortie/engine"
	"sortie/games/all"
)

// applyPatch is what a client does with an update that carries a patch.
func applyPatch(t *testing.T, view map[string]json.RawMessage, patch, drop []byte) map[string]json.RawMessage {
	t.Helper()
	out := maps.Clone(view)
	var p map[string]json.RawMessage
	if err := json.Unmarshal(patch, &p); err != nil {
		t.Fatalf("patch %s: %v", patch, err)
	}
	maps.Copy(out, p)
	if drop != nil {
		var d []string
		if err := json.Unmarshal(drop, &d); err != nil {
			t.Fatalf("drop %s: %v", drop, err)
		}
		for _, k := range d {
			if _, ok := out[k]; !ok {
				t.Fatalf("drop names %q, which the view did not hold", k)
			}
			delete(out, k)
		}
	}
	return out
}

func decodeObject(t *testing.T, b []byte) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return m
}

// randomView is a view-like struct whose fields come and go and change.
func randomView(r *rand.Rand) []byte {
	type inner struct {
		A []int  `json:"a,omitempty"`
		S string `json:"s"`
	}
	type view struct {
		Seat    int               `json:"seat"`
		Round   int               `json:"round"`
		Hand    []string          `json:"hand,omitempty"`
		Board   [][]int           `json:"board"`
		Note    string            `json:"note,omitempty"`
		Deep    *inner            `json:"deep,omitempty"`
		Flags   map[string]bool   `json:"flags,omitempty"`
		Escapes string            `json:"esc"`
		Any     []json.RawMessage `json:"any,omitempty"`
		// Values that grow from one view to the next while keeping what
		// they held as a prefix.
		Num   int     `json:"num"`
		Tag   string  `json:"tag"`
		Ratio float64 `json:"ratio"`
	}
	v := view{Seat: 1, Round: r.IntN(3), Board: [][]int{{1, 2}, {r.IntN(2)}}, Escapes: `q"uo\te{}[],:`,
		Num: []int{1, 12, 123, 12}[r.IntN(4)], Tag: []string{"ab", "abc", `ab"`}[r.IntN(3)], Ratio: []float64{0.5, 0.55, 5}[r.IntN(3)]}
	if r.IntN(2) == 0 {
		v.Hand = []string{"a", `b"]`, "c"}[:r.IntN(4)]
	}
	if r.IntN(3) == 0 {
		v.Note = "n},{" + string(rune('a'+r.IntN(3)))
	}
	if r.IntN(2) == 0 {
		v.Deep = &inner{A: []int{r.IntN(2)}, S: "x"}
	}
	if r.IntN(2) == 0 {
		v.Flags = map[string]bool{"k": r.IntN(2) == 0}
	}
	if r.IntN(3) == 0 {
		v.Any = []json.RawMessage{json.RawMessage(`null`), json.RawMessage(`true`), json.RawMessage(`-1.5e3`)}
	}
	b, _ := json.Marshal(v)
	return b
}

// A chain of patches rebuilds every view exactly, members coming and going
// included, and a broken chain sends the whole view.
func TestViewPatch(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var memo viewMemo
	var held map[string]json.RawMessage
	patched := 0
	for seq := uint64(1); seq <= 3000; seq++ {
		if seq%500 == 0 {
			seq++ // nobody listened to one state: the chain breaks
		}
		view := randomView(r)
		patch, drop, ok := memo.patch(view, seq)
		want := decodeObject(t, view)
		if ok {
			patched++
			if held == nil {
				t.Fatal("a patch with no view before it")
			}
			held = applyPatch(t, held, patch, drop)
		} else {
			held = want
		}
		if !maps.EqualFunc(held, want, func(a, b json.RawMessage) bool { return string(a) == string(b) }) {
			t.Fatalf("state %d: rebuilt %v, want %s", seq, held, view)
		}
	}
	if patched < 1000 {
		t.Errorf("only %d of 3000 updates were patches", patched)
	}
}

func TestViewPatchNotObject(t *testing.T) {
	var memo viewMemo
	for seq, v := range []string{`null`, `[1,2]`, `{"a":1}`, `"x"`, `{"a":1}`} {
		if _, _, ok := memo.patch([]byte(v), uint64(seq+1)); ok {
			t.Errorf("%s after %d: patched", v, seq)
		}
	}
}

// BenchmarkViewPatch measures what finding an update's patch costs: the
// view split into its members and each hashed, for a view of each game
// halfway through a random match.
func BenchmarkViewPatch(b *testing.B) {
	for _, g := range all.Games() {
		info := g.Info()
		s, err := g.New(engine.Setup{Players: max(info.MinPlayers, min(2, info.MaxPlayers)), Seed: 3})
		if err != nil {
			b.Fatal(err)
		}
		r := rand.New(rand.NewPCG(3, 3))
		for step := 0; step < 30; step++ {
			actors := s.Actors()
			if len(actors) == 0 {
				break
			}
			p := actors[r.IntN(len(actors))]
			if legal := s.Legal(p); len(legal) > 0 {
				s.Apply(p, legal[r.IntN(len(legal))], engine.Millis(step*100))
			}
		}
		view, err := json.Marshal(s.View(0))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(info.ID, func(b *testing.B) {
			var memo viewMemo
			b.SetBytes(int64(len(view)))
			b.ReportAllocs()
			for i := range b.N {
				memo.patch(view, uint64(i+1))
			}
		})
	}
}
