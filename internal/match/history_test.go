package match_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"sortie/engine"
	"sortie/internal/match"
)

// The history of a state message is bounded: a longer match gives its
// newest entries, the last record included, oldest first.
func TestHistoryIsBounded(t *testing.T) {
	const limit = 5
	defer match.SetHistoryLimit(limit)()
	ctx := context.Background()
	m := newManager(t, openStore(t), time.Minute)
	x := startMatch(t, m, match.CreateRequest{Game: "testcards", Players: 2})
	// The seats play their first legal action until the match is over.
	for range 100 {
		st := snapshot(t, x, engine.Spectator)
		if st.Status != "running" {
			break
		}
		s := st.Actors[0]
		if err := x.Act(ctx, s, st.Seq, snapshot(t, x, s).Legal[0]); err != nil {
			t.Fatal(err)
		}
	}
	st := snapshot(t, x, engine.Spectator)
	if st.Seq <= limit || len(st.History) != limit {
		t.Fatalf("%d history entries after %d records, want %d", len(st.History), st.Seq, limit)
	}
	var first, last struct {
		Seq uint64 `json:"seq"`
	}
	_ = json.Unmarshal(st.History[0], &first)
	_ = json.Unmarshal(st.History[limit-1], &last)
	if last.Seq != st.Seq || first.Seq != st.Seq-limit+1 {
		t.Fatalf("the history runs from record %d to %d of %d", first.Seq, last.Seq, st.Seq)
	}
}
