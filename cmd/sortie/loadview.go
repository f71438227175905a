package main

import (
	"encoding/json"
	"reflect"
	"strings"

	"sortie/engine"
)

// A seat's view, kept from the messages of its socket and decoded into the
// game's own view type for its bot or composer. A whole view replaces it; a
// patch replaces the members it holds and drops those it names (a shallow
// merge, docs/api.md). Decoding the whole view for every decision was half
// of the load clients' CPU in Temple: only the members changed since the
// last decoding are decoded again, each into a zeroed field.

// viewKind is the game's view type, learnt once per run.
type viewKind struct {
	typ    reflect.Type   // the struct type
	ptr    bool           // the game hands out pointers to it
	fields map[string]int // field index by JSON name; nil: decode whole views
}

// newViewKind learns the view type of game g.
func newViewKind(g engine.Game, players int) (*viewKind, error) {
	st, err := g.New(engine.Setup{Players: players, Seed: 1})
	if err != nil {
		return nil, err
	}
	t := reflect.TypeOf(st.View(0))
	vk := &viewKind{typ: t}
	if vk.ptr = t.Kind() == reflect.Pointer; vk.ptr {
		vk.typ = t.Elem()
	}
	unmarshaler := reflect.TypeFor[json.Unmarshaler]()
	if vk.typ.Kind() != reflect.Struct || vk.typ.Implements(unmarshaler) || reflect.PointerTo(vk.typ).Implements(unmarshaler) {
		return vk, nil
	}
	fields := map[string]int{}
	for i := range vk.typ.NumField() {
		f := vk.typ.Field(i)
		if f.Anonymous {
			return vk, nil // promoted fields: leave them to encoding/json
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-" || !f.IsExported():
			continue
		case name == "":
			name = f.Name
		}
		fields[name] = i
	}
	vk.fields = fields
	return vk, nil
}

// seatView is one seat's view.
type seatView struct {
	kind    *viewKind
	members map[string]json.RawMessage // the view's members, raw
	changed map[string]bool            // members changed or dropped since the last decoding
	val     reflect.Value              // the decoded view: a pointer to the struct
	buf     []byte
}

func (vk *viewKind) newSeatView() *seatView {
	return &seatView{kind: vk, members: map[string]json.RawMessage{}, changed: map[string]bool{}}
}

// track takes the view or patch of a message.
func (sv *seatView) track(m loadMsg) {
	if m.View != nil {
		for k := range sv.members {
			sv.changed[k] = true
		}
		clear(sv.members)
	}
	for _, part := range []json.RawMessage{m.View, m.Patch} {
		jsonMembers(part, func(k, v []byte) bool {
			sv.members[string(k)] = v
			sv.changed[string(k)] = true
			return true
		})
	}
	for _, k := range m.Drop {
		delete(sv.members, k)
		sv.changed[k] = true
	}
}

// value returns the view decoded, as the game hands it out.
func (sv *seatView) value() (engine.View, error) {
	if err := sv.decode(); err != nil {
		sv.val = reflect.Value{} // all again next time
		return nil, err
	}
	clear(sv.changed)
	if sv.kind.ptr {
		return sv.val.Interface(), nil
	}
	return sv.val.Elem().Interface(), nil
}

func (sv *seatView) decode() error {
	if sv.kind.fields == nil || !sv.val.IsValid() {
		b := append(sv.buf[:0], '{')
		for k, v := range sv.members {
			if len(b) > 1 {
				b = append(b, ',')
			}
			b = append(append(append(append(b, '"'), k...), `":`...), v...)
		}
		sv.buf = append(b, '}')
		sv.val = reflect.New(sv.kind.typ)
		return json.Unmarshal(sv.buf, sv.val.Interface())
	}
	for k := range sv.changed {
		i, ok := sv.kind.fields[k]
		if !ok {
			continue // as encoding/json ignores an unknown member
		}
		f := sv.val.Elem().Field(i)
		f.SetZero()
		if raw, ok := sv.members[k]; ok {
			if err := json.Unmarshal(raw, f.Addr().Interface()); err != nil {
				return err
			}
		}
	}
	return nil
}
