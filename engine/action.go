package engine

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"sortie/engine/jsonw"
)

// Action is one move of one seat: a small struct of the game's own. Its JSON
// form, made by [MarshalTyped], is an object whose "type" field is Kind()
// followed by the struct's own fields. Two actions are the same action when
// their JSON forms are equal.
type Action interface {
	Kind() string
}

// EventBody is the content of an [Event]: a small struct of the game's own
// whose JSON form, made by [MarshalTyped], has a "type" field equal to Kind().
type EventBody interface {
	Kind() string
}

// Event is something that happened, told to those who may know it. A game
// that must tell one seat more than the others emits two events: the full one
// to [Only] that seat and a redacted one to [AllBut] it.
type Event struct {
	To   Audience
	Body EventBody
}

// MarshalJSON encodes the body with its "type"; the audience stays on the
// server.
func (e Event) MarshalJSON() ([]byte, error) { return MarshalTyped(e.Body) }

// Tell returns a public event.
func Tell(b EventBody) Event { return Event{Body: b} }

// TellOnly returns an event that only the given seats see.
func TellOnly(b EventBody, seats ...Seat) Event { return Event{To: Only(seats...), Body: b} }

// Visible returns the events of evs that seat p (or [Spectator]) may see,
// appended to dst.
func Visible(dst []Event, evs []Event, p Seat) []Event {
	for _, e := range evs {
		if e.To.Sees(p) {
			dst = append(dst, e)
		}
	}
	return dst
}

// Kinded is anything with a stable type name: actions and event bodies.
type Kinded interface{ Kind() string }

// MarshalTyped encodes v as a JSON object whose first field is
// "type": v.Kind(), followed by v's own fields. v must encode as a JSON
// object and must not have a field named "type" of its own.
func MarshalTyped(v Kinded) ([]byte, error) {
	return AppendTyped(nil, v)
}

// AppendTyped appends what MarshalTyped writes to dst.
func AppendTyped(dst []byte, v Kinded) ([]byte, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if len(body) < 2 || body[0] != '{' {
		return nil, fmt.Errorf("engine: %T does not encode as a JSON object", v)
	}
	kind := v.Kind()
	// Room for it all at once: the kind is written with its quotes, and
	// rarely anything to escape.
	dst = slices.Grow(dst, len(`{"type":""`)+len(kind)+len(body)+8)
	dst = append(dst, `{"type":`...)
	dst = jsonw.String(dst, kind)
	if len(body) > 2 {
		dst = append(dst, ',')
	}
	return append(dst, body[1:]...), nil
}

// DecodeTyped reads a typed JSON object: it finds the "type" field, asks
// newValue for a pointer to a fresh value of that kind, and decodes the other
// fields into it strictly: unknown fields, names in another case ("TILE" for
// "tile"), a name given twice, invalid UTF-8, trailing data and wrong types
// are errors. Every failure is a *RuleError with code [CodeMalformed].
func DecodeTyped(b []byte, newValue func(kind string) (any, bool)) (any, error) {
	kind, found := typeOf(b)
	if !found {
		// Not the plain object that clients send: read it properly, for
		// the refusal to say what is wrong.
		var err error
		if kind, err = readType(b); err != nil {
			return nil, err
		}
	}
	// When the quick reading found the type, a refusal below must first
	// say whether the object is JSON at all, as it does for any other: the
	// full reading says so.
	notJSON := func() error {
		if !found {
			return nil // already read in full
		}
		_, err := readType(b)
		return err
	}
	v, ok := newValue(kind)
	if !ok {
		if err := notJSON(); err != nil {
			return nil, err
		}
		return nil, Refuse(CodeMalformed, "There is no action of type %q in this game.", kind)
	}
	// Decode the fields again into the action's own type, beside the
	// "type" already read: a struct with both, made once per type.
	w := reflect.New(typedOf(reflect.TypeOf(v).Elem()))
	if err := jsonv2.Unmarshal(b, w.Interface(), jsonv2.RejectUnknownMembers(true)); err != nil {
		if err := notJSON(); err != nil {
			return nil, err
		}
		return nil, Refuse(CodeMalformed, "The %s action is malformed: %v.", kind, jsonProblem(err))
	}
	if got := w.Elem().Field(0).String(); got != kind {
		// typeOf read another "type" than the decoder: never with JSON
		// the decoder accepts (it refuses a name given twice), but the
		// action must be of the type it was decoded as.
		return nil, Refuse(CodeMalformed, "The action's \"type\" cannot be read.")
	}
	reflect.ValueOf(v).Elem().Set(w.Elem().Field(1))
	return v, nil
}

// readType reads the "type" of the JSON object b with the full decoder,
// or says what is wrong with b.
func readType(b []byte) (string, error) {
	var head struct {
		Type jsontext.Value `json:"type"`
	}
	if err := jsonv2.Unmarshal(b, &head); err != nil {
		return "", Refuse(CodeMalformed, "The action is not a valid JSON object: %v.", jsonProblem(err))
	}
	if head.Type == nil {
		return "", Refuse(CodeMalformed, "The action has no \"type\" field.")
	}
	var kind string
	if head.Type.Kind() != '"' || jsonv2.Unmarshal(head.Type, &kind) != nil {
		return "", Refuse(CodeMalformed, "The action's \"type\" is not a string.")
	}
	return kind, nil
}

// typeOf finds the "type" member of the JSON object b the cheap way, for
// the decoder to read the object once rather than twice: it reads the
// object's top-level names and skips their values without checking them
// (the decoder does, next), and gives up (found false) on anything but a
// "type" string without escapes before the object ends.
func typeOf(b []byte) (kind string, found bool) {
	i := jsonw.SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return "", false
	}
	for i = jsonw.SkipSpace(b, i+1); i < len(b) && b[i] == '"'; i = jsonw.SkipSpace(b, i+1) {
		name, next, ok := plainString(b, i)
		if !ok {
			return "", false
		}
		if i = jsonw.SkipSpace(b, next); i >= len(b) || b[i] != ':' {
			return "", false
		}
		i = jsonw.SkipSpace(b, i+1)
		if name == "type" {
			if i >= len(b) || b[i] != '"' {
				return "", false
			}
			kind, _, ok := plainString(b, i)
			return kind, ok
		}
		if i = jsonw.SkipValue(b, i); i < 0 {
			return "", false
		}
		if i = jsonw.SkipSpace(b, i); i >= len(b) || b[i] != ',' {
			return "", false
		}
	}
	return "", false
}

// plainString reads the JSON string at b[i] (its opening quote) if it has no
// escape, and returns it and the index after its closing quote.
func plainString(b []byte, i int) (s string, next int, ok bool) {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '"':
			return string(b[i+1 : j]), j + 1, true
		case '\\':
			return "", 0, false
		}
	}
	return "", 0, false
}

// typedWrappers holds, for each action type T, struct { Type string
// `json:"type"`; T `json:",inline"` }.
var typedWrappers sync.Map // reflect.Type → reflect.Type

func typedOf(t reflect.Type) reflect.Type {
	if w, ok := typedWrappers.Load(t); ok {
		return w.(reflect.Type)
	}
	w := reflect.StructOf([]reflect.StructField{
		{Name: "Type", Type: reflect.TypeFor[string](), Tag: `json:"type"`},
		{Name: "Body", Type: t, Tag: `json:",inline"`},
	})
	typedWrappers.Store(t, w)
	return w
}

// jsonProblem says what was wrong with some JSON, without the decoder's
// package name.
func jsonProblem(err error) string {
	msg := err.Error()
	for _, p := range []string{"json: ", "jsontext: "} {
		msg = strings.TrimPrefix(msg, p)
	}
	return msg
}
