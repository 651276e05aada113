package oauth_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/climated/climated/cmd/climated/internal/oauth"
)

// TestCodeFlowAndRefresh: a code becomes tokens, the access token passes
// Verify with its scope, a refresh rotates both; the old access token
// works until the new pair is used (a client whose answer was lost still
// holds it), and stops then.
func TestCodeFlowAndRefresh(t *testing.T) {
	h := newHub(t, nil)
	client, access, refresh := h.signIn()
	ti, err := h.srv.Verify(context.Background(), access, nil)
	if err != nil || len(ti.Scopes) != 1 || ti.Scopes[0] != oauth.ScopeRead || ti.UserID != client {
		t.Fatalf("Verify: %+v, %v", ti, err)
	}
	if got := ti.Expiration.Sub(h.clock.now()); got != time.Hour {
		t.Errorf("access token lives %v, want 1h", got)
	}
	status, m := h.token(url.Values{"grant_type": {"refresh_token"}, "client_id": {client}, "refresh_token": {refresh}})
	if status != http.StatusOK || m["refresh_token"] == refresh || m["access_token"] == access {
		t.Fatalf("refresh: %d %v", status, m)
	}
	h.live(t, true, "the rotated-out pair, its successor not used", access)
	h.live(t, true, "the new pair", m["access_token"].(string))
	a2, _ := h.mustRefresh(client, m["refresh_token"].(string))
	h.live(t, true, "the newest pair", a2)
	h.live(t, false, "the pair rotated out once its successor was used", access)
	h.clock.add(time.Hour)
	h.live(t, false, "an hour later", a2)
}

// TestCodeSingleUse: a code redeemed once is refused the second time.
func TestCodeSingleUse(t *testing.T) {
	h := newHub(t, nil)
	const redirect = "https://app.example/cb"
	client := h.register(redirect)
	form := h.codeForm(client, redirect)
	if status, m := h.token(form); status != http.StatusOK {
		t.Fatalf("first redemption: %d %v", status, m)
	}
	status, m := h.token(form)
	wantError(t, status, m, http.StatusBadRequest, "invalid_grant")
}

// TestCodeReplayRevokesGrant: a code presented again is refused and
// revokes the grant its first redemption made (RFC 6749 §4.1.2), the
// tokens a refresh since gave included.
func TestCodeReplayRevokesGrant(t *testing.T) {
	h := newHub(t, nil)
	const redirect = "https://app.example/cb"
	client := h.register(redirect)
	form := h.codeForm(client, redirect)
	status, m := h.token(form)
	if status != http.StatusOK {
		t.Fatalf("first redemption: %d %v", status, m)
	}
	status, m = h.token(url.Values{"grant_type": {"refresh_token"}, "client_id": {client}, "refresh_token": {m["refresh_token"].(string)}})
	if status != http.StatusOK {
		t.Fatalf("refresh: %d %v", status, m)
	}
	access, refresh := m["access_token"].(string), m["refresh_token"].(string)
	other, otherAccess, _ := h.signIn()
	status, m = h.token(form)
	wantError(t, status, m, http.StatusBadRequest, "invalid_grant")
	if _, err := h.srv.Verify(context.Background(), access, nil); !errors.Is(err, auth.ErrInvalidToken) {
		t.Errorf("the access token of a replayed code's grant: %v, want ErrInvalidToken", err)
	}
	status, m = h.token(url.Values{"grant_type": {"refresh_token"}, "client_id": {client}, "refresh_token": {refresh}})
	wantError(t, status, m, http.StatusBadRequest, "invalid_grant")
	if _, err := h.srv.Verify(context.Background(), otherAccess, nil); err != nil {
		t.Errorf("another client's (%s) grant after the replay: %v", other, err)
	}
	if !strings.Contains(h.logText(), "oauth code replayed") {
		t.Errorf("the replay is not logged:\n%s", h.logText())
	}
}

// TestCodeExpiresAfter60s: a code is good at 59 s, refused at 60 s.
func TestCodeExpiresAfter60s(t *testing.T) {
	h := newHub(t, nil)
	const redirect = "https://app.example/cb"
	client := h.register(redirect)
	fresh := h.codeForm(client, redirect)
	old := h.codeForm(client, redirect)
	h.clock.add(59 * time.Second)
	if status, m := h.token(fresh); status != http.StatusOK {
		t.Fatalf("a code 59 s old: %d %v", status, m)
	}
	h.clock.add(time.Second)
	status, m := h.token(old)
	wantError(t, status, m, http.StatusBadRequest, "invalid_grant")
}

// TestPKCEVerifier: the token request needs the verifier of the challenge.
func TestPKCEVerifier(t *testing.T) {
	h := newHub(t, nil)
	const redirect = "https://app.example/cb"
	client := h.register(redirect)
	for name, v := range map[string]string{
		"missing":                      "",
		"wrong":                        "dBjftJeZ4CVP-mB92K27uhbUJU1p1r0wW1gFWFOEjXk-abd",
		"too short":                    "abc",
		"the challenge itself (plain)": challenge(verifier),
	} {
		form := h.codeForm(client, redirect)
		form.Set("code_verifier", v)
		status, m := h.token(form)
		t.Run(name, func(t *testing.T) { wantError(t, status, m, http.StatusBadRequest, "invalid_grant") })
	}
}
