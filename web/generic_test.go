package web_test

import (
	"testing"
	"time"

	"sortie/engine/enginetest/testgames"
)

// TestGenericBoard plays a game that has no board module (the tests' tiny
// card game) to the end with the generic board: the view as data, the legal
// actions as buttons.
func TestGenericBoard(t *testing.T) {
	s := newSite(t, testgames.Draw{})
	p := s.browser("gen", "en").tab("match")
	p.createMatch("draw", []string{"human", "random"}, nil, "Gina")
	p.click("#play-link")
	p.wait(`document.querySelector('.generic-view')`, 10*time.Second)
	for range 40 {
		st := p.waitMove(20 * time.Second)
		if st.Status == "finished" {
			break
		}
		p.click("#actions button.legal")
		p.wait(`document.querySelector('.match-page').dataset.busy !== 'true'`, 10*time.Second)
	}
	p.wait(`document.querySelector('#end-headline')`, 10*time.Second)
	if n := js[int](p, `document.querySelectorAll('#log li').length`); n == 0 {
		t.Error("the log is empty")
	}
	p.checkErrors()
}
