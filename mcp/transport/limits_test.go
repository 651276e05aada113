package transport

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mcp/transport/mcptest"
)

// holdTool adds a tool "hold" whose calls wait until release is called (or
// their context ends), so a test decides how long calls stay in flight.
func holdTool(srv *HTTP) (release func()) {
	release, _ = holdToolEntered(srv)
	return release
}

// holdToolEntered is holdTool that also says when a call has entered the
// tool (and so holds its slot).
func holdToolEntered(srv *HTTP) (release func(), entered <-chan struct{}) {
	ch := make(chan struct{})
	in := make(chan struct{}, 64)
	var once sync.Once
	sdk.AddTool(srv.server, &sdk.Tool{Name: "hold"}, func(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
		select {
		case in <- struct{}{}:
		default:
		}
		select {
		case <-ch:
		case <-ctx.Done():
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "released"}}}, nil, nil
	})
	return func() { once.Do(func() { close(ch) }) }, in
}

// addBigTool adds a tool "big" whose answers of 64 KiB fill the socket
// buffers of a client that does not read after a few dozen: from then on
// nothing the hub writes gets out.
func addBigTool(srv *HTTP) {
	big := strings.Repeat("x", 64<<10)
	sdk.AddTool(srv.server, &sdk.Tool{Name: "big"}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: big}}}, nil, nil
	})
}

func holdCall(id int) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"hold","arguments":{}}}`, id)
}

// settledGoroutines waits until the goroutine count is back to at most base
// once idle connections are closed: nothing a session held outlives it.
func settledGoroutines(t *testing.T, base int) {
	t.Helper()
	testutil.WaitFor(t, fmt.Sprintf("goroutines back to %d", base), func() bool {
		http.DefaultClient.CloseIdleConnections()
		return runtime.NumGoroutine() <= base
	})
}

// TestSSEQueuedCallsAreBounded: POST /message answers 202 before the work is
// done, so the calls a session has queued but not yet been answered count
// against its limit; one more is refused with 429 until answers go out.
func TestSSEQueuedCallsAreBounded(t *testing.T) {
	const limit = 3
	srv, ts := serve(t, Options{MaxInFlight: limit})
	release := holdTool(srv)
	defer release()
	http.DefaultClient.CloseIdleConnections()
	base := runtime.NumGoroutine()

	stream := mcptest.OpenSSE(t, ts.URL)
	endpoint := ts.URL + stream.Next().Data
	mcptest.SSEInitialize(t, stream, endpoint)
	for i := range limit {
		if code, text := mcptest.Post(t, endpoint, "application/json", holdCall(100+i)); code != http.StatusAccepted {
			t.Fatalf("call %d of %d: %d %s", i+1, limit, code, text)
		}
	}
	code, text := mcptest.Post(t, endpoint, "application/json", holdCall(200))
	if code != http.StatusTooManyRequests || !strings.Contains(text, fmt.Sprintf("limit %d", limit)) {
		t.Fatalf("call %d while %d are unanswered: %d %q, want 429 naming the limit", limit+1, limit, code, text)
	}
	release()
	for range limit {
		if ev := stream.Next(); !strings.Contains(ev.Data, "released") {
			t.Fatalf("answer %+v", ev)
		}
	}
	if code, text := mcptest.Post(t, endpoint, "application/json", `{"jsonrpc":"2.0","id":300,"method":"ping"}`); code != http.StatusAccepted {
		t.Fatalf("after the answers went out: %d %s", code, text)
	}
	if ev := stream.Next(); !strings.Contains(ev.Data, `"id":300`) {
		t.Fatalf("ping answered %+v", ev)
	}
	stream.Resp.Body.Close()
	settledGoroutines(t, base)
}

// TestSSEClientThatNeverReads: a session that posts calls and never reads
// its stream holds at most its limit of calls; when it goes away, so does
// everything the hub held for it.
func TestSSEClientThatNeverReads(t *testing.T) {
	const limit = 4
	srv, ts := serve(t, Options{MaxInFlight: limit})
	addBigTool(srv)
	http.DefaultClient.CloseIdleConnections()
	base := runtime.NumGoroutine()

	stream := mcptest.OpenSSE(t, ts.URL)
	endpoint := ts.URL + stream.Next().Data
	mcptest.SSEInitialize(t, stream, endpoint)
	accepted, refused := 0, 0
	for i := range 1000 {
		code, text := mcptest.Post(t, endpoint, "application/json", fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"big","arguments":{}}}`, 1000+i))
		switch code {
		case http.StatusAccepted:
			accepted++
		case http.StatusTooManyRequests:
			refused++
		default:
			t.Fatalf("POST %d: %d %s", i, code, text)
		}
		if refused > 50 {
			break
		}
	}
	if refused == 0 {
		t.Fatalf("all %d calls accepted from a session that reads nothing", accepted)
	}
	if n := runtime.NumGoroutine(); n > base+limit+20 {
		t.Errorf("%d goroutines with %d calls accepted (baseline %d)", n, accepted, base)
	}
	stream.Resp.Body.Close()
	testutil.WaitFor(t, "session gone", func() bool { return srv.sessions() == 0 })
	settledGoroutines(t, base)
}

// TestBatchCallsAreBounded: each call of a batch counts against the
// session's limit, so a batch larger than the limit is refused whole.
func TestBatchCallsAreBounded(t *testing.T) {
	const limit = 3
	_, ts := serve(t, Options{MaxInFlight: limit})
	h := mcptest.OldSession(t, ts.URL)
	code, _, body := mcptest.RawPost(t, ts.URL+"/mcp", h, mcptest.BatchOf(limit, 10))
	if code != 200 || strings.Count(body, `"result"`) != limit {
		t.Fatalf("batch of %d: %d %s", limit, code, body)
	}
	code, _, body = mcptest.RawPost(t, ts.URL+"/mcp", h, mcptest.BatchOf(limit+1, 20))
	if code != http.StatusTooManyRequests || strings.Contains(body, `"result"`) || !strings.Contains(body, fmt.Sprintf("limit %d", limit)) {
		t.Fatalf("batch of %d: %d %s, want 429 naming the limit and no call run", limit+1, code, body)
	}
	// 9,000 calls in one MiB: refused before any is decoded by the SDK.
	code, _, body = mcptest.RawPost(t, ts.URL+"/mcp", h, mcptest.BatchOf(9000, 100))
	if code != http.StatusTooManyRequests || strings.Contains(body, `"result"`) {
		t.Fatalf("batch of 9000: %d %.200s", code, body)
	}
}

// TestBatchCountsAgainstCallsInFlight: calls held by one POST and the calls
// of a batch share the session's limit.
func TestBatchCountsAgainstCallsInFlight(t *testing.T) {
	const limit = 3
	srv, ts := serve(t, Options{MaxInFlight: limit})
	release, entered := holdToolEntered(srv)
	defer release()
	http.DefaultClient.CloseIdleConnections() // none to an earlier test's port
	h := mcptest.OldSession(t, ts.URL)
	held := make(chan int, 1)
	r, _ := http.NewRequest(http.MethodPost, ts.URL+"/mcp", strings.NewReader(holdCall(5)))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range h {
		r.Header.Set(k, v)
	}
	go func() {
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			held <- 0
			return
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		held <- resp.StatusCode
	}()
	// The held call first: a batch that came before it would take the
	// slots and the held call would be the one refused.
	select {
	case <-entered:
	case code := <-held:
		t.Fatalf("held call answered at once: %d", code)
	case <-time.After(10 * time.Second):
		t.Fatal("the held call never reached the tool")
	}
	testutil.WaitFor(t, "batch refused while a call is held", func() bool {
		code, _, _ := mcptest.RawPost(t, ts.URL+"/mcp", h, mcptest.BatchOf(limit, 30))
		return code == http.StatusTooManyRequests
	})
	release()
	if code := <-held; code != 200 {
		t.Fatalf("held call: %d", code)
	}
	if code, _, body := mcptest.RawPost(t, ts.URL+"/mcp", h, mcptest.BatchOf(limit, 40)); code != 200 {
		t.Fatalf("batch after the release: %d %s", code, body)
	}
}

// TestSSEStalledStreamEnds: a session whose client stops reading is ended
// by the hub once a write has waited StreamWriteTimeout, and all it held
// goes with it, though the client never hangs up.
func TestSSEStalledStreamEnds(t *testing.T) {
	srv, ts := serve(t, Options{StreamWriteTimeout: 100 * time.Millisecond})
	addBigTool(srv)
	http.DefaultClient.CloseIdleConnections()
	base := runtime.NumGoroutine()
	stream := mcptest.OpenSSE(t, ts.URL)
	endpoint := ts.URL + stream.Next().Data
	mcptest.SSEInitialize(t, stream, endpoint)
	for i := 0; srv.sessions() > 0; i++ {
		code, text := mcptest.Post(t, endpoint, "application/json", fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"big","arguments":{}}}`, 10+i))
		if code != http.StatusAccepted && code != http.StatusTooManyRequests && code != http.StatusNotFound {
			t.Fatalf("POST %d: %d %s", i, code, text)
		}
		if i > 5000 {
			t.Fatal("the session outlived 5,000 calls it never read")
		}
	}
	if code, _ := mcptest.Post(t, endpoint, "application/json", `{"jsonrpc":"2.0","id":1,"method":"ping"}`); code != http.StatusNotFound {
		t.Errorf("POST to the ended session: %d, want 404", code)
	}
	stream.Resp.Body.Close()
	settledGoroutines(t, base)
}
