package room25

import (
	"strings"
	"testing"

	"sortie/engine"
)

// exampleCustom is a legal "choose your rooms" set (D3): 23 rooms, one
// Vision, nothing above the box.
const exampleCustom = "empty:4,vision:1,control_room:1,mobile:1,twin:2,vortex:1,prison:2,cold:2,dark:2,trapped:2,deadly:1,illusion:1,flooded:1,acid:2"

// Given room_set=custom and a legal list, when the match is set up, then the
// complex holds exactly those rooms plus the Central Room and Room 25, and
// every seat's view shows the list.
func TestCustomRoomSet(t *testing.T) {
	st, err := Game{}.New(engine.Setup{Players: 2, Seed: 3, Options: map[string]string{optRoomSet: "custom", optCustom: exampleCustom}})
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	var count [numRooms]int
	for t := range numTiles {
		count[s.room[t]]++
	}
	want, _ := customRooms(exampleCustom)
	var wantCount [numRooms]int
	for _, r := range want {
		wantCount[r]++
	}
	if count != wantCount {
		t.Fatalf("the complex holds %v, the list says %v", count, wantCount)
	}
	v := s.View(0).(View)
	if v.RoomSet != "custom" || v.CustomRooms["twin"] != 2 || v.CustomRooms["vision"] != 1 {
		t.Fatalf("the view shows set %q with %v", v.RoomSet, v.CustomRooms)
	}
}

// Every rule of D3 refuses a bad list with a sentence that names the rule.
func TestCustomRoomSetIsChecked(t *testing.T) {
	for _, c := range []struct{ set, rooms, want string }{
		{"custom", "", "needs custom_rooms"},
		{"beginner", exampleCustom, "only read with room_set=custom"},
		{"custom", "empty:23", "box has 8"},
		{"custom", strings.Replace(exampleCustom, "empty:4", "empty:3", 1), "exactly 23 rooms"},
		{"custom", strings.Replace(exampleCustom, "vision:1,control_room:1", "control_room:1,empty:1", 1), "one Vision"},
		{"custom", exampleCustom + ",room25:1", "leave out Room 25"},
		{"custom", "empty=4", "id:count"},
		{"custom", "kitchen:1", "no room"},
	} {
		_, err := Game{}.New(engine.Setup{Players: 2, Options: map[string]string{optRoomSet: c.set, optCustom: c.rooms}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("room_set=%s custom_rooms=%q: got %v, want an error about %q", c.set, c.rooms, err, c.want)
		}
	}
}
