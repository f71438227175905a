package temple

import (
	"reflect"
	"testing"

	"sortie/engine"
)

// A match is rated as co-op in the variant its options make: no sides
// before the end, then one side of every seat, rank 1 when everyone got
// out (R18's escape), rank 2 when the temple collapsed on one of them.
func TestRatedResult(t *testing.T) {
	s := atExit(t)
	want := engine.Result{Family: engine.Coop, Key: "difficulty=normal"}
	if r, over := s.RatedResult(); over || !reflect.DeepEqual(r, want) {
		t.Fatalf("before the end: %+v, %v", r, over)
	}
	apply(t, s, frank, Escape{Dice: []int{5, 6, 7}, GiveTo: ip(ani)}, 100_000)
	lost := s.clone()
	s.at(t, ani, "exit")
	s.live(Key, 0, 1, 2)
	apply(t, s, ani, Escape{Dice: []int{0, 1, 2}}, 480_000)
	want.Sides = []engine.Side{{Role: "team", Seats: []engine.Seat{0, 1}, Rank: 1}}
	if r, over := s.RatedResult(); !over || !reflect.DeepEqual(r, want) {
		t.Fatalf("everyone escaped: %+v, %v", r, over)
	}
	lost.at(t, ani, "start")
	lost.Advance(600_000)
	want.Sides[0].Rank = 2
	if r, over := lost.RatedResult(); !over || !reflect.DeepEqual(r, want) {
		t.Fatalf("the temple collapsed: %+v, %v", r, over)
	}
}

// The key names what changes the team's chances, and nothing else.
func TestRatedKey(t *testing.T) {
	for _, c := range []struct {
		opts []string
		want string
	}{
		{nil, "difficulty=normal"},
		{[]string{OptTrack, "track_2"}, "difficulty=normal"},
		{[]string{OptSandMs, "100000"}, "difficulty=normal"},
		{[]string{OptDifficulty, "expert", OptCurses, "true"}, "difficulty=expert,curses=true"},
		{[]string{OptTreasures, "true", OptCurses, "true"}, "difficulty=normal,curses=true,treasures=true"},
		{[]string{OptTimer, "sand", OptSandMs, "100000"}, "difficulty=normal,timer=sand,sand_ms=100000"},
		{[]string{OptTimer, "none"}, "difficulty=normal,timer=none"},
		{[]string{OptCooldown, "2000", OptDifficulty, "advanced"}, "difficulty=advanced,roll_cooldown_ms=2000"},
	} {
		r, _ := newGame(t, 3, 1, c.opts...).RatedResult()
		if r.Key != c.want || r.Family != engine.Coop {
			t.Errorf("options %v: %s %q, want coop %q", c.opts, r.Family, r.Key, c.want)
		}
	}
}
