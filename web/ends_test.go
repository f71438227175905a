package web_test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	"sortie/games/plandesecours"
	"sortie/internal/match"
	"sortie/internal/server"
	"sortie/internal/server/client"
	"sortie/internal/store"
)

// Matches that ended early read in the lobby's own tab, each with why, in
// the reader's language; the page of a match that failed says why and lets
// its host close it (a second press confirms). (Issue 19, findings 2 and 8.)
func TestMatchesThatEndedEarly(t *testing.T) {
	s := newSiteWith(t, func(c *server.Config) { c.ExpireOpen = 300 * time.Millisecond }, plandesecours.Game{})
	ctx := context.Background()
	c := client.New(s.url)
	expired, err := c.Create(ctx, match.CreateRequest{Game: "plandesecours", Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for sum, _ := c.Match(ctx, expired.Match.ID); sum.Status != store.Expired; sum, _ = c.Match(ctx, expired.Match.ID) {
		if time.Now().After(deadline) {
			t.Fatalf("the open match never expired: %s", sum.Status)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// A match that failed, as the server stores one whose log no longer
	// replays.
	const failed, host = "failedMatch1", "the-host-token-of-the-failed-match"
	db, err := sql.Open("sqlite", "file:"+s.db)
	if err != nil {
		t.Fatal(err)
	}
	hash := sha256.Sum256([]byte(host))
	now := time.Now().UnixMilli()
	if _, err := db.Exec(`INSERT INTO matches (id, game, setup, seats, host_hash, settings, status, reason, created, started, finished)
		VALUES (?, 'plandesecours', '{"players":2,"seed":1}', '[{"kind":"human","joined":true},{"kind":"human","joined":true}]', ?, x'7b7d',
		'failed', '{"code":"log_unreadable","message":"Record 3 of the match''s log no longer replays.","params":{"record":3}}', ?, ?, ?)`,
		failed, hash[:], now, now, now); err != nil {
		t.Fatal(err)
	}
	db.Close()

	p := s.browser("ana", "fr").tab("lobby")
	p.open("/")
	p.wait(`document.querySelector('#tab-ended')`, 10*time.Second)
	if got := p.text("#tab-ended"); got != "interrompue" {
		t.Errorf("the tab of the matches that ended early reads %q", got)
	}
	p.click("#tab-ended")
	p.wait(fmt.Sprintf(`document.querySelector('[data-match=%q] .reason') && document.querySelector('[data-match=%q] .reason')`, expired.Match.ID, failed), 10*time.Second)
	if got := p.text(fmt.Sprintf(`[data-match=%q]`, expired.Match.ID)); !strings.Contains(got, "expirée") || !strings.Contains(got, "Expirée\u00a0: personne ne l’a lancée dans un délai de 0,3\u00a0s.") {
		t.Errorf("the expired match reads %q", got)
	}
	if got := p.text(fmt.Sprintf(`[data-match=%q]`, failed)); !strings.Contains(got, "En échec\u00a0: l’étape 3 de son journal ne se rejoue plus") || !strings.Contains(got, "Voir pourquoi") {
		t.Errorf("the failed match reads %q", got)
	}

	// Its host's page says why and closes it.
	js[bool](p, fmt.Sprintf(`(localStorage.setItem('sortie.matches', JSON.stringify({%q: {seats: {}, invites: {}, host: %q}})), true)`, failed, host))
	p.open("/play/" + failed)
	p.wait(`document.querySelector('#turn') && /En échec/.test(document.querySelector('#turn').textContent)`, 10*time.Second)
	p.click("#close-match")
	p.wait(`/Vraiment/.test(document.querySelector('#close-match').textContent)`, 5*time.Second)
	p.click("#close-match")
	p.wait(`document.querySelector('#status-badge').textContent === 'fermée'`, 10*time.Second)
	if got := p.text("#turn"); got != "Fermée par son hôte." {
		t.Errorf("the closed match reads %q", got)
	}
	if sum, err := c.Match(ctx, failed); err != nil || sum.Status != store.Closed {
		t.Errorf("the server holds %+v %v", sum.Status, err)
	}
	p.checkErrors()
}
