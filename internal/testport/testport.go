// Package testport hands tests loopback ports that a process will bind
// later, or bind again after a restart, on the same number.
//
// A port the kernel gave to a listener on port 0 comes from its ephemeral
// range, the same range it draws the local port of every outgoing
// connection from: between the test closing its probe and the process
// binding the port (or while the process is down between two runs), any
// connection on the machine may take it, and the bind fails with "address
// already in use". The ports handed out here lie below that range, where
// the kernel never picks one by itself, and no two calls in one test
// process return the same port. Only tests import this package.
package testport

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"sync"
	"testing"
)

// lowest is the smallest port handed out: above the well-known and the
// usual services' ports.
const lowest = 20000

var (
	mu    sync.Mutex
	given = map[int]bool{}
)

// Free returns a loopback TCP port below the ephemeral range that nobody
// listens on now and that no earlier call returned.
func Free(t testing.TB) int {
	t.Helper()
	top := ephemeralStart()
	mu.Lock()
	defer mu.Unlock()
	for try := 0; try < 200; try++ {
		port := lowest + rand.IntN(top-lowest)
		if given[port] {
			continue
		}
		ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err != nil {
			continue
		}
		ln.Close()
		given[port] = true
		return port
	}
	t.Fatalf("testport: no free port in [%d, %d) after 200 tries", lowest, top)
	return 0
}

// ephemeralStart is the first port of the kernel's ephemeral range
// (Linux's default where it cannot be read).
func ephemeralStart() int {
	start, end := 32768, 60999
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		fmt.Sscan(string(b), &start, &end)
	}
	if start <= lowest+1000 {
		// A range reaching down here leaves no room below it: the ports
		// are then drawn from the thousand above lowest, inside the range,
		// where a taken one stays unlikely.
		return lowest + 1000
	}
	return start
}
