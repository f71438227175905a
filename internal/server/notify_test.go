package server_test

import (
	"context"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"sortie/engine"
	"sortie/internal/mailtest"
	"sortie/internal/match"
	"sortie/internal/notify"
	"sortie/internal/notify/pushtest"
	"sortie/internal/server"
)

// Notifications as players get them: the tests stand a push service of
// their own in (pushtest: it checks each push's VAPID signature, decrypts
// it with the subscription's keys, and replaces an undelivered message of
// the same topic as real services do) and read the e-mails at a real SMTP
// server (mailtest).

const notifyDelay = 400 * time.Millisecond

// newNotifyEnv is a server with accounts whose notifications go to svc
// (allowed as a loopback push service) after notifyDelay.
func newNotifyEnv(t *testing.T, svc *pushtest.Service, tune func(*notify.Config)) *accountEnv {
	return newAccountEnv(t, func(c *server.Config) {
		c.ClockSpeed = 20
		c.NotifyDelay, c.PushServices = notifyDelay, svc.Host()+",fcm.googleapis.com"
		server.TuneNotify(c, func(nc *notify.Config) {
			nc.Poll = 50 * time.Millisecond
			if tune != nil {
				tune(nc)
			}
		})
	})
}

// device subscribes the browser's account to pushes on a new device of
// svc, which takes its messages at once.
func (b *browser) device(t *testing.T, svc *pushtest.Service) *pushtest.Subscription {
	t.Helper()
	sub := svc.Subscribe()
	body := sub.JSON()
	body["label"] = "Test device"
	var dev server.Device
	if err := b.Do(context.Background(), "POST", "/api/me/push", "", body, &dev); err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	if dev.ID == "" || dev.Endpoint != sub.Endpoint || dev.Label != "Test device" {
		t.Fatalf("the device subscribed: %+v", dev)
	}
	svc.Online(sub)
	return sub
}

// setLang sets the browser's account's language.
func (b *browser) setLang(t *testing.T, name, lang string) {
	t.Helper()
	if err := b.Do(context.Background(), "PATCH", "/api/me", "", map[string]string{"name": name, "lang": lang}, nil); err != nil {
		t.Fatal(err)
	}
}

// pushes waits until the device was given n messages in all (no more
// within the delay and a half after), and returns them.
func pushes(t *testing.T, svc *pushtest.Service, sub *pushtest.Subscription, n int) []pushtest.Message {
	t.Helper()
	deadline := time.Now().Add(notifyDelay + 10*time.Second)
	for len(svc.Delivered(sub)) < n && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(notifyDelay * 3 / 2)
	got := svc.Delivered(sub)
	if len(got) != n {
		var lines []string
		for _, m := range got {
			lines = append(lines, fmt.Sprintf("%q / %q", m.Title(), m.Body()))
		}
		t.Fatalf("the device was given %d pushes, not %d:\n%s\n(refused posts: %v)", len(got), n, strings.Join(lines, "\n"), svc.Errors())
	}
	return got
}

// checkPush checks a push's words, link and tag, and that it carries
// nothing else.
func checkPush(t *testing.T, m pushtest.Message, title, body, url, tag string) {
	t.Helper()
	if m.Title() != title || m.Body() != body || m.URL() != url || m.Tag() != tag || len(m.Payload) != 4 {
		t.Fatalf("the push says %s,\nnot {title %q, body %q, url %q, tag %q}", m.Plain, title, body, url, tag)
	}
	if m.TTL != 12*3600 || m.Topic == "" {
		t.Fatalf("the push's TTL %d s and topic %q: a push expires after 12 hours, under a topic", m.TTL, m.Topic)
	}
}

// seatPlayer opens the socket of an account's seat and reads until the
// state.
func (b *browser) seat(t *testing.T, id string, seat engine.Seat) *player {
	p := b.socketAs(t, id, seat)
	p.expect(t, "the seat's state", func(m *match.Message) bool { return m.Type == match.TypeState })
	return p
}

// "Your turn" reaches a player by push only when they are away (their turn
// came with no socket of theirs open on the seat, or they left on it, and
// they are still away after the delay), in their language, grouped (one
// push names every match waiting for them), once; it names the game and
// the other players, never a card. A correspondence table (a day a move)
// sends it by e-mail too, with a one-click unsubscribe that works.
func TestNotifyYourTurn(t *testing.T) {
	svc := pushtest.Start()
	defer svc.Close()
	e := newNotifyEnv(t, svc, nil)
	ctx := context.Background()
	ana, bo := e.browser(addrA), e.browser(addrB)
	ana.mustSignIn(t, "ana@example.org") // (French: askLink's language)
	bo.mustSignIn(t, "bo@example.org")
	bo.setLang(t, "Bo", "en")
	anaDev, boDev := ana.device(t, svc), bo.device(t, svc)
	var key struct {
		Key string `json:"key"`
	}
	if err := e.browser(addrB).Do(ctx, "GET", "/api/push/key", "", nil, &key); err != nil || len(key.Key) != 87 {
		t.Fatalf("the VAPID key: %q %v", key.Key, err)
	}
	// Ana's turns come by e-mail too, each one.
	set := notify.DefaultSettings()
	set.Turn.Email = notify.EmailEach
	if err := ana.Do(ctx, "PUT", "/api/me/notifications", "", set, nil); err != nil {
		t.Fatal(err)
	}

	day := int64(24 * time.Hour / time.Millisecond)
	newTable := func(limit int64) string {
		t.Helper()
		cm, err := ana.Create(ctx, match.CreateRequest{Game: "testcards", Players: 2, MoveLimitMs: &limit, TakeoverAfterMs: new(int64)})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ana.Join(ctx, cm.Match.ID, cm.Seats[0].Token, ""); err != nil {
			t.Fatal(err)
		}
		if _, err := bo.Join(ctx, cm.Match.ID, cm.Seats[1].Token, ""); err != nil {
			t.Fatal(err)
		}
		return cm.Match.ID
	}
	m1 := newTable(day)
	// At the table when the match starts: her turn comes, nobody is told.
	pa, pb := ana.seat(t, m1, 0), bo.seat(t, m1, 1)
	if err := ana.Do(ctx, "POST", "/api/matches/"+m1+"/start", "", nil, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := pa.play(ctx, newRand(1), playOptions{stopAfter: 1}); err != nil {
		t.Fatal(err)
	}
	pushes(t, svc, anaDev, 0)
	// Bo leaves on his turn: after the delay, he is told, in English.
	pb.close()
	got := pushes(t, svc, boDev, 1)
	checkPush(t, got[0], "Your turn: Test cards", "Ana is waiting for you.", "/play/"+m1, "turn")
	if got[0].VAPIDKey != key.Key {
		t.Fatalf("the push was signed with %q, not the server's key %q", got[0].VAPIDKey, key.Key)
	}
	// He comes back within the delay of his next turn: nobody is told.
	pb = bo.seat(t, m1, 1)
	if _, err := pb.play(ctx, newRand(2), playOptions{stopAfter: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := pa.play(ctx, newRand(3), playOptions{stopAfter: 1}); err != nil {
		t.Fatal(err)
	}
	pb.close()
	time.Sleep(notifyDelay / 4)
	pb = bo.seat(t, m1, 1)
	pushes(t, svc, boDev, 1)
	// Ana leaves; Bo plays: her turn comes while she is away. She is told
	// once, in French, by push and by e-mail (a day a move: a
	// correspondence table).
	pa.close()
	if _, err := pb.play(ctx, newRand(4), playOptions{stopAfter: 1}); err != nil {
		t.Fatal(err)
	}
	got = pushes(t, svc, anaDev, 1)
	checkPush(t, got[0], "À vous de jouer\u00a0: Cartes de test", "Bo vous attend.", "/play/"+m1, "turn")
	mctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	mail, err := e.mail.Next(mctx)
	if err != nil {
		t.Fatal(err)
	}
	checkTurnMail(t, e, ana, mail, m1)

	// Three more tables start while she is away: one push names the three
	// matches waiting for her (the first table still does; the live table
	// with a move limit does not wait: its bot plays before she could
	// come).
	m2, m3, m4 := newTable(day), newTable(0), newTable(90_000)
	for _, id := range []string{m2, m3, m4} {
		if err := ana.Do(ctx, "POST", "/api/matches/"+id+"/start", "", nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	got = pushes(t, svc, anaDev, 2)
	checkPush(t, got[1], "À vous de jouer dans 3 parties", "Cartes de test (3).", got[1].URL(), "turn")
	if u := got[1].URL(); u != "/play/"+m2 && u != "/play/"+m3 {
		t.Fatalf("the grouped push leads to %s, not to a match that just began", u)
	}
	if got[1].Topic != got[0].Topic {
		t.Fatal("two pushes of her turn have two topics: an undelivered one would not be replaced")
	}
	// One e-mail for the correspondence table among them (the third gives
	// no day a move).
	mail, err = e.mail.Next(mctx)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(mail.Body, "/play/"+m2) || strings.Contains(mail.Body, "/play/"+m3) || strings.Contains(mail.Body, "/play/"+m4) || !strings.Contains(mail.Body, "/play/"+m1) {
		t.Fatalf("the second mail lists the matches by correspondence waiting (%s, %s), not the live one (%s):\n%s", m1, m2, m3, mail.Body)
	}
	// No more: each was told once.
	pushes(t, svc, anaDev, 2)
	pushes(t, svc, boDev, 1)
	shortCtx, cancel2 := context.WithTimeout(ctx, notifyDelay)
	defer cancel2()
	if m, err := e.mail.Next(shortCtx); err == nil {
		t.Fatalf("a third mail came: %s", subject(m))
	}
	pb.close()
}

// checkTurnMail checks the e-mail of a turn: to the player, in French,
// naming the game and the other player, with its link, a Message-ID, and
// a one-click unsubscribe (List-Unsubscribe and its Post, RFC 8058) that
// turns every e-mail off once posted (and not when only opened).
func checkTurnMail(t *testing.T, e *accountEnv, ana *browser, m mailtest.Mail, id string) {
	t.Helper()
	link := e.public + "/play/" + id
	if len(m.To) != 1 || m.To[0] != "ana@example.org" || subject(m) != "À vous de jouer\u00a0: Cartes de test" ||
		!strings.Contains(m.Body, "Bonjour Ana,") || !strings.Contains(m.Body, "Cartes de test avec Bo\u00a0: "+link) {
		t.Fatalf("the turn's mail: to %v, %q\n%s", m.To, subject(m), m.Body)
	}
	if !strings.HasSuffix(m.Header.Get("Message-Id"), "@localhost>") {
		t.Fatalf("the mail's Message-ID: %q", m.Header.Get("Message-Id"))
	}
	unsub := strings.Trim(m.Header.Get("List-Unsubscribe"), "<>")
	if !strings.HasPrefix(unsub, e.public+"/unsubscribe?") || m.Header.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" || !strings.Contains(m.Body, unsub) {
		t.Fatalf("the mail's unsubscribe: %q, %q\n%s", unsub, m.Header.Get("List-Unsubscribe-Post"), m.Body)
	}
	hc := &http.Client{}
	emails := func() string {
		var got server.NotificationSettings
		if err := e.browser(addrA).Do(context.Background(), "GET", "/api/me/notifications", "", nil, nil); apiCode(err) != "signed_out" {
			t.Fatalf("settings read signed out: %v", err)
		}
		if err := ana.Do(context.Background(), "GET", "/api/me/notifications", "", nil, &got); err != nil {
			t.Fatal(err)
		}
		return got.Turn.Email + " " + got.Invite.Email + " " + got.End.Email
	}
	// Opened (as a mail scanner would): a page with a button, nothing more.
	resp, err := hc.Get(unsub)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("opening the unsubscribe link: %v %v", resp, err)
	}
	resp.Body.Close()
	if got := emails(); got != "each each off" {
		t.Fatalf("opening the link changed the e-mails: %s", got)
	}
	// A forged link does nothing.
	u, _ := url.Parse(unsub)
	q := u.Query()
	q.Set("t", strings.Repeat("A", 32))
	u.RawQuery = q.Encode()
	if resp, err := hc.PostForm(u.String(), url.Values{"List-Unsubscribe": {"One-Click"}}); err != nil || resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("a forged unsubscribe: %v %v", resp, err)
	}
	// The one-click post, as a mail client sends it.
	resp, err = hc.PostForm(unsub, url.Values{"List-Unsubscribe": {"One-Click"}})
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the one-click unsubscribe: %v %v", resp, err)
	}
	resp.Body.Close()
	if got := emails(); got != "off off off" {
		t.Fatalf("after unsubscribing, the e-mails are %s", got)
	}
	// Back on, for what follows.
	set := notify.DefaultSettings()
	set.Turn.Email = notify.EmailEach
	if err := ana.Do(context.Background(), "PUT", "/api/me/notifications", "", set, nil); err != nil {
		t.Fatal(err)
	}
}

// subject is a mail's subject, decoded.
func subject(m mailtest.Mail) string {
	s, err := new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject"))
	if err != nil {
		return m.Header.Get("Subject")
	}
	return s
}

// Turning pushes on: only signed in, only with an endpoint on a push
// service of the list (https, or a loopback host the list names) and keys
// that can encrypt, never from another site's page, a few times an hour;
// each refusal is a clear 400 (or 401, 403, 429) and stores nothing. The
// devices are listed with the settings, and removed one by one; a device
// whose push service says it is gone (410) is forgotten at the next push.
func TestPushSubscriptions(t *testing.T) {
	svc := pushtest.Start()
	defer svc.Close()
	e := newNotifyEnv(t, svc, nil)
	ctx := context.Background()
	ana := e.browser(addrA)
	ana.mustSignIn(t, "ana@example.org")
	good := svc.Subscribe()
	post := func(b *browser, body map[string]any) error { return b.Do(ctx, "POST", "/api/me/push", "", body, nil) }
	with := func(endpoint string) map[string]any {
		b := good.JSON()
		b["endpoint"] = endpoint
		return b
	}
	devices := func() []server.Device {
		var got server.NotificationSettings
		if err := ana.Do(ctx, "GET", "/api/me/notifications", "", nil, &got); err != nil {
			t.Fatal(err)
		}
		return got.Devices
	}
	if err := post(e.browser(addrB), good.JSON()); apiCode(err) != "signed_out" {
		t.Fatalf("a subscription signed out: %v", err)
	}
	for _, c := range []struct{ what, endpoint string }{
		{"a host not on the list", "https://push.evil.example/x"},
		{"a private address", "https://10.0.0.1/push"},
		{"plain http to a listed service", "http://fcm.googleapis.com/fcm/send/x"},
		{"another port of a listed service", "https://fcm.googleapis.com:8443/fcm/send/x"},
		{"a loopback address not listed", "http://127.0.0.2:9/push/x"},
		{"a user in the URL", "https://me@fcm.googleapis.com/fcm/send/x"},
		{"no URL", "fcm.googleapis.com"},
	} {
		err := post(ana, with(c.endpoint))
		if apiCode(err) != server.CodeBadEndpoint {
			t.Fatalf("%s (%s): %v, want 400 %s", c.what, c.endpoint, err, server.CodeBadEndpoint)
		}
		if !strings.Contains(err.Error(), "endpoint") {
			t.Fatalf("%s: the refusal does not say what is wrong: %v", c.what, err)
		}
	}
	bad := good.JSON()
	bad["keys"] = map[string]string{"p256dh": "AAAA", "auth": good.Auth}
	if err := post(ana, bad); apiCode(err) != server.CodeBadEndpoint {
		t.Fatalf("keys that cannot encrypt: %v", err)
	}
	if n := len(devices()); n != 0 {
		t.Fatalf("refused subscriptions left %d devices", n)
	}
	// From another site's page: refused.
	r, _ := http.NewRequest("POST", e.public+"/api/me/push", strings.NewReader(`{}`))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Origin", "https://evil.example")
	r.Header.Set("Sec-Fetch-Site", "cross-site")
	if resp, err := ana.HTTP.Do(r); err != nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("a subscription from another site: %v %v", resp, err)
	}
	// A real one, and the same browser again: one device.
	if err := post(ana, good.JSON()); err != nil {
		t.Fatal(err)
	}
	if err := post(ana, good.JSON()); err != nil {
		t.Fatal(err)
	}
	if ds := devices(); len(ds) != 1 || ds[0].Endpoint != good.Endpoint || ds[0].Service != svc.Host() {
		t.Fatalf("devices: %+v", ds)
	}
	// The player's data to take away holds them.
	var export struct {
		Notifications server.NotificationSettings `json:"notifications"`
	}
	if err := ana.Do(ctx, "GET", "/api/me/export", "", nil, &export); err != nil || len(export.Notifications.Devices) != 1 || export.Notifications.Turn.Email == "" {
		t.Fatalf("the export's notifications: %+v %v", export.Notifications, err)
	}
	// Five in a burst, then a wait.
	var err error
	for range 4 {
		if err = post(ana, svc.Subscribe().JSON()); err != nil {
			break
		}
	}
	if apiCode(err) != server.CodeTooManySubs {
		t.Fatalf("the sixth subscription within minutes: %v", err)
	}
	ds := devices()
	if len(ds) != 4 {
		t.Fatalf("%d devices after 4 subscriptions allowed", len(ds))
	}
	// Removed by id, by endpoint; an unknown id is a 404.
	if err := ana.Do(ctx, "DELETE", "/api/me/push/"+ds[3].ID, "", nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := ana.Do(ctx, "DELETE", "/api/me/push/"+ds[3].ID, "", nil, nil); apiCode(err) != server.CodeNotFound {
		t.Fatalf("removing a device twice: %v", err)
	}
	if err := ana.Do(ctx, "DELETE", "/api/me/push", "", map[string]string{"endpoint": ds[2].Endpoint}, nil); err != nil {
		t.Fatal(err)
	}
	if got := devices(); len(got) != 2 || got[0].ID != ds[0].ID || got[1].ID != ds[1].ID {
		t.Fatalf("after removing two devices: %+v", got)
	}
	// The second device's browser dropped it: the service says 410 at the
	// next push, and it is forgotten; the first still gets it.
	second := &pushtest.Subscription{}
	for _, s := range []*pushtest.Subscription{good} {
		svc.Online(s)
	}
	second.ID = ds[1].Endpoint[strings.LastIndex(ds[1].Endpoint, "/")+1:]
	svc.Gone(second)
	bo := e.browser(addrB)
	bo.mustSignIn(t, "bo@example.org")
	cm, err := ana.Create(ctx, match.CreateRequest{Game: "testcards", Players: 2, TakeoverAfterMs: new(int64), MoveLimitMs: new(int64)})
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range []*browser{ana, bo} {
		if _, err := b.Join(ctx, cm.Match.ID, cm.Seats[i].Token, ""); err != nil {
			t.Fatal(err)
		}
	}
	if err := ana.Do(ctx, "POST", "/api/matches/"+cm.Match.ID+"/start", "", nil, nil); err != nil {
		t.Fatal(err)
	}
	pushes(t, svc, good, 1)
	if got := devices(); len(got) != 1 || got[0].ID != ds[0].ID {
		t.Fatalf("a device gone (410) is still listed: %+v", got)
	}
}

// A friend's invitation reaches the invited player (unless they took the
// seat or declined meanwhile); the end of a match reaches its players who
// were not at the table, saying who won.
func TestNotifyInviteAndEnd(t *testing.T) {
	svc := pushtest.Start()
	defer svc.Close()
	e := newNotifyEnv(t, svc, nil)
	ctx := context.Background()
	ana, bo, cy := e.browser(addrA), e.browser(addrB), e.browser("127.0.0.3")
	ana.mustSignIn(t, "ana@example.org")
	boMe, cyMe := bo.mustSignIn(t, "bo@example.org"), cy.mustSignIn(t, "cy@example.org")
	bo.setLang(t, "Bo", "en")
	boDev, cyDev, anaDev := bo.device(t, svc), cy.device(t, svc), ana.device(t, svc)
	cm, err := ana.Create(ctx, match.CreateRequest{Game: "testcards", Players: 3, Options: map[string]string{"hand": "1"},
		TakeoverAfterMs: new(int64), MoveLimitMs: new(int64)})
	if err != nil {
		t.Fatal(err)
	}
	// Ana invites Bo and Cy; Cy declines within the delay.
	for _, inv := range []struct {
		seat int
		id   string
	}{{1, boMe.ID}, {2, cyMe.ID}} {
		if err := ana.Do(ctx, "POST", "/api/matches/"+cm.Match.ID+"/invite", "", map[string]any{"seat": inv.seat, "player": inv.id}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := cy.Do(ctx, "DELETE", "/api/matches/"+cm.Match.ID+"/seats/2/invitation", "", nil, nil); err != nil {
		t.Fatal(err)
	}
	got := pushes(t, svc, boDev, 1)
	checkPush(t, got[0], "Invitation: Test cards", "Ana keeps a seat for you. Take it or decline it in My games.", "/play/"+cm.Match.ID, "invite-"+cm.Match.ID)
	pushes(t, svc, cyDev, 0)
	// Bo takes his seat, a guest the third; Ana hands hers to its bot and
	// leaves; Bo plays to the end at the table.
	if err := bo.Do(ctx, "POST", "/api/matches/"+cm.Match.ID+"/seats/1/take", "", nil, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := ana.Join(ctx, cm.Match.ID, cm.Seats[0].Token, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := e.c.Join(ctx, cm.Match.ID, cm.Seats[2].Token, "Dee"); err != nil {
		t.Fatal(err)
	}
	pa, pb := ana.seat(t, cm.Match.ID, 0), bo.seat(t, cm.Match.ID, 1)
	pd := e.dial(cm.Match.ID, cm.Seats[2].Token, 2)
	if err := ana.Do(ctx, "POST", "/api/matches/"+cm.Match.ID+"/start", "", nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := pa.conn.Leave(ctx); err != nil {
		t.Fatal(err)
	}
	pa.close()
	done := make(chan error, 2)
	go func() { _, err := pb.play(ctx, newRand(7), playOptions{}); done <- err }()
	go func() { _, err := pd.play(ctx, newRand(8), playOptions{}); done <- err }()
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	sum, err := ana.Match(ctx, cm.Match.ID)
	if err != nil || sum.Outcome == nil {
		t.Fatalf("the match's outcome: %+v %v", sum, err)
	}
	// Test cards may end in a tie: Ana may win alone, with others, or not.
	var others []string
	for _, w := range sum.Outcome.Winners {
		if w != 0 {
			others = append(others, sum.Seats[w].Name)
		}
	}
	joined := strings.Join(others, " et ")
	var want string
	switch won := slices.Contains(sum.Outcome.Winners, 0); {
	case won && len(others) == 0:
		want = "Vous avez gagné."
	case won:
		want = "Vous avez gagné, avec " + joined + "."
	case len(others) == 1:
		want = joined + " a gagné."
	default:
		want = joined + " ont gagné."
	}
	got = pushes(t, svc, anaDev, 1)
	checkPush(t, got[0], "Partie terminée\u00a0: Cartes de test", want, "/play/"+cm.Match.ID, "end-"+cm.Match.ID)
	// Bo was at the table: no end for him.
	pushes(t, svc, boDev, 1)
	pb.close()
	pd.close()
}
