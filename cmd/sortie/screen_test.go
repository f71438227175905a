package main

import (
	"flag"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"
)

// The terminal client's tests run `sortie play` for real: this test binary
// starts itself as sortie (SORTIE_AS_MAIN) in a pseudo-terminal, and a
// terminal emulator (charmbracelet/x/vt) keeps the screen a person would
// see, which the tests read.

var update = flag.Bool("update", false, "rewrite the golden screens in testdata/screens")

func TestMain(m *testing.M) {
	if os.Getenv("SORTIE_AS_MAIN") == "1" {
		os.Args = append([]string{"sortie"}, strings.Fields(os.Getenv("SORTIE_ARGS"))...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// screen is sortie running in a pseudo-terminal of a given size.
type screen struct {
	t    *testing.T
	cmd  *exec.Cmd
	tty  *os.File
	mu   sync.Mutex
	emu  *vt.Emulator
	done chan struct{}
}

// play starts `sortie play args…` in a w×h terminal, with env added.
func play(t *testing.T, w, h int, env []string, args ...string) *screen {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SORTIE_AS_MAIN=1", "SORTIE_ARGS=play "+strings.Join(args, " "), "TERM=xterm-256color", "LANG=C.UTF-8", "LC_ALL=", "LC_CTYPE=", "LC_MESSAGES=")
	cmd.Env = append(cmd.Env, env...)
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: uint16(w), Rows: uint16(h)})
	if err != nil {
		t.Fatal(err)
	}
	s := &screen{t: t, cmd: cmd, tty: tty, emu: vt.NewEmulator(w, h), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		buf := make([]byte, 64<<10)
		for {
			n, err := tty.Read(buf)
			if n > 0 {
				s.mu.Lock()
				s.emu.Write(buf[:n])
				s.mu.Unlock()
			}
			if err != nil {
				return
			}
		}
	}()
	// The terminal's answers to the program's questions go back to it.
	go io.Copy(tty, s.emu)
	t.Cleanup(s.stop)
	return s
}

func (s *screen) stop() {
	if s.cmd.ProcessState == nil {
		_ = s.cmd.Process.Kill()
		_ = s.cmd.Wait()
	}
	s.tty.Close()
	<-s.done
}

// text is the screen now, without trailing spaces.
func (s *screen) text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	lines := strings.Split(s.emu.String(), "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	return strings.Join(lines, "\n")
}

// scrollback is what scrolled off the top of the terminal.
func (s *screen) scrollback() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	for _, l := range s.emu.Scrollback().Lines() {
		b.WriteString(l.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// waitFor waits until the screen shows every text, and returns it.
func (s *screen) waitFor(texts ...string) string {
	s.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		got := s.text()
		ok := true
		for _, x := range texts {
			ok = ok && strings.Contains(got, x)
		}
		if ok {
			return got
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the screen never showed %q; it shows:\n%s", texts, got)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// settle waits until the screen stays the same for a while (bots have
// played and the client drew it), and returns it.
func (s *screen) settle(texts ...string) string {
	s.t.Helper()
	last := s.waitFor(texts...)
	since := time.Now()
	deadline := time.Now().Add(60 * time.Second)
	for time.Since(since) < 1500*time.Millisecond {
		time.Sleep(100 * time.Millisecond)
		now := s.text()
		if clocks.ReplaceAllString(now, "") != clocks.ReplaceAllString(last, "") {
			last, since = now, time.Now()
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the screen never settled; it shows:\n%s", now)
		}
	}
	return last
}

// keys types into the terminal.
func (s *screen) keys(k string) {
	s.t.Helper()
	if _, err := s.tty.Write([]byte(k)); err != nil {
		s.t.Fatal(err)
	}
}

// clocks are the times on screen, which the real-time golden screens mask.
var clocks = regexp.MustCompile(`\b\d+:\d\d\b`)

// golden compares a screen with testdata/screens/<name>.txt (rewritten
// with -update).
func golden(t *testing.T, name, got string) {
	t.Helper()
	got = clocks.ReplaceAllString(got, "m:ss") + "\n"
	path := "testdata/screens/" + name + ".txt"
	if *update {
		if err := os.MkdirAll("testdata/screens", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/sortie -run Screen -update to write it)", err)
	}
	if string(want) != got {
		t.Errorf("the screen %s changed (run with -update if on purpose):\n--- want\n%s--- got\n%s", name, want, got)
	}
}

// noJSON fails if the screen shows raw JSON.
func noJSON(t *testing.T, scr string) {
	t.Helper()
	for _, bad := range []string{`{"`, `":`, `"type"`} {
		if strings.Contains(scr, bad) {
			t.Errorf("the screen shows raw JSON (%s):\n%s", bad, scr)
		}
	}
}
