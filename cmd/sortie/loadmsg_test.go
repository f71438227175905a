package main

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"sortie/internal/match"
	"sortie/internal/store"
)

// The load clients' cheap reader agrees with a full decoding on the
// messages the server writes.
func TestReadLoadMsg(t *testing.T) {
	for _, raw := range []string{
		`{"type":"update","seq":12,"ack":11,"status":"running","clock":5,"actors":[1],"view":{"a":"legal"},"events":[],"legal":[{"type":"x"},{"type":"y","n":[1,2]}]}`,
		`{"type":"update","seq":13,"status":"running","clock":5,"actors":[0],"view":{"legal":[1]},"events":[{"type":"e"}]}`,
		`{"type":"state","match":"m","game":"g","seat":0,"seats":[],"seq":0,"status":"running","clock":0,"actors":[0],"view":{},"events":[],"legal":[{"type":"z"}]}`,
		`{"type":"update","seq":40,"status":"finished","clock":9,"actors":[],"view":{},"events":[],"outcome":{"winners":[0]}}`,
		`{"type":"update","seq":14,"ack":13,"status":"running","clock":7,"actors":[0,2],"patch":{"note":"a \\\"}{[ quote","legal":[]},"drop":["chain","pending"],"events":[{"type":"e","s":"]"}],"legal":[{"type":"roll","dice":[1,2]}]}`,
		`{"type":"error","re":17,"error":{"code":"stale_seq","message":"…"}}`,
		`{"type":"error","re":18,"error":{"code":"cooldown","message":"Wait.","params":{"wait_ms":350}}}`,
		`{"type":"ping"}`,
	} {
		got, err := readLoadMsg([]byte(raw))
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		var want loadMsg
		if err := json.Unmarshal([]byte(raw), &want); err != nil {
			t.Fatal(err)
		}
		if want.Type == match.TypeUpdate || want.Type == match.TypeState {
			// The view's own "legal" keys are not the offer.
			var full struct {
				Legal []json.RawMessage `json:"legal"`
			}
			json.Unmarshal([]byte(raw), &full)
			want.Legal = full.Legal
		}
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Errorf("%s:\n got %s\nwant %s", raw, g, w)
		}
	}
	if m, _ := readLoadMsg([]byte(`{"type":"update","seq":3,"status":"finished","view":{}}`)); m.Status != store.Finished {
		t.Errorf("status %q", m.Status)
	}
	for _, bad := range []string{``, `[1]`, `{"type":"update","seq":x}`, `{"type":"update"`, `{"type" "x"}`} {
		if _, err := readLoadMsg([]byte(bad)); err == nil {
			t.Errorf("%q read without an error", bad)
		}
	}
}

// A seat's view follows whole views and patches as docs/api.md says (the
// members a patch holds replace those of the view, dropped ones go), and
// decoding only the changed members gives what decoding the whole merged
// view gives.
func TestSeatViewFollowsPatches(t *testing.T) {
	type seat struct {
		Name  string `json:"name"`
		Ready bool   `json:"ready,omitempty"`
	}
	type view struct {
		Round int      `json:"round"`
		Seats []seat   `json:"seats"`
		Turn  *int     `json:"turn,omitempty"`
		Hand  []string `json:"hand,omitempty"`
		Note  string
	}
	vk := &viewKind{typ: reflect.TypeFor[view](), ptr: true,
		fields: map[string]int{"round": 0, "seats": 1, "turn": 2, "hand": 3, "Note": 4}}
	sv := vk.newSeatView()
	steps := []struct{ msg, want string }{
		{`{"type":"state","seq":0,"view":{"round":1,"seats":[{"name":"a","ready":true},{"name":"b"}],"turn":0,"hand":["x"],"Note":"n"}}`,
			`{"round":1,"seats":[{"name":"a","ready":true},{"name":"b"}],"turn":0,"hand":["x"],"Note":"n"}`},
		{`{"type":"update","seq":1,"patch":{"seats":[{"name":"a"},{"name":"b","ready":true}],"turn":1},"drop":["hand"]}`,
			`{"round":1,"seats":[{"name":"a"},{"name":"b","ready":true}],"turn":1,"Note":"n"}`},
		{`{"type":"update","seq":2,"patch":{"round":2},"drop":["turn"]}`,
			`{"round":2,"seats":[{"name":"a"},{"name":"b","ready":true}],"Note":"n"}`},
		{`{"type":"update","seq":3,"view":{"round":3,"seats":[]}}`, `{"round":3,"seats":[]}`},
	}
	for i, st := range steps {
		m, err := readLoadMsg([]byte(st.msg))
		if err != nil {
			t.Fatal(err)
		}
		sv.track(m)
		if i == 1 {
			continue // two patches, one decoding
		}
		v, err := sv.value()
		if err != nil {
			t.Fatal(err)
		}
		var want view
		if err := json.Unmarshal([]byte(st.want), &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(*v.(*view), want) {
			t.Errorf("after message %d: %+v, want %+v", i, *v.(*view), want)
		}
	}
}

// A socket keeps under the server's rate: after its burst, messages go out
// a little slower than the server lets them in, so that the server's own
// bucket (20 a second, 40 in a burst) is never emptied.
func TestAllowanceKeepsUnderTheServersRate(t *testing.T) {
	start := time.Unix(1000, 0)
	a := newAllowance(20, start)
	server := 40.0 // the server's bucket, refilled at 20 a second
	now, sent := start, 0
	for now.Before(start.Add(30 * time.Second)) {
		if w := a.wait(now); w > 0 {
			server = min(40, server+w.Seconds()*20)
			now = now.Add(w)
			continue
		}
		a.take(now)
		sent++
		if server--; server < 0 {
			t.Fatalf("the server's bucket ran dry after %d messages", sent)
		}
	}
	if rate := float64(sent) / 30; rate < 18 || rate > 20 {
		t.Errorf("%.1f messages a second", rate)
	}
}
