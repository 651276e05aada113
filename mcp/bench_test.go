package mcp

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/mcp/transport/mcptest"
)

const callBody = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_climate","arguments":{}}}`

// BenchmarkGetClimate measures a get_climate call over Streamable HTTP side
// by side with a bare net/http handler that returns the same JSON: the
// ceiling any HTTP server reaches on this machine. Compare the ratio.
func BenchmarkGetClimate(b *testing.B) {
	h := newTestHub(b)
	data := h.store.Snapshot().JSON
	bare := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Write(data)
	}))
	defer bare.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}

	do := func(b *testing.B, url string, hdr http.Header) {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(callBody))
		req.Header = hdr.Clone()
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || n < int64(len(data)) {
			b.Fatalf("%s: %s, %d bytes", url, resp.Status, n)
		}
	}
	plain := http.Header{"Content-Type": {"application/json"}}

	b.Run("bare-net-http", func(b *testing.B) {
		for b.Loop() {
			do(b, bare.URL, plain)
		}
	})
	b.Run("streamable-http", func(b *testing.B) {
		resp, _ := mcptest.MCPPost(&testing.T{}, h.http.URL, "", mcptest.InitBody)
		hdr := http.Header{
			"Content-Type":         {"application/json"},
			"Accept":               {"application/json, text/event-stream"},
			"Mcp-Session-Id":       {resp.Header.Get("Mcp-Session-Id")},
			"Mcp-Protocol-Version": {"2025-06-18"},
		}
		for b.Loop() {
			do(b, h.http.URL+"/mcp", hdr)
		}
	})
	b.Run("streamable-http-go-sdk-client", func(b *testing.B) {
		cs := mcptest.Connect(b, &sdk.StreamableClientTransport{Endpoint: h.http.URL + "/mcp", DisableStandaloneSSE: true})
		ctx := context.Background()
		for b.Loop() {
			if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: ToolGetClimate}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkGetClimate50Sessions calls get_climate from 50 sessions at once,
// each with its own go-sdk client over Streamable HTTP; ns/op is the
// server's throughput (time per call with 50 in parallel).
func BenchmarkGetClimate50Sessions(b *testing.B) {
	const sessions = 50
	// All from one address: let it hold them.
	h := newTestHubWith(b, Options{MaxClientSessions: sessions})
	pool := make(chan *sdk.ClientSession, sessions)
	for range sessions {
		pool <- mcptest.Connect(b, &sdk.StreamableClientTransport{Endpoint: h.http.URL + "/mcp", DisableStandaloneSSE: true})
	}
	b.SetParallelism((sessions + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
	ctx := context.Background()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		cs := <-pool
		defer func() { pool <- cs }()
		for pb.Next() {
			if res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: ToolGetClimate}); err != nil || res.IsError {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkSSEPingBesideAFlood: a healthy SSE client's ping round trip,
// alone and beside a session that posts calls and never reads its stream
// (once the neighbour took the healthy p50 from 3 to 70 ms). Compare
// the two sub-benchmarks' ns/op.
func BenchmarkSSEPingBesideAFlood(b *testing.B) {
	for _, flood := range []bool{false, true} {
		name := "alone"
		if flood {
			name = "beside-a-flood"
		}
		b.Run(name, func(b *testing.B) {
			h := newTestHub(b)
			if flood {
				floodSSE(b, h.http.URL)
			}
			cs := mcptest.Connect(b, &sdk.SSEClientTransport{Endpoint: h.http.URL + "/sse"})
			ctx := context.Background()
			for b.Loop() {
				if err := cs.Ping(ctx, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// floodSSE opens an SSE session, initialises it, and posts get_climate
// calls without ever reading the stream until the hub refuses them.
func floodSSE(b *testing.B, base string) {
	resp, err := http.Get(base + "/sse")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { resp.Body.Close() })
	buf := make([]byte, 512)
	n, _ := resp.Body.Read(buf)
	_, endpoint, _ := strings.Cut(string(buf[:n]), "data: ")
	endpoint = base + strings.TrimSpace(endpoint)
	send := func(body string) int {
		r, err := http.Post(endpoint, "application/json", strings.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, r.Body)
		r.Body.Close()
		return r.StatusCode
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"flood","version":"1"}}}`)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for i := 2; i < 4000; i++ {
		if send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"get_climate","arguments":{}}}`, i)) == http.StatusTooManyRequests {
			return
		}
	}
}
