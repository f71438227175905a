package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// floorServerEnv, when set in a test binary's environment, makes it the
// server of BenchmarkSocketFloor instead of running tests (see TestMain).
const floorServerEnv = "SORTIE_FLOOR_SERVER"

// TestMain runs the tests, or the floor's server, or readers of step views,
// when asked to.
func TestMain(m *testing.M) {
	if size, err := strconv.Atoi(os.Getenv(floorServerEnv)); err == nil {
		runFloorServer(size)
		return
	}
	if spec := os.Getenv(ReadersEnv); spec != "" {
		runReaders(spec)
		return
	}
	os.Exit(m.Run())
}

// BenchmarkSocketFloor measures the transport's share of an action's server
// CPU on this machine: what a server pays to read one short WebSocket message
// and write one update to each seat of its table, with no game, no store and
// no JSON. The server is this test binary run again in a process of its own,
// so that its CPU time (read from /proc) is the server's alone, as `sortie
// loadtest` reports it; the clients run here, as the load clients do.
//
// Its server-µs/op is the floor under `loadtest`'s "server … µs an action"
// for the same number of seats: no server with one socket per seat can do an
// action for less here, whatever it does about games, stores and encoding.
//
//	go test ./internal/server -run '^$' -bench SocketFloor -benchtime 40000x
func BenchmarkSocketFloor(b *testing.B) {
	for _, seats := range []int{2, 4} {
		b.Run("seats="+strconv.Itoa(seats), func(b *testing.B) { socketFloor(b, 100, seats, 400) })
	}
}

func socketFloor(b *testing.B, groups, seats, size int) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run", "^$")
	cmd.Env = append(os.Environ(), floorServerEnv+"="+strconv.Itoa(size))
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		b.Fatalf("the floor server said no address: %v", err)
	}
	url := "ws://" + strings.TrimSpace(addr)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clients := make([][]*websocket.Conn, groups)
	for gi := range groups {
		for range seats {
			c, _, err := websocket.Dial(ctx, url+"/?g="+strconv.Itoa(gi)+"&n="+strconv.Itoa(seats), nil)
			if err != nil {
				b.Fatal(err)
			}
			c.SetReadLimit(1 << 20)
			clients[gi] = append(clients[gi], c)
		}
	}
	// The server starts a table's rounds once all its seats are in.
	time.Sleep(200 * time.Millisecond)

	var rounds atomic.Int64
	target := int64(b.N)
	var wg sync.WaitGroup
	cpu0 := processCPU(b, cmd.Process.Pid)
	b.ResetTimer()
	for gi := range groups {
		for si, c := range clients[gi] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sender := si == 0
				msg := []byte(`{"type":"act","seq":1,"action":{"kind":"pass"}}`)
				if sender && c.Write(ctx, websocket.MessageText, msg) != nil {
					return
				}
				for {
					if _, _, err := c.Read(ctx); err != nil {
						return
					}
					if !sender {
						continue
					}
					if rounds.Add(1) >= target {
						cancel()
						return
					}
					if c.Write(ctx, websocket.MessageText, msg) != nil {
						return
					}
				}
			}()
		}
	}
	wg.Wait()
	b.StopTimer()
	cpu := processCPU(b, cmd.Process.Pid) - cpu0
	n := rounds.Load()
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "actions/s")
	b.ReportMetric(float64(cpu.Microseconds())/float64(n), "server-µs/op")
	for _, cs := range clients {
		for _, c := range cs {
			c.CloseNow()
		}
	}
}

// processCPU is the user and system CPU time the process pid has used.
func processCPU(b *testing.B, pid int) time.Duration {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Skipf("no /proc here to read the server's CPU time: %v", err)
	}
	// The fields after the command's name, which is in parentheses.
	f := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+2:]))
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	const ticks = 100 // USER_HZ on Linux
	return time.Duration(utime+stime) * time.Second / ticks
}

// runFloorServer is the floor's server: each connection joins its table
// (query g, with n seats) and, once the table is full, every message read is
// answered by one update of size bytes to every seat of the table, over
// the server's own socket transport (wsConn). It prints its address and
// serves until killed.
func runFloorServer(size int) {
	payload := []byte(strings.Repeat("x", size))
	type table struct {
		mu    sync.Mutex
		conns []*wsConn
		full  chan struct{}
	}
	var mu sync.Mutex
	tables := map[string]*table{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(ln.Addr())
	http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		c, err := upgrade(w, r, nil)
		if err != nil {
			return
		}
		mu.Lock()
		t := tables[r.URL.Query().Get("g")]
		if t == nil {
			t = &table{full: make(chan struct{})}
			tables[r.URL.Query().Get("g")] = t
		}
		mu.Unlock()
		t.mu.Lock()
		t.conns = append(t.conns, c)
		if len(t.conns) == n {
			close(t.full)
		}
		t.mu.Unlock()
		<-t.full
		for {
			_, rd, err := c.next(true)
			if err == nil {
				_, err = io.Copy(io.Discard, rd)
			}
			if err != nil {
				return
			}
			t.mu.Lock()
			for _, o := range t.conns {
				if o.writeText(payload) != nil {
					break
				}
			}
			t.mu.Unlock()
		}
	}))
}
