package room25

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"math/rand/v2"
	"os"
	"testing"

	"sortie/bot"
	"sortie/engine"
)

// The trace test pins down everything the engine says while games are
// played: the actors, every seat's legal actions (as JSON, in order), the
// events of every action (JSON and audience), every seat's and the
// spectator's view after every action, the answers to illegal actions on
// clones, and determinizations (their views, legal actions and a few steps
// played on them). Each trace is hashed; the hashes below were recorded
// before the engine was made faster, so that a speed-up that changes any of
// it fails here. A deliberate change of the rules, the events or the view
// changes them too: the failing test prints the new ones to paste into
// traceHashes.

// traceSetups are the traced setups: every mode, several player counts,
// the room sets, beacons off and a custom set.
var traceSetups = []engine.Setup{
	{Players: 1},
	{Players: 2},
	{Players: 3, Options: map[string]string{optMode: "cooperation", optRoomSet: "expert_competition"}},
	{Players: 4, Options: map[string]string{optMode: "cooperation", optBeacons: "off"}},
	{Players: 6, Options: map[string]string{optMode: "cooperation", optRoomSet: "expert_suspicion"}},
	{Players: 4, Options: map[string]string{optMode: "suspicion"}},
	{Players: 5, Options: map[string]string{optMode: "suspicion"}},
	{Players: 6, Options: map[string]string{optMode: "suspicion", optRoomSet: "beginner"}},
	{Players: 2, Options: map[string]string{optMode: "competition"}},
	{Players: 3, Options: map[string]string{optMode: "competition", optRoomSet: "expert_suspicion"}},
	{Players: 4, Options: map[string]string{optMode: "team"}},
	{Players: 6, Options: map[string]string{optMode: "team", optBeacons: "off"}},
	{Players: 2, Options: map[string]string{optMode: "cooperation", optRoomSet: "custom", optCustom: exampleCustom}},
}

// traceHashes are the recorded hashes of traceGames random games of each
// setup, in order (-short checks the first four).
var traceHashes = []string{
	"10054e065bfaffce", "8ee4225036356832", "7bc1ce86a761e6b0", "b56646e45f03ad51", "12571e6bdef090df",
	"1399f7f235fc723c", "8f8f147ed009a3b5", "cc5ed8007d968b12", "ef95e44b185bd4fd", "a893a67e07aca1dd",
	"1b8bc4fec52f8cfa", "f5d8ec073f8ac90b", "f71310fe0ca2e8e7",
}

// traceGames is the number of games per setup (SORTIE_TRACE_GAMES changes
// it, for a longer comparison between two versions of the code).
const traceGames = 2

// TestTrace plays traceGames random games of every trace setup and checks
// the hashes of their traces against the recorded ones.
func TestTrace(t *testing.T) {
	policy := os.Getenv("SORTIE_TRACE_POLICY") // "heuristic": print the hashes of heuristic games
	n, games := len(traceSetups), traceGames
	if v := os.Getenv("SORTIE_TRACE_GAMES"); v != "" {
		fmt.Sscan(v, &games)
	}
	if testing.Short() {
		n = 4
	}
	var got []string
	for i, setup := range traceSetups[:n] {
		h := sha256.New()
		for g := range games {
			setup.Seed = uint64(100*i + g + 1)
			traceGame(t, h, setup, rand.New(rand.NewPCG(setup.Seed, 77)), policy)
		}
		got = append(got, hex.EncodeToString(h.Sum(nil))[:16])
	}
	if policy != "" || games != traceGames || len(traceHashes) == 0 {
		t.Logf("trace hashes (%s): %q", policy, got)
		return
	}
	for i := range got {
		if got[i] != traceHashes[i] {
			t.Errorf("setup %d (%v): trace hash %s, recorded %s", i, traceSetups[i], got[i], traceHashes[i])
		}
	}
	if t.Failed() {
		t.Logf("if the change is deliberate (a rule, an event or the view changed), the new traceHashes are %q", got)
	}
}

// tracer writes a trace into a hash.
type tracer struct {
	t testing.TB
	h hash.Hash
}

func (tr tracer) line(format string, args ...any) { fmt.Fprintf(tr.h, format+"\n", args...) }

func (tr tracer) json(tag string, v any) {
	var b []byte
	var err error
	if k, ok := v.(engine.Kinded); ok {
		b, err = engine.MarshalTyped(k)
	} else {
		b, err = json.Marshal(v)
	}
	if err != nil {
		tr.t.Fatal(err)
	}
	tr.line("%s %s", tag, b)
}

func (tr tracer) state(s engine.State, seats int) {
	actors := s.Actors()
	tr.line("actors %v", actors)
	for _, p := range actors {
		for _, a := range s.Legal(p) {
			tr.json("legal", a)
		}
	}
	for p := engine.Seat(-1); int(p) < seats; p++ {
		tr.json("view", s.View(p))
	}
	if o, over := s.Outcome(); over {
		tr.json("outcome", o)
	}
}

func (tr tracer) events(evs []engine.Event, err error) {
	if err != nil {
		var re *engine.RuleError
		if e, ok := err.(*engine.RuleError); ok {
			re = e
		}
		tr.line("error %T %v %+v", err, err, re)
		return
	}
	for _, e := range evs {
		tr.line("to %d", e.To)
		tr.json("event", e.Body)
	}
}

// traceUniverse is a set of actions to probe states with, most of them
// illegal at any moment.
func traceUniverse() []engine.Action {
	var out []engine.Action
	add := func(as ...engine.Action) { out = append(out, as...) }
	add(SkipLook{}, Play{}, Wait{}, Pass{}, RevealRole{}, Hint{}, Program{}, Act{}, Look{}, Move{}, Push{}, Control{}, ControlRoomSlide{}, PlaceBeacon{})
	for t := TileID(1); t <= numTiles+1; t++ {
		add(StartLook{t}, Look{t}, VisionView{t}, MobileSwap{t}, IllusionSwap{t}, Act{Action: TokenLook, Tile: t}, PlaceBeacon{Scientist, t}, PlaceBeacon{Bimbo, t})
	}
	for d := NoDir; d <= Right+1; d++ {
		add(Move{d}, Act{Action: TokenMove, Dir: d}, Act{Action: TokenMove, Dir: d, Tile: 3})
		for c := NoCharacter; c <= LittleGirl+1; c++ {
			add(Push{c, d}, Act{Action: TokenPush, Character: c, Dir: d})
		}
		for l := Line(0); l <= numLines+1; l++ {
			add(Control{l, d}, ControlRoomSlide{l, d}, Act{Action: TokenControl, Line: l, Dir: d})
		}
	}
	for c := NoCharacter; c <= LittleGirl+1; c++ {
		for f := NoToken; f <= TokenControl+1; f++ {
			for s := NoToken; s <= TokenControl; s++ {
				add(Program{c, f, s})
			}
		}
	}
	for h := NoColour; h <= HintBlue+1; h++ {
		add(Hint{h})
	}
	return out
}

// traceGame plays one game (random actions, or the named policy at every
// seat) and writes its trace.
func traceGame(t testing.TB, h hash.Hash, setup engine.Setup, r *rand.Rand, policy string) {
	tr := tracer{t, h}
	st, err := Game{}.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	n := setup.Players
	var bots []bot.Bot
	if policy != "" {
		for _, pol := range (Game{}).Policies() {
			if pol.Name() == policy {
				for q := range n {
					bots = append(bots, pol.NewBot(Game{}, bot.Seating{Seat: engine.Seat(q), Players: n, Seed: setup.Seed + uint64(q)}))
				}
			}
		}
		if bots == nil {
			t.Fatalf("no policy %q", policy)
		}
	}
	universe := traceUniverse()
	for step := 0; ; step++ {
		tr.state(st, n)
		if _, over := st.Outcome(); over {
			return
		}
		// Illegal (and some legal) actions on clones.
		for range 3 {
			p := engine.Seat(r.IntN(n+1) - 1)
			a := universe[r.IntN(len(universe))]
			tr.line("probe %#v", a)
			tr.events(st.Clone().Apply(p, a, 0))
		}
		// Determinizations, played a few steps on.
		if step%5 == 0 {
			p := engine.Seat(r.IntN(n+1) - 1)
			d := st.(engine.Determinizer).Determinize(p, rand.New(rand.NewPCG(r.Uint64(), 3)))
			tr.line("determinize %d", p)
			for k := 0; k < 4; k++ {
				tr.state(d, n)
				actors := d.Actors()
				if len(actors) == 0 {
					break
				}
				q := actors[r.IntN(len(actors))]
				legal := d.Legal(q)
				tr.events(d.Apply(q, legal[r.IntN(len(legal))], 0))
			}
		}
		actors := st.Actors()
		p := actors[r.IntN(len(actors))]
		legal := st.Legal(p)
		a := legal[r.IntN(len(legal))]
		if bots != nil {
			a = bot.Ask(bots[p], st, p, legal, 0).Action
		}
		tr.json("apply", a)
		tr.events(st.Apply(p, a, 0))
	}
}
