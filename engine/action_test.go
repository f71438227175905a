package engine_test

import (
	"errors"
	"strings"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"

	"sortie/engine"
)

type move struct {
	Door  string   `json:"door"`
	Pay   []string `json:"pay,omitempty"`
	Extra *int     `json:"extra,omitempty"`
}

func (move) Kind() string { return "move" }

type pass struct{}

func (pass) Kind() string { return "pass" }

func decode(b string) (any, error) { return decodeBytes([]byte(b)) }

func decodeBytes(b []byte) (any, error) {
	return engine.DecodeTyped(b, func(kind string) (any, bool) {
		switch kind {
		case "move":
			return &move{}, true
		case "pass":
			return &pass{}, true
		}
		return nil, false
	})
}

// TestDecodeTyped holds what DecodeTyped accepts and the refusal it gives
// each kind of bad input, whether or not its quick reading of "type" (see
// typeOf) finds the type first.
func TestDecodeTyped(t *testing.T) {
	good := []struct {
		in   string
		want move
	}{
		{`{"type":"move","door":"d07","pay":["file","joker"]}`, move{Door: "d07", Pay: []string{"file", "joker"}}},
		{` { "door" : "d1" , "type" : "move" } `, move{Door: "d1"}},
		{`{"pay":["a\"}","{["],"type":"move","door":"x"}`, move{Door: "x", Pay: []string{`a"}`, "{["}}},
		{`{"type":"mo\u0076e","door":"esc"}`, move{Door: "esc"}}, // an escaped type: read in full
	}
	for _, c := range good {
		v, err := decode(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		m, ok := v.(*move)
		if !ok || m.Door != c.want.Door || strings.Join(m.Pay, "|") != strings.Join(c.want.Pay, "|") {
			t.Errorf("%s: got %#v, want %#v", c.in, v, c.want)
		}
	}
	if v, err := decode(`{"type":"pass"}`); err != nil {
		t.Errorf("pass: %v", err)
	} else if _, ok := v.(*pass); !ok {
		t.Errorf("pass: got %T", v)
	}

	bad := []struct{ in, says string }{
		{`{"type":"move","door":"d1"`, "not a valid JSON object"},
		{`{"type":"move","door":"d1"}}`, "not a valid JSON object"},
		{`{"type":"move","door":"d1",}`, "not a valid JSON object"},
		{`{"type":"fly","door":}`, "not a valid JSON object"},
		{`[1]`, "not a valid JSON object"},
		{``, "not a valid JSON object"},
		{`{"door":"d1"}`, `no "type" field`},
		{`{"type":3}`, `"type" is not a string`},
		{`{"type":"fly"}`, `no action of type "fly"`},
		{`{"type":"move","type":"pass"}`, "not a valid JSON object"},
		{`{"type":"move","door":"d1","TYPE":"pass"}`, "move action is malformed"},
		{`{"type":"move","door":"d1","Door":"d2"}`, "move action is malformed"},
		{`{"type":"move","door":"d1","bogus":1}`, "move action is malformed"},
		{`{"type":"move","door":7}`, "move action is malformed"},
		{`{"extra":-1.5e3,"type":"move","door":"x"}`, "move action is malformed"}, // extra is an int
		{"{\"type\":\"move\",\"door\":\"\xff\"}", "not a valid JSON object"},
	}
	for _, c := range bad {
		v, err := decode(c.in)
		var re *engine.RuleError
		if err == nil || !errors.As(err, &re) || re.Code != engine.CodeMalformed {
			t.Errorf("%q: got %v, %v; want a malformed refusal", c.in, v, err)
			continue
		}
		if !strings.Contains(err.Error(), c.says) {
			t.Errorf("%q: %q does not say %q", c.in, err, c.says)
		}
	}
}

// FuzzDecodeTyped checks that whatever DecodeTyped accepts has the type it
// is decoded as, read by the full decoder.
func FuzzDecodeTyped(f *testing.F) {
	for _, s := range []string{`{"type":"move","door":"d07","pay":["file"]}`, `{"type":"pass"}`, `{"pay":["\"type\":\"pass\""],"type":"move","door":""}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := decodeBytes(b)
		if err != nil {
			return
		}
		var head struct {
			Type string `json:"type"`
		}
		if err := jsonv2.Unmarshal(b, &head); err != nil {
			t.Fatalf("accepted %q, which is not JSON: %v", b, err)
		}
		if got := v.(engine.Kinded).Kind(); got != head.Type {
			t.Fatalf("%q decoded as %s, its type is %q", b, got, head.Type)
		}
	})
}

func BenchmarkDecodeTyped(b *testing.B) {
	in := []byte(`{"type":"move","door":"d07","pay":["file","joker"]}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodeBytes(in); err != nil {
			b.Fatal(err)
		}
	}
}
