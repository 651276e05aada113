package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/oauth"
	"github.com/climated/climated/internal/testutil"
)

// openStream opens a GET event stream with hdr; the returned channel is
// closed when the stream ends (the hub closes it, or the test ends).
func openStream(t *testing.T, url string, hdr map[string]string) <-chan struct{} {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET %s: %v %v", url, resp, err)
	}
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		defer resp.Body.Close()
		io.Copy(io.Discard, resp.Body)
	}()
	return ended
}

// signedIn is what one OAuth client holds open: its HTTP+SSE stream, its
// Streamable HTTP session and that session's GET stream.
type signedIn struct {
	client, access, session string
	sse, get                <-chan struct{}
}

func openAll(t *testing.T, base, owner string) signedIn {
	t.Helper()
	var s signedIn
	s.client, s.access = approvedClient(t, base, owner)
	s.sse = openStream(t, base+"/sse", map[string]string{"Authorization": "Bearer " + s.access})
	s.session = initSession(t, base+"/mcp", s.access, "2025-06-18")
	s.get = openStream(t, base+"/mcp", map[string]string{"Authorization": "Bearer " + s.access, "Accept": "text/event-stream",
		"Mcp-Session-Id": s.session, "Mcp-Protocol-Version": "2025-06-18"})
	return s
}

// sessionStatus is what the owner's static token gets posting to the
// session: 403 while it is open (another user's), 404 once it has ended.
func sessionStatus(t *testing.T, base, owner, session string) int {
	t.Helper()
	s, _ := call(t, "POST", base+"/mcp", map[string]string{"Authorization": "Bearer " + owner, "Content-Type": "application/json",
		"Accept": "application/json, text/event-stream", "Mcp-Session-Id": session, "Mcp-Protocol-Version": "2025-06-18"},
		`{"jsonrpc":"2.0","id":9,"method":"ping"}`)
	return s
}

func waitEnded(t *testing.T, what string, ch <-chan struct{}, within time.Duration) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(within):
		t.Errorf("%s still open %v after its sign-in ended", what, within)
	}
}

func stillOpen(t *testing.T, what string, ch <-chan struct{}) {
	t.Helper()
	select {
	case <-ch:
		t.Errorf("%s ended, though its sign-in holds", what)
	default:
	}
}

// TestRevokeEndsStreams: `climated clients revoke`, run beside the hub,
// ends the revoked client's open HTTP+SSE stream, its Streamable HTTP
// session and that session's GET stream within a few rechecks; another
// client's stay open.
func TestRevokeEndsStreams(t *testing.T) {
	base, owner, cfg := oauthHubEnv(t, serveEnv{})
	revoked, kept := openAll(t, base, owner), openAll(t, base, owner)
	var out, errOut bytes.Buffer
	cmd := climated("clients", "--db", cfg.Database, "revoke", revoked.client)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("climated clients revoke: %v\n%s%s", err, out.String(), errOut.String())
	}
	within := 5 * time.Second // DefaultGrantRecheck is 2 s
	waitEnded(t, "the revoked client's /sse stream", revoked.sse, within)
	waitEnded(t, "the revoked client's GET /mcp stream", revoked.get, within)
	waitSessionEnded(t, base, owner, revoked.session, within)
	time.Sleep(2 * 2 * time.Second) // two more rechecks
	stillOpen(t, "the other client's /sse stream", kept.sse)
	stillOpen(t, "the other client's GET /mcp stream", kept.get)
	if s := sessionStatus(t, base, owner, kept.session); s != http.StatusForbidden {
		t.Errorf("the other client's session: %d, want 403 (open, another user's)", s)
	}
}

// TestExpiredTokenEndsStreams: a stream ends when the access token it was
// opened with expires; the session it belongs to stays, for the client to
// go on with a refreshed token.
func TestExpiredTokenEndsStreams(t *testing.T) {
	const ttl = 3 * time.Second
	base, owner := oauthHub(t, func(o *oauth.Options) { o.AccessTTL = ttl })
	s := openAll(t, base, owner)
	opened := time.Now()
	waitEnded(t, "the /sse stream", s.sse, ttl+5*time.Second)
	waitEnded(t, "the GET /mcp stream", s.get, ttl+5*time.Second)
	if took := time.Since(opened); took < ttl-time.Second {
		t.Errorf("the streams ended %v after they opened, before the token's %v expired", took, ttl)
	}
	if st := sessionStatus(t, base, owner, s.session); st != http.StatusForbidden {
		t.Errorf("the session after its token expired: %d, want 403 (still open)", st)
	}
}

// TestDashboardRevokeEndsStreamsAtOnce: a revoke on the dashboard, in the
// hub's own process, ends the client's streams and session without
// waiting for a recheck (here an hour apart, so that only the revoke's
// own check can end them).
func TestDashboardRevokeEndsStreamsAtOnce(t *testing.T) {
	base, owner, _ := oauthHubEnv(t, serveEnv{grantRecheck: time.Hour})
	s := openAll(t, base, owner)
	hdr := map[string]string{"Authorization": "Bearer " + owner, "Origin": base, "Content-Type": "application/json"}
	if st, text := call(t, "POST", base+"/api/clients/revoke", hdr, `{"client_id":"`+s.client+`"}`); st != http.StatusNoContent {
		t.Fatalf("revoking from the dashboard: %d %s", st, text)
	}
	waitEnded(t, "the /sse stream", s.sse, 10*time.Second)
	waitEnded(t, "the GET /mcp stream", s.get, 10*time.Second)
	waitSessionEnded(t, base, owner, s.session, 10*time.Second)
}

// waitSessionEnded waits for the session to end (the SDK closes it on a
// goroutine of its own).
func waitSessionEnded(t *testing.T, base, owner, session string, within time.Duration) {
	t.Helper()
	testutil.EventuallyWithin(within, func() bool { return sessionStatus(t, base, owner, session) == http.StatusNotFound })
	if s := sessionStatus(t, base, owner, session); s != http.StatusNotFound {
		t.Errorf("the revoked client's session: %d, want 404 (ended)", s)
	}
}
