package web_test

import (
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
  for (const el of document.querySelectorAll('#board .prompt, #board .help, #board .happening, #board .stat, #board p, #board li, #board h3, #board figcaption, #board button, #actions button, #end p, #end td, #end h2, #end h3, #step-text')) add(el.innerText);
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
		speed = 6 // a ten-minute temple falls in under two minutes
	}
	s := newSiteWith(t, func(c *server.Config) { c.ClockSpeed = speed }, all.Games()...)
	seats := []map[string]any{{"kind": "human", "bot": "medium"}}
	for range players - 1 {
		seats = append(seats, map[string]any{"kind": "bot", "bot": "medium"})
	}
	limit := int64(900) // match time a move waits for the player before the seat's bot plays it
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
		"bot_delay_ms": 100, "move_limit_ms": limit, "takeover_after_ms": 0, "auto_start": true}, &out)
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
