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

func run(url string, sessions, calls, pid int, hold, after time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	report(pid, "before")
	var (
		mu        sync.Mutex
		latencies []time.Duration
		firstErr  error
		wg        sync.WaitGroup
		open      = make(chan *sdk.ClientSession, sessions)
	)
	start := time.Now()
	for i := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := sdk.NewClient(&sdk.Implementation{Name: fmt.Sprintf("loadgen-%d", i), Version: "1"}, nil)
			cs, err := c.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url}, nil)
			if err != nil {
				mu.Lock()
				firstErr = cmpErr(firstErr, err)
				mu.Unlock()
				return
			}
			open <- cs
			for range calls {
				t0 := time.Now()
				res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_climate"})
				d := time.Since(t0)
				mu.Lock()
				if err == nil && res.IsError {
					err = fmt.Errorf("tool error")
				}
				firstErr = cmpErr(firstErr, err)
				latencies = append(latencies, d)
				mu.Unlock()
			}
		}()
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
	if firstErr != nil {
		return firstErr
	}
	slices.Sort(latencies)
	q := func(p float64) time.Duration { return latencies[int(p*float64(len(latencies)-1))] }
	fmt.Printf("calls: %d in %s (%.0f/s); latency p50 %s, p90 %s, p99 %s, max %s\n",
		len(latencies), elapsed.Round(time.Millisecond), float64(len(latencies))/elapsed.Seconds(),
		q(0.5).Round(time.Microsecond), q(0.9).Round(time.Microsecond), q(0.99).Round(time.Microsecond), latencies[len(latencies)-1].Round(time.Microsecond))
	return nil
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
