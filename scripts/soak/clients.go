package main

import (
	"bufio"
	"context"
	"fmt"
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
		zone := zoneName(i % 50)
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
			if err != nil || res.IsError {
				st.failed.Add(1)
				if err != nil {
					break // the hub went away: a new session
				}
			} else {
				st.calls.Add(1)
			}
			sleep(ctx, 3*time.Second)
		}
		cs.Close()
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
		endpoint := ""
		sc := bufio.NewScanner(resp.Body)
		for endpoint == "" && sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				endpoint = v
			}
		}
		if endpoint == "" {
			resp.Body.Close()
			sleep(ctx, time.Second)
			continue
		}
		post := func(body string) int {
			r, err := http.Post(base+endpoint, "application/json", strings.NewReader(body))
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
				break // the hub restarted
			}
			sleep(ctx, 10*time.Second)
		}
		resp.Body.Close()
	}
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}
