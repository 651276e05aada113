package oauth_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/climated/climated/cmd/climated/internal/oauth"
)

// TestRedirectURIExactlyRegistered: anything but a registered redirect
// URI, character for character, is refused without a redirect.
func TestRedirectURIExactlyRegistered(t *testing.T) {
	h := newHub(t, nil)
	const redirect = "https://app.example/cb?x=1"
	client := h.register(redirect)
	for _, uri := range []string{"", "https://app.example/cb", "https://app.example/cb?x=1&y=2", "https://app.example/cb/?x=1",
		"https://APP.example/cb?x=1", "http://app.example/cb?x=1", "https://app.example.evil/cb?x=1", "https://app.example/cb?x=1#f"} {
		_, err := h.srv.CheckAuthRequest(context.Background(), "", h.authQuery(client, uri))
		var ae *oauth.AuthError
		if !errors.As(err, &ae) || ae.Redirect {
			t.Errorf("redirect_uri %q: %v, want an AuthError that does not redirect", uri, err)
		}
	}
	if _, err := h.srv.CheckAuthRequest(context.Background(), "", h.authQuery(client, redirect)); err != nil {
		t.Errorf("the registered redirect URI: %v", err)
	}
	q := h.authQuery("dcr_unknown", redirect)
	if _, err := h.srv.CheckAuthRequest(context.Background(), "", q); err == nil {
		t.Error("an unknown client was accepted")
	}
}

// TestAuthRequestRefusals: PKCE missing or plain, another resource:
// each refused with its RFC error, at the redirect.
func TestAuthRequestRefusals(t *testing.T) {
	h := newHub(t, nil)
	const redirect = "https://app.example/cb"
	client := h.register(redirect)
	for _, c := range []struct {
		name, key, value, code string
	}{
		{"PKCE missing", "code_challenge", "", "invalid_request"},
		{"PKCE method missing (plain)", "code_challenge_method", "", "invalid_request"},
		{"PKCE plain", "code_challenge_method", "plain", "invalid_request"},
		{"another resource", "resource", "https://other.example/mcp", "invalid_target"},
		{"the issuer as resource", "resource", h.base, "invalid_target"},
		{"token response type", "response_type", "token", "unsupported_response_type"},
	} {
		t.Run(c.name, func(t *testing.T) {
			q := h.authQuery(client, redirect)
			q.Set(c.key, c.value)
			_, err := h.srv.CheckAuthRequest(context.Background(), "", q)
			var ae *oauth.AuthError
			if !errors.As(err, &ae) || !ae.Redirect || ae.Code != c.code {
				t.Errorf("got %v, want a redirected %s", err, c.code)
			}
		})
	}
}

// TestAuthRequestWithoutResource: a sign-in that names no resource, as
// Home Assistant's does, is bound to the hub's one resource, and its
// token is accepted there.
func TestAuthRequestWithoutResource(t *testing.T) {
	h := newHub(t, nil)
	const redirect = "https://app.example/cb"
	q := h.authQuery(h.register(redirect), redirect)
	q.Del("resource")
	ar, err := h.srv.CheckAuthRequest(context.Background(), "", q)
	if err != nil || ar.Resource != h.base+"/mcp" {
		t.Fatalf("got %+v, %v; want the hub's resource %s/mcp", ar, err, h.base)
	}
	status, m := h.token(url.Values{"grant_type": {"authorization_code"}, "client_id": {q.Get("client_id")}, "code": {h.code(q)},
		"redirect_uri": {redirect}, "code_verifier": {verifier}})
	if status != 200 {
		t.Fatalf("token: %d %v", status, m)
	}
	if _, err := h.srv.Verify(context.Background(), m["access_token"].(string), nil); err != nil {
		t.Errorf("the token of a sign-in without resource: %v", err)
	}
}

// TestTokenForAnotherResource: the token endpoint refuses another
// resource, and a token minted for one resource is refused by a hub
// serving another (its public URL changed).
func TestTokenForAnotherResource(t *testing.T) {
	h := newHub(t, nil)
	const redirect = "https://app.example/cb"
	client := h.register(redirect)
	form := h.codeForm(client, redirect)
	form.Set("resource", "https://other.example/mcp")
	status, m := h.token(form)
	wantError(t, status, m, http.StatusBadRequest, "invalid_target")

	_, access, refresh := h.signIn()
	other := h.open(oauth.Options{Issuer: "https://hub.example", Resource: "https://hub.example/mcp", Now: h.clock.now})
	if _, err := other.Verify(context.Background(), access, nil); err == nil {
		t.Error("a hub for https://hub.example/mcp accepted a token minted for " + h.base + "/mcp")
	}
	if _, err := h.srv.Verify(context.Background(), access, nil); err != nil {
		t.Errorf("the token's own hub: %v", err)
	}
	status, m = h.token(url.Values{"grant_type": {"refresh_token"}, "client_id": {client}, "refresh_token": {refresh}, "resource": {"https://other.example/mcp"}})
	// client differs from the signIn client, so invalid_grant comes first; the
	// resource of a refresh is checked in TestRefreshResource.
	wantError(t, status, m, http.StatusBadRequest, "invalid_grant")
}

// TestRefreshResource: a refresh naming another resource is refused.
func TestRefreshResource(t *testing.T) {
	h := newHub(t, nil)
	client, _, refresh := h.signIn()
	status, m := h.token(url.Values{"grant_type": {"refresh_token"}, "client_id": {client}, "refresh_token": {refresh}, "resource": {"https://other.example/mcp"}})
	wantError(t, status, m, http.StatusBadRequest, "invalid_target")
}

// TestScopesAsked: climate:read is always granted, alerts:write and
// offline_access as asked, and scopes the hub does not have are ignored,
// not refused (RFC 6749 §3.3): ChatGPT's sign-in asked for "openid email
// offline_access profile" (logto-io/logto#9627), and invalid_scope ended
// it. The token's scope says what was granted.
func TestScopesAsked(t *testing.T) {
	h := newHub(t, nil)
	const redirect = "https://chatgpt.com/connector_platform_oauth_redirect"
	client := h.register(redirect)
	for _, c := range []struct{ asked, granted, ignored string }{
		{"", "climate:read", ""},
		{"openid email offline_access profile", "climate:read offline_access", "openid email profile"},
		{"alerts:write", "climate:read alerts:write", ""},
		{"climate:read alerts:write claudeai alerts:write", "climate:read alerts:write", "claudeai"},
	} {
		q := h.authQuery(client, redirect)
		q.Set("scope", c.asked)
		ar, err := h.srv.CheckAuthRequest(context.Background(), "", q)
		if err != nil {
			t.Fatalf("scope %q: %v", c.asked, err)
		}
		if got := strings.Join(ar.Scopes, " "); got != c.granted || strings.Join(ar.Ignored, " ") != c.ignored {
			t.Errorf("scope %q: granted %q, ignored %q; want %q, %q", c.asked, got, ar.Ignored, c.granted, c.ignored)
		}
		code, err := h.srv.IssueCode(context.Background(), ar)
		if err != nil {
			t.Fatal(err)
		}
		if status, m := h.token(h.exchange(client, redirect, code)); status != http.StatusOK || m["scope"] != c.granted {
			t.Errorf("scope %q: token %d %v, want scope %q", c.asked, status, m, c.granted)
		}
	}
}
