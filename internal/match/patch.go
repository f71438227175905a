package match

import (
	"hash/maphash"
	"slices"

	"sortie/engine/jsonw"
)

// viewMemo is what one audience was last sent of its view, member by member
// (the view's top-level keys and a hash of each value), so that the next
// update may carry only the members that changed: a patch. The client
// applies it to the view it holds — the one of the state just before — by
// replacing the members the patch holds and removing those listed in
// "drop".
//
// The memo always describes the view of state seq for its audience. It is
// only kept while the audience listens: a state published while nobody of
// the audience listened breaks the chain, and the next update sends the
// whole view again. A subscriber holds the view of the state before each
// update it gets, because it got either the snapshot of that state or every
// update since one, in order (the bus ends subscriptions that miss one).
type viewMemo struct {
	seq  uint64
	keys []string
	// spare is the room of the keys before, where the next keys go
	// when they differ.
	spare []string
	sums  []uint64
	lens  []int // of each member's value, so that an unchanged one is found without reading it through
	// room is where the last patch was written; the next one is written
	// there again, since a patch is copied into its message at once.
	room []byte
}

// viewSeed hashes view members; hashes never leave the process.
var viewSeed = maphash.MakeSeed()

// patch compares view, the JSON object of state seq, with the memo of state
// seq-1 and returns the members that changed as a JSON object, and the keys
// that disappeared as a JSON array (nil when none). ok is false when the
// whole view should be sent instead: no memo of the state before, a view
// that is not an object, or a patch hardly smaller than the view. The memo
// describes view afterwards in every case. The patch is only good until the
// next call (it is written in the memo's room).
func (m *viewMemo) patch(view []byte, seq uint64) (patch, drop []byte, ok bool) {
	var buf [48]member
	ms, split := appendMembers(buf[:0], view, m)
	chained := split && m.keys != nil && m.seq+1 == seq
	m.seq = seq
	if !split {
		m.keys, m.sums = nil, nil
		return nil, nil, false
	}
	sameKeys := len(ms) == len(m.keys)
	for k := 0; sameKeys && k < len(ms); k++ {
		sameKeys = string(ms[k].key) == m.keys[k]
	}
	if chained {
		var seen []bool
		if !sameKeys {
			seen = make([]bool, len(m.keys))
		}
		patch = append(m.room[:0], '{')
		for k, mb := range ms {
			j := k
			if !sameKeys {
				j = slices.Index(m.keys, string(mb.key))
				if j >= 0 {
					seen[j] = true
				}
			}
			if j < 0 || m.sums[j] != mb.sum {
				if len(patch) > 1 {
					patch = append(patch, ',')
				}
				patch = append(patch, mb.raw...)
			}
		}
		patch = append(patch, '}')
		for j, was := range seen {
			if was {
				continue
			}
			if drop == nil {
				drop = append(make([]byte, 0, 32), '[')
			} else {
				drop = append(drop, ',')
			}
			drop = append(append(append(drop, '"'), m.keys[j]...), '"')
		}
		if drop != nil {
			drop = append(drop, ']')
		}
		if cap(patch) <= maxKeptView {
			m.room = patch[:0]
		}
	}
	if !sameKeys {
		// Members come and go (what a seat must answer, a pending
		// choice): the keys kept are those of the view before, and
		// mostly the same strings.
		keys := m.spare[:0]
		for _, mb := range ms {
			if j := slices.Index(m.keys, string(mb.key)); j >= 0 {
				keys = append(keys, m.keys[j])
			} else {
				keys = append(keys, string(mb.key))
			}
		}
		m.keys, m.spare = keys, m.keys[:0]
	}
	m.sums = slices.Grow(m.sums[:0], len(ms))[:len(ms)]
	m.lens = slices.Grow(m.lens[:0], len(ms))[:len(ms)]
	for k, mb := range ms {
		m.sums[k] = mb.sum
		m.lens[k] = len(mb.raw) - len(mb.key) - 3 // "key":
	}
	if !chained || len(patch)+len(drop) >= len(view)*3/4 {
		return nil, nil, false
	}
	return patch, drop, true
}

// member is one top-level member of a JSON object: its key (without quotes,
// still escaped as written), the member as written ("key":value), and a
// hash of its value.
type member struct {
	key, raw []byte
	sum      uint64
}

// appendMembers appends the top-level members of the JSON object b to dst.
// It reports false if b is not an object it could split; b is JSON that
// encoding/json wrote, so it is valid and has no white space.
//
// With the memo of the view before (the keys, lengths and hashes of its
// members), a member that did not change is found without reading it
// through: where the next member of the memo should start, the same key
// followed by a value of the same length and hash that ends where a member
// ends is that member unchanged (a complete JSON value cannot be followed
// by more of itself: a number is followed by a digit, anything else ends
// with its closing byte). Other members are read through.
func appendMembers(dst []member, b []byte, before *viewMemo) ([]member, bool) {
	if len(b) < 2 || b[0] != '{' || b[len(b)-1] != '}' {
		return dst, false
	}
	next := 0 // the member of the memo expected next
	for i := 1; i < len(b)-1; {
		if b[i] != '"' {
			return dst, false
		}
		if mb, ok := before.same(b, i, next); ok {
			dst = append(dst, mb)
			i += len(mb.raw)
			next++
		} else {
			end := jsonw.SkipString(b, i)
			if end < 0 || end >= len(b) || b[end] != ':' {
				return dst, false
			}
			vend := jsonw.SkipValue(b, end+1)
			if vend < 0 || vend > len(b)-1 {
				return dst, false
			}
			key := b[i+1 : end-1]
			dst = append(dst, member{key: key, raw: b[i:vend], sum: maphash.Bytes(viewSeed, b[end+1:vend])})
			i = vend
			if before != nil {
				next = slices.Index(before.keys, string(key)) + 1 // 0 when the key is new
			}
		}
		switch {
		case b[i] == ',':
			i++
		case i != len(b)-1:
			return dst, false
		}
	}
	return dst, true
}

// same reports whether member k of the memo stands unchanged at b[i:].
func (m *viewMemo) same(b []byte, i, k int) (member, bool) {
	if m == nil || k >= len(m.keys) || k >= len(m.lens) {
		return member{}, false
	}
	key := m.keys[k]
	v := i + len(key) + 3 // past "key":
	end := v + m.lens[k]
	if end >= len(b) || b[v-1] != ':' || b[v-2] != '"' || string(b[i+1:v-2]) != key || (b[end] != ',' && b[end] != '}') {
		return member{}, false
	}
	sum := maphash.Bytes(viewSeed, b[v:end])
	if sum != m.sums[k] {
		return member{}, false
	}
	return member{key: b[i+1 : v-2], raw: b[i:end], sum: sum}, true
}
