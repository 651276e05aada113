package mcp

import (
	"context"
	"net/http"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mcp/transport/mcptest"
)

// TestNewestProtocolBesideOlder: over real HTTP on /mcp, the go-sdk client
// on 2026-07-28 is served statelessly on that protocol (no session id),
// one on 2025-11-25 gets its session, side by side; both call get_climate,
// both hear of new readings of the zone they subscribed to, and a client
// that goes away with its subscription open leaves nothing behind.
func TestNewestProtocolBesideOlder(t *testing.T) {
	h := newTestHub(t)
	ctx := context.Background()
	for _, c := range []struct{ asked, want string }{
		{"2026-07-28", "2026-07-28"},
		{"2025-11-25", "2025-11-25"},
	} {
		t.Run(c.asked, func(t *testing.T) {
			var box inbox
			client := sdk.NewClient(&sdk.Implementation{Name: "climated-test", Version: "1"}, box.options())
			rt := &recordSessions{next: http.DefaultTransport}
			cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: h.http.URL + "/mcp", HTTPClient: &http.Client{Transport: rt}},
				&sdk.ClientSessionOptions{ProtocolVersion: c.asked})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cs.Close() })
			if got := cs.InitializeResult().ProtocolVersion; got != c.want {
				t.Fatalf("protocol %s, want %s", got, c.want)
			}
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_climate"})
			if err != nil || res.IsError {
				t.Fatalf("get_climate: %v %v", err, res)
			}
			if err := cs.Subscribe(ctx, &sdk.SubscribeParams{URI: ZoneURI("Indoor")}); err != nil {
				t.Fatalf("subscribe: %v", err)
			}
			untilUpdate(t, h, &box, "Indoor")
			rt.mu.Lock()
			ids := rt.ids
			rt.mu.Unlock()
			if stateless := len(ids) == 0; stateless != (c.want >= "2026-07-28") {
				t.Errorf("session ids %v on protocol %s", ids, c.want)
			}
			if err := cs.Close(); err != nil {
				t.Logf("close: %v", err)
			}
			testutil.WaitFor(t, "no session left", func() bool { return h.srv.Sessions() == 0 })
		})
	}
}

// recordSessions notes the session ids the hub hands out.
type recordSessions struct {
	next http.RoundTripper
	mu   sync.Mutex
	ids  []string
}

func (r *recordSessions) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.next.RoundTrip(req)
	if err == nil && resp.Header.Get(mcptest.SessionHeader) != "" {
		r.mu.Lock()
		r.ids = append(r.ids, resp.Header.Get(mcptest.SessionHeader))
		r.mu.Unlock()
	}
	return resp, err
}
