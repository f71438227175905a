package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// Table talk is kept line by line with its match, in any status, survives
// closing the file, and refuses a line out of order or for no match.
func TestChatLines(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sortie.db")
	s := open(t, path)
	if err := s.Create(ctx, newMatch("m1", time.Now())); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Chat(ctx, "m1"); err != nil || len(got) != 0 {
		t.Fatalf("a new match's chat: %q, %v", got, err)
	}
	// An open match (players waiting for the start) may talk.
	var want [][]byte
	for n := 1; n <= 3; n++ {
		line := []byte(fmt.Sprintf(`{"type":"chat","n":%d,"text":"<b>hi</b> %d"}`, n, n))
		if err := s.AppendChat(ctx, "m1", n, line); err != nil {
			t.Fatal(err)
		}
		want = append(want, line)
	}
	if err := s.AppendChat(ctx, "m1", 3, []byte(`{}`)); !errors.Is(err, ErrConflict) {
		t.Errorf("line 3 written twice: %v, want a conflict", err)
	}
	if err := s.AppendChat(ctx, "m1", 5, []byte(`{}`)); !errors.Is(err, ErrConflict) {
		t.Errorf("line 5 after line 3: %v, want a conflict", err)
	}
	if err := s.AppendChat(ctx, "nope", 1, []byte(`{}`)); !errors.Is(err, ErrConflict) {
		t.Errorf("a line of no match: %v, want a conflict", err)
	}
	seat := Seat{Kind: "human", Bot: "random", Name: "Ana", Joined: true, Left: true, TokenHash: []byte{1, 2, 3}}
	if err := s.SetSeat(ctx, "m1", 0, seat); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = open(t, path)
	got, err := s.Chat(ctx, "m1")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(got, want, func(a, b []byte) bool { return string(a) == string(b) }) {
		t.Errorf("chat after reopening: %q, want %q", got, want)
	}
	m, err := s.Get(ctx, "m1")
	if err != nil {
		t.Fatal(err)
	}
	if !m.Seats[0].Left || m.Records != 0 {
		t.Errorf("seat 0 after reopening: %+v, %d records: the chat is not the log", m.Seats[0], m.Records)
	}
}
