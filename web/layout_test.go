package web_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"testing"

	"sortie/games/evades"
)

var updateLayout = flag.Bool("update-layout", false, "rewrite web/games/evades.layout.json from evades.BoardLayout()")

// TestEvadesLayout checks that the board drawing data the client loads is the
// game's own table (evades.BoardLayout), so that the drawing never drifts
// from the rules. Rewrite it with -update-layout.
func TestEvadesLayout(t *testing.T) {
	want, err := json.MarshalIndent(evades.BoardLayout(), "", " ")
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, '\n')
	const path = "games/evades.layout.json"
	if *updateLayout {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs from evades.BoardLayout(); run go test ./web -run TestEvadesLayout -update-layout", path)
	}
}
