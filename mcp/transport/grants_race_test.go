package transport

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// revokedGrants is an authorization server on which every token and client
// has been revoked.
type revokedGrants struct{}

func (revokedGrants) TokenLive(context.Context, string) error  { return errors.New("revoked") }
func (revokedGrants) ClientLive(context.Context, string) error { return errors.New("revoked") }

// TestStreamOpenedAcrossRevokeEnds: a stream whose token was verified just
// before the dashboard's revoke, and which is registered with the watch
// just after the revoke's recheck ran, must still end at once, not at the
// next periodic recheck. Found by an adversarial pass: in 1 of
// 50 races (GET /sse, GET /mcp and subscriptions/listen opened while
// POST /api/clients/revoke ran) a listen stream stayed open 1.996 s after
// the 204 and got 3 events. docs/oauth.md: "A revoke on the dashboard ends
// them at once".
func TestStreamOpenedAcrossRevokeEnds(t *testing.T) {
	w := newGrantWatch(time.Hour, time.Now) // only a kick checks
	w.grants = revokedGrants{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go w.run(ctx, slog.New(slog.DiscardHandler))

	// The request passed the front's Verify before the revoke.
	r := httptest.NewRequest("GET", "/sse", nil)
	r.Header.Set("Authorization", "Bearer tok")
	r = verified(t, r, &auth.TokenInfo{UserID: "client", Expiration: time.Now().Add(time.Hour)})

	// The revoke commits and kicks the watch, which finds nothing held yet.
	w.kick <- struct{}{}
	time.Sleep(50 * time.Millisecond)

	// Now the stream registers.
	r, stop := w.watchStream(r, "stream")
	defer stop()
	select {
	case <-r.Context().Done():
	case <-time.After(500 * time.Millisecond):
		t.Fatal("a stream registered after the revoke's recheck is still open 500 ms later: it lives until the next periodic recheck (DefaultGrantRecheck)")
	}
}

// verified is r as go-sdk's RequireBearerToken hands it on, with ti.
func verified(t *testing.T, r *http.Request, ti *auth.TokenInfo) *http.Request {
	t.Helper()
	var out *http.Request
	auth.RequireBearerToken(func(context.Context, string, *http.Request) (*auth.TokenInfo, error) { return ti, nil }, nil)(
		http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { out = r })).ServeHTTP(httptest.NewRecorder(), r)
	if out == nil {
		t.Fatal("RequireBearerToken refused the request")
	}
	return out
}
