package match

import (
	"reflect"
	"testing"

	"sortie/engine"
)

type plainAction struct {
	Die  int    `json:"die"`
	Face string `json:"face"`
}

func (plainAction) Kind() string { return "roll" }

type listAction struct {
	Cards []int `json:"cards"`
}

func (listAction) Kind() string { return "give" }

type pointerAction struct{ N *int }

func (pointerAction) Kind() string { return "point" }

// An offered action is written as MarshalTyped writes it, from memory when
// its value says all it holds, never from memory when it holds a pointer or
// a list (whose content may change under the same key).
func TestOfferedActionsFromMemory(t *testing.T) {
	n := 1
	for _, a := range []engine.Action{plainAction{2, "torch<"}, plainAction{2, "torch<"}, listAction{[]int{1}}, pointerAction{&n}} {
		want, err := engine.MarshalTyped(a)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendAction([]byte("x"), a); string(got) != "x"+string(want) {
			t.Errorf("%#v is written %s, want %s", a, got[1:], want)
		}
	}
	if _, ok := actionJSON.Load(engine.Action(plainAction{2, "torch<"})); !ok {
		t.Error("a plain action was not kept")
	}
	n = 5 // the same key, another content
	if got, want := string(appendAction(nil, pointerAction{&n})), `{"type":"point","N":5}`; got != want {
		t.Errorf("a pointer action is written %s, want %s", got, want)
	}
	for typ, want := range map[reflect.Type]bool{
		reflect.TypeFor[plainAction](): true, reflect.TypeFor[[2]uint8](): true,
		reflect.TypeFor[listAction](): false, reflect.TypeFor[pointerAction](): false, reflect.TypeFor[*plainAction](): false,
		reflect.TypeFor[struct{ A any }](): false,
	} {
		if got := keyable(typ); got != want {
			t.Errorf("keyable(%v) = %v", typ, got)
		}
	}
}
