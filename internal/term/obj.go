package term

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
)

// obj is an event or an action as the client receives it: a JSON object
// with a "type". Boards read its fields as the web page's modules read
// theirs (ev.seat, ev.cards); a missing field reads as the zero value.
type obj struct {
	raw  json.RawMessage
	m    map[string]json.RawMessage
	keys []string // in the order of the JSON, for the generic sentences
}

func newObj(raw json.RawMessage) obj {
	o := obj{raw: raw, m: map[string]json.RawMessage{}}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return o
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return o
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return o
		}
		ks, _ := k.(string)
		if _, dup := o.m[ks]; !dup {
			o.keys = append(o.keys, ks)
		}
		o.m[ks] = v
	}
	return o
}

func objs(raws []json.RawMessage) []obj {
	out := make([]obj, len(raws))
	for i, r := range raws {
		out[i] = newObj(r)
	}
	return out
}

// typ is the object's "type".
func (o obj) typ() string { return o.str("type") }

// has says whether field k is present and not null.
func (o obj) has(k string) bool {
	v, ok := o.m[k]
	return ok && string(v) != "null"
}

func (o obj) str(k string) string {
	var s string
	_ = json.Unmarshal(o.m[k], &s)
	return s
}

func (o obj) num(k string) int {
	var f float64
	_ = json.Unmarshal(o.m[k], &f)
	return int(f)
}

func (o obj) float(k string) float64 {
	var f float64
	_ = json.Unmarshal(o.m[k], &f)
	return f
}

func (o obj) boolean(k string) bool {
	var b bool
	_ = json.Unmarshal(o.m[k], &b)
	return b
}

func (o obj) nums(k string) []int {
	var fs []float64
	_ = json.Unmarshal(o.m[k], &fs)
	out := make([]int, len(fs))
	for i, f := range fs {
		out[i] = int(f)
	}
	return out
}

func (o obj) strs(k string) []string {
	var ss []string
	_ = json.Unmarshal(o.m[k], &ss)
	return ss
}

func (o obj) sub(k string) obj { return newObj(o.m[k]) }

func (o obj) subs(k string) []obj {
	var raws []json.RawMessage
	_ = json.Unmarshal(o.m[k], &raws)
	return objs(raws)
}

// canon writes a JSON value with sorted keys, leaving out null, false and
// empty lists, as the web page's canon does: two actions are the same when
// their canonical forms are.
func canon(raw json.RawMessage) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return string(raw)
	}
	var b strings.Builder
	canonValue(&b, v)
	return b.String()
}

func canonValue(b *strings.Builder, v any) {
	switch x := v.(type) {
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			canonValue(b, e)
		}
		b.WriteByte(']')
	case map[string]any:
		var keys []string
		for k, e := range x {
			if e == nil || e == false {
				continue
			}
			if l, ok := e.([]any); ok && len(l) == 0 {
				continue
			}
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteByte(':')
			canonValue(b, x[k])
		}
		b.WriteByte('}')
	default:
		e, _ := json.Marshal(x)
		b.Write(e)
	}
}
