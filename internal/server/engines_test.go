package server_test

import (
	"context"
	"database/sql"
	"io"
	"net/http"
	"testing"
	"time"

	"sortie/internal/match"
	"sortie/internal/match/matchtest"
	"sortie/internal/server"
	"sortie/internal/store/pgtest"
	"sortie/internal/store/storetest"
)

// healthzBecomes waits until /healthz answers code, for up to 30 s.
func healthzBecomes(t *testing.T, e *env, code int, when string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		res, err := http.Get(e.hs.URL + "/healthz")
		if err == nil {
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode == code {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("/healthz %s: still not %d after 30 s (%v)", when, code, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// /healthz says 503 while the store cannot write, though it can still be
// read, and 200 again once it can, without a restart.
func TestHealthzSaysUnavailableWhenTheStoreCannotWrite(t *testing.T) {
	t.Run("the file locked by another program", func(t *testing.T) {
		e := newEnv(t, matchtest.Games(), nil)
		e.newMatch(match.CreateRequest{Game: "testcards", Players: 2}, true)
		healthzBecomes(t, e, http.StatusOK, "at first")
		// The server may be writing (a clock, the health probe) when the
		// lock is asked for: wait for it as another program would.
		other, err := sql.Open("sqlite", "file:"+e.cfg.DataPath+"?_pragma=busy_timeout(10000)")
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close()
		conn, err := other.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if _, err := conn.ExecContext(context.Background(), `BEGIN EXCLUSIVE`); err != nil {
			t.Fatal(err)
		}
		healthzBecomes(t, e, http.StatusServiceUnavailable, "while the file is locked")
		conn.ExecContext(context.Background(), `ROLLBACK`)
		healthzBecomes(t, e, http.StatusOK, "once the lock is released")
	})
	t.Run("the files made immutable", func(t *testing.T) {
		e := newEnv(t, matchtest.Games(), nil)
		e.newMatch(match.CreateRequest{Game: "testcards", Players: 2}, true)
		writable := storetest.Immutable(t, e.cfg.DataPath)
		healthzBecomes(t, e, http.StatusServiceUnavailable, "with immutable files")
		writable()
		healthzBecomes(t, e, http.StatusOK, "once the files are writable again")
	})
}

// A server runs wholly on PostgreSQL: matches are played, and survive a
// restart of the server.
func TestServerOnPostgres(t *testing.T) {
	srv := pgtest.Own(t)
	db, err := srv.Database(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, matchtest.Games(), func(c *server.Config) { c.StoreURL, c.DataPath = db, "" })
	rp := fullMatch(t, e, matchtest.Cards{}, match.CreateRequest{Players: 2}, 1, 1)
	open := e.newMatch(match.CreateRequest{Game: "testcards", Players: 2}, false)
	e.restart()
	again, err := e.c.Replay(context.Background(), rp.Match.ID)
	if err != nil || len(again.Log) != len(rp.Log) || again.Outcome == nil {
		t.Fatalf("the finished match after a restart: %v", err)
	}
	if _, err := e.c.Start(context.Background(), open.Match.ID, open.HostToken); err != nil {
		t.Fatalf("start the open match after a restart: %v", err)
	}
	healthzBecomes(t, e, http.StatusOK, "on PostgreSQL")
}
