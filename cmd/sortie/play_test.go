package main

import (
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
		args       []string
		wait       string
	}{
		{"plandesecours", "en", []string{"--players", "3", "--seed", "5"}, "Your turn."},
		{"evades", "en", []string{"--players", "2", "--seed", "5"}, "Your turn."},
		{"room25", "fr", []string{"--players", "2", "--seed", "5"}, "À vous de jouer."},
		{"temple", "en", []string{"--players", "2", "--seed", "5", "--clock-speed", "0"}, "Your dice"},
		{"outran", "fr", []string{"--players", "3", "--seed", "5", "--clock-speed", "0"}, "Manche 1"},
	}
	for _, tc := range cases {
		t.Run(tc.game, func(t *testing.T) {
			t.Parallel()
			args := append([]string{tc.game, "--lang", tc.lang, "--pace", "1ms"}, tc.args...)
			s := play(t, 80, 24, nil, args...)
			scr := s.settle(tc.wait)
			noJSON(t, scr)
			golden(t, tc.game+"-"+tc.lang, scr)
		})
	}
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
