package outran

import (
	"testing"

	"sortie/bot"
	"sortie/engine"
)

// Bots do not vote to stop the first run before a person has had the time
// to read the card: seat A, a person, has not finished; the two bots finish
// within seconds, and vote only a minute after the reveal (then the run
// ends, well before its time limit). The match asks bots as it does (see
// internal/match): a decision waits for its time, then is played.
func TestBotsLetAPersonReadTheFirstCard(t *testing.T) {
	s := newState(t, 3, "bear")
	reveal(t, s)
	revealAt, limit := s.revealAt, s.revealAt+s.cfg.RunLimit
	bots := map[engine.Seat]bot.Bot{}
	type pending struct {
		a   engine.Action
		due engine.Millis
	}
	waiting := map[engine.Seat]*pending{}
	for _, p := range []engine.Seat{B, C} {
		bots[p] = Heuristic.NewBot(Game{}, bot.Seating{Seat: p, Players: 3, Seed: uint64(p)})
	}
	firstVote := engine.Millis(-1)
	for now := revealAt; s.phase == PhaseRun && now <= limit; now += 250 {
		if len(s.Advance(now)) > 0 && s.phase != PhaseRun {
			break
		}
		for _, p := range []engine.Seat{B, C} {
			if w := waiting[p]; w != nil {
				if now < w.due {
					continue
				}
				delete(waiting, p)
				if _, err := s.Apply(p, w.a, now); err == nil && w.a.Kind() == "vote_stop" && firstVote < 0 {
					firstVote = now
				}
				continue
			}
			if legal := s.Legal(p); len(legal) > 0 {
				d := bots[p].Decide(s.View(p), legal, now)
				waiting[p] = &pending{d.Action, now + max(d.Delay, 0)}
			}
		}
	}
	switch {
	case firstVote < 0:
		t.Fatal("the bots never voted: a person who never finishes holds the run until its time limit")
	case firstVote < revealAt+60_000:
		t.Fatalf("a bot voted %.1f s after the first reveal", float64(firstVote-revealAt)/1000)
	case s.phase == PhaseRun:
		t.Fatal("both bots voted and the run goes on")
	}
}
