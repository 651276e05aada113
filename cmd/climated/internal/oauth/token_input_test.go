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

// TestTokenEndpointCORS: a browser page of another origin may call /token
// and /register: the preflight is answered, and so is the POST, with
// Access-Control-Allow-Origin.
func TestTokenEndpointCORS(t *testing.T) {
	h := newHub(t, nil)
	for _, p := range []string{oauth.PathToken, oauth.PathRegister} {
		resp := preflight(t, h.base+p, "POST", "content-type")
		if resp.StatusCode != http.StatusNoContent || resp.Header.Get("Access-Control-Allow-Origin") != "*" ||
			!strings.Contains(resp.Header.Get("Access-Control-Allow-Methods"), "POST") ||
			!strings.Contains(strings.ToLower(resp.Header.Get("Access-Control-Allow-Headers")), "content-type") {
			t.Errorf("preflight of %s: %d %v, want 204 allowing POST with Content-Type from any origin", p, resp.StatusCode, resp.Header)
		}
		req, _ := http.NewRequest(http.MethodPost, h.base+p, strings.NewReader("{}"))
		req.Header.Set("Origin", "https://inspector.example")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.Header.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("POST %s (answered %d): no Access-Control-Allow-Origin, so a browser page could not read the error", p, resp.StatusCode)
		}
	}
}

// preflight is a browser's CORS preflight from another origin for a
// request of method with headers.
func preflight(t *testing.T, u, method, headers string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodOptions, u, nil)
	req.Header.Set("Origin", "https://inspector.example")
	req.Header.Set("Access-Control-Request-Method", method)
	req.Header.Set("Access-Control-Request-Headers", headers)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}
