package main

import (
	"encoding/json"
	"testing"

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
		`{"type":"error","re":17,"error":{"code":"stale_seq","message":"…"}}`,
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
}
