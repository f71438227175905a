package testport

import (
	"fmt"
	"net"
	"testing"
)

// TestFreeIsBelowTheEphemeralRangeAndBindable hands out ports, binds each
// and checks none repeats or falls where the kernel picks ports itself.
func TestFreeIsBelowTheEphemeralRangeAndBindable(t *testing.T) {
	seen := map[int]bool{}
	top := ephemeralStart()
	for range 50 {
		p := Free(t)
		if p < lowest || p >= top {
			t.Fatalf("port %d outside [%d, %d)", p, lowest, top)
		}
		if seen[p] {
			t.Fatalf("port %d handed out twice", p)
		}
		seen[p] = true
		ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
		if err != nil {
			t.Fatalf("port %d: %v", p, err)
		}
		ln.Close()
	}
}
