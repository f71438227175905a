package server_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"sortie/engine"
	"sortie/games/all"
	"sortie/internal/match"
	"sortie/internal/server"
	"sortie/internal/store/pgtest"
	"sortie/internal/store/storetest"
)

// stateOf returns the state message an audience gets from GET …/state.
func (e *env) stateOf(id, token string) match.Message {
	e.t.Helper()
	var m match.Message
	if err := e.c.Do(context.Background(), "GET", "/api/matches/"+id+"/state", token, nil, &m); err != nil {
		e.t.Fatal(err)
	}
	return m
}

// The store fails during a Plan de Secours match — its database files made
// immutable, as a sick disk would, or PostgreSQL stopped — and a player
// moves: the move is not saved, so neither the spectators' socket nor their
// view shows it, for as long as the store cannot write; once it writes again
// the match goes on by itself, with the move, and without a restart. (Issue
// 19, finding 6: the spectator view showed the move, and the match stayed
// broken until a restart.)
func TestSpectatorsNeverSeeAnUnsavedMove(t *testing.T) {
	t.Run("SQLite files made immutable", func(t *testing.T) {
		e := newEnv(t, all.Games(), nil)
		unsavedMove(t, e, func() (heal func()) { return storetest.Immutable(t, e.cfg.DataPath) })
	})
	t.Run("PostgreSQL stopped", func(t *testing.T) {
		srv := pgtest.Own(t)
		db, err := srv.Database(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		e := newEnv(t, all.Games(), func(c *server.Config) { c.StoreURL, c.DataPath = db, "" })
		unsavedMove(t, e, func() (heal func()) {
			srv.Kill()
			return func() {
				if err := srv.Restart(); err != nil {
					t.Fatal(err)
				}
			}
		})
	})
}

// unsavedMove plays the scenario of TestSpectatorsNeverSeeAnUnsavedMove,
// with fault making the store fail and returning what heals it.
func unsavedMove(t *testing.T, e *env, fault func() (heal func())) {
	ctx := context.Background()
	cm := e.newMatch(match.CreateRequest{Game: "plandesecours", Players: 2}, true)
	id := cm.Match.ID
	players := []*player{e.dial(id, cm.Seats[0].Token, 0), e.dial(id, cm.Seats[1].Token, 1)}
	spec := e.dial(id, "", engine.Spectator)
	for _, p := range append(players, spec) {
		defer p.close()
		p.expect(t, "the state", func(m *match.Message) bool { return m.Type == match.TypeState })
	}
	before := e.stateOf(id, "")
	mover := players[before.Actors[0]]
	own := e.stateOf(id, cm.Seats[mover.seat].Token)

	heal := fault()
	if err := mover.conn.Send(ctx, own.Seq, own.Legal[0]); err != nil {
		t.Fatal(err)
	}
	answer := mover.expect(t, "the answer to the move", func(m *match.Message) bool {
		return m.Type == match.TypeError || m.Type == match.TypeUpdate
	})
	if answer.Type != match.TypeError {
		t.Fatalf("a move the store could not save was acknowledged: %+v", answer)
	}
	t.Logf("the mover was told: %s: %s", answer.Error.Code, answer.Error.Message)
	for i := range 10 {
		now := e.stateOf(id, "")
		if now.Seq != before.Seq || !bytes.Equal(now.View, before.View) {
			t.Fatalf("try %d: the spectators' view shows state %d, a move the store never saved:\n%s\nwas\n%s", i, now.Seq, now.View, before.View)
		}
		time.Sleep(100 * time.Millisecond)
	}
	quiet, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	for {
		m, err := spec.recv(quiet)
		if err != nil {
			break
		}
		if m.Type == match.TypeUpdate || m.Type == match.TypeState {
			t.Fatalf("the spectators' socket was told of a move the store never saved: %+v", m)
		}
	}
	cancel()

	heal()
	waitFor(t, "the match to go on by itself, with the move", func() bool {
		sum, err := e.c.Match(ctx, id)
		return err == nil && sum.Seq == before.Seq+1
	})
	m := spec.expect(t, "the move, once stored", func(m *match.Message) bool { return m.Type == match.TypeUpdate })
	if m.Seq != before.Seq+1 {
		t.Fatalf("the spectators were told of state %d", m.Seq)
	}
	// And the match goes on: the next move is taken.
	next := e.stateOf(id, "")
	p := players[next.Actors[0]]
	mine := e.stateOf(id, cm.Seats[p.seat].Token)
	if err := p.conn.Send(ctx, mine.Seq, mine.Legal[0]); err != nil {
		t.Fatal(err)
	}
	ack := p.expect(t, "the next move's answer", func(m *match.Message) bool {
		return m.Type == match.TypeError || m.Type == match.TypeUpdate && m.Ack != nil
	})
	if ack.Type == match.TypeError {
		t.Fatalf("the match did not go on once the store wrote again: %s", ack.Error.Message)
	}
}
