package coach

import (
	"sortie/bot"
	"sortie/engine"
)

// Policy is a bot that plays the best action of an analysis at every
// decision: how the lab measures the strength of the hints (a hint is
// worth what its best move wins), never a level players choose. Like every
// search bot it sees its seat's view and the samples its driver hands it
// (bot.Ask); without a sampler it plays its guide's move.
type Policy struct {
	// Label is the policy's name; "coach" when empty.
	Label string
	// Options are the analysis's (its Seed is mixed with the seat's).
	Options Options
}

// Name returns Label, or "coach".
func (p Policy) Name() string {
	if p.Label != "" {
		return p.Label
	}
	return "coach"
}

// NewBot returns a bot for one seat.
func (p Policy) NewBot(g engine.Game, s bot.Seating) bot.Bot {
	o := p.Options
	o.Seed = engine.Mix(o.Seed^s.Seed, uint64(s.Seat))
	return &coachBot{g: g, s: s, o: o, fallback: guideOf(g, o.Guide).NewBot(g, s)}
}

type coachBot struct {
	g        engine.Game
	s        bot.Seating
	o        Options
	fallback bot.Bot
	past     []engine.Event
	decided  int
}

// Observe keeps what the seat was told, for the guides of its rollouts.
func (b *coachBot) Observe(v engine.View, evs []engine.Event) {
	b.past = append(b.past, evs...)
	if o, ok := b.fallback.(bot.Observer); ok {
		o.Observe(v, evs)
	}
}

// Decide plays the guide's move: without samples there is nothing to
// analyse.
func (b *coachBot) Decide(v engine.View, legal []engine.Action, now engine.Millis) bot.Decision {
	return b.fallback.Decide(v, legal, now)
}

// Search analyses the decision and plays the best action.
func (b *coachBot) Search(v engine.View, legal []engine.Action, now engine.Millis, sample bot.Sampler) bot.Decision {
	if len(legal) == 1 {
		return bot.Decision{Action: legal[0]}
	}
	o := b.o
	o.Seed = engine.Mix(o.Seed, uint64(b.decided))
	b.decided++
	a := Analyze(Position{
		Game: b.g, Seat: b.s.Seat, Players: b.s.Players, Options: b.s.Options,
		View: v, Legal: legal, Now: now, Sample: sample, Past: b.past,
	}, o)
	return bot.Decision{Action: a.Best().Action}
}
