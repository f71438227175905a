package jsonw

import (
	"encoding/json"
	"math"
	"testing"
)

func FuzzString(f *testing.F) {
	for _, s := range []string{"", "plain", "Zoé", "<b>&</b>", "a\"b\\c", "\x00\x1f\t\n\r\b\f", "\u2028\u2029", "\xff\xfeok", "ça \U0001F600"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := String(nil, s); string(got) != string(want) {
			t.Fatalf("String(%q) = %s, encoding/json writes %s", s, got, want)
		}
	})
}

func TestNumbersAsEncodingJSON(t *testing.T) {
	for _, f := range []float64{0, 1, -1, 0.5, 1.0 / 3, 12.25, 1e-7, -2.5e-9, 1e20, 1e21, 123456789e15, math.SmallestNonzeroFloat64, math.MaxFloat64} {
		want, _ := json.Marshal(f)
		if got := Float(nil, f); string(got) != string(want) {
			t.Errorf("Float(%v) = %s, encoding/json writes %s", f, got, want)
		}
	}
	if got := Float(nil, math.NaN()); string(got) != "null" {
		t.Errorf("Float(NaN) = %s", got)
	}
	for _, n := range []int64{0, -1, math.MaxInt64, math.MinInt64} {
		want, _ := json.Marshal(n)
		if got := Int(nil, n); string(got) != string(want) {
			t.Errorf("Int(%d) = %s", n, got)
		}
	}
	if got, want := Ints[int](nil, nil), "null"; string(got) != want {
		t.Errorf("Ints(nil) = %s", got)
	}
	if got, want := Strings(nil, []string{"a", "<"}), `["a","\u003c"]`; string(got) != want {
		t.Errorf("Strings = %s, want %s", got, want)
	}
	type p struct{ X int }
	item := func(d []byte, v *p) []byte { return append(Int(Key(append(d, '{'), "X"), v.X), '}') }
	if got, want := List(nil, []p{{1}, {2}}, item), `[{"X":1},{"X":2}]`; string(got) != want {
		t.Errorf("List = %s, want %s", got, want)
	}
	if got := List[p](nil, nil, item); string(got) != "null" {
		t.Errorf("List(nil) = %s", got)
	}
	if got := Comma([]byte("[")); string(got) != "[" {
		t.Errorf("Comma after [ = %s", got)
	}
	if got := Comma([]byte("[1")); string(got) != "[1," {
		t.Errorf("Comma after an item = %s", got)
	}
}
