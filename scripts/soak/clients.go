package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// clientStats counts what the MCP clients saw.
type clientStats struct {
	calls, failed, notified, connects atomic.Int64
	sseCodes                          sync.Map // status code → *atomic.Int64
}

func (s *clientStats) sseCode(code int) {
	v, _ := s.sseCodes.LoadOrStore(code, new(atomic.Int64))
	v.(*atomic.Int64).Add(1)
}

// session is one assistant: subscribed to its zone, it asks for the
// climate every 3 s and for a history every 30 s, and connects again when
// the hub went away.
func session(ctx context.Context, h *hub, i int, st *clientStats) {
	for ctx.Err() == nil {
		base := h.url()
		if base == "" {
			sleep(ctx, 500*time.Millisecond)
			continue
		}
		c := sdk.NewClient(&sdk.Implementation{Name: fmt.Sprintf("soak-%d", i), Version: "1"}, &sdk.ClientOptions{
			ResourceUpdatedHandler: func(context.Context, *sdk.ResourceUpdatedNotificationRequest) { st.notified.Add(1) },
		})
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		cs, err := c.Connect(cctx, &sdk.StreamableClientTransport{Endpoint: base + "/mcp", MaxRetries: -1}, nil)
		cancel()
		if err != nil {
			st.failed.Add(1)
			sleep(ctx, time.Second)
			continue
		}
		st.connects.Add(1)
		ask(ctx, cs, zoneName(i%50), st)
		cs.Close()
	}
}

// ask subscribes to zone and calls the tools every 3 s until ctx ends or
// the session fails (the hub went away).
func ask(ctx context.Context, cs *sdk.ClientSession, zone string, st *clientStats) {
	if err := cs.Subscribe(ctx, &sdk.SubscribeParams{URI: "climate://zone/" + zone}); err != nil {
		st.failed.Add(1)
	}
	for n := 0; ctx.Err() == nil; n++ {
		params := &sdk.CallToolParams{Name: "get_climate"}
		if n%10 == 9 {
			params = &sdk.CallToolParams{Name: "get_history", Arguments: map[string]any{"zone": zone, "measurement": "Temperature", "from": "1h"}}
		}
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		res, err := cs.CallTool(cctx, params)
		cancel()
		switch {
		case err != nil:
			st.failed.Add(1)
			return // the hub went away: a new session
		case res.IsError:
			st.failed.Add(1)
		default:
			st.calls.Add(1)
		}
		sleep(ctx, 3*time.Second)
	}
}

// neverReads opens the HTTP+SSE transport, learns its endpoint, then posts
// calls every 10 s and never reads the stream again.
func neverReads(ctx context.Context, h *hub, st *clientStats) {
	for ctx.Err() == nil {
		base := h.url()
		if base == "" {
			sleep(ctx, 500*time.Millisecond)
			continue
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/sse", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			sleep(ctx, time.Second)
			continue
		}
		if endpoint := sseEndpoint(resp.Body); endpoint != "" {
			postUnread(ctx, base+endpoint, st)
		} else {
			sleep(ctx, time.Second)
		}
		resp.Body.Close()
	}
}

// sseEndpoint reads the stream up to its endpoint event; "" when the
// stream ends first.
func sseEndpoint(body io.Reader) string {
	sc := bufio.NewScanner(body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			return v
		}
	}
	return ""
}

// postUnread initializes the session at url, then posts 50 calls every
// 10 s, whose answers go to a stream nobody reads, until the hub
// restarts or ctx ends.
func postUnread(ctx context.Context, url string, st *clientStats) {
	post := func(body string) int {
		r, err := http.Post(url, "application/json", strings.NewReader(body))
		if err != nil {
			return 0
		}
		r.Body.Close()
		return r.StatusCode
	}
	post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"never-reads","version":"1"}}}`)
	post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for n := 1; ctx.Err() == nil; n++ {
		code := 0
		for j := range 50 {
			code = post(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"get_climate","arguments":{}}}`, n*100+j))
			st.sseCode(code)
		}
		if code == 0 || code == http.StatusNotFound {
			return // the hub restarted
		}
		sleep(ctx, 10*time.Second)
	}
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}
