package match_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"sortie/engine"
	"sortie/internal/bus"
	"sortie/internal/match"
	"sortie/internal/store"
)

// A match that starts by itself waits for every player on its page: the
// host joined from the lobby and is still there, the friend opens the
// invite and connects; nothing starts and no clock runs until the host
// opens the match too. A spectator or a player who came and went does not
// count as here.
func TestAutoStartWaitsForEveryPlayerHere(t *testing.T) {
	ctx := context.Background()
	m := newManager(t, openStore(t), time.Minute)
	c, err := m.Create(ctx, match.CreateRequest{Game: "testcards", Players: 2, AutoStart: true})
	if err != nil {
		t.Fatal(err)
	}
	x, err := m.Get(ctx, c.Match.ID)
	if err != nil {
		t.Fatal(err)
	}
	status := func() store.Status {
		t.Helper()
		s, err := x.Summary(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return s.Status
	}
	stillOpen := func(when string) {
		t.Helper()
		time.Sleep(30 * time.Millisecond) // (a start would have landed by now: the store answers at once)
		s, err := x.Summary(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if s.Status != store.Open || s.Clock != 0 {
			t.Fatalf("%s: the match is %s at clock %d, want open at 0", when, s.Status, s.Clock)
		}
	}

	// The host's seat is joined from the lobby: no socket.
	if _, err := x.Join(ctx, 0, match.Joiner{Name: "Hana"}); err != nil {
		t.Fatal(err)
	}
	stillOpen("the host joined from the lobby")
	// A spectator watches: nobody's seat.
	spec, err := x.Watch(ctx, engine.Spectator)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Unwatch(spec)
	// The friend joins by the invite and opens the page.
	if _, err := x.Join(ctx, 1, match.Joiner{Name: "Gus"}); err != nil {
		t.Fatal(err)
	}
	stillOpen("every seat joined, the host not on the page")
	gus, err := x.Watch(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { x.Unwatch(gus) }()
	stillOpen("the friend on the page, the host in the lobby")
	// The friend's page told who is here.
	sum, _ := x.Summary(ctx)
	if !sum.Seats[1].Connected || sum.Seats[0].Connected {
		t.Fatalf("connected seats: %+v", sum.Seats)
	}
	// The host opens the page and leaves it before the friend is back.
	hana, err := x.Watch(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if s := status(); s != store.Running {
		t.Fatalf("with both players on the page the match is %s", s)
	}
	// The host's connection hears the start after its snapshot, from its
	// subscription: an open snapshot, then the running state.
	var first match.Message
	if err := json.Unmarshal(hana.State, &first); err != nil {
		t.Fatal(err)
	}
	if first.Status != store.Open {
		t.Errorf("the connection that completed the table got a snapshot %q, want open (the start follows)", first.Status)
	}
	if !heard(t, hana.Sub, store.Running) || !heard(t, gus.Sub, store.Running) {
		t.Error("a player's connection did not hear the start")
	}
	x.Unwatch(hana)
}

// A player who came and went before the table was complete is not here.
func TestAutoStartForgetsWhoLeft(t *testing.T) {
	ctx := context.Background()
	m := newManager(t, openStore(t), time.Minute)
	c, err := m.Create(ctx, match.CreateRequest{Game: "testcards", Players: 2, AutoStart: true})
	if err != nil {
		t.Fatal(err)
	}
	x, _ := m.Get(ctx, c.Match.ID)
	for s, name := range []string{"Hana", "Gus"} {
		if _, err := x.Join(ctx, engine.Seat(s), match.Joiner{Name: name}); err != nil {
			t.Fatal(err)
		}
	}
	w, err := x.Watch(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	x.Unwatch(w) // the host closed the page
	w1, err := x.Watch(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Unwatch(w1)
	time.Sleep(30 * time.Millisecond)
	if s, _ := x.Summary(ctx); s.Status != store.Open {
		t.Fatalf("the match started with the host gone: %s", s.Status)
	}
	// The host may still start it by hand.
	if _, err := x.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if s, _ := x.Summary(ctx); s.Status != store.Running {
		t.Fatalf("started by hand: %s", s.Status)
	}
}

// heard reports whether sub brings a state message of status want within a
// few seconds.
func heard(t *testing.T, sub *bus.Subscription, want store.Status) bool {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	var got []bus.Message
	for time.Now().Before(deadline) {
		got = sub.Take(got[:0])
		for _, b := range got {
			var m match.Message
			if json.Unmarshal(b.Data, &m) == nil && m.Type == match.TypeState && m.Status == want {
				return true
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}
