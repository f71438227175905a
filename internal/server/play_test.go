package server_test

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"sortie/engine"
	"sortie/games/all"
	"sortie/internal/match"
	"sortie/internal/match/matchtest"
	"sortie/internal/server"
	"sortie/internal/store"
)

// fullMatch plays one whole match of g through the API: humans are real
// socket clients playing random legal actions, bots play on the server, a
// spectator watches. Then it proves that no socket got anything but what an
// independent replay of the log gives its audience.
func fullMatch(t *testing.T, e *env, g engine.Game, req match.CreateRequest, speed float64, seed uint64) *match.Replay {
	t.Helper()
	req.Game = g.Info().ID
	cm := e.newMatch(req, false)
	id := cm.Match.ID
	var players []*player
	for _, s := range cm.Seats {
		if s.Token != "" {
			players = append(players, e.dial(id, s.Token, s.Seat))
		}
	}
	spec := e.dial(id, "", engine.Spectator)
	if _, err := e.c.Start(context.Background(), id, cm.HostToken); err != nil {
		t.Fatal(err)
	}
	var think func(r *rand.Rand) time.Duration
	if g.Info().Timing == engine.RealTime {
		think = func(r *rand.Rand) time.Duration {
			ms := 400 + r.IntN(1200)
			return time.Duration(float64(ms)*float64(time.Millisecond)/speed) + time.Millisecond
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	errs := make([]error, len(players))
	for i, p := range players {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(seed, uint64(p.seat)))
			_, errs[i] = p.play(ctx, r, playOptions{think: think})
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	spec.expect(t, "the end", func(m *match.Message) bool { return m.Status == store.Finished && m.Type != match.TypeSeats })
	rp, err := e.c.Replay(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if rp.Outcome == nil || rp.Match.Status != store.Finished {
		t.Fatalf("the replay has no outcome: %+v", rp.Match)
	}
	patches := 0
	for _, p := range append(players, spec) {
		patches += checkNoLeak(t, g, rp, p.seat, p.messages())
		p.close()
	}
	if len(rp.Log) > 10 && patches == 0 {
		t.Errorf("%s: no update of %d records carried a patch of the view", g.Info().ID, len(rp.Log))
	}
	t.Logf("%s: %d records, %d updates with a patch, %s", g.Info().ID, len(rp.Log), patches, rp.Outcome.Summary)
	return rp
}

func TestFullMatchTurnBasedHiddenHands(t *testing.T) {
	e := newEnv(t, matchtest.Games(), nil)
	fullMatch(t, e, matchtest.Cards{}, match.CreateRequest{Players: 4}, 1, 1)
	// Two humans and two bots.
	fullMatch(t, e, matchtest.Cards{}, match.CreateRequest{Seats: []match.SeatRequest{
		{Kind: match.Human}, {Kind: match.Bot, Bot: "random"}, {Kind: match.Human}, {Kind: match.Bot},
	}, Options: map[string]string{"hand": "2"}}, 1, 2)
}

func TestFullMatchRealTime(t *testing.T) {
	const speed = 20
	e := newEnv(t, matchtest.Games(), func(c *server.Config) { c.ClockSpeed = speed })
	rp := fullMatch(t, e, matchtest.Race{}, match.CreateRequest{Seats: []match.SeatRequest{
		{Kind: match.Human}, {Kind: match.Bot}, {Kind: match.Human},
	}, Options: map[string]string{"seconds": "8", "goal": "30"}}, speed, 3)
	// The bells were logged as time-only records, so that a replay rings
	// them at the same moments.
	timeOnly := 0
	for _, b := range rp.Log {
		r, err := engine.DecodeRecord(matchtest.Race{}, b)
		if err != nil {
			t.Fatal(err)
		}
		if r.Action == nil {
			timeOnly++
		}
	}
	if timeOnly < 3 {
		t.Fatalf("only %d time-only records in an 8-second race", timeOnly)
	}
}

// Every registered game is played in full through the API by real socket
// clients, and no socket gets more than its audience may know.
func TestEveryRegisteredGame(t *testing.T) {
	games := all.Games()
	if len(games) == 0 {
		t.Skip("no game is registered in games/all yet")
	}
	playEveryGame(t, games)
}

func playEveryGame(t *testing.T, games []engine.Game) {
	const speed = 100
	const moveLimit = 20_000 // match time: 200 ms at this speed
	e := newEnv(t, games, func(c *server.Config) {
		c.ClockSpeed = speed
		c.MessageRate = 2000
		c.MessageBurst = 2000
	})
	for i, g := range games {
		info := g.Info()
		t.Run(info.ID, func(t *testing.T) {
			players := min(max(info.MinPlayers, 3), info.MaxPlayers)
			// Humans in every seat but the last, which a bot plays: random
			// clients pick among the actions offered, and a game may keep
			// some out of the offer (the answers of a puzzle), so a bot
			// makes sure the match goes on.
			seats := make([]match.SeatRequest, players)
			if players > 1 {
				seats[players-1] = match.SeatRequest{Kind: match.Bot}
			}
			// A game may offer a person no choice to click and expect them
			// to compose the action (a long list, a puzzle): a random client
			// cannot, so its seat's bot plays once the move limit is past.
			fullMatch(t, e, g, match.CreateRequest{Seats: seats, MoveLimitMs: new(int64(moveLimit))}, speed, uint64(i))
			if testing.Short() {
				return
			}
			// And with humans only, where what is offered is all that is
			// legal.
			s, err := g.New(engine.Setup{Players: info.MinPlayers})
			if err != nil {
				t.Fatal(err)
			}
			if _, composes := s.(engine.Offerer); !composes {
				fullMatch(t, e, g, match.CreateRequest{Players: info.MinPlayers}, speed, uint64(i+100))
			}
		})
	}
}

// Bots alone play a whole match on the server, and spectators see it end.
func TestBotsOnly(t *testing.T) {
	e := newEnv(t, matchtest.Games(), func(c *server.Config) { c.ClockSpeed = 50 })
	for _, g := range matchtest.Games() {
		cm := e.newMatch(match.CreateRequest{Game: g.Info().ID, Seats: []match.SeatRequest{{Kind: match.Bot}, {Kind: match.Bot}}, AutoStart: true}, false)
		spec := e.dial(cm.Match.ID, "", engine.Spectator)
		spec.expect(t, "the end", func(m *match.Message) bool { return m.Status == store.Finished })
		rp, err := e.c.Replay(context.Background(), cm.Match.ID)
		if err != nil {
			t.Fatal(err)
		}
		checkNoLeak(t, g, rp, engine.Spectator, spec.messages())
		spec.close()
	}
}
