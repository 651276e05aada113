package oauth_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/time/rate"

	"github.com/climated/climated/cmd/climated/internal/oauth"
)

// TestRegistrationAskingForASecret: a client that asks for a secret
// (Claude's connector asks for client_secret_post:
// anthropics/claude-ai-mcp#1043) is registered as a public client, told
// so (token_endpoint_auth_method none, no secret), and given a
// registration_client_uri that reads the registration back until the
// client is revoked, then answers invalid_client. Its scope is the hub's
// scopes, not the one it asked for (found by an adversarial pass).
func TestRegistrationAskingForASecret(t *testing.T) {
	h := newHub(t, func(o *oauth.Options) { o.RegisterRate = rate.Inf })
	for _, method := range []string{"client_secret_post", "client_secret_basic", "private_key_jwt"} {
		status, body := h.post(oauth.PathRegister, "application/json",
			`{"redirect_uris":["https://claude.ai/api/mcp/auth_callback"],"token_endpoint_auth_method":"`+method+`","client_name":"Claude","scope":"claudeai alerts:write","jwks":null,"contacts":[]}`)
		var reg map[string]any
		json.Unmarshal([]byte(body), &reg)
		if status != http.StatusCreated || reg["token_endpoint_auth_method"] != "none" || reg["client_secret"] != nil {
			t.Fatalf("%s: %d %s; want 201 with none and no secret", method, status, body)
		}
		// What it may be granted (the owner decides at consent), not the
		// scope it asked for, which named one the hub has not.
		if reg["scope"] != "climate:read alerts:write offline_access" {
			t.Errorf("%s: registered scope %v; want the hub's scopes", method, reg["scope"])
		}
		id, _ := reg["client_id"].(string)
		if uri := reg["registration_client_uri"]; uri != h.base+"/register/"+id {
			t.Fatalf("registration_client_uri %v", uri)
		}
	}
	client, access, refresh := h.signIn()
	resp, err := http.Get(h.base + "/register/" + client)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	json.NewDecoder(resp.Body).Decode(&got)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || got["client_id"] != client || got["token_endpoint_auth_method"] != "none" {
		t.Errorf("GET registration_client_uri: %d %v", resp.StatusCode, got)
	}
	h.revoke(t, client, access, refresh)
	resp, err = http.Get(h.base + "/register/" + client)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(string(body), `"invalid_client"`) {
		t.Errorf("GET a revoked registration: %d %s; want 404 invalid_client", resp.StatusCode, body)
	}
}

// TestTokenForUnlistedClient: /token answers a client the hub no longer
// lists (revoked, or its registration expired) with invalid_client and
// 401 (RFC 6749 §5.2), for a code as for a refresh, and logs one line
// that names the reason and what to do.
func TestTokenForUnlistedClient(t *testing.T) {
	h := newHub(t, nil)
	const redirect = "http://127.0.0.1:5555/callback"
	client := h.register(redirect)
	form := h.codeForm(client, redirect)
	if err := h.srv.Revoke(context.Background(), client); err != nil {
		t.Fatal(err)
	}
	status, m := h.token(form)
	wantError(t, status, m, http.StatusUnauthorized, "invalid_client")
	if !strings.Contains(h.logText(), "oauth sign-in refused") || !strings.Contains(h.logText(), "register again") {
		t.Errorf("the refusal is not logged with its fix:\n%s", h.logText())
	}
}

// TestOwnerDecidesScopes: the consent page offers writing alerts as a
// box, ticked when the client asked for it; the code, and so the token,
// carries what the owner left ticked, whatever the client asked for.
func TestOwnerDecidesScopes(t *testing.T) {
	h := newHub(t, func(o *oauth.Options) { o.Owner = checkOwner })
	const redirect = "https://app.example/cb"
	client := h.register(redirect)
	box := regexp.MustCompile(`<input type="checkbox" form="consent" name="grant" value="alerts:write"( checked)?>`)
	for _, c := range []struct {
		asked   string
		tick    bool
		granted string
	}{
		{"climate:read", false, "climate:read"},
		{"climate:read", true, "climate:read alerts:write"},
		{"climate:read alerts:write", false, "climate:read"},
		{"climate:read alerts:write offline_access", true, "climate:read alerts:write offline_access"},
	} {
		q := h.authQuery(client, redirect)
		q.Set("scope", c.asked)
		b := newBrowser(t)
		_, page := b.get(h.base + oauth.PathAuthorize + "?" + q.Encode())
		m := box.FindStringSubmatch(page)
		if m == nil || (m[1] != "") != strings.Contains(c.asked, "alerts:write") {
			t.Fatalf("asked %q: the alerts box is %q, want ticked as asked", c.asked, m)
		}
		form := formOf(page)
		form.Set("owner", ownerToken)
		form.Set("action", "approve")
		if c.tick {
			form.Set("grant", "alerts:write")
		}
		resp, _ := b.post(h.base+oauth.PathAuthorize, form)
		loc, _ := url.Parse(resp.Header.Get("Location"))
		status, tok := h.token(h.exchange(client, redirect, loc.Query().Get("code")))
		if status != http.StatusOK || tok["scope"] != c.granted {
			t.Errorf("asked %q, ticked %v: %d %v, want scope %q", c.asked, c.tick, status, tok, c.granted)
		}
	}
}

// TestMetadataCORS: a browser-based client's preflight, with the
// MCP-Protocol-Version header the TypeScript SDK adds, is answered on
// both metadata documents (the server metadata answered 405).
func TestMetadataCORS(t *testing.T) {
	h := newHub(t, nil)
	for _, p := range []string{oauth.PathASMetadata, oauth.PathResourceMetaDir + "/mcp", oauth.PathResourceMetaDir} {
		resp := preflight(t, h.base+p, "GET", "mcp-protocol-version")
		allowed := strings.ToLower(resp.Header.Get("Access-Control-Allow-Headers"))
		if resp.StatusCode != http.StatusNoContent || resp.Header.Get("Access-Control-Allow-Origin") != "*" || !strings.Contains(allowed, "mcp-protocol-version") {
			t.Errorf("OPTIONS %s: %d, allow-origin %q, allow-headers %q", p, resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"), allowed)
		}
	}
}

// TestSSEResource: /sse has resource metadata of its own, naming /sse as
// its resource (clients refuse one that is not the URL they were given),
// a sign-in may bind its token to /sse, and that token opens the hub.
func TestSSEResource(t *testing.T) {
	h := newHub(t, func(o *oauth.Options) { o.Resources = []string{o.Issuer + "/sse"} })
	if u := h.srv.ResourceMetadataURLFor("/sse"); u != h.base+"/.well-known/oauth-protected-resource/sse" {
		t.Errorf("ResourceMetadataURLFor(/sse) %q", u)
	}
	resp, err := http.Get(h.srv.ResourceMetadataURLFor("/sse"))
	if err != nil {
		t.Fatal(err)
	}
	var prm map[string]any
	json.NewDecoder(resp.Body).Decode(&prm)
	resp.Body.Close()
	if prm["resource"] != h.base+"/sse" {
		t.Errorf("/sse's resource metadata: %v", prm)
	}
	const redirect = "http://127.0.0.1:5555/callback"
	client := h.register(redirect)
	q := h.authQuery(client, redirect)
	q.Set("resource", h.base+"/sse")
	form := h.exchange(client, redirect, h.code(q))
	form.Set("resource", h.base+"/sse")
	status, m := h.token(form)
	if status != http.StatusOK {
		t.Fatalf("a sign-in for /sse: %d %v", status, m)
	}
	if _, err := h.srv.Verify(context.Background(), m["access_token"].(string), nil); err != nil {
		t.Errorf("a token for /sse: %v", err)
	}
	status, m = h.token(url.Values{"grant_type": {"refresh_token"}, "client_id": {client}, "refresh_token": {m["refresh_token"].(string)}})
	if status != http.StatusOK {
		t.Errorf("refreshing a grant for /sse: %d %v", status, m)
	}
}
