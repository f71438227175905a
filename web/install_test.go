package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/serviceworker"
	"github.com/chromedp/chromedp"

	"sortie/games/plandesecours"
)

// The web app: Chromium finds Sortie installable (a manifest with its
// icons, a service worker in control), and every icon the manifest names is
// served with the size it says.
func TestInstallable(t *testing.T) {
	s := newSite(t, plandesecours.Game{})
	res, err := http.Get(s.url + "/manifest.webmanifest")
	if err != nil {
		t.Fatal(err)
	}
	var man struct {
		Name      string
		ShortName string `json:"short_name"`
		StartURL  string `json:"start_url"`
		Display   string
		Icons     []struct{ Src, Sizes, Type, Purpose string }
	}
	ctype := res.Header.Get("Content-Type")
	err = json.NewDecoder(res.Body).Decode(&man)
	res.Body.Close()
	if err != nil || res.StatusCode != 200 || ctype != "application/manifest+json" {
		t.Fatalf("the manifest: %s, %q, %v", res.Status, ctype, err)
	}
	if man.Name != "Sortie" || man.ShortName == "" || man.StartURL != "/" || man.Display != "standalone" {
		t.Errorf("the manifest says %+v", man)
	}
	kinds := map[string]bool{}
	for _, ic := range man.Icons {
		res, err := http.Get(s.url + ic.Src)
		if err != nil || res.StatusCode != 200 || res.Header.Get("Content-Type") != ic.Type {
			t.Errorf("icon %s: %v %v %q", ic.Src, err, res.Status, res.Header.Get("Content-Type"))
			continue
		}
		if ic.Type == "image/png" {
			cfg, err := png.DecodeConfig(res.Body)
			if err != nil || fmt.Sprintf("%dx%d", cfg.Width, cfg.Height) != ic.Sizes {
				t.Errorf("icon %s is %dx%d (%v), the manifest says %s", ic.Src, cfg.Width, cfg.Height, err, ic.Sizes)
			}
			kinds[ic.Purpose+" "+ic.Sizes] = true
		}
		res.Body.Close()
	}
	for _, want := range []string{"any 192x192", "any 512x512", "maskable 512x512"} {
		if !kinds[want] {
			t.Errorf("the manifest has no %s PNG icon", want)
		}
	}

	p := s.browser("ada", "en").tab("lobby")
	p.open("/")
	p.wait(`document.querySelector('[data-game="plandesecours"]')`, 10*time.Second)
	p.wait(`!!navigator.serviceWorker.controller`, 10*time.Second)
	var errs []*cdppage.InstallabilityError
	p.do("installability", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		r, err := cdp.Call(ctx, tg, cdppage.GetInstallabilityErrors, cdp.Empty{})
		errs = r.InstallabilityErrors
		return err
	}))
	for _, e := range errs {
		t.Errorf("Chromium finds Sortie not installable: %s %v", e.ErrorID, e.ErrorArguments)
	}
	p.checkErrors()
}

// With the server out of reach, opening a page of Sortie (here a match's)
// shows the offline page in the reader's language, not a board; the
// worker keeps no copy of the match page to show instead.
func TestOfflinePage(t *testing.T) {
	s := newSite(t, plandesecours.Game{})
	c := s.create("plandesecours", []string{"human", "medium"}, nil, 0, "Zoé")
	p := s.browser("zoe", "fr").tab("match")
	p.openSeat(c, 0)
	p.wait(`!!navigator.serviceWorker.controller`, 10*time.Second)
	p.wait(`document.querySelector('.match-page') && document.querySelector('.match-page').dataset.status === 'running'`, 15*time.Second)
	// The server goes: no new connection, and the open ones are cut (the
	// socket, which the test server no longer tracks, by the page's own
	// hook). The page open shows the board as it stood, dimmed under the
	// banner.
	s.hs.Listener.Close()
	s.hs.CloseClientConnections()
	js[bool](p, `(window.sortie.page.drop(), true)`)
	p.wait(`!document.querySelector('#conn-banner').hidden`, 10*time.Second)
	if o := js[float64](p, `+getComputedStyle(document.querySelector('#board')).opacity`); o > 0.6 {
		t.Errorf("with its socket gone the board shows at opacity %v, as if it were live", o)
	}
	p.do("reload", chromedp.Reload())
	p.wait(`!!document.querySelector('#offline-fr')`, 15*time.Second)
	if js[bool](p, `!!document.querySelector('.match-page')`) {
		t.Error("the offline page shows a board")
	}
	if got := p.text("#offline-fr h1"); got != "Pas de connexion" {
		t.Errorf("the offline page's title reads %q", got)
	}
	if !js[bool](p, `document.querySelector('#offline-en').hidden && document.documentElement.lang === 'fr'`) {
		t.Error("the offline page speaks English to a French reader")
	}
	if s := p.text("#offline-fr"); !strings.Contains(s, "Réessayer") || strings.Contains(s, " :") {
		t.Errorf("the offline page reads %q", s)
	}
	p.axe("the offline page")
	p.checkErrors()
}

// A message pushed to the service worker is shown as a notification with
// the title and text the server wrote, leading to the page it names.
func TestPushShown(t *testing.T) {
	s := newSite(t, plandesecours.Game{})
	p := s.browser("ada", "en").tab("lobby")
	var (
		mu  sync.Mutex
		reg serviceworker.RegistrationID
	)
	if err := chromedp.Listen(p.ctx, func(ev any) {
		if ev, ok := ev.(*serviceworker.EventWorkerRegistrationUpdated); ok {
			mu.Lock()
			for _, r := range ev.Registrations {
				if !r.IsDeleted && strings.HasPrefix(r.ScopeURL, s.url) {
					reg = r.RegistrationID
				}
			}
			mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	p.open("/")
	p.wait(`!!navigator.serviceWorker.controller`, 10*time.Second)
	p.do("grant notifications and watch the workers", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
			Permission: &cdpbrowser.PermissionDescriptor{Name: "notifications"}, Setting: cdpbrowser.PermissionSettingGranted, Origin: s.url,
		}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, serviceworker.Enable, cdp.Empty{})
		return err
	}))
	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		id := reg
		mu.Unlock()
		if id != "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("Chromium never told the service worker's registration")
		}
		time.Sleep(50 * time.Millisecond)
	}
	p.wait(`Notification.permission === 'granted'`, 5*time.Second)
	msg := `{"title":"Your turn in 2 matches","body":"Plan de Secours with Bea; Room 25 with Bea and Cy","url":"/play/abc","tag":"turn"}`
	// Chromium may drop a message delivered while the worker starts (the
	// DevTools command answers before it is dispatched): deliver again
	// until one is shown; the same tag keeps it one notification.
	push := func() {
		p.do("push", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, serviceworker.DeliverPushMessage, serviceworker.DeliverPushMessageParams{Origin: s.url, RegistrationID: reg, Data: msg})
			return err
		}))
	}
	tries := 0
	for {
		push()
		tries++
		// (Each look asks the worker again: the push is shown a moment later.)
		if p.waitOK(`(navigator.serviceWorker.ready.then(r => r.getNotifications()).then(n => { window.shown = n.map(x => ({title: x.title, body: x.body, tag: x.tag, url: x.data && x.data.url})); }),
			window.shown && window.shown.length > 0)`, 3*time.Second) {
			break
		}
		if tries == 5 {
			t.Fatal("no push delivered to the service worker was shown")
		}
	}
	type shown struct{ Title, Body, Tag, URL string }
	got := js[[]shown](p, `window.shown`)
	want := shown{"Your turn in 2 matches", "Plan de Secours with Bea; Room 25 with Bea and Cy", "turn", "/play/abc"}
	if len(got) != 1 || got[0] != want {
		t.Errorf("the notifications shown are %+v, want %+v", got, want)
	}
	p.checkErrors()
}
