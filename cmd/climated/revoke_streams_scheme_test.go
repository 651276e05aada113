package main

import (
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
