package store_test

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"sortie/internal/store"
)

// checkDamagedRow stores two matches, spoils the setup of one with damage
// (an SQL statement given the match's id, run on the database beside the
// store), and checks that the store still reads both: the spoiled one with
// Damaged saying why and its setup zero, the other whole.
func checkDamagedRow(t *testing.T, s store.Store, damage func(id string)) {
	t.Helper()
	ctx := context.Background()
	for _, id := range []string{"spoiled", "whole"} {
		m := &store.Match{ID: id, Game: "g", Seats: []store.Seat{{Kind: "human"}}, Created: time.Now()}
		m.Setup.Players = 1
		if err := s.Create(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	damage("spoiled")
	got, err := s.Get(ctx, "spoiled")
	if err != nil || got.Damaged == "" || got.Setup.Players != 0 || len(got.Seats) != 1 {
		t.Fatalf("the spoiled match reads as %+v, %v", got, err)
	}
	if got, err := s.Get(ctx, "whole"); err != nil || got.Damaged != "" || got.Setup.Players != 1 {
		t.Fatalf("the whole match reads as %+v, %v", got, err)
	}
	ms, err := s.List(ctx, store.Filter{})
	if err != nil || len(ms) != 2 {
		t.Fatalf("one spoiled row, and the list is %d matches, %v", len(ms), err)
	}
	for _, m := range ms {
		if (m.ID == "spoiled") != (m.Damaged != "") {
			t.Errorf("listed: %s damaged %q", m.ID, m.Damaged)
		}
	}
}

func TestDamagedRowSQLite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sortie.db")
	s := openSQLite(t, path)
	defer s.Close()
	checkDamagedRow(t, s, func(id string) {
		db, err := sql.Open("sqlite", "file:"+path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.Exec(`UPDATE matches SET setup = '{"players":' WHERE id = ?`, id); err != nil {
			t.Fatal(err)
		}
	})
}

func TestDamagedRowPostgres(t *testing.T) {
	_, u := pgDatabase(t)
	s := openPostgres(t, u, store.PostgresOptions{})
	defer s.Close()
	checkDamagedRow(t, s, func(id string) {
		ctx := context.Background()
		conn, err := pgx.Connect(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, `UPDATE matches SET setup = '{"players":' WHERE id = $1`, id); err != nil {
			t.Fatal(err)
		}
	})
}

// checkDamagedSeats gives an account seats in two matches, spoils the seats
// of one with damage (as checkDamagedRow), and checks that the account is
// still deleted: the whole match's seat is a deleted player's, the spoiled
// one is left as it is.
func checkDamagedSeats(t *testing.T, s interface {
	store.Store
	store.Accounts
}, damage func(id string)) {
	t.Helper()
	ctx := context.Background()
	if err := s.CreateAccount(ctx, &store.Account{ID: "ana", Handle: []byte("ana"), Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"spoiled", "whole"} {
		m := &store.Match{ID: id, Game: "g", Seats: []store.Seat{{Kind: "human", Name: "Ana", Account: "ana"}}, Created: time.Now()}
		if err := s.Create(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	damage("spoiled")
	if err := s.DeleteAccount(ctx, "ana"); err != nil {
		t.Fatalf("delete an account that held a seat of a damaged match: %v", err)
	}
	if _, err := s.Account(ctx, "ana"); !errors.Is(err, store.ErrNoAccount) {
		t.Fatalf("the account after its deletion: %v", err)
	}
	if m, err := s.Get(ctx, "whole"); err != nil || m.Seats[0].Account != "" || m.Seats[0].Name != "" || !m.Seats[0].Deleted {
		t.Fatalf("the whole match's seat: %+v, %v", m.Seats, err)
	}
	if m, err := s.Get(ctx, "spoiled"); err != nil || m.Damaged == "" {
		t.Fatalf("the spoiled match: %+v, %v", m, err)
	}
}

func TestDamagedSeatsSQLite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sortie.db")
	s := openSQLite(t, path)
	checkDamagedSeats(t, s, func(id string) {
		db, err := sql.Open("sqlite", "file:"+path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.Exec(`UPDATE matches SET seats = '[{"kind":"human","account":"ana","hash":"zz"}' WHERE id = ?`, id); err != nil {
			t.Fatal(err)
		}
	})
}

func TestDamagedSeatsPostgres(t *testing.T) {
	_, u := pgDatabase(t)
	s := openPostgres(t, u, store.PostgresOptions{})
	checkDamagedSeats(t, s, func(id string) {
		ctx := context.Background()
		conn, err := pgx.Connect(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, `UPDATE matches SET seats = '[{"kind":"human","account":"ana","hash":"zz"}]' WHERE id = $1`, id); err != nil {
			t.Fatal(err)
		}
	})
}
