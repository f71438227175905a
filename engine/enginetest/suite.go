package enginetest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"reflect"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"testing"

	"sortie/engine"
)

// Run runs the suite as parallel subtests of t, one per setup, each over
// h.Playouts seeded random games. A failure names the setup and the seed, so
// that it can be reproduced with [Check] or a replay.
func Run(t *testing.T, h Harness) {
	t.Helper()
	if err := checkInfo(h.Game.Info()); err != nil {
		t.Fatal(err)
	}
	h = h.withDefaults(testing.Short())
	for _, setup := range h.Setups {
		t.Run(SetupName(setup), func(t *testing.T) {
			t.Parallel()
			hints := h.HintChecks
			for i := range h.Playouts {
				if err := h.playout(setup, playoutSeed(setup, i), &hints); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// Check runs the whole suite in order and returns its first failure. It is
// how the suite's own tests show that it catches broken games.
func Check(h Harness) error {
	if err := checkInfo(h.Game.Info()); err != nil {
		return err
	}
	h = h.withDefaults(testing.Short())
	for _, setup := range h.Setups {
		hints := h.HintChecks
		for i := range h.Playouts {
			if err := h.playout(setup, playoutSeed(setup, i), &hints); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkInfo checks a game's description: names, seat counts, and options
// whose defaults are valid values.
func checkInfo(i engine.Info) error {
	switch {
	case i.ID == "" || i.Name["en"] == "" || i.Name["fr"] == "":
		return fmt.Errorf("Info of %q needs an id and names in English and French", i.ID)
	case i.MinPlayers < 1 || i.MaxPlayers < i.MinPlayers || i.MaxPlayers > 62:
		return fmt.Errorf("Info of %s: seats %d..%d are not a valid range", i.ID, i.MinPlayers, i.MaxPlayers)
	case i.MaxActions <= 0:
		return fmt.Errorf("Info of %s: MaxActions must bound the length of a game", i.ID)
	}
	switch i.Timing {
	case engine.TurnBased, engine.Simultaneous, engine.RealTime:
	default:
		return fmt.Errorf("Info of %s: timing %q is unknown", i.ID, i.Timing)
	}
	seen := map[string]bool{}
	for _, o := range i.Options {
		if seen[o.Key] || o.Key == "" {
			return fmt.Errorf("Info of %s: option key %q is empty or repeated", i.ID, o.Key)
		}
		seen[o.Key] = true
		s := engine.Setup{Players: i.MinPlayers, Options: map[string]string{o.Key: o.Default}}
		if _, err := i.Check(s); err != nil {
			return fmt.Errorf("Info of %s: the default of option %s is not valid: %v", i.ID, o.Key, err)
		}
	}
	return nil
}

// AllSetups returns every player count of a game with every combination of
// its option values.
func AllSetups(info engine.Info) []engine.Setup {
	combos := []map[string]string{{}}
	for _, o := range info.Options {
		var next []map[string]string
		for _, c := range combos {
			for _, v := range o.Values() {
				m := make(map[string]string, len(c)+1)
				for k, x := range c {
					m[k] = x
				}
				m[o.Key] = v
				next = append(next, m)
			}
		}
		combos = next
	}
	var out []engine.Setup
	for n := info.MinPlayers; n <= info.MaxPlayers; n++ {
		for _, c := range combos {
			out = append(out, engine.Setup{Players: n, Options: c})
		}
	}
	return out
}

// SetupName names a setup for test output: "players=3,danger=true".
func SetupName(s engine.Setup) string {
	parts := []string{fmt.Sprintf("players=%d", s.Players)}
	keys := make([]string, 0, len(s.Options))
	for k := range s.Options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		parts = append(parts, k+"="+s.Options[k])
	}
	return strings.Join(parts, ",")
}

func playoutSeed(s engine.Setup, i int) uint64 {
	f := fnv.New64a()
	f.Write([]byte(SetupName(s)))
	return engine.Mix(f.Sum64(), uint64(i))
}

func (h Harness) withDefaults(short bool) Harness {
	if h.Setups == nil {
		h.Setups = AllSetups(h.Game.Info())
	}
	if h.Playouts == 0 {
		h.Playouts = 1000
		if short {
			h.Playouts = 100
		}
	}
	if h.MaxStep == 0 {
		h.MaxStep = 2000
	}
	if h.WaitChance == 0 {
		h.WaitChance = 0.05
	}
	if h.CheckEvery == 0 {
		h.CheckEvery = 0.25
	}
	if h.HintChecks == 0 {
		h.HintChecks = 4
	}
	return h
}

// run is one random playout in progress.
type run struct {
	h       Harness
	setup   engine.Setup
	seed    uint64
	r       *rand.Rand
	realT   bool
	players int
	s       engine.State
	now     engine.Millis
	log     []engine.Record
	stream  bytes.Buffer // every event, with its audience, as JSON lines

	clone     engine.State // a clone kept from an earlier check
	cloneDump string

	rated *engine.Result   // the rated family and key the match started with
	seen  [][]engine.Event // by seat, the events it was told (kept when hints are checked)
	hints *int             // hint checks the setup has left; nil: none
}

// playout plays one game; hints counts the hint checks the setup has left.
func (h Harness) playout(setup engine.Setup, seed uint64, hints *int) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("%s seed %d: panic: %v\n%s", SetupName(setup), seed, v, debug.Stack())
		}
	}()
	g := h.Game
	setup.Seed = seed
	s, err := g.New(setup)
	if err != nil {
		return fmt.Errorf("%s seed %d: New: %v", SetupName(setup), seed, err)
	}
	ru := &run{
		h: h, setup: setup, seed: seed, s: s, players: setup.Players,
		r:     rand.New(rand.NewPCG(seed, 0x7e57)),
		realT: g.Info().Timing == engine.RealTime,
	}
	if h.Hint != nil && *hints > 0 {
		ru.seen = make([][]engine.Event, setup.Players)
		ru.hints = hints
	}
	if err := ru.play(); err != nil {
		return fmt.Errorf("%s seed %d, after %d records: %w", SetupName(setup), seed, len(ru.log), err)
	}
	return nil
}

func (ru *run) play() error {
	maxActions := ru.h.Game.Info().MaxActions
	if maxActions <= 0 {
		return errors.New("Info.MaxActions must bound the length of a game")
	}
	if err := ru.checkViews(); err != nil {
		return err
	}
	for {
		if len(ru.log) > maxActions {
			return fmt.Errorf("the game did not end within its declared MaxActions (%d)", maxActions)
		}
		if out, over := ru.s.Outcome(); over {
			if err := ru.checkOver(out); err != nil {
				return err
			}
			return ru.checkReplay()
		}
		if err := ru.checkActors(); err != nil {
			return err
		}
		if err := ru.ratedBefore(); err != nil {
			return err
		}
		if ru.r.Float64() < ru.h.CheckEvery {
			if err := ru.heavyChecks(); err != nil {
				return err
			}
		}
		rec, err := ru.next()
		if err != nil {
			return err
		}
		evs, err := engine.Play(ru.s, rec)
		if err != nil {
			return fmt.Errorf("%s's legal action %s at %d ms was refused: %v", rec.Seat, js(rec.Action), rec.At, err)
		}
		ru.now = max(ru.now, rec.At)
		ru.log = append(ru.log, rec)
		if err := ru.record(evs); err != nil {
			return err
		}
	}
}

// next chooses the next record: a random legal action of a random actor, or,
// when nobody can act (or a real-time player waits), the passing of time up
// to the next deadline.
func (ru *run) next() (engine.Record, error) {
	dl, hasDl := ru.s.Deadline()
	if hasDl && dl < ru.now {
		return engine.Record{}, fmt.Errorf("Deadline() is %d ms, before the current time %d ms", dl, ru.now)
	}
	at := ru.now
	if ru.realT {
		at += engine.Millis(ru.r.Int64N(int64(ru.h.MaxStep) + 1))
	}
	actors := ru.s.Actors()
	if hasDl && (len(actors) == 0 || at >= dl || ru.r.Float64() < ru.h.WaitChance) {
		return engine.Record{At: dl}, nil
	}
	if len(actors) == 0 {
		return engine.Record{}, errors.New("the game is not over, yet nobody may act and nothing is scheduled")
	}
	if at > ru.now {
		// Time passes before the action; nothing is due in between.
		if evs := ru.s.Advance(at); len(evs) > 0 {
			return engine.Record{}, fmt.Errorf("Advance(%d) fired events before the deadline %d (or with none declared)", at, dl)
		}
		ru.now = at
		actors = ru.s.Actors()
		if len(actors) == 0 {
			return engine.Record{At: at}, nil
		}
	}
	if ru.realT {
		// In real time an actor may have to wait (a cooldown, say): choose
		// among those who can act now, or let time pass.
		actors = slices.DeleteFunc(slices.Clone(actors), func(p engine.Seat) bool { return len(ru.s.Legal(p)) == 0 })
		if len(actors) == 0 {
			return engine.Record{At: at + 1}, nil
		}
	}
	p := actors[ru.r.IntN(len(actors))]
	legal := ru.s.Legal(p)
	if len(legal) == 0 {
		return engine.Record{}, fmt.Errorf("%s is an actor but has no legal action", p)
	}
	return engine.Record{Seat: p, Action: legal[ru.r.IntN(len(legal))], At: at}, nil
}

// record appends events to the stream and checks their JSON form.
func (ru *run) record(evs []engine.Event) error {
	for _, e := range evs {
		if e.Body == nil {
			return errors.New("an event has no body")
		}
		b, err := json.Marshal(e)
		if err != nil {
			return fmt.Errorf("event %T does not encode: %v", e.Body, err)
		}
		fmt.Fprintf(&ru.stream, "%d %s\n", e.To, b)
		for p := range ru.seen {
			if e.To.Sees(engine.Seat(p)) {
				ru.seen[p] = append(ru.seen[p], e)
			}
		}
		if err := roundTrip(e.Body, b); err != nil {
			return fmt.Errorf("event %s: %v", e.Body.Kind(), err)
		}
	}
	return nil
}

func (ru *run) seats() []engine.Seat {
	ss := make([]engine.Seat, 0, ru.players+1)
	for p := range ru.players {
		ss = append(ss, engine.Seat(p))
	}
	return append(ss, engine.Spectator)
}

func (ru *run) checkActors() error {
	actors := ru.s.Actors()
	if !slices.IsSorted(actors) || len(slices.Compact(slices.Clone(actors))) != len(actors) {
		return fmt.Errorf("Actors() %v is not sorted and unique", actors)
	}
	for _, p := range actors {
		if p < 0 || int(p) >= ru.players {
			return fmt.Errorf("Actors() holds %s, not a seat of this match", p)
		}
	}
	return nil
}

func (ru *run) checkOver(out engine.Outcome) error {
	n := ru.players
	if len(out.Ranks) != n || len(out.Scores) != n {
		return fmt.Errorf("the outcome has %d ranks and %d scores for %d seats", len(out.Ranks), len(out.Scores), n)
	}
	if !slices.IsSorted(out.Winners) || len(slices.Compact(slices.Clone(out.Winners))) != len(out.Winners) {
		return fmt.Errorf("the winners %v are not sorted and unique", out.Winners)
	}
	for _, w := range out.Winners {
		if w < 0 || int(w) >= n {
			return fmt.Errorf("the winners hold %s, not a seat", w)
		}
		if out.Ranks[w] != 1 {
			return fmt.Errorf("winner %s has rank %d", w, out.Ranks[w])
		}
	}
	for p, r := range out.Ranks {
		if r < 1 || r > n {
			return fmt.Errorf("seat %d has rank %d", p, r)
		}
	}
	if err := ru.ratedOver(out); err != nil {
		return err
	}
	if a := ru.s.Actors(); len(a) != 0 {
		return fmt.Errorf("the game is over but Actors() is %v", a)
	}
	before := dump(ru.s)
	for _, p := range ru.seats() {
		if l := ru.s.Legal(p); len(l) != 0 && p != engine.Spectator {
			return fmt.Errorf("the game is over but %s has %d legal actions", p, len(l))
		}
	}
	// The last action played is now too late, for every seat.
	for i := len(ru.log) - 1; i >= 0; i-- {
		if a := ru.log[i].Action; a != nil {
			for _, p := range ru.seats() {
				if err := ru.mustRefuse(p, a, "an action after the end"); err != nil {
					return err
				}
			}
			break
		}
	}
	if err := ru.checkViews(); err != nil {
		return err
	}
	if after := dump(ru.s); after != before {
		return fmt.Errorf("checking a finished game changed it: %s", diff(before, after))
	}
	return nil
}

// checkReplay replays the log, read back from its JSON form, on a fresh
// state and compares everything.
func (ru *run) checkReplay() error {
	g := ru.h.Game
	s, err := g.New(ru.setup)
	if err != nil {
		return fmt.Errorf("New failed on replay: %v", err)
	}
	var stream bytes.Buffer
	for i, rec := range ru.log {
		b, err := json.Marshal(rec)
		if err != nil {
			return fmt.Errorf("record %d does not encode: %v", i+1, err)
		}
		back, err := engine.DecodeRecord(g, b)
		if err != nil {
			return fmt.Errorf("record %d %s does not decode: %v", i+1, b, err)
		}
		evs, err := engine.Play(s, back)
		if err != nil {
			return fmt.Errorf("nondeterminism: replaying the log, record %d %s was refused: %v", i+1, b, err)
		}
		for _, e := range evs {
			eb, _ := json.Marshal(e)
			fmt.Fprintf(&stream, "%d %s\n", e.To, eb)
		}
	}
	if a, b := dump(ru.s), dump(s); a != b {
		return fmt.Errorf("nondeterminism: replaying the log gives another state: %s", diff(a, b))
	}
	if a, b := ru.stream.String(), stream.String(); a != b {
		return fmt.Errorf("nondeterminism: replaying the log gives other events: %s", diff(a, b))
	}
	for _, p := range ru.seats() {
		if a, b := js(ru.s.View(p)), js(s.View(p)); a != b {
			return fmt.Errorf("nondeterminism: replaying the log gives %s another view: %s", p, diff(a, b))
		}
	}
	return nil
}

// heavyChecks runs the expensive checks on the current state.
func (ru *run) heavyChecks() error {
	before := dump(ru.s)
	unchanged := func(what string) error {
		if after := dump(ru.s); after != before {
			return fmt.Errorf("%s changed the state (does Clone share memory with the original?): %s", what, diff(before, after))
		}
		return nil
	}
	steps := []struct {
		name string
		f    func() error
	}{
		{"views", ru.checkViews},
		{"clone", ru.checkClone},
		{"legal actions", ru.checkLegalJSON},
		{"refusals", ru.checkRefusals},
		{"secrets", ru.checkSecrets},
		{"hints", ru.checkHints},
	}
	for _, st := range steps {
		if err := st.f(); err != nil {
			return err
		}
		if err := unchanged("checking " + st.name); err != nil {
			return err
		}
	}
	return nil
}

// checkViews checks that every view encodes, survives a JSON round trip, is
// the same when asked twice, and that a view that writes its own JSON writes
// what encoding/json writes.
func (ru *run) checkViews() error {
	for _, p := range ru.seats() {
		v := ru.s.View(p)
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("the view of %s does not encode: %v", p, err)
		}
		if again := js(ru.s.View(p)); again != string(b) {
			return fmt.Errorf("two calls of View(%s) differ: %s", p, diff(string(b), again))
		}
		if _, ok := v.(engine.JSONAppender); ok {
			if _, err := OwnJSON(v); err != nil {
				return fmt.Errorf("%s: %v", p, err)
			}
		}
		if a, ok := ru.s.(engine.ViewAppender); ok {
			// After other bytes, as the server appends; each audience in
			// turn, so that room kept from one never shows in the next.
			if got := string(a.AppendView([]byte("x"), p)[1:]); got != string(b) {
				return fmt.Errorf("AppendView(%s) writes another view than View: %s", p, diff(string(b), got))
			}
			if again := js(ru.s.View(p)); again != string(b) {
				return fmt.Errorf("AppendView(%s) changed the state's view: %s", p, diff(string(b), again))
			}
		}
		if err := roundTripPlain(v, b); err != nil {
			return fmt.Errorf("the view of %s: %v", p, err)
		}
	}
	return nil
}

// checkClone checks that a clone equals the state, that playing on the clone
// leaves the state alone, and that the clone kept from the last check was
// left alone by everything played since.
func (ru *run) checkClone() error {
	if ru.clone != nil {
		if d := dump(ru.clone); d != ru.cloneDump {
			return fmt.Errorf("a clone changed when the original was played on: %s", diff(ru.cloneDump, d))
		}
	}
	c := ru.s.Clone()
	before := dump(ru.s)
	if d := dump(c); d != before {
		return fmt.Errorf("Clone() differs from the original: %s", diff(before, d))
	}
	ru.clone, ru.cloneDump = ru.s.Clone(), before
	for range 10 {
		if _, over := c.Outcome(); over {
			break
		}
		actors := c.Actors()
		if len(actors) == 0 {
			break
		}
		p := actors[ru.r.IntN(len(actors))]
		l := c.Legal(p)
		if len(l) == 0 {
			break
		}
		if _, err := c.Apply(p, l[ru.r.IntN(len(l))], ru.now); err != nil {
			return fmt.Errorf("a legal action on a clone was refused: %v", err)
		}
	}
	if after := dump(ru.s); after != before {
		return fmt.Errorf("playing on a clone changed the original: %s", diff(before, after))
	}
	return nil
}

// checkLegalJSON checks that legal actions survive a JSON round trip through
// DecodeAction, and that seats that may not act have none.
func (ru *run) checkLegalJSON() error {
	actors := ru.s.Actors()
	for _, p := range ru.seats() {
		l := ru.s.Legal(p)
		if !slices.Contains(actors, p) {
			if len(l) != 0 {
				return fmt.Errorf("%s is not an actor but has %d legal actions", p, len(l))
			}
			continue
		}
		for i, a := range l {
			if i >= 40 {
				break
			}
			b, err := engine.MarshalTyped(a)
			if err != nil {
				return fmt.Errorf("legal action %#v does not encode: %v", a, err)
			}
			back, err := ru.h.Game.DecodeAction(b)
			if err != nil {
				return fmt.Errorf("legal action %s does not decode: %v", b, err)
			}
			if b2 := js(back); b2 != string(b) {
				return fmt.Errorf("legal action %s decodes to %s", b, b2)
			}
		}
	}
	return nil
}

// mustRefuse checks that Apply refuses a by p with a rule error and changes
// nothing.
func (ru *run) mustRefuse(p engine.Seat, a engine.Action, why string) error {
	if a == nil {
		return nil
	}
	before := dump(ru.s)
	_, err := ru.s.Apply(p, a, ru.now)
	var re *engine.RuleError
	switch {
	case err == nil:
		return fmt.Errorf("%s (%s by %s) was accepted", why, js(a), p)
	case !errors.As(err, &re):
		return fmt.Errorf("%s (%s by %s) was refused with %T, not a *engine.RuleError: %v", why, js(a), p, err, err)
	case re.Code == "" || re.Message == "":
		return fmt.Errorf("%s (%s by %s) was refused without a code or a message: %+v", why, js(a), p, re)
	}
	if after := dump(ru.s); after != before {
		return fmt.Errorf("%s (%s by %s) was refused (%v) but changed the state: %s", why, js(a), p, err, diff(before, after))
	}
	return nil
}

// checkRefusals tries actions by seats that may not act, actions that are not
// legal, and malformed JSON.
func (ru *run) checkRefusals() error {
	actors := ru.s.Actors()
	legal := map[engine.Seat][]engine.Action{}
	var pool []engine.Action
	for _, p := range actors {
		legal[p] = ru.s.Legal(p)
		pool = append(pool, legal[p]...)
	}
	if len(pool) == 0 {
		return nil
	}
	pick := func() engine.Action { return pool[ru.r.IntN(len(pool))] }
	for _, p := range ru.seats() {
		if !slices.Contains(actors, p) {
			if err := ru.mustRefuse(p, pick(), "an action by a seat that may not act"); err != nil {
				return err
			}
		}
	}
	isLegal := func(p engine.Seat, a engine.Action) bool {
		s := js(a)
		return slices.ContainsFunc(legal[p], func(b engine.Action) bool { return js(b) == s })
	}
	// tryIllegal applies a possibly illegal action: refused unchanged, or,
	// where Legal is partial, accepted on a clone.
	tryIllegal := func(p engine.Seat, a engine.Action, why string) error {
		if isLegal(p, a) {
			return nil
		}
		if ru.h.LegalIsPartial {
			c := ru.s.Clone()
			if _, err := c.Apply(p, a, ru.now); err != nil {
				var re *engine.RuleError
				if !errors.As(err, &re) {
					return fmt.Errorf("%s (%s by %s) was refused with %T, not a *engine.RuleError", why, js(a), p, err)
				}
			}
			return nil
		}
		return ru.mustRefuse(p, a, why)
	}
	for _, p := range actors {
		if err := tryIllegal(p, pick(), "another seat's action"); err != nil {
			return err
		}
		if ru.h.RandomAction != nil {
			for range 4 {
				if err := tryIllegal(p, ru.h.RandomAction(ru.r), "a random action not in Legal"); err != nil {
					return err
				}
			}
		}
		if len(legal[p]) == 0 {
			continue
		}
		b, _ := engine.MarshalTyped(legal[p][ru.r.IntN(len(legal[p]))])
		for _, bad := range malformed(b) {
			if _, err := ru.h.Game.DecodeAction(bad); !isMalformed(err) {
				return fmt.Errorf("DecodeAction(%q) gave %v, not a rule error with code %q", bad, err, engine.CodeMalformed)
			}
		}
		for _, m := range mangled(b, ru.r) {
			a, err := ru.h.Game.DecodeAction(m)
			if err != nil {
				var re *engine.RuleError
				if !errors.As(err, &re) {
					return fmt.Errorf("DecodeAction(%s) failed with %T, not a *engine.RuleError", m, err)
				}
				continue
			}
			if err := tryIllegal(p, a, "a mangled action"); err != nil {
				return err
			}
		}
	}
	return nil
}

func isMalformed(err error) bool {
	var re *engine.RuleError
	return errors.As(err, &re) && re.Code == engine.CodeMalformed
}

// malformed returns inputs that no game may read as an action, some built
// from a legal action's JSON b.
func malformed(b []byte) [][]byte {
	out := [][]byte{
		nil, []byte(""), []byte("null"), []byte("[]"), []byte("42"), []byte(`"play"`),
		[]byte("{"), []byte("{}"), []byte(`{"type":42}`), []byte(`{"type":null}`),
		[]byte(`{"type":"no_such_action_in_any_game"}`), []byte("\x00\xff\xfe"),
		b[:len(b)/2], append(slices.Clone(b), []byte(" {}")...),
	}
	if len(b) > 2 {
		extra := append([]byte(`{"unknown_field_zz":1,`), b[1:]...)
		twice := append([]byte(`{"type":"no_such_action_in_any_game",`), b[1:]...)
		out = append(out, extra, twice)
	}
	// Names match exactly: "TILE" is not "tile".
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) == nil {
		upper := make(map[string]json.RawMessage, len(m))
		for k, v := range m {
			if k != "type" {
				k = strings.ToUpper(k)
			}
			upper[k] = v
		}
		if u, _ := json.Marshal(upper); len(m) > 1 && !bytes.Equal(u, b) {
			out = append(out, u)
		}
	}
	return out
}

// mangled returns copies of a legal action's JSON with one field changed to
// a value of another type or out of range.
func mangled(b []byte, r *rand.Rand) [][]byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	values := []string{`999999`, `-1`, `"bogus"`, `null`, `[]`, `{}`, `true`, `1.5`, `""`}
	var out [][]byte
	for k := range m {
		if k == "type" {
			continue
		}
		c := make(map[string]json.RawMessage, len(m))
		for k2, v := range m {
			c[k2] = v
		}
		c[k] = json.RawMessage(values[r.IntN(len(values))])
		mb, _ := json.Marshal(c)
		out = append(out, mb)
	}
	// Keys come from a map: sort for a deterministic order of trials.
	slices.SortFunc(out, bytes.Compare)
	return out
}

// checkSecrets changes everything each seat may not know and checks that its
// view, and the events it is told of the next action, do not change.
func (ru *run) checkSecrets() error {
	for _, p := range ru.seats() {
		perturb := ru.h.Perturb
		if perturb == nil {
			if _, ok := ru.s.(engine.Determinizer); !ok || p == engine.Spectator {
				continue
			}
			perturb = func(s engine.State, p engine.Seat, r *rand.Rand) engine.State {
				return s.(engine.Determinizer).Determinize(p, r)
			}
		}
		if err := ru.checkSecretsOf(p, perturb); err != nil {
			return err
		}
		if d, ok := ru.s.(engine.Determinizer); ok && p != engine.Spectator {
			det := d.Determinize(p, ru.r)
			if a, b := js(ru.s.View(p)), js(det.View(p)); a != b {
				return fmt.Errorf("Determinize(%s) changed what %s sees: %s", p, p, diff(a, b))
			}
		}
	}
	return nil
}

func (ru *run) checkSecretsOf(p engine.Seat, perturb func(engine.State, engine.Seat, *rand.Rand) engine.State) error {
	alt := perturb(ru.s, p, ru.r)
	if a, b := js(ru.s.View(p)), js(alt.View(p)); a != b {
		return fmt.Errorf("leak: the view of %s changes when what it may not know changes (or the perturbation changed something it knows): %s", p, diff(a, b))
	}
	// Play the same action on both. An action may reveal a secret, and then
	// p's view after it differs between the two; where it does not, nothing
	// was revealed to p, so the events p is told must be the same too.
	actors := ru.s.Actors()
	if len(actors) == 0 {
		return nil
	}
	q := actors[ru.r.IntN(len(actors))]
	l := ru.s.Legal(q)
	if len(l) == 0 {
		return nil
	}
	rec := engine.Record{Seat: q, Action: l[ru.r.IntN(len(l))], At: ru.now}
	orig := ru.s.Clone()
	evA, err := engine.Play(orig, rec)
	if err != nil {
		return fmt.Errorf("%s's legal action %s was refused on a clone: %v", q, js(rec.Action), err)
	}
	evB, err := engine.Play(alt, rec)
	if err != nil {
		return nil // the perturbation changed what q holds; nothing to compare
	}
	if js(orig.View(p)) != js(alt.View(p)) {
		return nil // the action revealed something to p
	}
	if a, b := js(engine.Visible(nil, evA, p)), js(engine.Visible(nil, evB, p)); a != b {
		return fmt.Errorf("leak: the events %s is told of %s's %s depend on what it may not know: %s", p, q, js(rec.Action), diff(a, b))
	}
	return nil
}

// checkHints checks, for an actor with a choice, that its hint is the same
// on the state and on a copy in which what it may not know has changed.
func (ru *run) checkHints() error {
	if ru.hints == nil || *ru.hints <= 0 || ru.r.Float64() >= 0.3 {
		return nil
	}
	var p engine.Seat = -1
	for _, q := range ru.s.Actors() {
		if len(ru.s.Legal(q)) > 1 {
			p = q
			break
		}
	}
	if p < 0 {
		return nil
	}
	perturb := ru.h.HintPerturb
	if perturb == nil {
		if _, ok := ru.s.(engine.Determinizer); !ok {
			return nil
		}
		perturb = func(s engine.State, p engine.Seat, r *rand.Rand) engine.State {
			return s.(engine.Determinizer).Determinize(p, r)
		}
	}
	*ru.hints--
	alt := perturb(ru.s, p, ru.r)
	if a, b := js(ru.s.View(p)), js(alt.View(p)); a != b {
		return fmt.Errorf("the hints' perturbation changed what %s sees: %s", p, diff(a, b))
	}
	hint := func(s engine.State) (string, error) {
		b, err := ru.h.Hint(HintInput{Setup: ru.setup, State: s, Seat: p, Past: ru.seen[p]})
		if err != nil {
			return "", fmt.Errorf("the hint of %s failed: %v", p, err)
		}
		return string(b), nil
	}
	a, err := hint(ru.s)
	if err != nil {
		return err
	}
	b, err := hint(alt)
	if err != nil {
		return err
	}
	if a != b {
		return fmt.Errorf("leak: the hint of %s changes when what it may not know changes: %s", p, diff(a, b))
	}
	return nil
}

// roundTrip checks that a typed value (event body) decodes back from its
// JSON into a fresh value of its type and encodes to the same JSON.
func roundTrip(v engine.Kinded, b []byte) error {
	t := reflect.TypeOf(v)
	ptr := t.Kind() == reflect.Pointer
	if ptr {
		t = t.Elem()
	}
	fresh := reflect.New(t)
	if err := json.Unmarshal(b, fresh.Interface()); err != nil {
		return fmt.Errorf("%s does not decode into %s: %v", b, t, err)
	}
	val := fresh.Interface()
	if !ptr {
		val = fresh.Elem().Interface()
	}
	b2, err := engine.MarshalTyped(val.(engine.Kinded))
	if err != nil {
		return err
	}
	if !bytes.Equal(b, b2) {
		return fmt.Errorf("JSON round trip changes it: %s", diff(string(b), string(b2)))
	}
	return nil
}

// roundTripPlain is roundTrip for values without a type field (views).
func roundTripPlain(v any, b []byte) error {
	if v == nil {
		return errors.New("it is nil")
	}
	t := reflect.TypeOf(v)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	fresh := reflect.New(t)
	if err := json.Unmarshal(b, fresh.Interface()); err != nil {
		return fmt.Errorf("it does not decode into %s: %v", t, err)
	}
	b2, err := json.Marshal(fresh.Interface())
	if err != nil {
		return err
	}
	if !bytes.Equal(b, b2) {
		return fmt.Errorf("a JSON round trip changes it: %s", diff(string(b), string(b2)))
	}
	return nil
}

// js encodes v for comparison and messages: actions and event bodies with
// their type.
func js(v any) string {
	var b []byte
	var err error
	if k, ok := v.(engine.Kinded); ok {
		b, err = engine.MarshalTyped(k)
	} else {
		b, err = json.Marshal(v)
	}
	if err != nil {
		return fmt.Sprintf("<%T: %v>", v, err)
	}
	return string(b)
}
