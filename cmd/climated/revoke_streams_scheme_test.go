package main

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/oauth"
)

// TestLowercaseBearerStreamEnds: RFC 6750's scheme name is case-
// insensitive and go-sdk's RequireBearerToken takes "bearer <token>", so
// a stream opened that way is an OAuth stream like any other; it must end
// when its access token expires, as one opened with "Bearer" does.
// (Found by an adversarial pass: the grant watch read the token with a case-
// sensitive "Bearer " prefix and left such a stream unwatched, open past
// its token's expiry and past a revoke.)
func TestLowercaseBearerStreamEnds(t *testing.T) {
	const ttl = 2 * time.Second
	base, owner := oauthHub(t, func(o *oauth.Options) { o.AccessTTL = ttl })
	_, access := approvedClient(t, base, owner)
	streams := map[string]<-chan struct{}{}
	for _, scheme := range []string{"bearer ", "BEARER ", "Bearer\t"} {
		streams[scheme] = openStream(t, base+"/sse", map[string]string{"Authorization": scheme + access})
	}
	deadline := time.Now().Add(ttl + 5*time.Second)
	for scheme, sse := range streams {
		waitEnded(t, "the /sse stream opened with "+scheme, sse, time.Until(deadline))
	}
}

// TestOwnerStreamableSessionRefusesOAuth: a Streamable HTTP session
// the owner opened with the static token takes no messages, and gives no
// GET stream, to an OAuth client's token, as the HTTP+SSE transport
// already refuses (TestSSEOwnerSessionRefusesOAuth). (Adversarial pass
// 38: go-sdk binds a session to its opener's TokenInfo.UserID only when
// there is one; the owner's session has none, so any signed-in client
// that learnt its id could post to it and read its stream.)
func TestOwnerStreamableSessionRefusesOAuth(t *testing.T) {
	base, owner := oauthHub(t, nil)
	_, access := approvedClient(t, base, owner)
	session := initSession(t, base+"/mcp", owner, "2025-06-18")
	hdr := map[string]string{"Authorization": "Bearer " + access, "Content-Type": "application/json",
		"Accept": "application/json, text/event-stream", "Mcp-Session-Id": session, "Mcp-Protocol-Version": "2025-06-18"}
	if s, text := call(t, "POST", base+"/mcp", hdr, `{"jsonrpc":"2.0","id":9,"method":"ping"}`); s != http.StatusForbidden {
		t.Errorf("an OAuth token posting to the owner's session: %d %s, want 403", s, text)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/mcp", nil)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("an OAuth token opening the owner's session's GET stream: %d, want 403", resp.StatusCode)
	}
}
