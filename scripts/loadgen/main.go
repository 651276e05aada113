// Command loadgen opens many concurrent MCP sessions against a running
// climated, calls get_climate in each, and prints latencies and the
// server's resident memory (from /proc/PID/status). It only ever talks to
// the URL it is given; scripts/memory.sh points it at a loopback hub.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	url := flag.String("url", "http://127.0.0.1:8473/mcp", "Streamable HTTP endpoint")
	sessions := flag.Int("sessions", 50, "concurrent sessions")
	calls := flag.Int("calls", 20, "get_climate calls per session")
	pid := flag.Int("pid", 0, "server process to report the memory of")
	hold := flag.Duration("hold", time.Second, "keep the sessions open this long after the calls")
	after := flag.Duration("after", 0, "then report the server's memory every 15 s for this long (is it given back?)")
	flag.Parse()
	if err := run(*url, *sessions, *calls, *pid, *hold, *after); err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

// load gathers what the sessions measured.
type load struct {
	mu        sync.Mutex
	latencies []time.Duration
	firstErr  error
}

func run(url string, sessions, calls, pid int, hold, after time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	report(pid, "before")
	l := &load{}
	var wg sync.WaitGroup
	open := make(chan *sdk.ClientSession, sessions)
	start := time.Now()
	for i := range sessions {
		wg.Go(func() { l.session(ctx, url, i, calls, open) })
	}
	wg.Wait()
	elapsed := time.Since(start)
	report(pid, fmt.Sprintf("with %d sessions open", len(open)))
	time.Sleep(hold)
	close(open)
	for cs := range open {
		cs.Close()
	}
	for waited := time.Duration(0); waited < after; {
		time.Sleep(15 * time.Second)
		waited += 15 * time.Second
		report(pid, fmt.Sprintf("%s after the load", waited))
	}
	if l.firstErr != nil {
		return l.firstErr
	}
	l.print(elapsed)
	return nil
}

// session connects, leaves the session in open, and calls get_climate
// calls times, timing each call.
func (l *load) session(ctx context.Context, url string, i, calls int, open chan<- *sdk.ClientSession) {
	c := sdk.NewClient(&sdk.Implementation{Name: fmt.Sprintf("loadgen-%d", i), Version: "1"}, nil)
	cs, err := c.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		l.mu.Lock()
		l.firstErr = cmpErr(l.firstErr, err)
		l.mu.Unlock()
		return
	}
	open <- cs
	for range calls {
		t0 := time.Now()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_climate"})
		d := time.Since(t0)
		l.mu.Lock()
		if err == nil && res.IsError {
			err = fmt.Errorf("tool error")
		}
		l.firstErr = cmpErr(l.firstErr, err)
		l.latencies = append(l.latencies, d)
		l.mu.Unlock()
	}
}

// print reports the calls' rate and latency quantiles.
func (l *load) print(elapsed time.Duration) {
	lat := l.latencies
	slices.Sort(lat)
	q := func(p float64) time.Duration { return lat[int(p*float64(len(lat)-1))] }
	fmt.Printf("calls: %d in %s (%.0f/s); latency p50 %s, p90 %s, p99 %s, max %s\n",
		len(lat), elapsed.Round(time.Millisecond), float64(len(lat))/elapsed.Seconds(),
		q(0.5).Round(time.Microsecond), q(0.9).Round(time.Microsecond), q(0.99).Round(time.Microsecond), lat[len(lat)-1].Round(time.Microsecond))
}

func cmpErr(first, err error) error {
	if first != nil {
		return first
	}
	return err
}

// report prints VmRSS and VmHWM of pid.
func report(pid int, when string) {
	if pid == 0 {
		return
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		fmt.Println("memory:", err)
		return
	}
	var fields []string
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "VmRSS:") || strings.HasPrefix(line, "VmHWM:") {
			fields = append(fields, strings.Join(strings.Fields(line), " "))
		}
	}
	fmt.Printf("server memory %s: %s\n", when, strings.Join(fields, ", "))
}
