package term

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"sortie/bot"
	"sortie/engine"
	"sortie/games/all"
	"sortie/internal/match"
	"sortie/internal/server"
	"sortie/web"
)

// recorded is what seat 0 was told in a seeded match of bots: after each
// record, its view and the events it saw.
type recorded struct {
	View   json.RawMessage   `json:"view"`
	Events []json.RawMessage `json:"events"`
}

// record plays a seeded match of heuristic bots on a virtual clock and
// keeps what seat 0 saw, for at most n records.
func record(t *testing.T, g engine.Game, players, n int) []recorded {
	t.Helper()
	setup := engine.Setup{Players: players, Seed: 42}
	s, err := g.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	info := g.Info()
	opts, _ := info.Check(setup)
	pol, err := bot.Find(g, "heuristic")
	if err != nil {
		pol = bot.Random{}
	}
	bots := make([]bot.Bot, players)
	for p := range bots {
		bots[p] = pol.NewBot(g, bot.Seating{Seat: engine.Seat(p), Players: players, Options: opts, Seed: uint64(p + 1)})
	}
	var out []recorded
	var at engine.Millis
	for len(out) < n {
		if _, over := s.Outcome(); over {
			break
		}
		who, due := -1, engine.Millis(-1)
		var act engine.Action
		for _, p := range s.Actors() {
			legal := s.Legal(p)
			if len(legal) == 0 {
				continue
			}
			d := bot.Ask(bots[p], s, p, legal, at)
			if d.Action == nil {
				continue
			}
			if when := at + max(d.Delay, 0); due < 0 || when < due {
				who, due, act = int(p), when, d.Action
			}
		}
		if dl, ok := s.Deadline(); ok && (due < 0 || dl <= due) {
			who, due = -1, dl
		}
		if due < 0 {
			due = at + 100
		}
		at = max(at, due)
		evs := s.Advance(at)
		if who >= 0 {
			more, err := s.Apply(engine.Seat(who), act, at)
			if err == nil {
				evs = append(evs, more...)
			}
		}
		if len(evs) == 0 {
			continue
		}
		r := recorded{}
		r.View, _ = json.Marshal(s.View(0))
		for _, e := range engine.Visible(nil, evs, 0) {
			b, _ := e.MarshalJSON()
			r.Events = append(r.Events, b)
		}
		if len(r.Events) > 0 {
			out = append(out, r)
		}
	}
	return out
}

// webPage starts the server with the web page and opens the page in
// headless Chromium, for the test's life; it skips the test under -short
// or when no Chromium is found (CI=true fails instead).
func webPage(t *testing.T) context.Context {
	t.Helper()
	if testing.Short() {
		t.Skip("the browser is skipped under -short")
	}
	chrome := os.Getenv("SORTIE_CHROMIUM")
	if chrome == "" {
		for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
			if p, err := exec.LookPath(name); err == nil {
				chrome = p
				break
			}
		}
	}
	if chrome == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("no Chromium found and CI=true")
		}
		t.Skip("no Chromium found")
	}
	srv, err := server.New(server.Config{Games: all.Games(), DataPath: filepath.Join(t.TempDir(), "s.db"), Static: web.Files(),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	alloc, cancelA := chromedp.NewExecAllocator(context.Background(), chromedp.ExecPath(chrome), chromedp.Headless,
		chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.Flag("disable-dev-shm-usage", true), chromedp.UserDataDir(t.TempDir()))
	bctx, cancelB := chromedp.NewContext(alloc)
	ctx, cancelT := context.WithTimeout(bctx, 3*time.Minute)
	t.Cleanup(func() {
		cancelT()
		cancelB()
		cancelA()
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		hs.CloseClientConnections()
		_ = srv.Shutdown(sctx)
		hs.Close()
	})
	if err := chromedp.Do(ctx, chromedp.Navigate(hs.URL+"/")); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// The terminal's sentences are the web page's: the events of a seeded match
// of each game, described by the web page's describeEvent in Chromium and
// by the terminal, read the same in English and in French.
func TestSentencesAreTheWebPages(t *testing.T) {
	ctx := webPage(t)
	for _, g := range all.Games() {
		id := g.Info().ID
		t.Run(id, func(t *testing.T) {
			players := max(g.Info().MinPlayers, 3)
			players = min(players, g.Info().MaxPlayers)
			recs := record(t, g, players, 150)
			seats := make([]match.SeatSummary, players)
			for p := range seats {
				seats[p] = match.SeatSummary{Seat: engine.Seat(p), Kind: match.Bot, Bot: "medium"}
			}
			seats[0] = match.SeatSummary{Seat: 0, Kind: match.Human, Name: "Ana"}
			in, _ := json.Marshal(map[string]any{"game": id, "seats": seats, "recs": recs})
			script := fmt.Sprintf(`(async () => {
  const input = %s;
  const i18n = await import('/js/i18n.js');
  const boards = await import('/js/boards.js');
  const {MatchPage} = await import('/js/match.js');
  await i18n.initI18n();
  const mod = await boards.loadBoard(input.game);
  const out = {};
  for (const lang of ['en', 'fr']) {
    i18n.setLang(lang);
    const lines = [];
    for (const r of input.recs) {
      const ctx = {game: input.game, view: r.view, prev: null, seat: 0, players: input.seats.length, legal: [], actors: [],
        status: 'running', myTurn: false, busy: false, events: r.events, readonly: false, ui: {}, lang, clock: 0,
        name: (s) => MatchPage.prototype.name.call({seats: input.seats}, s), shape: (s) => '●',
        who: (s) => i18n.phrase(MatchPage.prototype.name.call({seats: input.seats}, s), {you: s === 0}),
        play: () => {}, find: () => [], isLegal: () => false, legalOf: () => null, redraw: () => {}, label: () => ''};
      for (const ev of r.events) { const s = boards.describeEvent(mod, ev, ctx); if (s) lines.push(s); }
    }
    out[lang] = lines;
  }
  return out;
})()`, in)
			web, err := chromedp.Run(ctx, chromedp.Evaluate[map[string][]string](script, chromedp.EvalAwaitPromise))
			if err != nil {
				t.Fatal(err)
			}
			for _, lang := range Langs {
				tx, err := newTexts(lang)
				if err != nil {
					t.Fatal(err)
				}
				m := newModel(nil, tx, newStyles(io.Discard, false))
				m.seats, m.seat = seats, 0
				b := boardOf(id)
				var mine []string
				for _, r := range recs {
					c := m.ctx()
					c.game, c.view = id, r.View
					for _, ev := range objs(r.Events) {
						if s, ok := sentence(b, ev, c); ok && s != "" {
							mine = append(mine, s)
						}
					}
				}
				want := web[lang]
				if len(want) == 0 {
					t.Fatalf("%s: the web page gave no sentence", lang)
				}
				for i := 0; i < max(len(want), len(mine)); i++ {
					var w, g string
					if i < len(want) {
						w = want[i]
					}
					if i < len(mine) {
						g = mine[i]
					}
					if w != g {
						t.Errorf("%s sentence %d:\nweb:      %q\nterminal: %q", lang, i, w, g)
						break
					}
				}
				t.Logf("%s: %d sentences compared", lang, len(want))
			}
		})
	}
}
