package match

import (
	"errors"
	"testing"
)

// A seat has one hint search at a time: a second question of the same seat
// is refused while the first is computed, the same question waits for the
// first's answer, another seat's question starts its own search, and once
// the first is given the seat may ask again (its answer cached).
func TestOneHintSearchPerSeat(t *testing.T) {
	var d hintDesk
	k := hintKey{match: "m", step: 4, seat: 1, level: HintBest}
	c, mine, err := d.start(k)
	if err != nil || !mine {
		t.Fatalf("the first question: mine %v, %v", mine, err)
	}
	other := k
	other.level, other.action = HintCheck, `{"type":"x"}`
	if _, _, err := d.start(other); err == nil || AsError(err).Code != CodeHintBusy {
		t.Fatalf("a second question of the seat meanwhile: %v, want %s", err, CodeHintBusy)
	}
	same, mine, err := d.start(k)
	if err != nil || mine || same != c {
		t.Fatalf("the same question meanwhile: mine %v, %v; it should wait for the first", mine, err)
	}
	seat2 := k
	seat2.seat = 2
	if _, mine, err := d.start(seat2); err != nil || !mine {
		t.Fatalf("another seat's question: mine %v, %v", mine, err)
	}
	h := &Hint{Level: HintBest, Seq: 4}
	d.finish(c, hintKept{h: h}, nil)
	<-same.done
	if same.kept.h != h {
		t.Errorf("the waiting question got %+v", same.kept.h)
	}
	if got, ok := d.cached(k); !ok || got.h != h {
		t.Errorf("the answer was not kept")
	}
	if _, mine, err := d.start(other); err != nil || !mine {
		t.Errorf("the seat's next question: mine %v, %v", mine, err)
	}
	failed, _, _ := d.start(hintKey{match: "m", seat: 3})
	d.finish(failed, hintKept{}, errors.New("no"))
	if _, ok := d.cached(failed.key); ok {
		t.Errorf("a refused hint was kept")
	}
}
