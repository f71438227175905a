package coach

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"

	"sortie/bot"
	"sortie/engine"
)

// A tutorial is a match played on a deal fixed beforehand, against bots
// that play it the same way every time, in which the page asks the learner
// for each move and explains one rule at a time (docs/api.md,
// "Tutorials"). Its script is data in the game's package
// (games/<id>/tutorial.json, handed out by [Tutor]); its texts are the web
// client's, under learn.<game>.<step key>.

// Table is a table of the teaching side: its players and options, the seat
// of the person who learns (or takes the day's challenge), and the policy
// that plays every other seat.
type Table struct {
	Players int               `json:"players"`
	Options map[string]string `json:"options,omitempty"`
	Seat    engine.Seat       `json:"seat"`
	Bot     string            `json:"bot,omitempty"`
}

// Challenger is implemented by games that offer a daily challenge: the
// table everyone plays the day's deal at. A game without it is played at
// its least number of players, seat 0 against "medium" bots.
type Challenger interface {
	DailyTable() Table
}

// Tutorial is a game's tutorial script.
type Tutorial struct {
	Table
	// Seed is the deal; BotSeed seeds the bots (a match seeds seat s's bot
	// with engine.Mix(BotSeed, s)).
	Seed    uint64 `json:"seed"`
	BotSeed uint64 `json:"bot_seed"`
	// BotDelayMs is how long the bots wait before each move of a game that
	// is not real-time, so that the learner sees them play.
	BotDelayMs int64 `json:"bot_delay_ms,omitempty"`
	// Steps are played in order.
	Steps []Step `json:"steps"`
	// Check is the short quiz that ends the tutorial.
	Check []Question `json:"check"`
}

// Step is one step of a tutorial: an explanation to read (Read), or a move
// to make (Expect), with what to press (Target).
type Step struct {
	// Key names the step's texts: learn.<game>.<key>.do (what the page
	// says), .goal (the move asked for, said again when another is tried:
	// "Not yet. First, …") and .then (what the move did, said after it).
	Key string `json:"key"`
	// Read: the step is an explanation, and a button goes on.
	Read bool `json:"read,omitempty"`
	// Expect lists the moves the step takes, each a partial action: an
	// action matches when each of its fields is the field given (see
	// [Matches]). The first one is the script's own.
	Expect []json.RawMessage `json:"expect,omitempty"`
	// Target lists CSS selectors of the controls the page highlights while
	// the move is awaited.
	Target []string `json:"target,omitempty"`
}

// Question is one question of a tutorial's check: its texts are
// learn.<game>.check.<key>.q, the answers .a1 … .aN, and .why, said once it
// is answered right.
type Question struct {
	Key     string `json:"key"`
	Answers int    `json:"answers"`
	// Right is the right answer, from 1.
	Right int `json:"right"`
}

var keyPattern = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// ParseTutorial reads a tutorial's script and checks it against its game:
// a table the game sets up, bots it has, steps with keys and moves it can
// read, questions whose right answer is one of theirs.
func ParseTutorial(g engine.Game, b []byte) (*Tutorial, error) {
	var t Tutorial
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&t); err != nil {
		return nil, fmt.Errorf("the tutorial of %s is not its JSON: %v", g.Info().ID, err)
	}
	if _, err := t.Setup(g); err != nil {
		return nil, err
	}
	if t.Seat < 0 || int(t.Seat) >= t.Players {
		return nil, fmt.Errorf("the tutorial's seat %d is not one of its %d", t.Seat, t.Players)
	}
	if t.Players > 1 {
		if _, err := bot.Find(g, t.Bot); err != nil {
			return nil, fmt.Errorf("the tutorial's bots: %v", err)
		}
	}
	if len(t.Steps) == 0 || len(t.Check) == 0 {
		return nil, errors.New("a tutorial has steps and a check")
	}
	seen := map[string]bool{"check": true}
	for i, st := range t.Steps {
		if !keyPattern.MatchString(st.Key) || seen[st.Key] {
			return nil, fmt.Errorf("step %d: its key %q is not a new lower-case word", i+1, st.Key)
		}
		seen[st.Key] = true
		if st.Read == (len(st.Expect) > 0) {
			return nil, fmt.Errorf("step %q is either read or played", st.Key)
		}
		for _, e := range st.Expect {
			if _, err := g.DecodeAction(e); err != nil {
				return nil, fmt.Errorf("step %q expects a move the game cannot read: %v", st.Key, err)
			}
		}
	}
	for _, q := range t.Check {
		if !keyPattern.MatchString(q.Key) || seen["check."+q.Key] {
			return nil, fmt.Errorf("question %q: not a new lower-case word", q.Key)
		}
		seen["check."+q.Key] = true
		if q.Answers < 2 || q.Right < 1 || q.Right > q.Answers {
			return nil, fmt.Errorf("question %q: %d answers, the right one %d", q.Key, q.Answers, q.Right)
		}
	}
	return &t, nil
}

// Setup is the tutorial's setup: its table on its deal.
func (t *Tutorial) Setup(g engine.Game) (engine.Setup, error) {
	s := engine.Setup{Players: t.Players, Options: t.Options, Seed: t.Seed}
	opts, err := g.Info().Check(s)
	if err != nil {
		return s, fmt.Errorf("the tutorial's table does not fit %s: %v", g.Info().ID, err)
	}
	s.Options = opts
	return s, nil
}

// Matches reports whether action (an action's JSON) is the partial action
// want: every field of want is in action with the same JSON value (objects
// compared as wholes, lists in order).
func Matches(want, action []byte) bool {
	var w, a map[string]json.RawMessage
	if json.Unmarshal(want, &w) != nil || json.Unmarshal(action, &a) != nil {
		return false
	}
	for k, v := range w {
		got, ok := a[k]
		if !ok || !sameJSON(v, got) {
			return false
		}
	}
	return true
}

func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}

// PlayTutorial plays a tutorial's script through its game as a match of it
// plays: on its deal, every other seat played by its bots seeded as a
// match seeds them, and the learner playing each step's first move wait
// after the learner may (in match time: it counts in real time only). It
// returns the state after the last step, or the first step that the game
// refused or that never came.
func PlayTutorial(g engine.Game, t *Tutorial, wait engine.Millis) (engine.State, error) {
	setup, err := t.Setup(g)
	if err != nil {
		return nil, err
	}
	s, err := g.New(setup)
	if err != nil {
		return nil, err
	}
	realTime := g.Info().Timing == engine.RealTime
	bots := make([]bot.Bot, t.Players)
	for p := range t.Players {
		if engine.Seat(p) == t.Seat {
			continue
		}
		pol, err := bot.Find(g, t.Bot)
		if err != nil {
			return nil, err
		}
		bots[p] = pol.NewBot(g, bot.Seating{Seat: engine.Seat(p), Players: t.Players, Options: setup.Options, Seed: engine.Mix(t.BotSeed, uint64(p))})
		if o, ok := bots[p].(bot.Observer); ok {
			o.Observe(s.View(engine.Seat(p)), nil)
		}
	}
	tell := func(evs []engine.Event) {
		for p, b := range bots {
			if o, ok := b.(bot.Observer); ok {
				o.Observe(s.View(engine.Seat(p)), engine.Visible(nil, evs, engine.Seat(p)))
			}
		}
	}
	type pending struct {
		action engine.Action
		at     engine.Millis
		ok     bool
	}
	waiting := make([]pending, t.Players)
	var now engine.Millis
	step := 0
	learnerFrom := engine.Millis(-1) // when the learner could first act on the step
	for guard := 0; ; guard++ {
		for step < len(t.Steps) && t.Steps[step].Read {
			step++
		}
		if step == len(t.Steps) {
			return s, nil
		}
		st := t.Steps[step]
		if _, over := s.Outcome(); over {
			return s, fmt.Errorf("step %q: the game is over before it", st.Key)
		}
		if guard > 100_000 {
			return s, fmt.Errorf("step %q never came", st.Key)
		}
		// Who acts next, and when: the learner wait after they may, the
		// bots at their own pace, time at the next deadline.
		who, at := engine.Seat(-1), engine.Millis(0)
		for _, p := range s.Actors() {
			if p == t.Seat {
				if learnerFrom < 0 {
					learnerFrom = now
				}
				la := learnerFrom
				if realTime {
					la += wait
				}
				if who < 0 || la < at {
					who, at = p, la
				}
				continue
			}
			if !waiting[p].ok {
				legal := s.Legal(p)
				if len(legal) == 0 {
					waiting[p] = pending{at: now + 100, ok: true}
				} else {
					d := bot.Ask(bots[p], s, p, legal, now)
					if !realTime {
						d.Delay = 0
					}
					waiting[p] = pending{action: d.Action, at: now + max(d.Delay, 0), ok: true}
				}
			}
			if who < 0 || waiting[p].at < at {
				who, at = p, waiting[p].at
			}
		}
		if dl, ok := s.Deadline(); ok && (who < 0 || dl <= at) {
			now = max(now, dl)
			tell(s.Advance(dl))
			clear(waiting)
			continue
		}
		if who < 0 {
			return s, fmt.Errorf("step %q: nobody may act and nothing is due", st.Key)
		}
		now = max(now, at)
		tell(s.Advance(now))
		if who == t.Seat {
			a, err := g.DecodeAction(st.Expect[0])
			if err != nil {
				return s, err
			}
			evs, err := engine.Play(s, engine.Record{Seat: who, Action: a, At: now})
			if err != nil {
				return s, fmt.Errorf("step %q: %s refused: %v", st.Key, st.Expect[0], err)
			}
			tell(evs)
			clear(waiting)
			step++
			learnerFrom = -1
			continue
		}
		w := waiting[who]
		waiting[who].ok = false
		if w.action == nil {
			continue
		}
		evs, err := engine.Play(s, engine.Record{Seat: who, Action: w.action, At: now})
		if err != nil {
			continue // (asked again)
		}
		tell(evs)
		clear(waiting)
	}
}
