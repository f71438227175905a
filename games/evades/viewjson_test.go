package evades

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"sortie/engine"
	"sortie/engine/enginetest"
)

// optionalKeys are the view's fields that encoding/json leaves out when
// empty: the random games must show each of them at least once, so that
// both ways of every omitempty are compared.
var optionalKeys = []string{
	`"pending":`, `"card":`, `"target":`, `"count":`, `"draw":`, `"slots":`,
	`"last_door":`, `"hand":`, `"plan":`, `"carried":`, `"skip":`, `"extra":`,
	`"revealed":`,
}

// handMadeViews are views no game builds: lists left nil, an empty
// face-up slot, text to escape, empty lists where omitempty applies.
var handMadeViews = map[string]*View{
	"zero": {},
	"odd": {
		Phase: "<&>\u2028", Row: []Card{noCard, Joker}, Revealed: &RevealView{},
		Pending: &PendingView{Decision: "discard", Slots: []int{}},
		Seats:   []SeatView{{Hand: []Card{}, Carried: []Object{}}},
		Rooms:   []RoomView{{}},
	},
}

// TestViewWritesItsOwnJSON compares the JSON views write themselves with
// what encoding/json writes for them: the hand-made views, then every state
// of random games of every setup (2–4 players, both object rules, every
// first player; -short: a random first player only) played to their end,
// for each seat and the spectator. A field added to a view type but not to
// viewjson.go fails here. SORTIE_LONG=1 plays 20 games per setup.
func TestViewWritesItsOwnJSON(t *testing.T) {
	playouts := 1
	if os.Getenv("SORTIE_LONG") == "1" {
		playouts = 20
	}
	for name, v := range handMadeViews {
		if err := (&enginetest.ViewJSONChecker{Optional: optionalKeys}).View(v, name); err != nil {
			t.Fatal(err)
		}
	}
	c := &enginetest.ViewJSONChecker{Optional: optionalKeys}
	for _, setup := range enginetest.AllSetups(Game{}.Info()) {
		if f, err := strconv.Atoi(setup.Options[optFirst]); err == nil && f >= setup.Players {
			continue // a first player beyond the table
		}
		if testing.Short() && setup.Options[optFirst] != "random" {
			continue // who begins changes no field of the view
		}
		for i := range playouts {
			setup.Seed = uint64(i)
			if err := playComparingViews(setup, c); err != nil {
				t.Fatalf("%s seed %d: %v", enginetest.SetupName(setup), setup.Seed, err)
			}
		}
	}
	t.Logf("%d states checked", c.States)
	for _, k := range c.Unseen() {
		t.Errorf("no random game showed the optional field %s: the comparison never wrote it", k)
	}
}

// playComparingViews plays one game of random legal actions, comparing the
// views at every state, the final one included.
func playComparingViews(setup engine.Setup, c *enginetest.ViewJSONChecker) error {
	st, err := Game{}.New(setup)
	if err != nil {
		return err
	}
	r := rand.New(rand.NewPCG(setup.Seed, 20))
	for step := 0; ; step++ {
		if err := c.State(st, setup.Players); err != nil {
			return fmt.Errorf("after %d actions: %v", step, err)
		}
		if _, over := st.Outcome(); over {
			return nil
		}
		actors := st.Actors()
		p := actors[r.IntN(len(actors))]
		legal := st.Legal(p)
		if _, err := st.Apply(p, legal[r.IntN(len(legal))], 0); err != nil {
			return err
		}
	}
}

// BenchmarkViewJSON encodes a seat's view of a game some sixty random
// actions in, with encoding/json and with the view's own AppendJSON (into a
// reused buffer, as the server does), for each player count.
func BenchmarkViewJSON(b *testing.B) {
	for n := minPlayers; n <= maxPlayers; n++ {
		st, err := Game{}.New(engine.Setup{Players: n, Seed: 5})
		if err != nil {
			b.Fatal(err)
		}
		r := rand.New(rand.NewPCG(5, 20))
		for range 60 {
			p := st.Actors()[0]
			legal := st.Legal(p)
			if _, err := st.Apply(p, legal[r.IntN(len(legal))], 0); err != nil {
				b.Fatal(err)
			}
		}
		v := st.View(0)
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
