package evades

import (
	"regexp"
	"strings"
	"testing"

	"sortie/engine"
)

// TestParseAction reads every short form and checks it gives the action's
// JSON form.
func TestParseAction(t *testing.T) {
	for line, want := range map[string]string{
		"face 3 1":             `{"type":"take_face_up","slots":[1,3]}`,
		"blind":                `{"type":"take_blind"}`,
		"pass":                 `{"type":"draw_pass_pass"}`,
		"cross d07 joker file": `{"type":"cross_door","door":"d07","pay":["file","joker"]}`,
		"cross d16 badge":      `{"type":"cross_door","door":"d16","credit":"badge"}`,
		"take money_1":         `{"type":"take_object","token":"money_1"}`,
		"end":                  `{"type":"end_turn"}`,
		"vent none":            `{"type":"choose_vent","area":"none"}`,
		"codetainee face 2":    `{"type":"choose_codetainee","source":"face_up","slot":2}`,
		"codetainee blind":     `{"type":"choose_codetainee","source":"blind"}`,
		"target 2":             `{"type":"choose_target","seat":2}`,
		"flip d20 d05":         `{"type":"choose_doors","doors":["d05","d20"]}`,
		"flip":                 `{"type":"choose_doors"}`,
		"give soap":            `{"type":"give_cards","cards":["soap"]}`,
		"answer skip":          `{"type":"answer_blackmail","skip":true}`,
		"answer rope soap":     `{"type":"answer_blackmail","give":["soap","rope"]}`,
		"discard rope":         `{"type":"discard","cards":["rope"]}`,
		"discard rope soap":    `{"type":"discard","cards":["soap","rope"]}`,
		`{"type":"end_turn"}`:  `{"type":"end_turn"}`,
	} {
		a, err := Game{}.ParseAction(line)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if got, _ := engine.MarshalTyped(a); string(got) != want {
			t.Fatalf("%q gives %s, want %s", line, got, want)
		}
	}
	for _, line := range []string{"", "fly", "face 1", "cross d99", "take nothing", "blind spoons", "blind rope", "face 0 4 discard rope"} {
		if _, err := (Game{}).ParseAction(line); err == nil {
			t.Fatalf("%q was read", line)
		}
	}
}

// TestViewText renders a view for the terminal.
func TestViewText(t *testing.T) {
	s := newGame(t, 3)
	txt := s.View(0).(*View).String()
	for _, want := range []string{"Seat 1 (you)", "hand:", "plan plan_", "Doors of cell", "d01"} {
		if !strings.Contains(txt, want) {
			t.Fatalf("the view text lacks %q:\n%s", want, txt)
		}
	}
	if strings.Contains(s.View(1).(*View).String(), "Seat 1 (you)") {
		t.Fatal("the second seat is told it is the first")
	}
	setHand(s, 0, Spoon, Soap, Paperclip, Cigarettes, File, Screwdriver, Rope, WireCutters, Crowbar, Uniform, Keypad, Joker)
	if len(s.Offer(0)) != len(s.Legal(0)) {
		t.Fatal("step 1 is not offered")
	}
	play(t, s, 0, TakeBlind{})
	if s.Offer(0) != nil || len(s.Legal(0)) != 66 {
		t.Fatalf("the 66 discards of 12 types are offered, or not listed (%d)", len(s.Legal(0)))
	}
	if txt := s.View(0).(*View).String(); !strings.Contains(txt, "discard 2 cards, then draw two blind") {
		t.Fatalf("the view text does not say which discard is owed:\n%s", txt)
	}
}

// The French names of the areas say the compass as French does: ouest is
// O (Salle commune SO, NO), never the English W.
func TestFrenchAreaNamesSayFrenchCompass(t *testing.T) {
	english := regexp.MustCompile(`\b(W|SW|NW|E|SE|NE|N|S)\b`)
	french := map[string]string{"W": "O", "SW": "SO", "NW": "NO"}
	for _, a := range areas {
		for _, m := range english.FindAllString(a.Fr, -1) {
			if fr, ok := french[m]; ok {
				t.Errorf("%s: %q says %s, French writes %s", a.ID, a.Fr, m, fr)
			}
		}
	}
}
