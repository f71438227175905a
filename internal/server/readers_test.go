package server

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
)

// ReadersEnv, when set in a test binary's environment, makes it a crowd of
// readers of step views instead of running tests (see TestMain and
// BenchmarkStepViewsBesidePlay): "<base URL> <match> <records> <readers>
// <addresses>", the readers asking, as fast as they are answered, for views
// of the match's steps, from that many loopback addresses. On an interrupt
// it prints the answers it got ("ok=N limited=M") and ends.
const ReadersEnv = "SORTIE_STEP_READERS"

func runReaders(spec string) {
	var base, id string
	var records, readers, addrs int
	if _, err := fmt.Sscan(spec, &base, &id, &records, &readers, &addrs); err != nil {
		fmt.Fprintln(os.Stderr, "readers:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var ok, limited atomic.Int64
	var wg sync.WaitGroup
	for i := range readers {
		ip := fmt.Sprintf("127.0.1.%d", 1+i%max(addrs, 1))
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
		hc := &http.Client{Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 4}}
		wg.Go(func() {
			for k := 0; ctx.Err() == nil; k++ {
				step := (k*97 + i*131) % (records + 1)
				req, _ := http.NewRequestWithContext(ctx, "GET", fmt.Sprintf("%s/api/matches/%s/view?seat=spectator&step=%d", base, id, step), nil)
				resp, err := hc.Do(req)
				if err != nil {
					continue
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				switch resp.StatusCode {
				case http.StatusOK:
					ok.Add(1)
				case http.StatusTooManyRequests, http.StatusServiceUnavailable:
					limited.Add(1)
				}
			}
		})
	}
	fmt.Println("ready")
	<-ctx.Done()
	wg.Wait()
	fmt.Printf("ok=%d limited=%d\n", ok.Load(), limited.Load())
}
