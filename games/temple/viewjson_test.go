package temple

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"sortie/engine"
	"sortie/engine/enginetest"
	"sortie/sim"
)

// optionalKeys are the view's fields that encoding/json leaves out when
// empty (or writes as null when nil): the views compared must show each of
// them at least once, so that both ways are compared.
var optionalKeys = []string{
	`"you":`, `"track":`, `"next_slam":`, `"slam_left":`, `"countdown":`, `"sand_run":`, `"sand_ms":`, `"n":`,
	`"tiers":`, `"mask":`, `"chest":`, `"breaches":`, `"discoverable":`, `"activated":`, `"gems":`,
	`"target":`, `"pool_value":`, `"pool":`, `"die":`, `"face_down_treasure":`,
	`"chamber_id":`, `"escaped_at":`, `"last_roll_at":`, `"curses":[`, `"treasures":[`,
	`"gift_due":`, `"gifting":`, `"next_signal_at":`, `"reason":`, `"reveal":`,
	`"passages":[`, `"removed_curses":[`, `"used_treasures":[`, `"face_down":[`,
}

// viewSetups are the setups whose views differ in shape: every player count
// with every timer (the soundtrack with each track, the hourglass, none),
// difficulty and set of modules, the sand run and the roll cooldown taking
// their extremes in turn. Unless all, each player count meets every timer
// once, with the difficulties and modules in rotation.
func viewSetups(all bool) []engine.Setup {
	timers := []map[string]string{
		{OptTrack: "track_1"}, {OptTrack: "track_2"}, {OptTrack: "random"},
		{OptTimer: "sand"}, {OptTimer: "none"},
	}
	difficulties := []string{"normal", "advanced", "expert"}
	modules := [][2]string{{"false", "false"}, {"true", "false"}, {"false", "true"}, {"true", "true"}}
	var out []engine.Setup
	i := 0
	for n := 1; n <= maxPlayers; n++ {
		for _, timer := range timers {
			for d, difficulty := range difficulties {
				for m, mod := range modules {
					if !all && (d != i%len(difficulties) || m != i%len(modules)) {
						continue
					}
					o := map[string]string{OptDifficulty: difficulty, OptCurses: mod[0], OptTreasures: mod[1]}
					for k, v := range timer {
						o[k] = v
					}
					if o[OptTimer] == "sand" {
						o[OptSandMs] = []string{"60000", "300000"}[i%2]
					}
					o[OptCooldown] = []string{"1000", "1500", "3000"}[i%3]
					out = append(out, engine.Setup{Players: n, Options: o})
				}
			}
			i++
		}
	}
	return out
}

// handMadeViews are views no game builds, or random and bot games rarely
// do: empty lists left nil, a chamber without its tile, faces, sides and
// sets out of range, text to escape, a gift pending, a breach, a passage.
var handMadeViews = map[string]*View{
	"zero": {},
	"odd chambers": {Chambers: []ChamberView{
		{Stairs: noSide, Open: 0xF0, Breaches: 0x10, Discoverable: 0xFF},
		{ChamberTile: &ChamberTile{ID: "<&>", Cost: [2]Face{-1, numFaces}, Tiers: []Tier{}}, Pool: []Item{}},
	}},
	"empty reveal": {Reveal: &Reveal{}, Clock: Clock{Schedule: []Cue{}}},
	"gift, breach and passage": {
		Chambers: []ChamberView{{ChamberTile: &chamberTileViews[0][3], Open: 0b1011, Breaches: 0b1000, Links: []int8{}}},
		Passages: []Passage{{A: "a", B: "b\u2028"}},
		Seats:    []SeatView{{Seat: 1, Colour: "red", Chamber: -1, Escaped: true, EscapedAt: 61_000, GiftDue: 66_000, Gifting: true}},
	},
}

// TestViewWritesItsOwnJSON compares the JSON views write themselves with
// what encoding/json writes for them: the hand-made views, then every state
// of games played to their end on the virtual clock, for each seat and the
// spectator. The games are of every setup whose view differs in shape
// (viewSetups; all of them with SORTIE_LONG=1), played by the heuristic
// bots, which reach activations and escapes, and by random legal actions
// (timed games only: a random untimed hour is long), which reach what bots
// avoid; -short alternates the two. A field added to a view type but not to
// viewjson.go fails here.
func TestViewWritesItsOwnJSON(t *testing.T) {
	c := &enginetest.ViewJSONChecker{Optional: optionalKeys}
	for name, v := range handMadeViews {
		if err := c.View(v, name); err != nil {
			t.Fatal(err)
		}
	}
	compare := func(st engine.State, _ engine.Millis) error { return c.State(st, len(st.(*State).players)) }
	for i, setup := range viewSetups(os.Getenv("SORTIE_LONG") == "1") {
		bots := !testing.Short() || i%2 == 0 || setup.Options[OptTimer] == "none"
		random := setup.Options[OptTimer] != "none" && (!testing.Short() || !bots)
		if bots {
			if err := botGame(setup, compare); err != nil {
				t.Fatalf("%s, heuristic bots: %v", enginetest.SetupName(setup), err)
			}
		}
		if random {
			if err := randomGame(setup, compare); err != nil {
				t.Fatalf("%s, random actions: %v", enginetest.SetupName(setup), err)
			}
		}
	}
	t.Logf("%d states checked", c.States)
	for _, k := range c.Unseen() {
		t.Errorf("no view compared showed the optional field %s: the comparison never wrote it", k)
	}
}

// errEnough stops a game early without failing.
var errEnough = errors.New("enough")

// randomGame plays a game on the virtual clock, a random seat trying a
// random legal action every 0–2 s and deadlines firing when due, and calls
// visit on every state from the first to the last; a visit's error stops
// the game (errEnough without failing).
func randomGame(setup engine.Setup, visit func(st engine.State, now engine.Millis) error) error {
	st, err := Game{}.New(setup)
	if err != nil {
		return err
	}
	r := rand.New(rand.NewPCG(setup.Seed, 20))
	now := engine.Millis(0)
	for step := 0; ; step++ {
		if err := visit(st, now); err == errEnough {
			return nil
		} else if err != nil {
			return fmt.Errorf("at %d ms, step %d: %v", now, step, err)
		}
		if _, over := st.Outcome(); over {
			return nil
		}
		now += engine.Millis(r.IntN(2_001))
		if dl, ok := st.Deadline(); ok && dl <= now {
			now = dl
			st.Advance(dl)
			continue
		}
		st.Advance(now)
		p := engine.Seat(r.IntN(setup.Players))
		if legal := st.Legal(p); len(legal) > 0 {
			if _, err := st.Apply(p, legal[r.IntN(len(legal))], now); err != nil {
				return err
			}
		}
	}
}

// botGame plays a game of heuristic bots, then replays its log calling
// visit on every state, deadlines included: the bots reach what random
// play rarely does (activated chambers, escapes, gifts, passages).
func botGame(setup engine.Setup, visit func(st engine.State, now engine.Millis) error) error {
	res, err := sim.Play(Game{}, setup, team(Heuristic(), setup.Players), true)
	if err != nil {
		return err
	}
	st, err := Game{}.New(setup)
	if err != nil {
		return err
	}
	now := engine.Millis(0)
	for i, rec := range res.Log {
		if err := visit(st, now); err == errEnough {
			return nil
		} else if err != nil {
			return fmt.Errorf("at %d ms, record %d: %v", now, i, err)
		}
		if dl, ok := st.Deadline(); ok && dl < rec.At {
			now = dl
			st.Advance(dl)
			continue
		}
		if _, err := engine.Play(st, rec); err != nil {
			return fmt.Errorf("record %d: %v", i, err)
		}
		now = rec.At
	}
	return visit(st, now)
}

// BenchmarkViewJSON encodes a seat's view of a random game two minutes in
// (curses and treasures on), with encoding/json and with the view's own AppendJSON (into a
// reused buffer, as the server does), for each player count.
func BenchmarkViewJSON(b *testing.B) {
	for n := 1; n <= maxPlayers; n++ {
		var v engine.View
		setup := engine.Setup{Players: n, Seed: 3, Options: map[string]string{OptCurses: "true", OptTreasures: "true"}}
		err := randomGame(setup, func(st engine.State, now engine.Millis) error {
			if now < 120_000 {
				return nil
			}
			v = st.View(0)
			return errEnough
		})
		if err != nil || v == nil {
			b.Fatalf("no view two minutes in: %v", err)
		}
		b.Run(fmt.Sprintf("players=%d/encoding_json", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := json.Marshal(v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("players=%d/AppendJSON", n), func(b *testing.B) {
			b.ReportAllocs()
			a := v.(engine.JSONAppender)
			var buf []byte
			for b.Loop() {
				buf = a.AppendJSON(buf[:0])
			}
		})
	}
}
