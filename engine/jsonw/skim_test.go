package jsonw

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzSkipValue checks the skimming against the decoder: for any valid JSON
// value followed by a comma, SkipValue ends just before the comma; for a
// cut one it never reads past the end.
func FuzzSkipValue(f *testing.F) {
	for _, s := range []string{`"a"`, `"a\"b\\"`, `12.5e3`, `true`, `null`, `{"a":[1,{"b":"}"}],"c":"\\\\"}`, `[ 1 , "x" ]`, `"` + string(bytes.Repeat([]byte(`ab\"`), 20)) + `"`, `{"a":"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		end := SkipValue(b, 0) // never panics, whatever b is
		if end > len(b) {
			t.Fatalf("SkipValue(%q) = %d, past the end", b, end)
		}
		if !json.Valid(b) {
			return
		}
		v := bytes.TrimSpace(b)
		in := append(append([]byte{}, v...), ',')
		if got := SkipValue(in, 0); got != len(v) {
			t.Fatalf("SkipValue(%q) = %d, want %d", in, got, len(v))
		}
		if got := SkipValue(v[:len(v)-1], 0); v[0] == '"' || v[0] == '{' || v[0] == '[' {
			if got != -1 {
				t.Fatalf("SkipValue(%q), cut, = %d, want -1", v[:len(v)-1], got)
			}
		}
	})
}

func TestSkipSpace(t *testing.T) {
	if got := SkipSpace([]byte(" \t\r\n x"), 0); got != 5 {
		t.Errorf("SkipSpace = %d, want 5", got)
	}
	if got := SkipSpace([]byte("  "), 1); got != 2 {
		t.Errorf("SkipSpace at the end = %d, want 2", got)
	}
}
