package main

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// Each game's first screen against bots, at 80×24, in English and in
// French: a golden screen, and no raw JSON anywhere. Real-time games start
// with their clock stopped (the hidden --clock-speed 0), so that the bots
// wait and the screen is the same on every run.
func TestScreenEveryGame(t *testing.T) {
	cases := []struct {
		game, lang string
		w, h       int
		args       []string
		wait       string
	}{
		{"plandesecours", "en", 80, 24, []string{"--players", "3", "--seed", "5"}, "Your turn."},
		{"evades", "en", 80, 24, []string{"--players", "2", "--seed", "5"}, "Your turn."},
		{"room25", "fr", 80, 24, []string{"--players", "2", "--seed", "5"}, "À vous de jouer."},
		{"temple", "en", 80, 24, []string{"--players", "2", "--seed", "5", "--clock-speed", "0"}, "Your dice"},
		{"outran", "fr", 80, 24, []string{"--players", "3", "--seed", "5", "--clock-speed", "0"}, "Manche 1"},
		// In a large window the boards grow: the whole prison, the
		// complex with two lines a room, the hand drawn as tiles.
		{"evades", "fr", 160, 48, []string{"--players", "3", "--seed", "5"}, "À vous de jouer."},
		{"room25", "en", 160, 48, []string{"--players", "4", "--seed", "5"}, "Your turn."},
		{"plandesecours", "fr", 160, 48, []string{"--players", "4", "--seed", "5", "--option", "danger=true"}, "À vous de jouer."},
	}
	for _, tc := range cases {
		name := tc.game + "-" + tc.lang
		if tc.w != 80 {
			name += fmt.Sprintf("-%dx%d", tc.w, tc.h)
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{tc.game, "--lang", tc.lang, "--pace", "1ms"}, tc.args...)
			s := play(t, tc.w, tc.h, nil, args...)
			scr := s.settle(tc.wait)
			noJSON(t, scr)
			golden(t, name, scr)
		})
	}
}

// Les Évadés at 80×24 in step 2: the list is half the screen's width, and
// crossings of one door that differ only by what they pay still read
// apart (a golden screen).
func TestScreenEvadesCrossingsReadApart(t *testing.T) {
	s := play(t, 80, 24, nil, "evades", "--players", "2", "--seed", "7", "--pace", "1ms", "--lang", "en")
	s.settle("Your turn. Take cards")
	s.keys("1\r")
	scr := s.settle("Move (step 2)")
	var items []string
	for _, l := range strings.Split(scr, "\n") {
		if strings.HasPrefix(l, "│  ") && strings.Contains(l, " → ") {
			item, _, _ := strings.Cut(l[len("│  "):], " │")
			items = append(items, item[2:])
		}
	}
	if len(items) < 2 {
		t.Fatalf("no crossings listed:\n%s", scr)
	}
	for i, it := range items {
		for _, k := range items[:i] {
			if k == it {
				t.Errorf("two crossings read %q:\n%s", it, scr)
			}
		}
	}
	golden(t, "evades-en-step2", scr)
}

// A refusal of the game is said in words, in place, and changes nothing.
func TestScreenRefusalInWords(t *testing.T) {
	s := play(t, 80, 24, nil, "plandesecours", "--players", "2", "--seed", "5", "--pace", "1ms", "--lang", "en")
	s.settle("Your turn.")
	s.keys(`{"type":"pass_turn"}` + "\r")
	scr := s.waitFor("Not played:")
	if !strings.Contains(scr, "Your turn.") {
		t.Errorf("the refusal changed the turn:\n%s", scr)
	}
	noJSON(t, scr)
	// A number with no action is refused by the client, in words too.
	s.keys("42\r")
	s.waitFor("There is no action 42")
}

// Temple's dice keys: 1–7 pick dice, R rolls them. Rolling again at once
// is refused with the wait said in words from the refusal's params (the
// clock is stopped, so the wait is the whole cooldown), in French too.
func TestScreenTempleDiceKeys(t *testing.T) {
	for _, tc := range []struct{ lang, rollAll, cooling, rollTwo, refused string }{
		{"en", "Roll all free dice", "next roll in 1.5 s", "Roll 2 dice", "Too soon: you can try again in 1.5 s."},
		{"fr", "Lancer tous les dés libres", "prochain lancer dans 1,5\u00a0s", "Lancer 2 dés", "Trop tôt\u00a0: vous pourrez réessayer dans 1,5\u00a0s."},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			t.Parallel()
			s := play(t, 80, 24, nil, "temple", "--players", "1", "--seed", "3", "--clock-speed", "0", "--lang", tc.lang)
			s.waitFor(tc.rollAll)
			s.keys("r")
			s.waitFor(tc.cooling)
			// Dice 1 and 2 picked (two torches kept): R rolls those two.
			s.keys("12")
			s.waitFor("[R] " + tc.rollTwo)
			s.keys("r")
			scr := s.waitFor(tc.refused)
			noJSON(t, scr)
		})
	}
}

// The real-time clock runs on screen without any key pressed.
func TestScreenClockRunsWithoutInput(t *testing.T) {
	s := play(t, 80, 24, nil, "temple", "--players", "1", "--seed", "3", "--lang", "en")
	first := s.waitFor("before the temple collapses")
	countdown := func(scr string) string {
		for _, l := range strings.Split(scr, "\n") {
			if strings.Contains(l, "before the temple collapses") {
				return l
			}
		}
		return ""
	}
	was := countdown(first)
	deadline := time.Now().Add(30 * time.Second)
	for countdown(s.text()) == was {
		if time.Now().After(deadline) {
			t.Fatalf("the countdown stayed at %q", was)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// A person who always presses Enter (the first action of the list) plays
// a whole match of Plan de Secours to its end screen, and nothing of the
// match is left in the terminal's scrollback.
func TestScreenWholeMatch(t *testing.T) {
	s := play(t, 80, 24, nil, "plandesecours", "--players", "2", "--seed", "11", "--pace", "1ms", "--lang", "en")
	s.waitFor("Your turn.")
	deadline := time.Now().Add(3 * time.Minute)
	for !strings.Contains(s.text(), "End of the match") {
		if time.Now().After(deadline) {
			t.Fatalf("the match did not end:\n%s", s.text())
		}
		scr := s.text()
		if strings.Contains(scr, "the path revealed") {
			s.keys("\x1b") // close the reveal
		} else if strings.Contains(scr, "Your turn.") {
			s.keys("\r")
		}
		time.Sleep(30 * time.Millisecond)
	}
	scr := s.text()
	noJSON(t, scr)
	if !strings.Contains(scr, "won") && !strings.Contains(scr, "Nobody won") {
		t.Errorf("the end screen names no winner:\n%s", scr)
	}
	if sb := s.scrollback(); strings.TrimSpace(sb) != "" {
		t.Errorf("the match left lines in the scrollback:\n%s", sb)
	}
	s.keys("q")
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		t.Errorf("q did not leave the finished match")
	}
}

// Under a locale that is not UTF-8 ("C"), every game's first screen is
// ASCII alone: frames, symbols and French accents spelled plainly, so that
// such a terminal (a tmux started without UTF-8, say) shows no "?" where
// a glyph was. Room 25 in French is kept as a golden screen.
func TestScreenInASCII(t *testing.T) {
	cases := []struct {
		game, lang string
		args       []string
		wait       string
	}{
		{"plandesecours", "fr", []string{"--players", "3", "--seed", "5"}, "A vous de jouer."},
		{"evades", "fr", []string{"--players", "2", "--seed", "5"}, "A vous de jouer."},
		{"room25", "fr", []string{"--players", "2", "--seed", "5"}, "A vous de jouer."},
		{"temple", "en", []string{"--players", "2", "--seed", "5", "--clock-speed", "0"}, "Your dice"},
		{"outran", "fr", []string{"--players", "3", "--seed", "5", "--clock-speed", "0"}, "Manche 1"},
	}
	for _, tc := range cases {
		t.Run(tc.game+"-"+tc.lang, func(t *testing.T) {
			t.Parallel()
			args := append([]string{tc.game, "--lang", tc.lang, "--pace", "1ms"}, tc.args...)
			s := play(t, 80, 24, []string{"LANG=C"}, args...)
			scr := s.settle(tc.wait)
			noJSON(t, scr)
			for i, r := range scr {
				if r >= 0x80 {
					t.Fatalf("%q at byte %d of the screen:\n%s", r, i, scr)
				}
			}
			if tc.game == "room25" {
				golden(t, "room25-fr-ascii", scr)
			}
		})
	}
}
