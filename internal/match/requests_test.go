package match_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"sortie/internal/match"
)

// A socket reads the acknowledgement of its seat's action off the update
// as the match encodes it, and can put one on a state (sent after its
// update was missed): the state then reads as it was, with "ack".
func TestAckOfAndWithAck(t *testing.T) {
	ctx := context.Background()
	m := newManager(t, openStore(t), 0)
	x := startMatch(t, m, match.CreateRequest{Game: "testcards", Players: 2, MoveLimitMs: new(int64(0))})
	s := snapshot(t, x, 0).Actors[0]
	other := 1 - s
	mine, err := x.Watch(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Unwatch(mine)
	theirs, err := x.Watch(ctx, other)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Unwatch(theirs)
	before := snapshot(t, x, s)
	if err := x.Act(ctx, s, before.Seq, before.Legal[0]); err != nil {
		t.Fatal(err)
	}
	update := func(w *match.Watch) []byte {
		for _, msg := range w.Sub.Take(nil) {
			if msg.Seq == before.Seq+1 {
				return msg.Data
			}
		}
		t.Fatalf("seat %d got no update %d", w.Seat, before.Seq+1)
		return nil
	}
	if ack, ok := match.AckOf(update(mine)); !ok || ack != before.Seq {
		t.Fatalf("the acting seat's update: ack %d %v, want %d", ack, ok, before.Seq)
	}
	if ack, ok := match.AckOf(update(theirs)); ok {
		t.Fatalf("the other seat's update reads as acknowledging %d", ack)
	}
	state, err := x.Snapshot(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := match.AckOf(state); ok {
		t.Fatal("a state reads as an update with ack")
	}
	var plain, acked match.Message
	if err := json.Unmarshal(state, &plain); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(match.WithAck(state, before.Seq), &acked); err != nil {
		t.Fatalf("a state with ack: %v", err)
	}
	if acked.Ack == nil || *acked.Ack != before.Seq {
		t.Fatalf("the state's ack: %v, want %d", acked.Ack, before.Seq)
	}
	acked.Ack = nil
	if !reflect.DeepEqual(plain, acked) {
		t.Fatal("the state with ack differs from the state otherwise")
	}
	if got := match.WithAck([]byte(`{"type":"update","seq":3}`), 2); string(got) != `{"type":"update","seq":3}` {
		t.Fatalf("WithAck changed an update: %s", got)
	}
}
