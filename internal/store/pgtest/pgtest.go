// Package pgtest gives tests a real PostgreSQL: either the one named by
// SORTIE_TEST_POSTGRES (a postgres:// URL whose user may create databases),
// or a throwaway server that it makes with the system's initdb in a temporary
// folder and runs on a Unix socket there, killed with the test process.
//
// PostgreSQL refuses to run as root: under root the throwaway server runs as
// the user nobody. Where no PostgreSQL is to be had, [Start] returns
// [ErrUnavailable]; tests then skip with its message, or fail under CI
// (CI=true), which must install it (.ci/run does). Only tests import this
// package.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// ErrUnavailable says that no PostgreSQL can be had here.
var ErrUnavailable = errors.New("pgtest: no PostgreSQL here: install it (apt-get install postgresql) or set SORTIE_TEST_POSTGRES to a postgres:// URL")

// Server is a PostgreSQL the tests may use.
type Server struct {
	admin string // URL of the maintenance database

	// A throwaway server (empty when SORTIE_TEST_POSTGRES is used):
	bin, dir, data string
	cred           *syscall.Credential
	mu             sync.Mutex
	cmd            *exec.Cmd
	exited         chan struct{}
}

var serial atomic.Int64

// Start returns the server named by SORTIE_TEST_POSTGRES, or makes and
// starts a throwaway one.
func Start() (*Server, error) {
	if u := os.Getenv("SORTIE_TEST_POSTGRES"); u != "" {
		return &Server{admin: u}, nil
	}
	bin := findBin()
	if bin == "" {
		return nil, ErrUnavailable
	}
	// Under /tmp: the user nobody can reach it, and the socket's path stays
	// short (Unix sockets take about a hundred bytes).
	dir, err := os.MkdirTemp("/tmp", "sortie-pg-")
	if err != nil {
		return nil, err
	}
	s := &Server{bin: bin, dir: dir, data: filepath.Join(dir, "data")}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("nobody")
		if err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("%w (running as root, and there is no user nobody to run it as)", ErrUnavailable)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		s.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		if err := os.Chown(dir, uid, gid); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	out, err := s.command(filepath.Join(bin, "initdb"), "-D", s.data, "-U", "postgres", "-A", "trust",
		"--no-sync", "-E", "UTF8", "--locale=C").CombinedOutput()
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("pgtest: initdb: %v\n%s", err, out)
	}
	q := url.Values{"host": {dir}, "sslmode": {"disable"}}
	s.admin = "postgres://postgres@/postgres?" + q.Encode()
	if err := s.Restart(); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

// findBin finds the folder of PostgreSQL's programs: Debian's newest
// /usr/lib/postgresql/N/bin, or initdb on PATH.
func findBin() string {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool {
		a, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[i])))
		b, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[j])))
		return a > b
	})
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p)
	}
	return ""
}

func (s *Server) command(name string, args ...string) *exec.Cmd {
	c := exec.Command(name, args...)
	c.Dir = s.dir
	c.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred, Pdeathsig: syscall.SIGQUIT}
	return c
}

// Throwaway reports whether the server is the tests' own, which they may
// stop and start.
func (s *Server) Throwaway() bool { return s.dir != "" }

// Restart starts the throwaway server (after Kill or Stop) and waits until
// it answers.
func (s *Server) Restart() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		return errors.New("pgtest: the server is running")
	}
	logf, err := os.OpenFile(filepath.Join(s.dir, "postgres.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer logf.Close()
	c := s.command(filepath.Join(s.bin, "postgres"), "-D", s.data, "-k", s.dir, "-c", "listen_addresses=",
		"-c", "shared_buffers=32MB", "-c", "max_connections=200")
	c.Stdout, c.Stderr = logf, logf
	if err := c.Start(); err != nil {
		return fmt.Errorf("pgtest: postgres: %v", err)
	}
	s.cmd, s.exited = c, make(chan struct{})
	go func(done chan struct{}) { c.Wait(); close(done) }(s.exited)
	deadline := time.Now().Add(60 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		conn, err := pgx.Connect(ctx, s.admin)
		cancel()
		if err == nil {
			conn.Close(context.Background())
			return nil
		}
		select {
		case <-s.exited:
			log, _ := os.ReadFile(filepath.Join(s.dir, "postgres.log"))
			s.cmd = nil
			return fmt.Errorf("pgtest: postgres stopped at start: %s", log)
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("pgtest: postgres does not answer after 60 s: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Kill stops the throwaway server at once, as a crash would (its clients'
// connections drop; it recovers from its log when it restarts).
func (s *Server) Kill() { s.signal(syscall.SIGQUIT) }

// Stop shuts the throwaway server down cleanly and waits for it.
func (s *Server) Stop() {
	s.signal(syscall.SIGINT)
	if s.dir != "" {
		os.RemoveAll(s.dir)
	}
}

func (s *Server) signal(sig syscall.Signal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	s.cmd.Process.Signal(sig)
	select {
	case <-s.exited:
	case <-time.After(30 * time.Second):
		s.cmd.Process.Kill()
		<-s.exited
	}
	s.cmd = nil
}

// Database creates a new, empty database and returns its URL.
func (s *Server) Database(ctx context.Context) (string, error) {
	conn, err := pgx.Connect(ctx, s.admin)
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	name := fmt.Sprintf("sortie_test_%d_%d", os.Getpid(), serial.Add(1))
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return "", err
	}
	u, err := url.Parse(s.admin)
	if err != nil {
		return "", err
	}
	u.Path = "/" + name
	return u.String(), nil
}

// Drop removes a database made by Database.
func (s *Server) Drop(ctx context.Context, dbURL string) error {
	u, err := url.Parse(dbURL)
	if err != nil {
		return err
	}
	conn, err := pgx.Connect(ctx, s.admin)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, "DROP DATABASE IF EXISTS "+strings.TrimPrefix(u.Path, "/")+" WITH (FORCE)")
	return err
}

// Shared starts one server for a test binary on first use. Tests call it
// through [Require]; TestMain stops it with [StopShared].
var shared struct {
	once sync.Once
	srv  *Server
	err  error
}

// Require returns the test binary's server, starting it on first use. Where
// there is none, the test is skipped with the reason, or fails under CI.
func Require(t testing.TB) *Server {
	t.Helper()
	shared.once.Do(func() { shared.srv, shared.err = Start() })
	if shared.err != nil {
		missing(t, shared.err)
	}
	return shared.srv
}

// Own starts a server of the test's own, stopped when the test ends, for a
// package that has no TestMain to stop a shared one. Where there is none,
// the test is skipped with the reason, or fails under CI.
func Own(t testing.TB) *Server {
	t.Helper()
	s, err := Start()
	if err != nil {
		missing(t, err)
	}
	t.Cleanup(s.Stop)
	return s
}

// StopShared stops the server Require started, if any.
func StopShared() {
	if shared.srv != nil {
		shared.srv.Stop()
	}
}

// missing skips the test for want of PostgreSQL, or fails it under CI.
func missing(t testing.TB, err error) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("PostgreSQL is needed in CI: %v", err)
	}
	t.Skipf("skipping: %v", err)
}
