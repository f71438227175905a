package plandesecours

import (
	"slices"
	"testing"

	"sortie/engine"
)

// TestSetup follows section 3: scores, target, the initial FLOOR card, the
// draw pile after dealing, and the random calls in the order of D30 (FLOOR
// shuffle, DANGER shuffle, first player, DIRECTION shuffle; tiles gathered
// in canonical order; 3 tiles each from the first player clockwise).
func TestSetup(t *testing.T) {
	for n := MinPlayers; n <= MaxPlayers; n++ {
		for _, danger := range []bool{false, true} {
			st, err := Game{}.New(engine.Setup{Players: n, Seed: 99, Options: map[string]string{"danger": boolText(danger)}})
			if err != nil {
				t.Fatal(err)
			}
			s := st.(*State)

			rng := engine.NewRNG(99)
			floorsWant := []FloorID{1, 2, 3, 4, 5, 6}
			rng.Shuffle(6, func(i, j int) { floorsWant[i], floorsWant[j] = floorsWant[j], floorsWant[i] })
			dangersWant := []DangerID{0, 1, 2, 3, 4, 5, 6}
			if danger {
				rng.Shuffle(7, func(i, j int) { dangersWant[i], dangersWant[j] = dangersWant[j], dangersWant[i] })
			}
			first := rng.IntN(n)
			pile := make([]TileID, numPlayable)
			for i := range pile {
				pile[i] = TileID(i + 1)
			}
			rng.Shuffle(numPlayable, func(i, j int) { pile[i], pile[j] = pile[j], pile[i] })

			if !slices.Equal(s.floorDeck[:], floorsWant) || !slices.Equal(s.dangerDeck[:], dangersWant) || int(s.first) != first || int(s.actor) != first {
				t.Fatalf("n=%d danger=%v: decks or first player not in the D30 order", n, danger)
			}
			for k := range n {
				p := (first + k) % n
				if !slices.Equal(s.hands[p][:s.handLen[p]], pile[3*k:3*k+3]) {
					t.Fatalf("n=%d: seat %d's hand %v, want %v", n, p, s.hands[p], pile[3*k:3*k+3])
				}
			}
			v := view(s, engine.Spectator)
			wantDangers := 0
			if danger {
				wantDangers = 1
			}
			if v.DrawPile != numPlayable-3*n || v.Target != Target(n) || !slices.Equal(v.Floors, []FloorID{FloorInitial}) ||
				len(v.Dangers) != wantDangers || v.Top.Kind != "start" || v.NextFacing != 0 || v.Round != 1 {
				t.Fatalf("n=%d danger=%v: view %s", n, danger, js(v))
			}
		}
	}
	if _, err := (Game{}).New(engine.Setup{Players: 6}); err == nil {
		t.Error("6 players accepted")
	}
	if _, err := (Game{}).New(engine.Setup{Players: 3, Options: map[string]string{"danger": "maybe"}}); err == nil {
		t.Error("danger=maybe accepted")
	}
}

// TestActionJSON checks the JSON forms of the README.
func TestActionJSON(t *testing.T) {
	for _, c := range []struct {
		json string
		want engine.Action
	}{
		{`{"type":"play_tile","tile":"left_4"}`, PlayTile{Tile: tid("left_4")}},
		{`{"type":"play_tile","tile":"left_4","facing":3}`, PlayTile{Tile: tid("left_4"), Facing: FacingOf(3)}},
		{`{"type":"play_lost"}`, PlayLost{}},
		{`{"type":"pass_turn"}`, PassTurn{}},
		{`{"type":"join_lost"}`, JoinLost{}},
		{`{"type":"decline_lost"}`, DeclineLost{}},
	} {
		a, err := Game{}.DecodeAction([]byte(c.json))
		if err != nil || a != c.want {
			t.Errorf("%s decodes to %#v, %v", c.json, a, err)
		}
		if b := js(c.want); b != c.json {
			t.Errorf("%#v encodes to %s, want %s", c.want, b, c.json)
		}
	}
	for _, bad := range []string{
		`{"type":"play_tile"}`, `{"type":"play_tile","tile":"start"}`, `{"type":"play_tile","tile":"left_8"}`,
		`{"type":"play_tile","tile":"left_4","facing":4}`, `{"type":"play_lost","tile":"left_4"}`,
	} {
		if _, err := (Game{}).DecodeAction([]byte(bad)); err == nil || err.(*engine.RuleError).Code != engine.CodeMalformed {
			t.Errorf("%s: %v, want malformed", bad, err)
		}
	}
}
