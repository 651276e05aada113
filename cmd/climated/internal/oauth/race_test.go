package oauth_test

import (
	"net/http"
	"net/url"
	"sync"
	"testing"

	"github.com/climated/climated/cmd/climated/internal/oauth"
)

// TestRacingRedemptions: of 8 requests redeeming one code at once,
// exactly one gets tokens; of 8 refreshing with one refresh token at once,
// one rotates and the others are retries, of which DefaultMaxPairs-2 get
// a pair and the rest are refused, the grant kept.
func TestRacingRedemptions(t *testing.T) {
	h := newHub(t, nil)
	const redirect = "https://app.example/cb"
	client := h.register(redirect)
	code := h.codeForm(client, redirect)
	if n := racing(h, code); n != 1 {
		t.Errorf("%d of 8 redemptions of one code succeeded, want 1", n)
	}
	client, access, refresh := h.signIn()
	if n := racing(h, url.Values{"grant_type": {"refresh_token"}, "client_id": {client}, "refresh_token": {refresh}}); n != oauth.DefaultMaxPairs-1 {
		t.Errorf("%d of 8 refreshes with one token succeeded, want %d", n, oauth.DefaultMaxPairs-1)
	}
	h.live(t, true, "the pair the racing refreshes came from", access)
}

func racing(h *hub, form url.Values) int {
	var mu sync.Mutex
	var wg sync.WaitGroup
	ok := 0
	for range 8 {
		wg.Go(func() {
			resp, err := http.PostForm(h.base+oauth.PathToken, form)
			if err != nil {
				return
			}
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				mu.Lock()
				ok++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return ok
}
