// The node's budget of bot thinking. A bot that searches (a hard bot: a
// bot.Searcher, handed samples of the state) may take a core for hundreds of
// milliseconds per decision, and eight all-bot matches of them would take
// every core of a small server, leaving people's matches and /healthz to wait
// their turn behind them. So a search takes one of a few places (one fewer
// than the cores, by default); when none is free the node is busy, and the
// bot decides without searching — its cheaper level, the heuristic that its
// search improves on (bot.Bot.Decide) — at once. A bot of a match that a
// person plays waits a moment for a place first: people should meet the
// bots they chose, and the all-bot matches that hog the places never wait.
// Bots that do not search cost little and take no place.

package match

import (
	"runtime"
	"sync"
	"time"

	"sortie/bot"
	"sortie/engine"
)

// searchWait is how long the bot of a match a person plays may wait for a
// place to search, before it decides without searching.
const searchWait = 500 * time.Millisecond

// budget hands out the places to search.
type budget struct {
	mu      sync.Mutex
	free    int
	waiting []chan struct{} // bots of people's matches waiting for a place, first come first served
	cheap   func()          // told of each decision made without searching (metrics, tests)
}

func newBudget(places int, cheap func()) *budget {
	if places <= 0 {
		places = max(1, runtime.GOMAXPROCS(0)-1)
	}
	return &budget{free: places, cheap: cheap}
}

// take takes a place if one is free, or, for a bot of a match a person
// plays (wait > 0), the first one freed within wait. It reports whether it
// got one; the caller then gives it back with give.
func (b *budget) take(wait time.Duration, quit <-chan struct{}) bool {
	b.mu.Lock()
	if b.free > 0 {
		b.free--
		b.mu.Unlock()
		return true
	}
	if wait <= 0 {
		b.mu.Unlock()
		return false
	}
	ch := make(chan struct{}, 1)
	b.waiting = append(b.waiting, ch)
	b.mu.Unlock()
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-t.C:
	case <-quit:
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for i, w := range b.waiting {
		if w == ch {
			b.waiting = append(b.waiting[:i], b.waiting[i+1:]...)
			return false
		}
	}
	return true // handed a place as the wait ended: it is ours
}

// give gives a place back, to the first bot waiting for one if any.
func (b *budget) give() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.waiting) > 0 {
		ch := b.waiting[0]
		b.waiting = b.waiting[1:]
		ch <- struct{}{}
		return
	}
	b.free++
}

// ask asks bot bt of seat p what to do in state s, searching only with a
// place of the budget (see the top of this file); people says whether a
// person plays in the match, so that its bot may wait for a place.
func (b *budget) ask(bt bot.Bot, s engine.State, p engine.Seat, legal []engine.Action, now engine.Millis, people bool, quit <-chan struct{}) bot.Decision {
	if _, searches := bt.(bot.Searcher); !searches {
		return bot.Ask(bt, s, p, legal, now)
	}
	wait := time.Duration(0)
	if people {
		wait = searchWait
	}
	if !b.take(wait, quit) {
		if b.cheap != nil {
			b.cheap()
		}
		return bt.Decide(s.View(p), legal, now)
	}
	defer b.give()
	return bot.Ask(bt, s, p, legal, now)
}

// people reports whether a person plays in the match: a human seat that
// its human has not handed to its bot.
func (x *Match) people() bool {
	for i, st := range x.rec.Seats {
		if st.Kind == Human && !st.Left && (x.seats[i].sub != nil || !x.seats[i].byBot) {
			return true
		}
	}
	return false
}
