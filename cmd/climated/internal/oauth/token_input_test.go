package oauth_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/climated/climated/cmd/climated/internal/oauth"
)

// TestTokenBadInput: malformed token requests get RFC 6749 §5.2 errors,
// never a crash or a 500.
func TestTokenBadInput(t *testing.T) {
	h := newHub(t, nil)
	client, _, _ := h.signIn()
	for _, c := range []struct {
		name   string
		body   string
		status int
		code   string
	}{
		{"empty", "", 401, "invalid_client"},
		{"unknown grant", url.Values{"grant_type": {"password"}, "client_id": {client}}.Encode(), 400, "unsupported_grant_type"},
		{"repeated parameter", "grant_type=refresh_token&grant_type=refresh_token&client_id=" + client, 400, "invalid_request"},
		{"client secret", url.Values{"grant_type": {"refresh_token"}, "client_id": {client}, "client_secret": {"x"}}.Encode(), 401, "invalid_client"},
		{"malformed refresh", url.Values{"grant_type": {"refresh_token"}, "client_id": {client}, "refresh_token": {"nodot"}}.Encode(), 400, "invalid_grant"},
		{"unknown code", url.Values{"grant_type": {"authorization_code"}, "client_id": {client}, "code": {"x"}}.Encode(), 400, "invalid_grant"},
		{"bad form", "%zz", 400, "invalid_request"},
		{"oversized", "client_id=a&code=" + strings.Repeat("x", 20<<10), 400, "invalid_request"},
	} {
		t.Run(c.name, func(t *testing.T) {
			status, body := h.post(oauth.PathToken, "application/x-www-form-urlencoded", c.body)
			var m map[string]any
			if err := json.Unmarshal([]byte(body), &m); err != nil {
				t.Fatalf("answer %d is not JSON: %s", status, body)
			}
			wantError(t, status, m, c.status, c.code)
		})
	}
}

// TestTokenEndpointMethods: /token and /register answer POST only.
func TestTokenEndpointMethods(t *testing.T) {
	h := newHub(t, nil)
	for _, p := range []string{oauth.PathToken, oauth.PathRegister} {
		resp, err := http.Get(h.base + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("GET %s: %d, want 405", p, resp.StatusCode)
		}
	}
}
