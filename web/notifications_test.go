package web_test

import (
	"context"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"

	"sortie/engine/enginetest/testgames"
	"sortie/internal/mailtest"
	"sortie/internal/notify/pushtest"
	"sortie/internal/server"
	"sortie/web"
)

// minimalSW is a service worker that shows each push as it says, for a
// client that does not bring one of its own (/sw.js).
const minimalSW = `self.addEventListener('push', (e) => {
  const d = e.data ? e.data.json() : {};
  e.waitUntil(self.registration.showNotification(d.title || 'Sortie', {body: d.body, tag: d.tag, data: {url: d.url}}));
});
self.addEventListener('notificationclick', (e) => { e.notification.close(); e.waitUntil(clients.openWindow(e.notification.data.url)); });`

// withSW is the client's files, with minimalSW as /sw.js where they have
// none.
func withSW() fs.FS {
	files := web.Files()
	if _, err := fs.Stat(files, "sw.js"); err == nil {
		return files
	}
	return overlay{files, fstest.MapFS{"sw.js": {Data: []byte(minimalSW)}}}
}

type overlay struct{ base, top fs.FS }

func (o overlay) Open(name string) (fs.File, error) {
	if f, err := o.top.Open(name); err == nil {
		return f, nil
	}
	return o.base.Open(name)
}

// fakePush replaces the page's Push API's subscribe, which headless
// Chromium cannot take to a real push service, by one that answers the
// subscription of the test's push service (made in Go with keys of its
// own), and notes the applicationServerKey it was asked with.
func fakePush(sub *pushtest.Subscription) string {
	return fmt.Sprintf(`(() => {
  const json = {endpoint: %q, expirationTime: null, keys: {p256dh: %q, auth: %q}};
  let current = null;
  PushManager.prototype.subscribe = async function (opts) {
    const k = new Uint8Array(opts.applicationServerKey);
    window.__askedKey = btoa(String.fromCharCode(...k)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    window.__userVisible = opts.userVisibleOnly;
    current = {endpoint: json.endpoint, expirationTime: null, toJSON: () => json, unsubscribe: async () => { current = null; return true; }};
    return current;
  };
  PushManager.prototype.getSubscription = async function () { return current; };
  return true;
})()`, sub.Endpoint, sub.P256dh, sub.Auth)
}

// The notifications page, as a player uses it: "Notify me on this device"
// asks the browser's permission, registers the service worker, subscribes
// with the server's VAPID key and gives the subscription to the server,
// which lists this device; the settings are saved as chosen; the device
// is removed from the list. In English and French, at a desktop's width
// and a phone's, with axe-core.
func TestNotificationsPage(t *testing.T) {
	svc := pushtest.Start()
	defer svc.Close()
	mail, err := mailtest.Start(false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mail.Close() })
	s := &accountSite{site: newSiteWith(t, func(c *server.Config) {
		c.PublicURL, c.SMTP, c.MailTLS = publicHere, mail.URL(), mail.ClientTLS()
		c.SignInRate = 6000
		c.PushServices, c.NotifyDelay = svc.Host(), 300*time.Millisecond
		c.Static = withSW()
	}, testgames.Draw{}), mail: mail}
	for _, lang := range []string{"en", "fr"} {
		p := s.browser("ana-"+lang, lang).tab("main")
		s.signInByMail(p, "ana-"+lang+"@example.org")
		p.do("allow notifications", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			for _, name := range []string{"notifications", "push"} {
				if _, err := cdp.Call(ctx, tg, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
					Permission: &cdpbrowser.PermissionDescriptor{Name: name, UserVisibleOnly: true}, Setting: cdpbrowser.PermissionSettingGranted, Origin: s.url}); err != nil {
					return err
				}
			}
			return nil
		}))
		// From the account page.
		p.open("/account")
		p.wait(`document.querySelector('#to-notifications')`, 10*time.Second)
		p.click("#to-notifications")
		p.wait(`document.querySelector('#device-on')`, 10*time.Second)
		sub := svc.Subscribe()
		if !js[bool](p, fakePush(sub)) {
			t.Fatal("the fake Push API was not set")
		}
		want := map[string]string{"en": "Notifications are off for this device.", "fr": "Les notifications sont désactivées sur cet appareil."}[lang]
		if got := p.text("#device-state"); got != want {
			t.Errorf("%s: the device says %q, want %q", lang, got, want)
		}
		p.click("#device-on")
		p.wait(`document.querySelector('#device-off')`, 15*time.Second)
		if !js[bool](p, `navigator.serviceWorker.getRegistration('/').then((r) => !!(r && r.active))`) {
			t.Errorf("%s: no service worker runs after turning pushes on", lang)
		}
		var key struct{ Key string }
		p.api("GET", "/api/push/key", nil, &key)
		if got := js[string](p, `window.__askedKey`); got != key.Key || !js[bool](p, `window.__userVisible === true`) {
			t.Errorf("%s: subscribed with the key %q (user visible %v), not the server's %q", lang, got, js[bool](p, `window.__userVisible`), key.Key)
		}
		var set server.NotificationSettings
		p.api("GET", "/api/me/notifications", nil, &set)
		if len(set.Devices) != 1 || set.Devices[0].Endpoint != sub.Endpoint {
			t.Fatalf("%s: the server's devices after subscribing: %+v", lang, set.Devices)
		}
		if got := js[int](p, `document.querySelectorAll('[data-device]').length`); got != 1 {
			t.Errorf("%s: the page lists %d devices", lang, got)
		}
		thisDevice := map[string]string{"en": "this device, since", "fr": "cet appareil, depuis le"}[lang]
		if got := p.text("[data-device]"); !strings.Contains(got, thisDevice) {
			t.Errorf("%s: the device's line %q does not say it is this one", lang, got)
		}
		// The settings, as chosen.
		for sel, v := range map[string]string{"#email-turn": "each", "#email-invite": "digest", "#time-zone": "America/Toronto", "#digest-at": "09:15"} {
			setValue(p, sel, v)
		}
		p.click("#push-end")
		p.click("#quiet-on")
		setValue(p, "#quiet-from", "23:00")
		setValue(p, "#quiet-to", "07:30")
		p.click("#notify-save")
		p.wait(`document.querySelector('#said-what').textContent !== ''`, 10*time.Second)
		p.api("GET", "/api/me/notifications", nil, &set)
		if set.Turn.Email != "each" || set.Invite.Email != "digest" || set.End.Push || !set.Turn.Push || set.Quiet.From != "23:00" || set.Quiet.To != "07:30" ||
			set.TimeZone != "America/Toronto" || set.DigestAt != "09:15" {
			t.Errorf("%s: the settings saved: %+v", lang, set.Settings)
		}
		var texts []string
		for _, sel := range []string{"main"} {
			texts = append(texts, p.text(sel))
		}
		proofreadTexts(t, lang, texts...)
		for _, size := range []struct {
			w, h int64
			tag  string
		}{{1280, 800, ""}, {390, 844, "-phone"}} {
			p.size(size.w, size.h, false)
			p.open("/account/notifications")
			p.wait(`document.querySelector('#notify-save')`, 10*time.Second)
			if w := js[int](p, `document.documentElement.scrollWidth`); w > int(size.w) {
				t.Errorf("%s at %d px scrolls sideways: %d px", lang, size.w, w)
			}
			if out := js[[]string](p, outOfPanels); len(out) > 0 {
				t.Errorf("%s at %d px: out of their panels: %q", lang, size.w, out)
			}
			p.axe(fmt.Sprintf("notifications (%s) at %d px", lang, size.w))
			p.shot("notifications-" + lang + size.tag)
		}
		// The device removed from the list.
		p.size(1280, 800, false)
		p.open("/account/notifications")
		p.wait(`document.querySelector('[data-device] button')`, 10*time.Second)
		p.click("[data-device] button")
		p.wait(`document.querySelector('#no-devices')`, 10*time.Second)
		p.api("GET", "/api/me/notifications", nil, &set)
		if len(set.Devices) != 0 {
			t.Errorf("%s: devices after removing the last: %+v", lang, set.Devices)
		}
		p.checkErrors()
	}
}

// setValue sets a form field's value as a person's choice does.
func setValue(p *page, sel, v string) {
	p.t.Helper()
	if !js[bool](p, fmt.Sprintf(`(() => { const el = document.querySelector(%q); if (!el || el.disabled) return false;
		el.value = %q; el.dispatchEvent(new Event('input', {bubbles: true})); el.dispatchEvent(new Event('change', {bubbles: true})); return el.value === %q; })()`, sel, v, v)) {
		p.t.Fatalf("%s: cannot set %s to %q", p.name, sel, v)
	}
}
