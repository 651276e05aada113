package transport

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/mcp/transport/mcptest"
)

// fromAddr is an HTTP client whose connections come from ip, a loopback
// address of its own (all of 127.0.0.0/8 is loopback on Linux): the hub
// sees a client apart from the others.
func fromAddr(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
}

const listenBody = `{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{"_meta":{` +
	`"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},` +
	`"notifications":{"resourcesListChanged":true}}}`

// streamKinds open one stream of each kind that holds a session: a
// 2026-07-28 listen, the GET stream of a Streamable HTTP session (after
// its initialize) and an HTTP+SSE stream.
var streamKinds = []struct {
	name string
	open func(c *http.Client, base string) (*http.Response, error)
}{
	{"listen", func(c *http.Client, base string) (*http.Response, error) {
		return send(c, http.MethodPost, base+"/mcp", listenBody, map[string]string{"Mcp-Protocol-Version": mcptest.StatelessProtocol, "Mcp-Method": mcptest.MethodListen})
	}},
	{"streamable GET", func(c *http.Client, base string) (*http.Response, error) {
		resp, err := send(c, http.MethodPost, base+"/mcp", mcptest.InitBody, nil)
		if err != nil || resp.StatusCode != http.StatusOK {
			return resp, err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return send(c, http.MethodGet, base+"/mcp", "", map[string]string{
			mcptest.SessionHeader: resp.Header.Get(mcptest.SessionHeader), "Mcp-Protocol-Version": "2025-06-18", "Accept": "text/event-stream"})
	}},
	{"sse", func(c *http.Client, base string) (*http.Response, error) {
		return send(c, http.MethodGet, base+"/sse", "", map[string]string{"Accept": "text/event-stream"})
	}},
}

// send makes a request and returns its response unread: an event stream
// stays open until the test closes its body.
func send(c *http.Client, method, url, body string, header map[string]string) (*http.Response, error) {
	r, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		r.Header.Set(k, v)
	}
	return c.Do(r)
}

// hold opens n streams of kind from c and keeps them open, never reading
// them, until the test ends; it returns those served and the refusals.
func hold(t *testing.T, c *http.Client, base string, n int, open func(*http.Client, string) (*http.Response, error)) (served []*http.Response, refused []string) {
	t.Helper()
	t.Cleanup(func() {
		for _, r := range served {
			r.Body.Close()
		}
	})
	for i := range n {
		resp, err := open(c, base)
		if err != nil {
			t.Fatalf("stream %d: %v", i+1, err)
		}
		if resp.StatusCode != http.StatusOK {
			b, _ := io.ReadAll(io.LimitReader(resp.Body, 200))
			resp.Body.Close()
			refused = append(refused, fmt.Sprintf("%d %s", resp.StatusCode, strings.TrimSpace(string(b))))
			continue
		}
		served = append(served, resp)
	}
	return served, refused
}

// ended reports whether the stream of resp ends (the hub closed it) within
// a few seconds; what the hub wrote before is read and dropped.
func ended(resp *http.Response) bool {
	done := make(chan struct{})
	go func() {
		io.Copy(io.Discard, resp.Body)
		close(done)
	}()
	select {
	case <-done:
		return true
	case <-time.After(5 * time.Second):
		resp.Body.Close() // the copy ends with it
		return false
	}
}

// newClientGetsIn connects an MCP client from ip with a session
// (initialize, protocol 2025-11-25) and calls a tool.
func newClientGetsIn(t *testing.T, base, ip string) {
	t.Helper()
	c := sdk.NewClient(&sdk.Implementation{Name: "newcomer", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: fromAddr(ip)},
		&sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Errorf("a new client from %s: initialize: %v", ip, err)
		return
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: toolEcho})
	if err != nil || res.IsError {
		t.Errorf("a new client from %s: tools/call: %v %+v", ip, err, res)
	}
}

// TestOneClientCannotTakeEverySession: one address opens 500 streams of
// each kind and never reads them (once 64 were served, the rest and
// every new client 503, /healthz 503). Every stream is served and the
// client's oldest closed to make room, so it holds its share and no more;
// a new client from another address initializes and calls a tool;
// Ready (/healthz) stays ok.
func TestOneClientCannotTakeEverySession(t *testing.T) {
	const streams = 500
	for _, kind := range streamKinds {
		t.Run(kind.name, func(t *testing.T) {
			srv, ts := serve(t, Options{})
			base := ts.URL
			served, refused := hold(t, fromAddr("127.0.0.2"), base, streams, kind.open)
			if len(refused) > 0 {
				t.Errorf("%d of %d streams refused (first: %s); want each served, the client's oldest closed instead", len(refused), streams, refused[0])
			}
			newClientGetsIn(t, base, "127.0.0.3")
			// The SDK ends an evicted listen or SSE session as its handler
			// returns: give it a moment.
			for deadline := time.Now().Add(2 * time.Second); srv.sessions() > DefaultMaxClientSessions; time.Sleep(10 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Errorf("%d sessions open once the newcomer has gone, want at most the client's share, %d", srv.sessions(), DefaultMaxClientSessions)
					break
				}
			}
			if len(served) > DefaultMaxClientSessions && !ended(served[0]) {
				t.Error("the client's oldest stream, never read, is still open")
			}
		})
	}
}

// TestNewClientGetsInAtTheCeiling: clients within their share keep what
// they hold; once all together reach the ceiling, each new stream closes
// the oldest of the client holding most, and a new client still gets in.
func TestNewClientGetsInAtTheCeiling(t *testing.T) {
	srv, ts := serve(t, Options{MaxSessions: 8, MaxClientSessions: 4})
	listen := streamKinds[0].open
	a, _ := hold(t, fromAddr("127.0.0.2"), ts.URL, 4, listen)
	b, _ := hold(t, fromAddr("127.0.0.3"), ts.URL, 4, listen)
	if n := srv.holds.Held(); n != 8 || len(a)+len(b) != 8 {
		t.Fatalf("two clients within their share: %d held, %d served; want 8", n, len(a)+len(b))
	}
	c, refused := hold(t, fromAddr("127.0.0.4"), ts.URL, 4, listen)
	if len(c) != 4 {
		t.Fatalf("a third client at the ceiling: %d served, refused %v", len(c), refused)
	}
	// The ceiling took from the biggest holder each time (ties: the one
	// whose oldest is oldest): a, b, a, then c itself.
	for ip, want := range map[string]int{"127.0.0.2": 2, "127.0.0.3": 3, "127.0.0.4": 3} {
		if n := srv.holds.HeldBy(ip); n != want {
			t.Errorf("%s holds %d, want %d", ip, n, want)
		}
	}
	if !ended(a[0]) {
		t.Error("the oldest stream of the client holding most is still open")
	}
	newClientGetsIn(t, ts.URL, "127.0.0.5")
	if n := srv.holds.Held(); n > 8 {
		t.Errorf("%d held, ceiling 8", n)
	}
}

// TestEvictingABusySessionHoldsNoOneUp: a client past its share whose
// oldest session has a call in flight still gets its new session at once.
// The SDK's ServerSession.Close waits for the session's calls to end; the
// eviction must not make the new initialize wait for them (a create_alert
// waiting on the user can take minutes). Before, the initialize's answer
// never ended while the call was held.
func TestEvictingABusySessionHoldsNoOneUp(t *testing.T) {
	srv, ts := serve(t, Options{MaxClientSessions: 1})
	release, entered := holdToolEntered(srv)
	defer release()
	busy := mcptest.OldSession(t, ts.URL)
	go func() {
		if resp, err := send(http.DefaultClient, http.MethodPost, ts.URL+"/mcp", holdCall(7), busy); err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	select {
	case <-entered:
	case <-time.After(10 * time.Second):
		t.Fatal("the held call never reached the tool")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	r, _ := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL+"/mcp", strings.NewReader(mcptest.InitBody))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatalf("the new session's initialize: %v", err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"protocolVersion"`) {
		t.Fatalf("the new session's initialize, while the evicted one has a call in flight: %d %q %v", resp.StatusCode, body, err)
	}
	if n := srv.holds.Held(); n != 1 {
		t.Errorf("%d sessions held after the eviction, want 1", n)
	}
}
