package room25

import (
	"reflect"
	"testing"

	"sortie/engine"
)

func seats(ps ...engine.Seat) []engine.Seat { return ps }

// Each mode is rated in its family, and its end gives the sides the
// outcome names (§5): co-op, Prisoners and Guards, teams, every seat for
// itself.
func TestRatedResult(t *testing.T) {
	for _, c := range []struct {
		name  string
		mode  string
		seats int
		setup func(f *fixture)
		end   func(s *State)
		want  engine.Result
	}{
		{
			"cooperation, partial victory", "cooperation", 3, nil,
			func(s *State) { s.deaths = append(s.deaths, Geek); s.escape(Scientist) },
			engine.Result{Family: engine.Coop, Key: "mode=cooperation", Sides: []engine.Side{{Role: "team", Seats: seats(0, 1, 2), Rank: 1}}},
		},
		{
			"solo, countdown", "solo", 1, nil,
			func(s *State) { s.endOfCountdown() },
			engine.Result{Family: engine.Coop, Key: "mode=solo", Sides: []engine.Side{{Role: "team", Seats: seats(0), Rank: 2}}},
		},
		{
			"suspicion, the Prisoners escape", "suspicion", 5,
			func(f *fixture) { f.s.role = [maxSeats]Role{Prisoner, Guard, Prisoner, Guard, Prisoner} },
			func(s *State) { s.escape(Scientist) },
			engine.Result{Family: engine.Team, Key: "mode=suspicion", Sides: []engine.Side{
				{Role: "prisoners", Seats: seats(0, 2, 4), Rank: 1}, {Role: "guards", Seats: seats(1, 3), Rank: 2}}},
		},
		{
			"suspicion, the Guard wins", "suspicion", 4,
			func(f *fixture) { f.s.role = [maxSeats]Role{Prisoner, Prisoner, Guard, Prisoner} },
			func(s *State) { s.endOfCountdown() },
			engine.Result{Family: engine.Team, Key: "mode=suspicion", Sides: []engine.Side{
				{Role: "prisoners", Seats: seats(0, 1, 3), Rank: 2}, {Role: "guards", Seats: seats(2), Rank: 1}}},
		},
		{
			"suspicion without a Guard: the Prisoners alone lose (D35)", "suspicion", 4,
			func(f *fixture) { f.s.role = [maxSeats]Role{Prisoner, Prisoner, Prisoner, Prisoner} },
			func(s *State) { s.endOfCountdown() },
			engine.Result{Family: engine.Team, Key: "mode=suspicion", Sides: []engine.Side{{Role: "prisoners", Seats: seats(0, 1, 2, 3), Rank: 2}}},
		},
		{
			"team, team B escapes", "team", 4, nil,
			func(s *State) { s.escape(Handsome) }, // seat 1's character
			engine.Result{Family: engine.Team, Key: "mode=team", Sides: []engine.Side{
				{Role: "team_a", Seats: seats(0, 2), Rank: 2}, {Role: "team_b", Seats: seats(1, 3), Rank: 1}}},
		},
		{
			"team, nobody on Room 25 at the countdown: a draw", "team", 6, nil,
			func(s *State) { s.endOfCountdown() },
			engine.Result{Family: engine.Team, Key: "mode=team", Sides: []engine.Side{
				{Role: "team_a", Seats: seats(0, 2, 4), Rank: 1}, {Role: "team_b", Seats: seats(1, 3, 5), Rank: 1}}},
		},
		{
			"competition, seat 1 escapes", "competition", 3, nil,
			func(s *State) { s.escape(duoAssign[1][0]) },
			engine.Result{Family: engine.FreeForAll, Key: "mode=competition", Sides: []engine.Side{
				{Seats: seats(0), Rank: 2}, {Seats: seats(1), Rank: 1}, {Seats: seats(2), Rank: 2}}},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, c.mode, c.seats)
			if c.setup != nil {
				c.setup(f)
			}
			before, over := f.s.RatedResult()
			if over || before.Sides != nil || before.Family != c.want.Family || before.Key != c.want.Key {
				t.Fatalf("before the end: %+v, %v", before, over)
			}
			c.end(f.s)
			got, over := f.s.RatedResult()
			if !over || !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %s, %v\nwant %s", js(got), over, js(c.want))
			}
		})
	}
}

// The key names the mode, a room set other than the mode's own, a custom
// set's rooms, and beacons off; the team chat is not part of it.
func TestRatedKey(t *testing.T) {
	custom := "empty:4,vision:1,control_room:1,mobile:1,twin:2,vortex:1,prison:2,cold:2,dark:2,trapped:2,deadly:1,illusion:1,flooded:1,acid:2"
	for _, c := range []struct {
		players int
		opts    map[string]string
		want    string
	}{
		{1, nil, "mode=solo"},
		{2, nil, "mode=cooperation"},
		{2, map[string]string{optRoomSet: "beginner"}, "mode=cooperation"},
		{4, map[string]string{optMode: "team", optTeamChat: "off"}, "mode=team"},
		{5, map[string]string{optMode: "suspicion", optRoomSet: "beginner", optBeacons: "off"}, "mode=suspicion,room_set=beginner,beacons=off"},
		{2, map[string]string{optRoomSet: "custom", optCustom: custom}, "mode=cooperation,room_set=custom,custom_rooms=empty:4+vision:1+control_room:1+mobile:1+twin:2+vortex:1+prison:2+cold:2+dark:2+trapped:2+deadly:1+illusion:1+flooded:1+acid:2"},
	} {
		st, err := Game{}.New(engine.Setup{Players: c.players, Options: c.opts, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if r, _ := st.(*State).RatedResult(); r.Key != c.want {
			t.Errorf("%d players, %v: key %q, want %q", c.players, c.opts, r.Key, c.want)
		}
	}
}
