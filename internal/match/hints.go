// Hints at the table: what a seat's player may ask before a decision, at
// three levels — a nudge (one sentence of the game's explainer about what
// matters now), the bot's choice (the best action of an analysis with its
// win chance and the top three), and a check of the action the player has
// in mind. A hint is computed from the seat's point of view alone: the
// analysis draws its states from the seat's sampler (the game's
// Determinize), whose fairness the conformance suite checks, and the nudge
// reads the seat's view. It is computed from the stored log, as a step's
// view is, so any node serves it wherever the match runs.
//
// A hint search is bot thinking: it takes a place of the node's budget of
// searches (budget.go), one per seat at a time, and answers within a
// second (coach.HintWall). Hints are kept per match, step, seat and question, so that
// asking again costs nothing, and each one given is counted in the store,
// to be said at the end of the match.

package match

import (
	"context"
	"encoding/json"
	"hash/fnv"
	"sync"
	"time"

	"sortie/coach"
	"sortie/engine"
	"sortie/internal/store"
)

// Codes of the hints' refusals.
const (
	CodeHintsOff   = "hints_off"   // the match was made without hints
	CodeHintsClock = "hints_clock" // a real-time game's clock runs: no hints meanwhile
	CodeHintBusy   = "hint_busy"   // the seat has another hint being computed
)

// Hint levels.
const (
	HintNudge = 1 // one sentence about what matters now
	HintBest  = 2 // the bot's choice, its win chance and the top three
	HintCheck = 3 // what one action is worth against the best
)

// hintWait is how long a hint waits for a place of the budget of
// searches; its analysis is then cut at coach.HintWall from the request,
// so that the answer comes within a second.
const hintWait = 150 * time.Millisecond

// hintCacheSize bounds the hints a node keeps.
const hintCacheSize = 2048

// HintRequest asks for a hint.
type HintRequest struct {
	Seat  engine.Seat
	Level int
	// Action is the action to check (level 3), as the client sends it.
	Action json.RawMessage
	// Token is the seat's token, if any; Account the account the request is
	// signed in to, if any: one of them must hold the seat.
	Token, Account string
}

// Hint is the answer to a [HintRequest].
type Hint struct {
	Level int `json:"level"`
	// Seq is the step of the log the hint is about: the decision after
	// record Seq.
	Seq uint64 `json:"seq"`
	// Nudge is the explainer's sentence (level 1).
	Nudge *coach.Nudge `json:"nudge,omitempty"`
	// Best is the best action found and Win its win chance (levels 2 and
	// 3); Team says the chance is the team's (a co-operative game).
	Best json.RawMessage `json:"best,omitempty"`
	Win  *float64        `json:"win,omitempty"`
	Team bool            `json:"team,omitempty"`
	// Top are the best actions, best first, at most three (level 2).
	Top []HintChoice `json:"top,omitempty"`
	// Check is what the action asked about is worth (level 3).
	Check *HintChecked `json:"check,omitempty"`
	// Rollouts is how many playouts the analysis played.
	Rollouts int `json:"rollouts,omitempty"`
}

// HintChoice is one action of a hint's top three.
type HintChoice struct {
	Action json.RawMessage `json:"action"`
	Win    float64         `json:"win"`
	Visits int             `json:"visits"`
}

// HintChecked is the check of an action: its win chance, what it loses
// against the best (in win chance, 0 to 1) and its band (see coach.Band:
// best, good, inaccuracy, mistake, blunder).
type HintChecked struct {
	Action json.RawMessage `json:"action"`
	Win    float64         `json:"win"`
	Loss   float64         `json:"loss"`
	Band   string          `json:"band"`
}

// HintsUsed are the hints one seat asked for, by level.
type HintsUsed struct {
	Seat   engine.Seat `json:"seat"`
	Nudges int         `json:"nudges"`
	Choice int         `json:"choices"`
	Checks int         `json:"checks"`
}

// hintKey names a hint in the cache: the match, the step, the seat and the
// question (the level, and the action checked).
type hintKey struct {
	match  string
	step   int
	seat   engine.Seat
	level  int
	action string
}

// hintDesk keeps the hints given and the searches under way. Its zero
// value is ready.
type hintDesk struct {
	mu      sync.Mutex
	cache   map[hintKey]hintKept
	order   []hintKey // oldest first, to forget the oldest
	running map[seatOfMatch]*hintCall
}

// hintKept is a hint given, with the analysis it came from (levels 2 and
// 3), which a check of an action it played to the end answers from.
type hintKept struct {
	h *Hint
	a *coach.Analysis
}

type seatOfMatch struct {
	match string
	seat  engine.Seat
}

// hintCall is a search under way; done is closed when h or err is set.
type hintCall struct {
	key  hintKey
	done chan struct{}
	kept hintKept
	err  error
}

func (d *hintDesk) cached(k hintKey) (hintKept, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	h, ok := d.cache[k]
	return h, ok
}

func (d *hintDesk) keep(k hintKey, h hintKept) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.cache == nil {
		d.cache = map[hintKey]hintKept{}
	}
	if _, ok := d.cache[k]; ok {
		return
	}
	if len(d.order) >= hintCacheSize {
		delete(d.cache, d.order[0])
		d.order = d.order[1:]
	}
	d.cache[k] = h
	d.order = append(d.order, k)
}

// start registers a search of k for its seat. It returns the call to wait
// for when the same question is being computed, and refuses another
// question of the same seat meanwhile; mine says the caller computes it
// (and calls finish).
func (d *hintDesk) start(k hintKey) (c *hintCall, mine bool, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	sm := seatOfMatch{k.match, k.seat}
	if c := d.running[sm]; c != nil {
		if c.key == k {
			return c, false, nil
		}
		return nil, false, refuse(CodeHintBusy, "A hint of this seat is being computed; ask again once it is given.")
	}
	if d.running == nil {
		d.running = map[seatOfMatch]*hintCall{}
	}
	c = &hintCall{key: k, done: make(chan struct{})}
	d.running[sm] = c
	return c, true, nil
}

func (d *hintDesk) finish(c *hintCall, h hintKept, err error) {
	if err == nil {
		d.keep(c.key, h)
	}
	d.mu.Lock()
	delete(d.running, seatOfMatch{c.key.match, c.key.seat})
	d.mu.Unlock()
	c.kept, c.err = h, err
	close(c.done)
}

// Hint answers a hint request about match id (see the top of this file).
func (m *Manager) Hint(ctx context.Context, id string, req HintRequest) (*Hint, error) {
	start := time.Now()
	if req.Level < HintNudge || req.Level > HintCheck {
		return nil, refuse(CodeBadParameters, "level is 1 (a nudge), 2 (the bot's choice) or 3 (check an action).")
	}
	if req.Level == HintCheck && len(req.Action) == 0 {
		return nil, refuse(CodeBadParameters, "Checking an action needs the action, as JSON.")
	}
	rec, err := m.stored(ctx, id)
	if err != nil {
		return nil, err
	}
	seat := req.Seat
	if seat < 0 || int(seat) >= len(rec.Seats) {
		return nil, refuse(CodeUnknownSeat, "This match has no seat %d.", seat)
	}
	if req.Account == "" || rec.Seats[seat].Account != req.Account {
		switch {
		case req.Token == "":
			return nil, refuse(CodeNoToken, "A hint is for the seat's player alone: send the seat's token.")
		case !tokenMatches(req.Token, rec.Seats[seat].TokenHash):
			return nil, refuse(CodeBadToken, "This token does not hold seat %d of this match.", seat)
		}
	}
	switch {
	case rec.Status == store.Open:
		return nil, refuse(CodeNotStarted, "The match has not started.")
	case rec.Status.Over():
		return nil, refuse(CodeFinished, "The match is over: its review says what each decision was worth.")
	}
	var st settings
	_ = json.Unmarshal(rec.Settings, &st)
	if !st.Hints {
		return nil, refuse(CodeHintsOff, "This match was made without hints.")
	}
	g, err := m.Game(rec.Game)
	if err != nil {
		return nil, refuse(CodeUnavailable, "The game of this match (%s) is not on this server.", rec.Game)
	}
	if g.Info().Timing == engine.RealTime {
		return nil, refuse(CodeHintsClock, "No hints while the clock runs; the review after the match covers every decision.")
	}
	var check engine.Action
	k := hintKey{match: id, step: rec.Records, seat: seat, level: req.Level}
	if req.Level == HintCheck {
		if check, err = g.DecodeAction(req.Action); err != nil {
			return nil, refuse(CodeBadParameters, "The action to check is not one of this game: %s.", err)
		}
		b, _ := engine.MarshalTyped(check)
		k.action = string(b)
	}
	h, err := m.hint(ctx, g, rec, k, check, start)
	if err != nil {
		return nil, err
	}
	if err := m.store.AddHint(ctx, id, store.Hint{Seat: int(seat), Step: rec.Records, Level: req.Level, At: time.Now()}); err != nil {
		m.log.Error("cannot count a hint", "match", id, "err", err)
		return nil, refuse(CodeUnavailable, "The hint could not be noted; try again in a moment.")
	}
	return h, nil
}

// hint returns the hint k asks, from the cache or computed once.
func (m *Manager) hint(ctx context.Context, g engine.Game, rec *store.Match, k hintKey, check engine.Action, start time.Time) (*Hint, error) {
	if h, ok := m.hints.cached(k); ok {
		return h.h, nil
	}
	c, mine, err := m.hints.start(k)
	if err != nil {
		return nil, err
	}
	if !mine {
		select {
		case <-c.done:
			return c.kept.h, c.err
		case <-ctx.Done():
			return nil, refuse(CodeUnavailable, "The hint was not given in time.")
		}
	}
	h, err := m.computeHint(ctx, g, rec, k, check, start)
	m.hints.finish(c, h, err)
	return h.h, err
}

// computeHint rebuilds the seat's position at step k.step from the stored
// log and answers k's question.
func (m *Manager) computeHint(ctx context.Context, g engine.Game, rec *store.Match, k hintKey, check engine.Action, start time.Time) (hintKept, error) {
	h, a, err := m.analyseHint(ctx, g, rec, k, check, start)
	if err != nil || k.level == HintNudge {
		return hintKept{h: h}, err
	}
	best := a.Best()
	h.Best, h.Win, h.Team, h.Rollouts = marshalAction(best.Action), ptr(round3(best.Win)), a.Team, a.Rollouts
	if check == nil {
		for _, v := range a.Values[:min(3, len(a.Values))] {
			h.Top = append(h.Top, HintChoice{Action: marshalAction(v.Action), Win: round3(v.Win), Visits: v.Visits})
		}
		return hintKept{h, a}, nil
	}
	v, _ := a.Find(check)
	loss, lossErr, _ := a.Loss(check)
	h.Check = &HintChecked{Action: marshalAction(check), Win: round3(v.Win), Loss: round3(max(0, loss)), Band: coach.Band(loss, lossErr)}
	return hintKept{h, a}, nil
}

// analyseHint answers a nudge (level 1), or returns the analysis that
// answers the other levels: the bot's choice's when it played the action
// to check to the end, a new one else.
func (m *Manager) analyseHint(ctx context.Context, g engine.Game, rec *store.Match, k hintKey, check engine.Action, start time.Time) (*Hint, *coach.Analysis, error) {
	h := &Hint{Level: k.level, Seq: uint64(k.step)}
	if check != nil {
		choice := k
		choice.level, choice.action = HintBest, ""
		if kept, ok := m.hints.cached(choice); ok {
			if v, ok := kept.a.Find(check); ok && v.Visits == kept.a.Best().Visits {
				return h, kept.a, nil
			}
		}
	}
	if err := m.rebuilding(ctx); err != nil {
		return nil, nil, err
	}
	var past []engine.Event
	var now engine.Millis
	s, err := replayLog(ctx, m, g, k.match, rec.Setup, k.step, func(_ int, at engine.Millis, evs []engine.Event, _ engine.State) {
		past, now = engine.Visible(past, evs, k.seat), at
	})
	m.rebuilt()
	if err != nil {
		m.log.Error("cannot rebuild a match for a hint", "match", k.match, "err", err)
		return nil, nil, refuse(CodeUnavailable, "Match %s cannot be rebuilt from its log.", k.match)
	}
	if len(s.Legal(k.seat)) == 0 {
		return nil, nil, refuse(engine.CodeNotYourTurn, "A hint is for a decision of yours: you have none to make now.")
	}
	if k.level == HintNudge {
		ex, ok := g.(coach.Explainer)
		if !ok {
			return nil, nil, refuse(CodeBadParameters, "This game has no nudges; ask for the bot's choice (level 2) or a check (level 3).")
		}
		n := ex.Explain(s.View(k.seat))
		h.Nudge = &n
		return h, nil, nil
	}
	if check != nil {
		if _, err := s.Clone().Apply(k.seat, check, now); err != nil {
			return nil, nil, err // the rule it breaks, in the game's words
		}
	}
	pos, ok := coach.At(g, s, k.seat, rec.Setup.Players, rec.Setup.Options, now)
	if !ok {
		return nil, nil, refuse(CodeBadParameters, "This game gives no analysed hints; ask for a nudge (level 1).")
	}
	pos.Past = past
	if !m.budget.take(hintWait, ctx.Done()) {
		return nil, nil, refuse(CodeUnavailable, "The server's bots are all thinking; ask again in a moment.")
	}
	defer m.budget.give()
	o := coach.Options{Rollouts: coach.HintRollouts, Wall: max(10*time.Millisecond, coach.HintWall-time.Since(start)), Seed: hintSeed(k)}
	if check != nil {
		o.Keep = []engine.Action{check}
	}
	return h, coach.Analyze(pos, o), nil
}

// hintSeed seeds a hint's analysis from its question alone (never from
// the match seed), so that asking again gives the same answer.
func hintSeed(k hintKey) uint64 {
	f := fnv.New64a()
	f.Write([]byte(k.match))
	f.Write([]byte(k.action))
	return engine.Mix(f.Sum64(), uint64(k.step)<<8|uint64(k.seat)<<2|uint64(k.level))
}

func marshalAction(a engine.Action) json.RawMessage {
	b, err := engine.MarshalTyped(a)
	if err != nil {
		return json.RawMessage("null")
	}
	return b
}

func ptr[T any](v T) *T { return &v }

func round3(x float64) float64 { return float64(int(x*1000+0.5)) / 1000 }

// HintsUsed returns the hints each human seat of match id asked for, by
// level: what the end of a match says.
func (m *Manager) HintsUsed(ctx context.Context, id string) ([]HintsUsed, error) {
	rec, err := m.overOrStored(ctx, id)
	if err != nil {
		return nil, err
	}
	hs, err := m.store.Hints(ctx, id)
	if err != nil {
		return nil, refuse(CodeUnavailable, "The hints of this match cannot be read now; try again in a moment.")
	}
	out := []HintsUsed{}
	for i, st := range rec.Seats {
		if st.Kind != Human {
			continue
		}
		u := HintsUsed{Seat: engine.Seat(i)}
		for _, h := range hs {
			if h.Seat != i {
				continue
			}
			switch h.Level {
			case HintNudge:
				u.Nudges++
			case HintBest:
				u.Choice++
			case HintCheck:
				u.Checks++
			}
		}
		out = append(out, u)
	}
	return out, nil
}
