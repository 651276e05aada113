package main

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// TestOAuthDashboardRevoke: in the running hub an assistant registers,
// the owner approves it on the consent page, and its access token opens
// /mcp; the dashboard's list has it, and the owner's revocation there
// (from the hub's own origin) closes /mcp to the token at once.
func TestOAuthDashboardRevoke(t *testing.T) {
	base, owner := oauthHub(t, nil)
	client, access := approvedClient(t, base, owner)
	if s := mcpStatus(t, base, access); s != http.StatusOK {
		t.Fatalf("/mcp with the fresh access token: %d, want 200", s)
	}
	asOwner := map[string]string{"Authorization": "Bearer " + owner}
	if s, list := call(t, "GET", base+"/api/clients", asOwner, ""); s != 200 || !strings.Contains(list, `"id":"`+client+`","name":"Home Assistant","scopes":["climate:read"]`) {
		t.Fatalf("the dashboard's apps: %d %s", s, list)
	}
	asOwner["Origin"], asOwner["Content-Type"] = base, "application/json"
	if s, text := call(t, "POST", base+"/api/clients/revoke", asOwner, `{"client_id":"`+client+`"}`); s != http.StatusNoContent {
		t.Fatalf("revoking from the dashboard: %d %s", s, text)
	}
	if s := mcpStatus(t, base, access); s != http.StatusUnauthorized {
		t.Errorf("/mcp with the revoked app's token: %d, want 401", s)
	}
}

// approvedClient registers "Home Assistant", has the owner approve it on
// the consent page and redeems the code: its client id and access token.
func approvedClient(t *testing.T, base, owner string) (client, access string) {
	t.Helper()
	const redirect = "http://127.0.0.1:9/callback"
	s, reg := call(t, "POST", base+"/register", map[string]string{"Content-Type": "application/json"},
		`{"client_name":"Home Assistant","redirect_uris":["`+redirect+`"]}`)
	var r struct {
		ClientID    string `json:"client_id"`
		AccessToken string `json:"access_token"`
	}
	if err := json.Unmarshal([]byte(reg), &r); err != nil || s != http.StatusCreated {
		t.Fatalf("register: %d %s", s, reg)
	}
	verifier := strings.Repeat("verifier-", 6)
	sum := sha256.Sum256([]byte(verifier))
	q := url.Values{"client_id": {r.ClientID}, "redirect_uri": {redirect}, "response_type": {"code"}, "state": {"st"},
		"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"}, "resource": {base + "/mcp"}}
	res, err := approveOver(&http.Client{}, owner)(context.Background(), &auth.AuthorizationArgs{URL: base + "/authorize?" + q.Encode()})
	if err != nil {
		t.Fatal(err)
	}
	form := url.Values{"grant_type": {"authorization_code"}, "client_id": {r.ClientID}, "redirect_uri": {redirect},
		"code": {res.Code}, "code_verifier": {verifier}, "resource": {base + "/mcp"}}
	s, tok := call(t, "POST", base+"/token", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, form.Encode())
	if err := json.Unmarshal([]byte(tok), &r); err != nil || s != http.StatusOK || r.AccessToken == "" {
		t.Fatalf("token: %d %s", s, tok)
	}
	return r.ClientID, r.AccessToken
}

// mcpStatus is the status of an MCP initialize on /mcp with access.
func mcpStatus(t *testing.T, base, access string) int {
	t.Helper()
	s, _ := call(t, "POST", base+"/mcp", map[string]string{"Authorization": "Bearer " + access,
		"Content-Type": "application/json", "Accept": "application/json, text/event-stream"},
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	return s
}

// call sends a request with hdr and body; it returns the status and the body.
func call(t *testing.T, method, u string, hdr map[string]string, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}
