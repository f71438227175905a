package web_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"sortie/games/all"
	"sortie/internal/proofread"
	"sortie/internal/server"
)

// gatherTexts gathers what the page shows: the log's
// lines, and every other text of the page (prompts, the turn line, the
// board's words, the list of actions, tooltips, what screen readers are
// told) once each.
const gatherTexts = `(() => {
  const out = {status: document.querySelector('.match-page') ? document.querySelector('.match-page').dataset.status : '',
    log: [...document.querySelectorAll('#log li.ev, #log li.sys')].map((li) => li.textContent), texts: []};
  const add = (s) => { s = (s || '').replace(/[ \t\n]+/g, ' ').trim(); if (s) out.texts.push(s); };
  add((document.querySelector('#turn') || {}).textContent);
  // What a sighted reader sees (without the words kept for screen
  // readers) and what a screen reader says (without the words hidden from
  // it) are two texts, each read whole.
  const without = (el, sel) => {
    const xs = [...el.querySelectorAll(sel)];
    const was = xs.map((x) => x.style.display);
    xs.forEach((x) => { x.style.display = 'none'; });
    const text = el.innerText;
    xs.forEach((x, i) => { x.style.display = was[i]; });
    return text;
  };
  // An element the page does not render (inside a closed or hidden part)
  // is neither seen nor read, and its innerText would be its raw
  // textContent, words run together.
  for (const el of document.querySelectorAll('#board .prompt, #board .help, #board .happening, #board .stat, #board p, #board li, #board h3, #board figcaption, #board button, #actions button, #end p, #end td, #end h2, #end h3, #step-text')) {
    if (!el.checkVisibility()) continue;
    add(without(el, '.visually-hidden'));
    add(without(el, '[aria-hidden="true"]'));
  }
  for (const el of document.querySelectorAll('[data-tip]')) add(el.dataset.tip);
  for (const el of document.querySelectorAll('#board [aria-label], #end [aria-label]')) add(el.getAttribute('aria-label'));
  for (const el of document.querySelectorAll('#board title')) add(el.textContent);
  return out;
})()`

type pageTexts struct {
	Status string   `json:"status"`
	Log    []string `json:"log"`
	Texts  []string `json:"texts"`
}

// A whole match of each game, in French and in English, read through the
// page by its first seat, a player whose name starts with a vowel: every
// line of the log, every prompt, label, tooltip and screen-reader text and
// the end screen have none of the slips a careful reader corrects
// (internal/proofread), and the log names the player's own moves in the
// second person ("Vous posez une tuile", never "Émile pose une tuile"),
// so that the player's own name never shows in it. The turn-based games
// are played by the seat's bot when its move limit runs out, with the
// player's prompts on screen meanwhile; in the real-time games the player
// hands the seat to the bot after a few seconds of its own prompts.
//
// SORTIE_TRANSCRIPTS=<dir> writes each match's log and texts there, to be
// read by a person.
func TestMatchesReadRight(t *testing.T) {
	for _, g := range []struct {
		id       string
		players  int
		realTime bool
		options  map[string]string
	}{
		{"plandesecours", 3, false, map[string]string{"danger": "true"}},
		{"evades", 3, false, nil},
		{"room25", 3, false, nil},
		{"temple", 3, true, nil},
		{"outran", 3, true, map[string]string{"countdown_ms": "2000"}},
	} {
		for _, lang := range []string{"fr", "en"} {
			t.Run(g.id+"-"+lang, func(t *testing.T) {
				readMatch(t, g.id, g.players, g.realTime, g.options, lang)
			})
		}
	}
}

func readMatch(t *testing.T, game string, players int, realTime bool, options map[string]string, lang string) {
	name := map[string]string{"fr": "Émile", "en": "Ada"}[lang]
	speed := 1.0
	if realTime {
		speed = 10 // a ten-minute temple falls in a minute
	}
	s := newSiteWith(t, func(c *server.Config) { c.ClockSpeed = speed }, all.Games()...)
	seats := []map[string]any{{"kind": "human", "bot": "medium"}}
	for range players - 1 {
		seats = append(seats, map[string]any{"kind": "bot", "bot": "medium"})
	}
	// The match time a move waits for the player before the seat's bot plays
	// it: long enough for the page's texts to be read twice over (every
	// 250 ms), short enough for a long Évadés to end in about a minute.
	limit := int64(500)
	var out struct {
		Match struct {
			ID string `json:"id"`
		} `json:"match"`
		Seats []struct {
			Seat  int    `json:"seat"`
			Token string `json:"token"`
		} `json:"seats"`
	}
	s.post("/api/matches", "", map[string]any{"game": game, "players": players, "options": options, "seats": seats,
		"bot_delay_ms": 50, "move_limit_ms": limit, "takeover_after_ms": 0, "auto_start": true}, &out)
	c := created{ID: out.Match.ID, Tokens: map[int]string{0: out.Seats[0].Token}}
	s.post("/api/matches/"+c.ID+"/join", c.Tokens[0], map[string]string{"name": name}, nil)
	p := s.browser(name, lang).tab("match")
	p.openSeat(c, 0)

	log := []string{}
	texts := map[string]bool{}
	gather := func() pageTexts {
		got := js[pageTexts](p, gatherTexts)
		if len(got.Log) > len(log) {
			log = got.Log
		}
		for _, x := range got.Texts {
			texts[x] = true
		}
		return got
	}
	start := time.Now()
	handed := false
	deadline := start.Add(4 * time.Minute)
	for {
		got := gather()
		if got.Status == "finished" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the match was not over after %v", time.Since(start))
		}
		if realTime && !handed && time.Since(start) > 8*time.Second && got.Status == "running" {
			// A second press confirms; the page then offers to take the
			// seat back.
			for try := 0; try < 5 && !handed; try++ {
				if js[bool](p, `!!document.querySelector('#leave-seat')`) {
					p.click("#leave-seat")
				}
				if js[bool](p, `!!document.querySelector('#leave-seat.danger')`) {
					p.click("#leave-seat.danger")
				}
				handed = p.waitOK(`document.querySelector('#take-back')`, 3*time.Second)
			}
			if !handed {
				t.Fatal("the seat could not be handed to its bot")
			}
		}
		time.Sleep(250 * time.Millisecond)
	}
	p.wait(`document.querySelector('#end-headline') && document.querySelector('#review-board')`, 30*time.Second)
	time.Sleep(time.Second) // the replay's last step is drawn
	gather()
	t.Logf("%s in %s: %d log lines, %d other texts, in %v", game, lang, len(log), len(texts), time.Since(start).Round(time.Second))

	var seen []string
	for x := range texts {
		seen = append(seen, x)
	}
	sort.Strings(seen)
	if dir := os.Getenv("SORTIE_TRANSCRIPTS"); dir != "" {
		body := "# " + game + " (" + lang + ")\n\n## The log\n\n" + strings.Join(log, "\n") + "\n\n## Every other text\n\n" + strings.Join(seen, "\n") + "\n"
		if err := os.WriteFile(filepath.Join(dir, game+"-"+lang+".txt"), []byte(body), 0o644); err != nil {
			t.Error(err)
		}
	}

	bad := 0
	report := func(where, text string, slips []string) {
		for _, slip := range slips {
			if bad++; bad <= 40 {
				t.Errorf("%s: %s:\n  %q", where, slip, text)
			}
		}
	}
	you := 0
	for _, line := range log {
		report("log", line, proofread.Slips(lang, line, proofread.Options{Sentence: true}))
		if strings.Contains(line, name) {
			report("log", line, []string{"the player's own name, where the log should say \"you\""})
		}
		if strings.HasPrefix(line, map[string]string{"fr": "Vous", "en": "You"}[lang]) {
			you++
		}
	}
	for _, x := range seen {
		report("page", x, proofread.Slips(lang, x, proofread.Options{}))
	}
	if bad > 40 {
		t.Errorf("… and %d more", bad-40)
	}
	if you == 0 {
		t.Errorf("no line of the log says a move of the player's own: %q", log)
	}
	if len(log) < 10 || len(seen) < 20 {
		t.Errorf("too little was read: %d log lines, %d texts", len(log), len(seen))
	}
	p.checkErrors()
}

// The sentences the issue quoted, as the boards now write them: each
// example is written by the board's own module in the page, from an event,
// an action or a view of the shape the server sends.
func TestBoardWordsReadRight(t *testing.T) {
	s := newSite(t, all.Games()...)
	p := s.browser("reader", "en").tab("words")
	p.open("/")
	p.wait(`document.querySelector('.game-card')`, 10*time.Second)
	got := js[map[string][]string](p, `(async () => {
  const i18n = await import('/js/i18n.js');
  const boards = await import('/js/boards.js');
  const names = ['Ana', 'Medium bot'];
  const ctx = (game, seat, view) => ({game, seat, view, name: (q) => names[q], who: (q) => i18n.phrase(names[q], {you: q === seat}),
    legal: [], find: () => [], legalOf: () => null, ui: {}, events: []});
  const out = {};
  for (const lang of ['en', 'fr']) {
    i18n.setLang(lang);
    names[1] = i18n.t('name.bot.medium');
    const pds = await boards.loadBoard('plandesecours'), temple = await boards.loadBoard('temple');
    const outran = await boards.loadBoard('outran'), room25 = await boards.loadBoard('room25'), evades = await boards.loadBoard('evades');
    const dice = {you: 0, seats: [{seat: 0}], dice: [
      {id: 1, owner: 0, status: 'live', face: 'torch'}, {id: 2, owner: 0, status: 'live', face: 'torch'},
      {id: 3, owner: 0, status: 'live', face: 'key'}, {id: 4, owner: 0, status: 'spent', face: 'none'}, {id: 5, owner: 0, status: 'spent', face: 'none'}]};
    const r25 = {cells: []};
    out[lang] = [
      i18n.t('pds.nextFacingShort', {dir: i18n.t('pds.dir.0')}),
      boards.describeEvent(pds, {type: 'tile_played', seat: 0}, ctx('plandesecours', 0, null)),
      boards.describeEvent(pds, {type: 'tile_played', seat: 1}, ctx('plandesecours', 0, null)),
      boards.describeEvent(pds, {type: 'round_revealed', reveal: {round: 1, points: [0, 1], reasons: [], lost_at: 0}}, ctx('plandesecours', 0, null)),
      boards.labelAction(temple, {type: 'roll', dice: [4, 5]}, ctx('temple', 0, dice)),
      boards.describeEvent(temple, {type: 'entered', seat: 1, to: 'basic_04'}, ctx('temple', 0, dice)),
      boards.describeEvent(outran, {type: 'drew_face_up', seat: -1, card: 'shield_1'}, ctx('outran', 0, null)),
      String(boards.describeEvent(outran, {type: 'placed', holder: -1, card: 'shield_1'}, ctx('outran', 0, null))),
      boards.describeEvent(outran, {type: 'run_ended', reason: 'time_limit', results: [{seat: 0, result: 'wrong'}, {seat: 1, result: 'correct'}]}, ctx('outran', 0, null)),
      boards.describeEvent(room25, {type: 'programmed', character: 'bimbo', tokens: 2}, ctx('room25', 0, r25)),
      boards.describeEvent(evades, {type: 'door_crossed', seat: 1, from: 'cell', to: 'ring_n', pay: ['file'], face: 'spoon'}, ctx('evades', 0, null)),
      boards.describeEvent(evades, {type: 'object_taken', seat: 0, token: 'phone_1', room: 'room_sw'}, ctx('evades', 0, null)),
    ];
  }
  return out;
})()`)
	want := map[string][]string{
		"en": {
			"The next tile continues up",
			"You laid a tile.",
			"Medium bot laid a tile.",
			"Round 1 is over and the path is revealed. The path held to the end. Medium bot scores.",
			"Roll 2 dice, keeping 2 torches and 1 key",
			"Medium bot goes to chamber 4.",
			"New card in the centre: Shield.",
			"null",
			"Time is up: you got it wrong and Medium bot got it right.",
			"Bimbo is programmed with 2 tokens.",
			"Medium bot goes from the cell to the north corridor (file); the door now shows spoon.",
			"You pick up the phone in the SW common room.",
		},
		"fr": {
			"La tuile suivante continue vers le haut",
			"Vous posez une tuile.",
			"Bot moyen pose une tuile.",
			"La manche 1 est finie et le chemin est révélé. Le chemin a tenu jusqu’au bout. Bot moyen marque.",
			"Lancer 2 dés, en gardant 2 torches et 1 clé",
			"Bot moyen rejoint la salle 4.",
			"Nouvelle carte au centre\u00a0: Bouclier.",
			"null",
			"Temps écoulé\u00a0: vous avez faux et Bot moyen a juste.",
			"La Bimbo est programmée avec 2 jetons.",
			"Bot moyen passe de la cellule au couloir nord (lime)\u00a0; la porte montre maintenant «\u00a0cuillère\u00a0».",
			"Vous ramassez le téléphone dans la salle commune SO.",
		},
	}
	for lang, lines := range want {
		for i, w := range lines {
			if i >= len(got[lang]) || got[lang][i] != w {
				var g string
				if i < len(got[lang]) {
					g = got[lang][i]
				}
				t.Errorf("%s %d:\n got %q\nwant %q", lang, i, g, w)
			}
		}
	}
	p.checkErrors()
}

// The lobby's list of matches names a bot seat once: "Medium bot", never
// "Medium bot (Bot)"; a bot its host named is said to be one.
func TestLobbyNamesBotsOnce(t *testing.T) {
	s := newSite(t, all.Games()...)
	var out struct {
		Match struct {
			ID string `json:"id"`
		} `json:"match"`
	}
	s.post("/api/matches", "", map[string]any{"game": "plandesecours", "players": 3, "seats": []map[string]any{
		{"kind": "human", "bot": "medium"}, {"kind": "bot", "bot": "medium"}, {"kind": "bot", "bot": "hard", "name": "Robin"}}}, &out)
	for lang, want := range map[string]string{"en": "Seat 1 (free seat) · Medium bot · Robin (bot)", "fr": "Place 1 (place libre) · Bot moyen · Robin (bot)"} {
		p := s.browser("lobby-"+lang, lang).tab("lobby")
		p.open("/")
		p.wait(`document.querySelector('#tab-open')`, 10*time.Second)
		p.click("#tab-open")
		p.wait(fmt.Sprintf(`document.querySelector('[data-match=%q] .seats-list')`, out.Match.ID), 10*time.Second)
		if got := p.text(fmt.Sprintf(`[data-match=%q] .seats-list`, out.Match.ID)); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
		p.checkErrors()
	}
}
