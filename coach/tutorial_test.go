package coach_test

import (
	"encoding/json"
	"strings"
	"testing"

	"sortie/coach"
	"sortie/games/plandesecours"
)

// A tutorial for Plan de Secours: the learner, seat 0, against a medium
// bot, on a deal where the bot starts.
const goodScript = `{"players": 2, "seat": 0, "bot": "medium", "seed": 525, "bot_seed": 525,
 "steps": [{"key": "intro", "read": true},
           {"key": "lay", "expect": [{"type": "play_tile", "tile": "right_6"}]}],
 "check": [{"key": "see", "answers": 3, "right": 1}]}`

// edit returns goodScript with one change made to its decoded form.
func edit(t *testing.T, change func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(goodScript), &m); err != nil {
		t.Fatal(err)
	}
	change(m)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func steps(m map[string]any) []any                { return m["steps"].([]any) }
func step(m map[string]any, i int) map[string]any { return steps(m)[i].(map[string]any) }

// Given a script with one flaw, ParseTutorial refuses it and says what is
// wrong; the script without the flaw is read.
func TestParseTutorialRefusesFlawedScripts(t *testing.T) {
	g := plandesecours.Game{}
	if _, err := coach.ParseTutorial(g, []byte(goodScript)); err != nil {
		t.Fatalf("the good script: %v", err)
	}
	flaws := []struct {
		name, says string
		change     func(m map[string]any)
	}{
		{"an unknown field", "unknown field", func(m map[string]any) { m["sead"] = 1 }},
		{"a player count the game refuses", "does not fit", func(m map[string]any) { m["players"] = 9 }},
		{"a seat out of the table", "seat 2", func(m map[string]any) { m["seat"] = 2 }},
		{"a bot the game lacks", "bots", func(m map[string]any) { m["bot"] = "genius" }},
		{"no steps", "steps and a check", func(m map[string]any) { m["steps"] = []any{} }},
		{"no check", "steps and a check", func(m map[string]any) { m["check"] = []any{} }},
		{"a key given twice", `"intro"`, func(m map[string]any) { step(m, 1)["key"] = "intro" }},
		{"a key not a word", `"Lay it"`, func(m map[string]any) { step(m, 1)["key"] = "Lay it" }},
		{"a step read and played", "either read or played", func(m map[string]any) { step(m, 1)["read"] = true }},
		{"a step neither read nor played", "either read or played", func(m map[string]any) { delete(step(m, 1), "expect") }},
		{"a move the game cannot read", "cannot read", func(m map[string]any) {
			step(m, 1)["expect"] = []any{map[string]any{"type": "fly"}}
		}},
		{"a question with one answer", "answers", func(m map[string]any) {
			m["check"] = []any{map[string]any{"key": "see", "answers": 1, "right": 1}}
		}},
		{"a right answer that is none", "the right one 4", func(m map[string]any) {
			m["check"] = []any{map[string]any{"key": "see", "answers": 3, "right": 4}}
		}},
	}
	for _, f := range flaws {
		_, err := coach.ParseTutorial(g, edit(t, f.change))
		if err == nil || !strings.Contains(err.Error(), f.says) {
			t.Errorf("%s: got %v, want an error saying %q", f.name, err, f.says)
		}
	}
}

// A partial action matches an action that has each of its fields, with the
// same value, whatever else the action holds.
func TestMatches(t *testing.T) {
	cases := []struct {
		want, action string
		ok           bool
	}{
		{`{"type":"play_lost"}`, `{"type":"play_lost"}`, true},
		{`{"type":"play_tile","tile":"right_1"}`, `{"type":"play_tile","tile":"right_1","facing":2}`, true},
		{`{"type":"play_tile","tile":"right_1","facing":0}`, `{"type":"play_tile","tile":"right_1","facing":2}`, false},
		{`{"type":"play_tile","tile":"right_1","facing":0}`, `{"type":"play_tile","tile":"right_1"}`, false},
		{`{"type":"roll","dice":[0,1,2]}`, `{"dice":[0, 1, 2],"type":"roll"}`, true},
		{`{"type":"roll","dice":[0,1,2]}`, `{"type":"roll","dice":[2,1,0]}`, false},
		{`{"type":"x","o":{"a":1,"b":2}}`, `{"type":"x","o":{"b":2,"a":1}}`, true},
		{`{"type":"play_lost"}`, `not json`, false},
	}
	for _, c := range cases {
		if got := coach.Matches([]byte(c.want), []byte(c.action)); got != c.ok {
			t.Errorf("Matches(%s, %s) = %v, want %v", c.want, c.action, got, c.ok)
		}
	}
}

// A script whose move the game refuses when its step comes fails there,
// named; the same script with the right move plays through.
func TestPlayTutorialNamesTheStepRefused(t *testing.T) {
	g := plandesecours.Game{}
	good, err := coach.ParseTutorial(g, []byte(goodScript))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := coach.PlayTutorial(g, good, 1000); err != nil {
		t.Fatalf("the good script: %v", err)
	}
	bad, err := coach.ParseTutorial(g, edit(t, func(m map[string]any) {
		step(m, 1)["expect"] = []any{map[string]any{"type": "play_tile", "tile": "straight_1"}}
	}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := coach.PlayTutorial(g, bad, 1000); err == nil || !strings.Contains(err.Error(), `step "lay"`) {
		t.Fatalf("a tile the learner does not hold: got %v, want the step named", err)
	}
}
