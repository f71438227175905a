package notify

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"net/url"
	"sortie/engine"
	"sortie/internal/account"
	"sortie/internal/mailtest"
	"sortie/internal/match"
	"sortie/internal/match/matchtest"
	"sortie/internal/store"
)

// The allow-list: the major browsers' services over https on their port,
// a loopback host only when named, nothing else.
func TestPushServicesCheck(t *testing.T) {
	ps, err := ParsePushServices(strings.Join(DefaultPushServices, ",") + ",127.0.0.1:4000")
	if err != nil {
		t.Fatal(err)
	}
	for endpoint, ok := range map[string]bool{
		"https://fcm.googleapis.com/fcm/send/abc":                 true,
		"https://updates.push.services.mozilla.com/wpush/v2/abc":  true,
		"https://wns2-par02p.notify.windows.com/w/?token=abc":     true,
		"https://web.push.apple.com/QGx":                          true,
		"http://127.0.0.1:4000/push/x":                            true,
		"http://127.0.0.1:5000/push/x":                            true, // (a loopback service's port is the test's)
		"https://notify.windows.com/w":                            false,
		"https://evilnotify.windows.com/w":                        false,
		"https://fcm.googleapis.com.evil.example/x":               false,
		"http://fcm.googleapis.com/fcm/send/abc":                  false,
		"https://fcm.googleapis.com:444/x":                        false,
		"https://user@fcm.googleapis.com/x":                       false,
		"http://localhost:4000/push/x":                            false,
		"http://[::1]:4000/push/x":                                false,
		"http://169.254.169.254/latest/meta-data":                 false,
		"ftp://fcm.googleapis.com/x":                              false,
		"https://FCM.googleapis.com/fcm/send/abc":                 true,
		"https://fcm.googleapis.com/" + strings.Repeat("a", 2000): false,
	} {
		if err := ps.Check(endpoint); (err == nil) != ok {
			t.Errorf("%s: %v, want allowed %v", endpoint, err, ok)
		}
	}
	for _, bad := range []string{"", " , ", "https://fcm.googleapis.com", "fcm.googleapis.com/x", "10.0.0.1:80"} {
		if _, err := ParsePushServices(bad); err == nil {
			t.Errorf("the list %q was taken", bad)
		}
	}
}

// Settings: checked, with the reasons in words; quiet hours across
// midnight in the player's time zone; the digest at its hour.
func TestSettings(t *testing.T) {
	s := DefaultSettings()
	if _, err := s.Check(); err != nil {
		t.Fatalf("the defaults: %v", err)
	}
	for _, c := range []struct {
		edit func(*Settings)
		want string
	}{
		{func(s *Settings) { s.Turn.Email = "weekly" }, "turn.email"},
		{func(s *Settings) { s.End.Email = EmailDigest }, "end.email"},
		{func(s *Settings) { s.Quiet = Quiet{From: "22:00"} }, "quiet_hours.to"},
		{func(s *Settings) { s.Quiet = Quiet{From: "25:00", To: "07:00"} }, "quiet_hours.from"},
		{func(s *Settings) { s.DigestAt = "8h" }, "digest_at"},
		{func(s *Settings) { s.TimeZone = "Mars/Olympus" }, "time_zone"},
	} {
		bad := DefaultSettings()
		c.edit(&bad)
		if _, err := bad.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("settings %+v: %v, want a word on %s", bad, err, c.want)
		}
	}
	s.Quiet, s.TimeZone = Quiet{From: "22:30", To: "07:00"}, "Europe/Paris"
	paris, _ := time.LoadLocation("Europe/Paris")
	for at, want := range map[string]string{
		"2026-06-01 22:29": "",
		"2026-06-01 22:30": "2026-06-02 07:00",
		"2026-06-02 03:00": "2026-06-02 07:00",
		"2026-06-02 07:00": "",
		"2026-06-02 12:00": "",
	} {
		now, _ := time.ParseInLocation("2006-01-02 15:04", at, paris)
		end, quiet := s.quietUntil(now.UTC())
		got := ""
		if quiet {
			got = end.In(paris).Format("2006-01-02 15:04")
		}
		if got != want {
			t.Errorf("at %s in Paris, quiet until %q, want %q", at, got, want)
		}
	}
	now, _ := time.ParseInLocation("2006-01-02 15:04", "2026-06-01 09:00", paris)
	if d := s.nextDigest(now).In(paris).Format("2006-01-02 15:04"); d != "2026-06-02 08:00" {
		t.Errorf("the digest after 09:00 is at %s", d)
	}
}

// The texts: French as a native writes it (agreement with the number of
// players, no space lost before a colon), English too, grouping by game.
func TestTexts(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{fr.turnBody([]string{"Bo"}), "Bo vous attend."},
		{fr.turnBody([]string{"Bo", "Cy", "Dee"}), "Bo, Cy et Dee vous attendent."},
		{fr.turnBody(nil), "La partie vous attend."},
		{en.turnBody([]string{"Bo"}), "Bo is waiting for you."},
		{en.turnBody([]string{"Bo", "Cy"}), "Bo and Cy are waiting for you."},
		{fr.turnManyTitle(3), "À vous de jouer dans 3 parties"},
		{fr.turnManyBody(fr.games([]string{"Room 25", "Les Évadés", "Room 25"})), "Room 25 (2) et Les Évadés."},
		{fr.turnTitle("Les Évadés"), "À vous de jouer\u00a0: Les Évadés"},
		{fr.endWon([]string{"Bo"}, "Bo"), "Bo a gagné."},
		{fr.endWon([]string{"Bo", "Cy"}, "Bo et Cy"), "Bo et Cy ont gagné."},
		{fr.digestTitle(1, 0), "À vous de jouer dans une partie"},
		{fr.digestTitle(0, 2), "2 places vous sont réservées"},
		{en.digestTitle(2, 0), "Your turn in 2 matches"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}

// matches is a Matches of summaries given by the test.
type matches map[string]match.Summary

func (m matches) Summary(_ context.Context, id string) (match.Summary, error) {
	if s, ok := m[id]; ok {
		return s, nil
	}
	return match.Summary{}, errors.New("no such match")
}

// The daily digest reaches the player's mailbox (a real SMTP server): the
// matches by correspondence waiting for them and the seats kept for them,
// in their language, with the unsubscribe link and header; a live match
// waiting is not in it, nor is anything when nothing waits.
func TestDigestMail(t *testing.T) {
	ctx := context.Background()
	st, err := store.OpenSQLite(filepath.Join(t.TempDir(), "s.db"), store.SQLiteOptions{Sync: "normal"})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv, err := mailtest.Start(false)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	smtp, err := account.NewSMTP(srv.URL(), "Sortie <sortie@example.org>", srv.ClientTLS())
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []*store.Account{{ID: "ana", Name: "Ana", Email: "ana@example.org", Lang: "fr", Handle: []byte("a")},
		{ID: "bob", Name: "Bob", Lang: "en", Handle: []byte("b")}} {
		a.Created = time.Now()
		if err := st.CreateAccount(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	day := (24 * time.Hour).Milliseconds()
	seats := func(ana engine.Seat) []match.SeatSummary {
		out := []match.SeatSummary{{Seat: 0, Name: "Bob", Account: "bob", PlayedBy: "human"}, {Seat: 1, Name: "Cy", PlayedBy: "human"}}
		out[ana] = match.SeatSummary{Seat: ana, Name: "Ana", Account: "ana", PlayedBy: "human"}
		return out
	}
	ms := matches{}
	for i, c := range []struct {
		id    string
		limit int64
	}{{"corr1", day}, {"corr2", 2 * day}, {"live1", 90_000}} {
		m := &store.Match{ID: c.id, Game: "testcards", Setup: engine.Setup{Players: 2}, Status: store.Running, Created: time.Now().Add(time.Duration(i) * time.Second),
			Seats: []store.Seat{{Kind: "human", Account: "ana"}, {Kind: "human"}}}
		if err := st.Create(ctx, m); err != nil {
			t.Fatal(err)
		}
		ms[c.id] = match.Summary{ID: c.id, Game: "testcards", Status: store.Running, Live: true, Seats: seats(0),
			Actors: []engine.Seat{0}, Settings: match.SettingsSummary{MoveLimitMs: c.limit}}
	}
	inv := &store.Match{ID: "inv1", Game: "testcards", Setup: engine.Setup{Players: 2}, Created: time.Now(), Seats: []store.Seat{{Kind: "human", Account: "bob"}, {Kind: "human"}}}
	if err := st.Create(ctx, inv); err != nil {
		t.Fatal(err)
	}
	ms["inv1"] = match.Summary{ID: "inv1", Game: "testcards", Status: store.Open, Seats: seats(1)}
	if err := st.Invite(ctx, store.Invitation{Match: "inv1", Seat: 1, Account: "ana", From: "bob", Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	pub, _ := url.Parse("https://sortie.example")
	n, err := New(ctx, Config{Store: st, Matches: ms, Games: []engine.Game{matchtest.Cards{}}, PublicURL: pub, Mailer: smtp})
	if err != nil {
		t.Fatal(err)
	}
	set := DefaultSettings()
	set.Invite.Email = EmailDigest
	if _, err := n.SaveSettings(ctx, "ana", set); err != nil {
		t.Fatal(err)
	}
	a, _ := st.Account(ctx, "ana")
	if o := n.digest(ctx, a, set); o.err != nil || o.result != "mailed" {
		t.Fatalf("the digest: %+v", o)
	}
	mctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	m, err := srv.Next(mctx)
	if err != nil {
		t.Fatal(err)
	}
	want := "Bonjour Ana,\n\nC’est à vous de jouer\u00a0:\n" +
		"- Cartes de test avec Cy\u00a0: https://sortie.example/play/corr2\n" +
		"- Cartes de test avec Cy\u00a0: https://sortie.example/play/corr1\n\n" +
		"Des places vous sont réservées\u00a0:\n" +
		"- Cartes de test avec Bob\u00a0: https://sortie.example/play/inv1\n\n" +
		"Choisissez ce que Sortie vous signale, et comment\u00a0:\nhttps://sortie.example/account/notifications\n\n" +
		"Ne plus recevoir d’e-mails de Sortie, en un clic\u00a0:\n" + n.UnsubscribeURL("ana") + "\n\n— Sortie\n"
	if body := strings.ReplaceAll(m.Body, "\r\n", "\n"); body != want {
		t.Fatalf("the digest reads:\n%s\nwant:\n%s", body, want)
	}
	if got := m.Header.Get("List-Unsubscribe"); got != "<"+n.UnsubscribeURL("ana")+">" {
		t.Fatalf("List-Unsubscribe: %q", got)
	}
	// Nothing waits: no mail.
	for id, s := range ms {
		s.Actors = nil
		ms[id] = s
	}
	if err := st.Uninvite(ctx, "inv1", 1); err != nil {
		t.Fatal(err)
	}
	if o := n.digest(ctx, a, set); o.result != "nothing to tell" {
		t.Fatalf("an empty digest: %+v", o)
	}
}
