package oauth_test

import (
	"net/http"
	"net/url"
	"sync"
	"testing"

	"github.com/climated/climated/cmd/climated/internal/oauth"
)

// TestRacingRedemptions: of 8 requests redeeming one code at once, or
// one refresh token at once, exactly one gets tokens. (The losing
// refreshes count as reuse and revoke the family: docs/oauth.md, open
// questions.)
func TestRacingRedemptions(t *testing.T) {
	h := newHub(t, nil)
	const redirect = "https://app.example/cb"
	client := h.register(redirect)
	code := h.codeForm(client, redirect)
	if n := racing(h, code); n != 1 {
		t.Errorf("%d of 8 redemptions of one code succeeded, want 1", n)
	}
	client, _, refresh := h.signIn()
	if n := racing(h, url.Values{"grant_type": {"refresh_token"}, "client_id": {client}, "refresh_token": {refresh}}); n != 1 {
		t.Errorf("%d of 8 refreshes with one token succeeded, want 1", n)
	}
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
