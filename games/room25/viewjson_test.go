package room25

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"sortie/bot"
	"sortie/engine"
	"sortie/engine/enginetest"
	"sortie/sim"
)

// TestViewWritesItsOwnJSON plays games of every setup — random ones, and
// heuristic ones that reach the late game (alarms, masks falling, escapes)
// — and checks at every state, the end included, that every seat's and the
// spectator's view writes exactly the JSON encoding/json writes for it.
// It then checks a view with every field set, so that a field added to a
// view type and forgotten in viewjson.go fails here even if no game
// reaches it.
func TestViewWritesItsOwnJSON(t *testing.T) {
	games := 6
	if testing.Short() {
		games = 2
	}
	states := 0
	for i, setup := range conformanceSetups() {
		for g := range games {
			setup.Seed = uint64(100*i + g)
			ps := make([]bot.Policy, setup.Players)
			for p := range ps {
				ps[p] = bot.Random{}
				if g%2 == 1 && (p+g)%3 != 2 {
					ps[p] = Heuristic{}
				}
			}
			res, err := sim.Play(Game{}, setup, ps, true)
			if err != nil {
				t.Fatal(err)
			}
			st, err := Game{}.New(setup)
			if err != nil {
				t.Fatal(err)
			}
			where := func(k int) string { return fmt.Sprintf("%v record %d", setup, k) }
			for k, rec := range res.Log {
				checkOwnJSON(t, where(k), st)
				if _, err := engine.Play(st, rec); err != nil {
					t.Fatalf("%s: %v", where(k), err)
				}
			}
			if _, over := st.Outcome(); !over {
				t.Fatalf("%v: the replayed game is not over", setup)
			}
			checkOwnJSON(t, fmt.Sprintf("%v at the end", setup), st)
			states += len(res.Log) + 1
		}
	}
	t.Logf("%d states checked", states)

	// The zero view, one of zero-valued items (empty names, null lists,
	// empty ones) and one with every field set.
	zeroItems := View{
		Line: []Character{}, Decision: &DecisionView{}, Cells: []CellView{{}, {Characters: []Character{}}},
		Characters: []CharacterView{{}}, Marks: []MarkView{{}}, Seats: []SeatView{{}},
		Aside: []Role{}, CustomRooms: map[string]int{}, Result: &ResultView{Winners: []int{}},
	}
	for _, v := range []View{{}, zeroItems, filledView()} {
		if _, err := enginetest.OwnJSON(v); err != nil {
			t.Fatalf("a made-up view: %v", err)
		}
	}
}

// checkOwnJSON compares AppendJSON with json.Marshal for every audience of s.
func checkOwnJSON(t *testing.T, where string, s engine.State) {
	t.Helper()
	for p := engine.Spectator; p < engine.Seat(s.(*State).seats); p++ {
		if _, err := enginetest.OwnJSON(s.View(p)); err != nil {
			t.Fatalf("%s: %s's view: %v", where, p, err)
		}
	}
}

// filledView returns a view whose every field, at every depth, holds a
// value that is not omitted: text with characters JSON escapes, numbers,
// true, lists of two, maps of two keys.
func filledView() View {
	var v View
	fill(reflect.ValueOf(&v).Elem(), 1)
	return v
}

// fill sets every field of v from n, so that neighbouring values differ.
func fill(v reflect.Value, n int) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i), n+i)
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		fill(v.Index(0), n)
		fill(v.Index(1), n+1)
	case reflect.Array:
		for i := range v.Len() {
			fill(v.Index(i), n+i)
		}
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		m.SetMapIndex(reflect.ValueOf("vortex<&>"), reflect.ValueOf(n))
		m.SetMapIndex(reflect.ValueOf("acid"), reflect.ValueOf(-n))
		v.Set(m)
	case reflect.String:
		v.SetString(fmt.Sprintf("«%d» \"<&>\" \u2028\n", n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int:
		v.SetInt(int64(-n))
	case reflect.Uint8:
		// The components' names: each type's largest value, and the
		// others by n, none of them zero (omitted).
		top := map[reflect.Type]int{
			reflect.TypeFor[Character](): maxChars, reflect.TypeFor[Role](): int(Guard),
			reflect.TypeFor[Token](): numTokens - 1, reflect.TypeFor[Dir](): int(Right),
			reflect.TypeFor[Colour](): int(HintBlue), reflect.TypeFor[TileID](): numTiles,
			reflect.TypeFor[Line](): numLines,
		}[v.Type()]
		if top == 0 {
			panic("fill: no range known for " + v.Type().String())
		}
		v.SetUint(uint64(1 + n%top))
	default:
		panic("fill: a view holds a " + v.Kind().String() + ": teach fill (and check viewjson.go) about it")
	}
}

// BenchmarkViewJSON encodes a mid-game view (seat 0, a few turns in) of
// each player count with encoding/json and with the view's own AppendJSON.
func BenchmarkViewJSON(b *testing.B) {
	for n := 1; n <= maxSeats; n++ {
		s := midGameState(b, engine.Setup{Players: n, Seed: uint64(n)}, 20*n+20)
		v := s.View(0)
		b.Run(fmt.Sprintf("players=%d/encoding_json", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := json.Marshal(v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("players=%d/AppendJSON", n), func(b *testing.B) {
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
