package storetest

import (
	"os/exec"
	"sync"
	"testing"
)

// Immutable makes the SQLite file at path and its write-ahead log immutable
// (chattr +i), as a sick disk or an operator would: every write then fails,
// while reads go on. The returned function makes them writable again; it is
// also run when the test ends. The shared-memory index stays writable: it is
// mapped in memory, and the race detector does not survive a fault there.
// Where files cannot be made immutable (it takes root and chattr), the test
// is skipped.
func Immutable(t testing.TB, path string) (writable func()) {
	t.Helper()
	files := []string{path, path + "-wal"}
	if out, err := exec.Command("chattr", append([]string{"+i"}, files...)...).CombinedOutput(); err != nil {
		t.Skipf("cannot make files immutable here (needs root and chattr): %v %s", err, out)
	}
	var once sync.Once
	writable = func() {
		once.Do(func() {
			if out, err := exec.Command("chattr", append([]string{"-i"}, files...)...).CombinedOutput(); err != nil {
				t.Errorf("cannot make the files writable again: %v %s", err, out)
			}
		})
	}
	t.Cleanup(writable)
	return writable
}
