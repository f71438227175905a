package outran

import (
	"testing"

	"sortie/engine"
)

// The tables of components.go against the totals the reference states for
// them (§2.4–§2.9).

func TestPathCardTable(t *testing.T) {
	if len(pathCards) != 48 {
		t.Fatalf("%d path cards, want 48", len(pathCards))
	}
	byLen := map[int]int{}
	uses, opens := [arrowCount]int{}, [arrowCount]int{}
	symbols, antidotes := 0, 0
	for i, c := range pathCards {
		if want := "p" + string(rune('0'+(i+1)/10)) + string(rune('0'+(i+1)%10)); c.ID != want {
			t.Errorf("card %d is %s, want %s", i, c.ID, want)
		}
		byLen[len(c.Symbols)]++
		symbols += len(c.Symbols)
		opens[c.Symbols[0]]++
		for _, s := range c.Symbols {
			uses[s]++
		}
		if c.Antidote {
			antidotes++
		}
		// The footprints never jump: consecutive cells touch, no cell twice.
		seen := map[string]bool{}
		for j, cell := range c.Trail {
			if len(cell) != 2 || cell[0] < 'a' || cell[0] > 'c' || cell[1] < '1' || cell[1] > '3' || seen[cell] {
				t.Errorf("%s: bad trail cell %q", c.ID, cell)
			}
			seen[cell] = true
			if j > 0 {
				p := c.Trail[j-1]
				dc, dr := int(cell[0])-int(p[0]), int(cell[1])-int(p[1])
				if dc < -1 || dc > 1 || dr < -1 || dr > 1 {
					t.Errorf("%s: the trail jumps from %s to %s", c.ID, p, cell)
				}
			}
		}
	}
	want := map[int]int{4: 6, 5: 10, 6: 12, 7: 10, 8: 7, 9: 3}
	for l, n := range want {
		if byLen[l] != n {
			t.Errorf("%d cards of length %d, want %d", byLen[l], l, n)
		}
	}
	if symbols != 299 || antidotes != 12 {
		t.Errorf("%d symbols and %d antidote icons, want 299 and 12", symbols, antidotes)
	}
	for s := range Token(arrowCount) {
		if uses[s] < 33 || uses[s] > 34 || opens[s] < 5 || opens[s] > 6 {
			t.Errorf("%s appears %d times and opens %d cards, want 33–34 and 5–6", s, uses[s], opens[s])
		}
	}
}

func TestInterferenceDeckTable(t *testing.T) {
	if cardCount != 48 {
		t.Fatalf("%d interference cards, want 48", cardCount)
	}
	byKind := map[Kind]int{}
	v, z, zDetours := 0, 0, 0
	ids := map[string]bool{}
	for _, c := range cards {
		if ids[c.ID] {
			t.Errorf("card id %s twice", c.ID)
		}
		ids[c.ID] = true
		byKind[c.Kind]++
		if c.Vampire && c.Zombie {
			t.Errorf("%s carries both symbols", c.ID)
		}
		if c.Vampire {
			v++
		}
		if c.Zombie {
			z++
			if c.Kind == KindDetour {
				zDetours++
			}
		}
		if c.Kind == KindDetour && (c.Slot < 2 || c.Slot > 4) {
			t.Errorf("%s has slot %d", c.ID, c.Slot)
		}
		if k := kinds[c.Kind]; k.Category == ActionCard || c.Kind == KindShield {
			if c.Vampire || (c.Zombie && c.Kind != KindRelease) {
				t.Errorf("%s (a hand card) is in the Vampire or Zombie deck", c.ID)
			}
		}
	}
	want := map[Kind]int{
		KindReverse: 4, KindRicochetEvenOdd: 3, KindRicochetOddEven: 3, KindInterchange: 5,
		KindNotThisWay: 5, KindDetour: 6, KindShortcut: 3, KindExpress: 2, KindBoost: 4,
		KindShield: 3, KindThief: 3, KindSwap: 3, KindForYou: 2, KindRelease: 2,
	}
	for k, n := range want {
		if byKind[k] != n {
			t.Errorf("%d %s cards, want %d", byKind[k], k, n)
		}
	}
	if v != 15 || z != 15 || zDetours != 3 {
		t.Errorf("%d V cards, %d Z cards, %d Z Detours; want 15, 15, 3", v, z, zDetours)
	}
	for f, n := range map[deckFilter]int{deckAll: 48, deckVampire: 15, deckZombie: 15} {
		if got := len(deckOf(f)); got != n {
			t.Errorf("deck %d has %d cards, want %d", f, got, n)
		}
	}
}

func TestBoardsAndPlacementTable(t *testing.T) {
	// §2.5 derived table: steps of the 1st, 2nd, … correct seat.
	want := map[Monster]map[int][]int{
		Bear:   {2: {3, 0}, 3: {3, 2, 0}, 4: {3, 2, 1, 0}, 5: {3, 2, 1, 1, 0}, 6: {3, 2, 2, 1, 1, 0}},
		Dragon: {2: {4, 0}, 3: {4, 2, 0}, 4: {4, 2, 1, 0}, 5: {4, 2, 1, 1, 0}, 6: {4, 2, 2, 1, 1, 0}},
	}
	want[Vampire], want[Zombie] = want[Bear], want[Bear]
	for m, rows := range want {
		for n, steps := range rows {
			act := activePositions[n]
			if len(act) != n {
				t.Fatalf("%d active positions for %d seats", len(act), n)
			}
			for i, w := range steps {
				if got := boards[m].Value[act[len(act)-1-i]]; got != w {
					t.Errorf("%s, %d seats: correct seat %d moves %d, want %d", boards[m].ID, n, i+1, got, w)
				}
			}
		}
	}
	for _, b := range boards {
		if b.Value[zeroBox] != 0 || b.Value[1] != 0 {
			t.Errorf("%s: the +0 box and pos1 must move 0", b.ID)
		}
	}
}

func TestTokenAndCardJSON(t *testing.T) {
	for tk := range tokenCount {
		b, err := tk.MarshalText()
		var back Token
		if err != nil || back.UnmarshalText(b) != nil || back != tk {
			t.Errorf("token %d does not round-trip", tk)
		}
	}
	for c := range Card(cardCount) {
		b, err := c.MarshalText()
		var back Card
		if err != nil || back.UnmarshalText(b) != nil || back != c {
			t.Errorf("card %d does not round-trip", c)
		}
	}
	a, err := Game{}.DecodeAction([]byte(`{"type":"submit","cards":["ne","n","detour","se"]}`))
	if err != nil || js(a) != `{"type":"submit","cards":["ne","n","detour","se"]}` {
		t.Fatalf("decode: %v %s", err, js(a))
	}
	if _, err := (Game{}).DecodeAction([]byte(`{"type":"submit","cards":["up"]}`)); err == nil {
		t.Fatal("an unknown token decoded")
	}
}

func TestParseAction(t *testing.T) {
	for in, want := range map[string]string{
		"98+3":                `{"type":"submit","cards":["ne","n","detour","se"]}`,
		"ne n + se":           `{"type":"submit","cards":["ne","n","detour","se"]}`,
		"↗ ↑ ↘ v":             `{"type":"submit","cards":["ne","n","se","antidote"]}`,
		"5 t":                 `{"type":"submit","cards":["spin","express"]}`,
		"-":                   `{"type":"submit","cards":[]}`,
		"vote":                `{"type":"vote_stop"}`,
		"left":                `{"type":"choose_place","leftmost":true}`,
		"stay":                `{"type":"choose_place","leftmost":false}`,
		"infect 2":            `{"type":"infect","target":2}`,
		"play reverse_3 1":    `{"type":"play","card":"reverse_3","target":1}`,
		"end":                 `{"type":"end_turn"}`,
		`{"type":"end_turn"}`: `{"type":"end_turn"}`,
	} {
		a, err := Game{}.ParseAction(in)
		if err != nil || js(a) != want {
			t.Errorf("%q: %s, %v; want %s", in, js(a), err, want)
		}
	}
	for _, bad := range []string{"", "98x", "infect", "play nothing 1"} {
		if _, err := (Game{}).ParseAction(bad); err == nil {
			t.Errorf("%q was read as an action", bad)
		}
	}
}

// TestOptionKeys checks that optionKeys lists the keys of options, in order
// (quickConfig and New rely on it).
func TestOptionKeys(t *testing.T) {
	if len(optionKeys) != len(options) {
		t.Fatalf("%d option keys for %d options", len(optionKeys), len(options))
	}
	for i, o := range options {
		if optionKeys[i] != o.Key {
			t.Errorf("optionKeys[%d] = %q, want %q", i, optionKeys[i], o.Key)
		}
	}
}

// TestQuickConfig checks that the options New reads without Info.Check are
// read as Info.Check reads them, and that whatever it does not take is left
// to Info.Check.
func TestQuickConfig(t *testing.T) {
	for _, c := range []struct {
		opts  map[string]string
		quick bool // quickConfig reads it (with 2 to 6 players)
	}{
		{nil, true},
		{map[string]string{}, true},
		{map[string]string{optMonster: "zombie"}, true},
		{map[string]string{optMonster: "dragon", optExitBoards: "3", optStopVote: "false", optMaxRounds: "10", optPathLayout: "line"}, true},
		{map[string]string{optCountdown: "2000", optRunLimit: "180000", optVoteGrace: "3000", optDecision: "60000"}, true},
		{map[string]string{optExitBoards: " 2"}, false}, // Info.Check takes it
		{map[string]string{optStopVote: "1"}, false},    // likewise
		{map[string]string{optExitBoards: "02"}, false}, // likewise
		{map[string]string{optExitBoards: "4"}, false},  // out of range
		{map[string]string{optMonster: "ghost"}, false}, // no such monster
		{map[string]string{"colour": "red"}, false},     // no such option
		{map[string]string{optStopVote: "maybe"}, false},
		{map[string]string{optMaxRounds: "ten"}, false},
		{map[string]string{optPathLayout: "diagonal"}, false},
	} {
		for _, players := range []int{1, 2, 6, 7} {
			setup := engine.Setup{Players: players, Seed: 1, Options: c.opts}
			checked, err := info.Check(setup)
			quick, ok := quickConfig(setup)
			if want := c.quick && players >= 2 && players <= 6; ok != want {
				t.Errorf("%d players, %v: quickConfig ok = %v, want %v", players, c.opts, ok, want)
			}
			if err != nil {
				if ok {
					t.Errorf("%d players, %v: quickConfig takes what Info.Check refuses (%v)", players, c.opts, err)
				}
				continue
			}
			var vals optionValues
			for i, key := range optionKeys {
				vals[i] = checked.String(key)
			}
			if want := configFrom(&vals); ok && quick != want {
				t.Errorf("%d players, %v: quickConfig %+v, Info.Check %+v", players, c.opts, quick, want)
			}
		}
	}
}
