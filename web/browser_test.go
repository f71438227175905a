package web_test

// The browser tests start the real server in-process (internal/server on a
// temporary SQLite file, with the client of this package as its static
// files) and drive the real client in headless Chromium with chromedp.
//
// They are skipped under -short, and when no Chromium is found (except with
// CI=true, where they must run). SORTIE_CHROMIUM names the browser binary.
// On failure each page's screenshot is saved in testdata/failures/.

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"sortie/engine"
	"sortie/internal/server"
	"sortie/web"
)

// browsersAtOnce is how many browser tests run side by side unless -parallel
// says otherwise: they mostly wait (for bots, move limits and real-time
// clocks), so three keep two cores busy where GOMAXPROCS would leave them
// half idle and the package past go test's ten minutes.
const browsersAtOnce = "3"

func TestMain(m *testing.M) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		if err := flag.Set("test.parallel", browsersAtOnce); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}

// chromium returns the path of a Chromium binary, or "".
func chromium() string {
	if p := os.Getenv("SORTIE_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// site is the real server with the client, on a real HTTP listener.
type site struct {
	t      *testing.T
	srv    *server.Server
	hs     *httptest.Server
	url    string
	chrome string
	db     string
}

// newSite starts a server for games, or skips the test when no browser can
// run it.
func newSite(t *testing.T, games ...engine.Game) *site {
	t.Helper()
	return newSiteWith(t, nil, games...)
}

// newSiteWith is newSite with the server's settings changed by tune.
func newSiteWith(t *testing.T, tune func(*server.Config), games ...engine.Game) *site {
	t.Helper()
	if testing.Short() {
		t.Skip("browser tests are skipped under -short")
	}
	chrome := chromium()
	if chrome == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("no Chromium found and CI=true: install Debian's chromium package (or set SORTIE_CHROMIUM)")
		}
		t.Skip("no Chromium found: browser tests skipped (install Debian's chromium package or set SORTIE_CHROMIUM)")
	}
	// Browser tests mostly wait (for bots, for the clock of real-time games):
	// they run side by side, at most -parallel (browsersAtOnce) at once.
	t.Parallel()
	// The listener first: a server with accounts is told its public
	// address, on the listener's port.
	hs := httptest.NewUnstartedServer(nil)
	t.Cleanup(func() { hs.Listener.Close() })
	dbPath := filepath.Join(t.TempDir(), "sortie.db")
	cfg := server.Config{
		Games: games, DataPath: dbPath, Static: web.Files(),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		// Every page of a test is one client (127.0.0.1): several players'
		// reads and sockets from one address are no crowd.
		ReadRate: -1, SocketRate: -1,
	}
	if tune != nil {
		tune(&cfg)
	}
	url := ""
	if cfg.PublicURL == publicHere {
		// Passkeys and cookies want a host name: the pages are opened at
		// localhost, the server's public address.
		cfg.PublicURL = "http://localhost:" + strconv.Itoa(hs.Listener.Addr().(*net.TCPAddr).Port)
		url = cfg.PublicURL
	}
	srv, err := server.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	hs.Config = srv.HTTPServer() // as sortie serve runs it: headers, timeouts, caps
	hs.Listener = srv.Guard(hs.Listener)
	hs.Start()
	if url == "" {
		url = hs.URL
	}
	s := &site{t: t, srv: srv, hs: hs, url: url, chrome: chrome, db: dbPath}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		hs.CloseClientConnections()
		_ = srv.Shutdown(ctx)
		hs.Close()
	})
	return s
}

// publicHere, as the server's PublicURL, gives it accounts at
// http://localhost:<its port>, where the tests' pages are then opened.
const publicHere = "here"

// browser is one Chromium process with its own profile: two browsers are
// two players who share nothing, not even localStorage.
type browser struct {
	s     *site
	name  string
	alloc context.Context
}

func (s *site) browser(name, lang string) *browser {
	s.t.Helper()
	dir := s.t.TempDir()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(s.chrome), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.Flag("no-default-browser-check", true),
		chromedp.Flag("lang", lang), chromedp.Flag("accept-lang", lang), chromedp.Env("LANGUAGE=" + lang),
		chromedp.WindowSize(1280, 900), chromedp.UserDataDir(dir),
	}
	alloc, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	s.t.Cleanup(cancel)
	// The first context of an allocator owns the browser: it stays open for
	// the test, and every tab is a context made from it, which can close
	// without closing the browser.
	root, cancelRoot := chromedp.NewContext(alloc)
	s.t.Cleanup(cancelRoot)
	if err := chromedp.Do(root, chromedp.Navigate("about:blank")); err != nil {
		s.t.Fatalf("start Chromium (%s): %v", s.chrome, err)
	}
	return &browser{s: s, name: name, alloc: root}
}

// page is one tab.
type page struct {
	t      *testing.T
	b      *browser
	name   string
	ctx    context.Context
	cancel context.CancelFunc

	mu     sync.Mutex
	errors []string
}

// tab opens a new tab; its screenshot is saved if the test fails.
func (b *browser) tab(name string) *page {
	t := b.s.t
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.alloc)
	p := &page{t: t, b: b, name: b.name + "-" + name, ctx: ctx, cancel: cancel}
	if err := chromedp.Listen(ctx, p.listen); err != nil {
		t.Fatalf("start %s: %v", p.name, err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			p.screenshot()
			p.mu.Lock()
			for _, e := range p.errors {
				t.Logf("%s: JavaScript error: %s", p.name, e)
			}
			p.mu.Unlock()
		}
		cancel()
	})
	return p
}

func (p *page) listen(ev any) {
	switch ev := ev.(type) {
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			msg = d.Exception.Description
		}
		p.mu.Lock()
		p.errors = append(p.errors, fmt.Sprintf("%s:%d: %s", d.URL, d.LineNumber+1, msg))
		p.mu.Unlock()
	case *log.EventEntryAdded:
		// What the browser itself reports: a content security policy
		// violation is an error of the page (missing files are not).
		if e := ev.Entry; e.Source == log.EntrySourceSecurity || e.Source == log.EntrySourceViolation || strings.Contains(e.Text, "Content Security Policy") {
			p.mu.Lock()
			p.errors = append(p.errors, fmt.Sprintf("%s %s: %s (%s)", e.Source, e.Level, e.Text, e.URL))
			p.mu.Unlock()
		}
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError {
			var parts []string
			for _, a := range ev.Args {
				if a.Description != "" {
					parts = append(parts, a.Description)
				} else {
					parts = append(parts, string(a.Value))
				}
			}
			p.mu.Lock()
			p.errors = append(p.errors, "console.error: "+strings.Join(parts, " "))
			p.mu.Unlock()
		}
	}
}

// checkErrors fails the test if the page threw or logged an error.
func (p *page) checkErrors() {
	p.t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range p.errors {
		p.t.Errorf("%s: JavaScript error: %s", p.name, e)
	}
	p.errors = nil
}

func (p *page) screenshot() {
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Logf("%s: no screenshot: %v", p.name, err)
		return
	}
	dir := filepath.Join("testdata", "failures")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		p.t.Logf("%s: no screenshot: %v", p.name, err)
		return
	}
	file := filepath.Join(dir, strings.NewReplacer("/", "_", " ", "_").Replace(p.t.Name()+"-"+p.name)+".png")
	if err := os.WriteFile(file, buf, 0o644); err != nil {
		p.t.Logf("%s: no screenshot: %v", p.name, err)
		return
	}
	p.t.Logf("%s: screenshot saved in %s", p.name, file)
}

// do runs actions with a timeout.
func (p *page) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		p.t.Fatalf("%s: %s: %v", p.name, what, err)
	}
}

func (p *page) open(path string) {
	p.t.Helper()
	p.do("open "+path, chromedp.Navigate(p.b.s.url+path))
}

// click clicks the first element matching sel. Boards are drawn again on
// every update, so a node found may be gone when the click lands (real-time
// games update several times a second): then it looks again.
func (p *page) click(sel string) {
	p.t.Helper()
	var err error
	for range 5 {
		ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
		err = chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
		cancel()
		if err == nil || !strings.Contains(err.Error(), "node") {
			break
		}
		time.Sleep(30 * time.Millisecond)
	}
	if err != nil {
		p.t.Fatalf("%s: click %s: %v", p.name, sel, err)
	}
}

// js evaluates an expression and decodes its JSON value into T.
func js[T any](p *page, expr string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("%s: evaluate %s: %v", p.name, expr, err)
	}
	return v
}

// wait polls a JavaScript condition until it is true.
func (p *page) wait(cond string, within time.Duration) {
	p.t.Helper()
	if !p.waitOK(cond, within) {
		p.t.Fatalf("%s: still not true after %v: %s", p.name, within, cond)
	}
}

func (p *page) waitOK(cond string, within time.Duration) bool {
	deadline := time.Now().Add(within)
	for {
		ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool]("!!("+cond+")"))
		cancel()
		if err == nil && ok {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// text returns the text of the first element matching sel, or "".
func (p *page) text(sel string) string {
	p.t.Helper()
	return js[string](p, fmt.Sprintf(`(document.querySelector(%q)||{}).textContent||""`, sel))
}

// view returns the view the page was sent last.
func (p *page) view() map[string]any {
	p.t.Helper()
	raw := js[string](p, `JSON.stringify(window.sortie && window.sortie.page.msg ? window.sortie.page.msg.view : null)`)
	var v map[string]any
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		p.t.Fatalf("%s: view: %v", p.name, err)
	}
	return v
}

// matchState is what the match page shows in its data attributes.
type matchState struct {
	Status string `json:"status"`
	MyTurn bool   `json:"myTurn"`
	Busy   bool   `json:"busy"`
	Seq    int    `json:"seq"`
}

func (p *page) state() matchState {
	p.t.Helper()
	return js[matchState](p, `(() => { const m = document.querySelector('.match-page'); if (!m) return {}; const d = m.dataset;
		return {status: d.status || '', myTurn: d.myTurn === 'true', busy: d.busy === 'true', seq: +(d.seq || 0)}; })()`)
}

// waitMove waits until the page can act or the match is over.
func (p *page) waitMove(within time.Duration) matchState {
	p.t.Helper()
	p.wait(`(() => { const d = (document.querySelector('.match-page')||{}).dataset || {};
		return d.status === 'finished' || (d.myTurn === 'true' && d.busy !== 'true'); })()`, within)
	return p.state()
}

// createMatch fills the lobby form: game, players, seats ("human" or a bot
// name), options, and a short bot delay; it returns the match id.
func (p *page) createMatch(game string, seats []string, options map[string]string, name string) string {
	p.t.Helper()
	p.open("/")
	p.wait(fmt.Sprintf(`document.querySelector('[data-game=%q] input')`, game), 10*time.Second)
	p.click(fmt.Sprintf(`[data-game=%q] input`, game))
	p.wait(`document.querySelector('#create')`, 5*time.Second)
	set := func(sel, value string) {
		p.t.Helper()
		ok := js[bool](p, fmt.Sprintf(`(() => { const el = document.querySelector(%q); if (!el) return false;
			if (el.type === 'checkbox') el.checked = %q === 'true'; else el.value = %q;
			el.dispatchEvent(new Event('change', {bubbles: true})); el.dispatchEvent(new Event('input', {bubbles: true})); return true; })()`, sel, value, value))
		if !ok {
			p.t.Fatalf("%s: no field %s", p.name, sel)
		}
	}
	set("#players", fmt.Sprint(len(seats)))
	for i, st := range seats {
		if st == "human" {
			set(fmt.Sprintf("#seat-kind-%d", i), "human")
		} else {
			set(fmt.Sprintf("#seat-kind-%d", i), "bot")
			set(fmt.Sprintf("#seat-bot-%d", i), st)
		}
	}
	for k, v := range options {
		set("#opt-"+k, v)
	}
	p.click("details.advanced summary")
	if js[bool](p, `!!document.querySelector('#bot-delay')`) { // (real-time games keep their bots' own pace)
		set("#bot-delay", "0")
	}
	if name != "" {
		p.do("type name", chromedp.SendKeys(chromedp.CSS("#seat-name-0"), name))
	}
	p.click("#create-btn")
	p.wait(`document.querySelector('#play-link')`, 10*time.Second)
	href := js[string](p, `document.querySelector('#play-link').getAttribute('href')`)
	id := strings.TrimPrefix(strings.SplitN(href, "?", 2)[0], "/play/")
	if id == "" {
		p.t.Fatalf("%s: no match id in %q", p.name, href)
	}
	return id
}

func chromedpNavigate(url string) chromedp.Action[chromedp.Void] { return chromedp.Navigate(url) }

func chromedpType(sel, text string) chromedp.Action[chromedp.Void] {
	return chromedp.SendKeys(chromedp.CSS(sel), text)
}

// shot saves a screenshot in $SORTIE_SHOTS, if set, to look at the pages.
func (p *page) shot(name string) {
	dir := os.Getenv("SORTIE_SHOTS")
	if dir == "" {
		return
	}
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, p.name+"-"+name+".png"), buf, 0o644)
	}
	if err != nil {
		p.t.Logf("%s: screenshot %s: %v", p.name, name, err)
	}
}

func chromedpKey(keys string) chromedp.Action[chromedp.Void] { return chromedp.KeyEvent(keys) }
