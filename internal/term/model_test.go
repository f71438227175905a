package term

import (
	"encoding/json"
	"io"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"sortie/bot"
	"sortie/engine"
	"sortie/games/all"
	"sortie/internal/match"
)

// A refusal that names a wait or a count is said from its params in the
// player's language, as the web page's errorText says it.
func TestRefusalsSayTheirParams(t *testing.T) {
	cases := []struct {
		lang, game, code string
		params           map[string]any
		want             string
	}{
		{"en", "temple", "cooldown", map[string]any{"wait_ms": 2450.0}, "Too soon: you can try again in 2.5 s."},
		{"fr", "temple", "cooldown", map[string]any{"wait_ms": 2450.0}, "Trop tôt\u00a0: vous pourrez réessayer dans 2,5\u00a0s."},
		{"fr", "temple", "cooldown", map[string]any{"wait_ms": engine.Millis(95000)}, "Trop tôt\u00a0: vous pourrez réessayer dans 1\u00a0min 35\u00a0s."},
		{"en", "", "chat_too_long", map[string]any{"max": 300.0}, "A line holds at most 300 characters."},
		{"fr", "outran", "target_shielded", map[string]any{"target": 1.0}, "Bo a un Bouclier"},
		{"en", "temple", "not_enough_keys", map[string]any{"need": 12.0, "offer": 3.0}, "You need 12 keys to escape and offer 3."},
	}
	names := func(s int) string { return []string{"Ana", "Bo"}[s] }
	for _, tc := range cases {
		tx, err := newTexts(tc.lang)
		if err != nil {
			t.Fatal(err)
		}
		got := tx.errorText(&match.Error{Code: tc.code, Message: "the server's English sentence", Params: tc.params}, tc.game, names)
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s %s %v: %q, want %q", tc.lang, tc.code, tc.params, got, tc.want)
		}
	}
	// Without its params a text that needs them falls back to the
	// server's sentence rather than showing {wait}.
	tx, _ := newTexts("en")
	if got := tx.errorText(&match.Error{Code: "cooldown", Message: "You rolled too recently."}, "temple", names); got != "You rolled too recently." {
		t.Errorf("without params: %q", got)
	}
}

// Numbers and durations read as on the web page (Intl.NumberFormat and
// fmtDuration): decimals and thousands as each language writes them, waits
// rounded up.
func TestNumbersAndDurations(t *testing.T) {
	en, _ := newTexts("en")
	fr, _ := newTexts("fr")
	for _, tc := range []struct {
		got, want string
	}{
		{en.num(1234.5, 1), "1,234.5"},
		{fr.num(1234.5, 1), "1\u202f234,5"},
		{en.num(2, 2), "2"},
		{en.num(0.125, 2), "0.13"},
		{en.duration(1), "0.1 s"},
		{en.duration(9950), "10 s"},
		{en.duration(10001), "11 s"},
		{en.duration(90000), "1 min 30 s"},
		{en.duration(120000), "2 min"},
		{en.duration(3600000 + 5*60000), "1 h 5 min"},
		{en.duration(3 * 86400000), "3 days"},
		{fr.duration(86400000), "1\u00a0jour"},
	} {
		if tc.got != tc.want {
			t.Errorf("%q, want %q", tc.got, tc.want)
		}
	}
}

// sink is the far end of a screen under test: it hands the screen the
// messages of a real match and keeps what the screen sends back.
type sink struct {
	ch   chan *match.Message
	sent []json.RawMessage
}

func (s *sink) Messages() <-chan *match.Message  { return s.ch }
func (s *sink) Send(_ uint64, a json.RawMessage) { s.sent = append(s.sent, a) }
func (s *sink) Err() error                       { return nil }
func (s *sink) Close() error                     { return nil }

// screenOn is a screen showing what seat 0 is told of state s.
func screenOn(t *testing.T, g engine.Game, s engine.State, players int) (*model, *sink) {
	t.Helper()
	return screenIn(t, "en", g, s, players)
}

// screenIn is screenOn in a language.
func screenIn(t *testing.T, lang string, g engine.Game, s engine.State, players int) (*model, *sink) {
	t.Helper()
	tx, err := newTexts(lang)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, players)
	for i := range names {
		names[i] = "medium"
	}
	l := &local{cfg: LocalConfig{Game: g, Setup: engine.Setup{Players: players}, BotNames: names}, s: s}
	out := &sink{ch: make(chan *match.Message)}
	m := newModel(out, tx, newStyles(io.Discard, false))
	m.receive(l.message(match.TypeState, nil, nil))
	return m, out
}

// press types keys on the screen and runs what they ask.
func press(m *model, keys ...tea.KeyMsg) {
	for _, k := range keys {
		if cmd := m.key(k); cmd != nil {
			run(cmd)
		}
	}
}

func run(cmd tea.Cmd) {
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			if c != nil {
				run(c)
			}
		}
	}
}

func runes(s string) []tea.KeyMsg {
	var out []tea.KeyMsg
	for _, r := range s {
		if r == ' ' {
			out = append(out, tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}})
			continue
		}
		out = append(out, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	return out
}

var enter = tea.KeyMsg{Type: tea.KeyEnter}

// Les Évadés' Turnaround lets a prisoner flip any two inner doors: far too
// many choices to list, so the list is empty and the person types the
// doors' numbers as the map shows them; the action composed is the game's,
// which accepts it.
func TestEvadesTurnaroundIsTypedByDoorNumbers(t *testing.T) {
	g, _ := all.Find("evades")
	s := stateWhere(t, g, 3, func(s engine.State) bool {
		b, _ := json.Marshal(s.View(0))
		return strings.Contains(string(b), `"decision":"choose_doors","seat":0`)
	})
	before := s.Clone()
	m, out := screenOn(t, g, s, 3)
	if len(m.legal) != 0 {
		t.Fatalf("Turnaround came with a list of %d choices", len(m.legal))
	}
	if scr := m.View(); !strings.Contains(scr, "(5 20), or 0 for none, then Enter.") {
		t.Errorf("the screen does not say how to choose the doors:\n%s", scr)
	}
	press(m, append(runes("5 08"), enter)...)
	if len(out.sent) != 1 {
		t.Fatalf("sent %d actions", len(out.sent))
	}
	a, err := g.DecodeAction(out.sent[0])
	if err != nil {
		t.Fatal(err)
	}
	evs, err := s.Apply(0, a, 0)
	if err != nil {
		t.Fatalf("the game refused %s: %v", out.sent[0], err)
	}
	var flipped []string
	for _, e := range evs {
		b, _ := e.MarshalJSON()
		if o := newObj(b); o.typ() == "door_flipped" {
			flipped = append(flipped, o.str("door"))
		}
	}
	if strings.Join(flipped, " ") != "d05 d08" {
		t.Errorf("flipped %v, want d05 and d08", flipped)
	}
	// A door that does not exist is refused in words, and nothing is sent.
	m2, out2 := screenOn(t, g, before, 3)
	press(m2, append(runes("5 99"), enter)...)
	if len(out2.sent) != 0 || !strings.Contains(m2.refusal, "no inner door 99") {
		t.Errorf("door 99: sent %s, refusal %q", out2.sent, m2.refusal)
	}
}

// stateWhere plays seeded matches of medium bots until seat 0 must act in
// a state that ok accepts.
func stateWhere(t *testing.T, g engine.Game, players int, ok func(engine.State) bool) engine.State {
	t.Helper()
	pol, err := bot.Level(g, "medium")
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed < 200; seed++ {
		setup := engine.Setup{Players: players, Seed: seed}
		s, err := g.New(setup)
		if err != nil {
			t.Fatal(err)
		}
		opts, _ := g.Info().Check(setup)
		bots := make([]bot.Bot, players)
		for p := range bots {
			bots[p] = pol.NewBot(g, bot.Seating{Seat: engine.Seat(p), Players: players, Options: opts, Seed: seed + uint64(p)})
		}
		for range 2000 {
			if _, over := s.Outcome(); over {
				break
			}
			p := s.Actors()[0]
			if p == 0 && ok(s) {
				return s
			}
			d := bot.Ask(bots[p], s, p, s.Legal(p), 0)
			if _, err := s.Apply(p, d.Action, 0); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Fatal("no match came to the state wanted")
	return nil
}

// When a prisoner must discard or give cards and the choices are too many
// to list, the digit keys pick kinds of card from the hand (never more of
// a kind than the hand holds, never more cards than owed), Backspace takes
// the last back, and Enter gives the game the action it asks for.
func TestEvadesCardsArePickedOnTheHand(t *testing.T) {
	g, _ := all.Find("evades")
	s, err := g.New(engine.Setup{Players: 3, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	l := &local{cfg: LocalConfig{Game: g, Setup: engine.Setup{Players: 3}, BotNames: []string{"medium", "medium", "medium"}}, s: s}
	msg := l.message(match.TypeState, nil, nil)
	// The view of a seat that must discard 2 cards from a hand of 12 of
	// 11 kinds, a choice the game does not list.
	var v map[string]any
	if err := json.Unmarshal(msg.View, &v); err != nil {
		t.Fatal(err)
	}
	v["pending"] = map[string]any{"decision": "discard", "seat": 0, "count": 2}
	seats := v["seats"].([]any)
	seats[0].(map[string]any)["hand"] = []string{"spoon", "soap", "soap", "paperclip", "cigarettes", "file", "screwdriver", "rope", "wire_cutters", "crowbar", "uniform", "keypad"}
	msg.View, _ = json.Marshal(v)
	msg.Actors, msg.Legal = []engine.Seat{0}, nil

	tx, _ := newTexts("en")
	out := &sink{ch: make(chan *match.Message)}
	m := newModel(out, tx, newStyles(io.Discard, false))
	m.receive(msg)
	if scr := m.View(); !strings.Contains(scr, "[2] 2 × soap") || !strings.Contains(scr, "1–9 pick a card of your hand") {
		t.Fatalf("the hand is not numbered for picking:\n%s", scr)
	}
	// One spoon only; then a paperclip; a third card is one too many.
	press(m, runes("1134")...)
	if got := strings.Join(m.board.(*evades).sel, " "); got != "spoon paperclip" {
		t.Fatalf("picked %q, want spoon paperclip", got)
	}
	press(m, tea.KeyMsg{Type: tea.KeyBackspace})
	press(m, runes("2")...)
	press(m, enter)
	if len(out.sent) != 1 || canon(out.sent[0]) != canon(json.RawMessage(`{"type":"discard","cards":["spoon","soap"]}`)) {
		t.Fatalf("sent %s", out.sent)
	}
	if _, err := g.DecodeAction(out.sent[0]); err != nil {
		t.Errorf("the game cannot read %s: %v", out.sent[0], err)
	}
}

// The terminal's own texts exist in both languages.
func TestOwnTextsInBothLanguages(t *testing.T) {
	en, err := loadDict(ownTexts, "i18n/en.json")
	if err != nil {
		t.Fatal(err)
	}
	fr, err := loadDict(ownTexts, "i18n/fr.json")
	if err != nil {
		t.Fatal(err)
	}
	for k := range en {
		if _, ok := fr[k]; !ok {
			t.Errorf("%s has no French text", k)
		}
	}
	for k := range fr {
		if _, ok := en[k]; !ok {
			t.Errorf("%s has no English text", k)
		}
	}
}

// Doors 08 and 09 are doors 8 and 9 (a leading zero is not octal), in the
// sentences and when typed for Turnaround.
func TestEvadesDoorNumbers(t *testing.T) {
	tx, _ := newTexts("en")
	c := &ctx{texts: tx, styles: newStyles(io.Discard, false)}
	for _, d := range []string{"d08", "d09"} {
		if got, want := evDoor(c, d), "door "+d[2:]; got != want {
			t.Errorf("%s is %q, want %q", d, got, want)
		}
	}
}

// In an Outran run, a seat that has finished may vote to stop the run once
// its grace is over: the S key plays the vote, which the game accepts.
func TestOutranVoteKey(t *testing.T) {
	g, _ := all.Find("outran")
	s, err := g.New(engine.Setup{Players: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// Time passes to the run; seat 0 finishes (any arrows will do), then
	// its grace runs out.
	at := engine.Millis(0)
	legalHas := func(kind string) bool {
		for _, a := range s.Legal(0) {
			if a.Kind() == kind {
				return true
			}
		}
		return false
	}
	for !legalHas("submit") && at < 60000 {
		at += 100
		s.Advance(at)
	}
	if _, err := s.Apply(0, s.Legal(0)[0], at); err != nil {
		t.Fatal(err)
	}
	for !legalHas("vote_stop") && at < 120000 {
		at += 100
		s.Advance(at)
	}
	if !legalHas("vote_stop") {
		t.Fatal("seat 0 never came to vote")
	}
	m, out := screenOn(t, g, s, 2)
	if scr := m.View(); !strings.Contains(scr, "[S] Vote to stop the run") {
		t.Errorf("the board does not offer the vote:\n%s", scr)
	}
	press(m, runes("s")...)
	if len(out.sent) != 1 || canon(out.sent[0]) != canon(json.RawMessage(`{"type":"vote_stop"}`)) {
		t.Fatalf("sent %s", out.sent)
	}
	a, _ := g.DecodeAction(out.sent[0])
	if _, err := s.Apply(0, a, at); err != nil {
		t.Errorf("the game refused the vote: %v", err)
	}
}

// In Room 25 a program is typed as its tokens' initials, in either
// language ("MP", "BP": Move, then Push) or their names; the screen sends
// the program the game offers for the first character to program, and
// says so when the game offers no such program.
func TestRoom25ProgramIsTypedByInitials(t *testing.T) {
	g, err := all.Find("room25")
	if err != nil {
		t.Fatal(err)
	}
	programming := func(s engine.State) bool {
		for _, a := range s.Legal(0) {
			b, _ := engine.MarshalTyped(a)
			if strings.Contains(string(b), `"type":"program"`) && strings.Contains(string(b), `"second":"push"`) {
				return true
			}
		}
		return false
	}
	s := stateWhere(t, g, 2, programming)
	for _, typed := range []string{"MP", "bp", "move push", "Bouger, Pousser"} {
		m, out := screenOn(t, g, s, 2)
		press(m, append(runes(typed), enter)...)
		if len(out.sent) != 1 {
			t.Fatalf("%q: sent %s, refusal %q", typed, out.sent, m.refusal)
		}
		a := newObj(out.sent[0])
		if a.typ() != "program" || a.str("first") != "move" || a.str("second") != "push" {
			t.Errorf("%q sent %s", typed, out.sent[0])
		}
		if _, ok := m.ctx().legalOf(string(out.sent[0])); !ok {
			t.Errorf("%q sent %s, which the game does not offer", typed, out.sent[0])
		}
	}
	// Twice the same token is no program of the game's.
	m, out := screenOn(t, g, s, 2)
	press(m, append(runes("MM"), enter)...)
	if len(out.sent) != 0 || !strings.Contains(m.refusal, "cannot take this program: Move, then Move") {
		t.Errorf("MM: sent %s, refusal %q", out.sent, m.refusal)
	}
	if help := m.keysHelp(); !strings.HasPrefix(help, "L M P C + Enter") {
		t.Errorf("the keys line while programming: %q", help)
	}
}
