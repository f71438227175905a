package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHelperProcess runs the sortie command with the arguments in
// SORTIE_HELPER_ARGS (separated by newlines), as a process of its own: the
// os/exec tests' way of running a command that only a signal stops.
func TestHelperProcess(t *testing.T) {
	args := os.Getenv("SORTIE_HELPER_ARGS")
	if args == "" {
		t.Skip("a helper for other tests")
	}
	root.SetArgs(strings.Split(args, "\n"))
	if err := root.Execute(); err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

// Given a folder as --data, serve keeps sortie.db inside it.
func TestServeDataFolder(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server process")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), "SORTIE_HELPER_ARGS="+strings.Join([]string{"serve", "--data", dir, "--addr", "127.0.0.1:0", "--log-level", "error"}, "\n"))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	want := filepath.Join(dir, "sortie.db")
	select {
	case l, ok := <-lines:
		if !ok || !strings.Contains(l, "(data: "+want+")") {
			t.Fatalf("serve says %q, want it to serve from %s", l, want)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("serve did not start")
	}
	if _, err := os.Stat(want); err != nil {
		t.Fatalf("no database in the folder: %v", err)
	}
	cmd.Process.Signal(syscall.SIGINT)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("serve did not stop cleanly: %v", err)
	}
}

// Given a --data path that cannot be used, serve stops at once with a
// sentence saying why, and creates nothing.
func TestServeDataRefusals(t *testing.T) {
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notes, []byte("my notes\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ data, want string }{
		{notes, "cannot keep the matches in " + notes + ": the file is not a Sortie database"},
		{filepath.Join(notes, "m.db"), "cannot keep the matches in " + filepath.Join(notes, "m.db") + ": " + notes + " is a file, not a folder"},
		{filepath.Join(notes, "sub", "m.db"), ": " + notes + " is a file, not a folder"},
	}
	if os.Geteuid() != 0 { // root may write anywhere
		locked := filepath.Join(dir, "locked")
		if err := os.Mkdir(locked, 0o500); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, struct{ data, want string }{locked, "the folder " + locked + " does not let new files be written (permission denied)"})
	}
	for _, c := range cases {
		out, err := run(t, nil, "serve", "--data", c.data, "--addr", "127.0.0.1:0")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("--data %s: %v, want %q\n%s", c.data, err, c.want, out)
		}
	}
	if b, _ := os.ReadFile(notes); string(b) != "my notes\n" {
		t.Errorf("the notes were changed: %q", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 2 {
		t.Errorf("files were left behind: %v", entries)
	}
}
