package main

// The hosted assistants, Claude and ChatGPT, signing in to a running hub
// from their own servers, replayed request by request from what servers
// that met them published: testdata/assistants/README.md gives each
// request's source. The owner approves in chromium, and allows alerts.

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/climated/climated/internal/testutil"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/cmd/climated/internal/config"
	"github.com/climated/climated/cmd/climated/internal/oauth"
	"github.com/climated/climated/internal/testutil/chromium"
)

// hosted is one assistant's servers: the headers they send, and what
// they keep of the hub between requests.
type hosted struct {
	t                  *testing.T
	bctx               context.Context
	owner, mcpURL      string
	header             http.Header
	redirect, clientID string
	access, refresh    string
}

var wwwAuthParam = regexp.MustCompile(`(\w+)="([^"]*)"`)

// challenge is the first request, without a token: 401 with the resource
// metadata's URL and the scope the hub asks for.
func (a *hosted) challenge() (prmURL, scope string) {
	req, _ := http.NewRequest(http.MethodPost, a.mcpURL, strings.NewReader(
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"assistant","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp := a.do(req)
	resp.Body.Close()
	params := map[string]string{}
	for _, m := range wwwAuthParam.FindAllStringSubmatch(resp.Header.Get("WWW-Authenticate"), -1) {
		params[m[1]] = m[2]
	}
	if resp.StatusCode != http.StatusUnauthorized || params["resource_metadata"] == "" {
		a.t.Fatalf("first contact: %d %q; want 401 naming the resource metadata", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	return params["resource_metadata"], params["scope"]
}

// discover reads the resource metadata (its resource must be the URL the
// assistant was given) and the server metadata of its first server.
func (a *hosted) discover(prmURL string) map[string]any {
	prm := a.getJSON(prmURL)
	servers, _ := prm["authorization_servers"].([]any)
	if prm["resource"] != a.mcpURL || len(servers) == 0 {
		a.t.Fatalf("resource metadata %v: the resource must be %s", prm, a.mcpURL)
	}
	return a.getJSON(fmt.Sprint(servers[0]) + oauth.PathASMetadata)
}

// register posts body to the registration endpoint and keeps the client
// id; it returns the registration.
func (a *hosted) register(meta map[string]any, body []byte) map[string]any {
	req, _ := http.NewRequest(http.MethodPost, fmt.Sprint(meta["registration_endpoint"]), strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	resp := a.do(req)
	defer resp.Body.Close()
	var reg map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&reg); err != nil || resp.StatusCode != http.StatusCreated || reg["client_id"] == nil {
		a.t.Fatalf("registration: %d %v %v", resp.StatusCode, reg, err)
	}
	a.clientID = fmt.Sprint(reg["client_id"])
	return reg
}

// signIn sends the owner's browser to the consent page with q (PKCE,
// state, client and redirect URI added), approves it allowing alerts,
// and redeems the code with form (the code, verifier, client and redirect
// URI added).
func (a *hosted) signIn(meta map[string]any, q, form url.Values) {
	verifier := base64.RawURLEncoding.EncodeToString(random(a.t, 32))
	sum := sha256.Sum256([]byte(verifier))
	state := base64.RawURLEncoding.EncodeToString(random(a.t, 16))
	q.Set("client_id", a.clientID)
	q.Set("redirect_uri", a.redirect)
	q.Set("code_challenge", base64.RawURLEncoding.EncodeToString(sum[:]))
	q.Set("code_challenge_method", "S256")
	q.Set("state", state)
	sent, err := chromium.Approve(a.bctx, fmt.Sprint(meta["authorization_endpoint"])+"?"+q.Encode(), a.owner, a.redirect, oauth.ScopeAlertsWrite)
	if err != nil {
		a.t.Fatal(err)
	}
	if sent.Query().Get("state") != state || sent.Query().Get("code") == "" {
		a.t.Fatalf("sent back to %s: want the state and a code", sent)
	}
	form.Set("grant_type", "authorization_code")
	form.Set("code", sent.Query().Get("code"))
	form.Set("redirect_uri", a.redirect)
	form.Set("client_id", a.clientID)
	form.Set("code_verifier", verifier)
	if status, tok := a.token(meta, form); status != http.StatusOK {
		a.t.Fatalf("code exchange: %d %v", status, tok)
	}
}

// token posts form to the token endpoint and keeps the tokens it gets.
func (a *hosted) token(meta map[string]any, form url.Values) (int, map[string]any) {
	req, _ := http.NewRequest(http.MethodPost, fmt.Sprint(meta["token_endpoint"]), strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp := a.do(req)
	defer resp.Body.Close()
	var tok map[string]any
	json.NewDecoder(resp.Body).Decode(&tok)
	if resp.StatusCode == http.StatusOK {
		a.access, a.refresh = fmt.Sprint(tok["access_token"]), fmt.Sprint(tok["refresh_token"])
	}
	return resp.StatusCode, tok
}

// useHub reads get_climate and creates an alert with the access token.
func (a *hosted) useHub() {
	useTools(a.t, a.mcpURL, &http.Client{Transport: testutil.Bearer{Token: a.access, Next: http.DefaultTransport}})
}

// useTools connects to the hub at mcpURL with hc, which carries a token
// of the owner's grant with alerts, and calls get_climate and
// create_alert.
func useTools(t *testing.T, mcpURL string, hc *http.Client) {
	t.Helper()
	ctx := context.Background()
	var tr sdk.Transport = &sdk.StreamableClientTransport{Endpoint: mcpURL, HTTPClient: hc}
	if strings.HasSuffix(mcpURL, "/sse") {
		tr = &sdk.SSEClientTransport{Endpoint: mcpURL, HTTPClient: hc}
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "assistant"}, nil).Connect(ctx, tr, nil)
	if err != nil {
		t.Fatalf("connect with the token: %v", err)
	}
	defer cs.Close()
	useToolsOver(t, ctx, cs, &strings.Builder{})
}

func (a *hosted) getJSON(u string) map[string]any {
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	resp := a.do(req)
	defer resp.Body.Close()
	var m map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil || resp.StatusCode != http.StatusOK {
		a.t.Fatalf("GET %s: %d %v", u, resp.StatusCode, err)
	}
	return m
}

func (a *hosted) do(req *http.Request) *http.Response {
	a.t.Helper()
	for k, v := range a.header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	return resp
}

// joinList is a JSON list of strings joined by spaces, as a scope.
func joinList(v any) string {
	var out []string
	list, _ := v.([]any)
	for _, s := range list {
		out = append(out, fmt.Sprint(s))
	}
	return strings.Join(out, " ")
}

func random(t *testing.T, n int) []byte {
	b := make([]byte, n)
	rand.Read(b) // never fails
	return b
}

// revokeAll revokes every client of the hub as its owner does, with
// climated clients revoke beside it.
func revokeAll(t *testing.T, cfg config.Config) {
	t.Helper()
	reg, err := oauth.OpenRegistry(context.Background(), cfg.Database, nil)
	if err != nil {
		t.Fatal(err)
	}
	list, err := reg.Clients(context.Background())
	reg.Close()
	if err != nil || len(list) == 0 {
		t.Fatalf("clients: %v %v", list, err)
	}
	for _, c := range list {
		if out, err := climated("clients", "--db", cfg.Database, "revoke", c.ID).CombinedOutput(); err != nil {
			t.Fatalf("climated clients revoke %s: %v\n%s", c.ID, err, out)
		}
	}
}

// TestClaudeSignsIn replays Claude's connector: the 401, discovery with
// its headers, its registration body (client_secret_post), the consent
// page approved with alerts, the code exchange as python's MCP SDK sends
// it for the method the registration answered (none: no secret), then
// get_climate and create_alert. After a revoke its tokens are refused
// with invalid_client, and Connect again registers again and signs in.
func TestClaudeSignsIn(t *testing.T) {
	bctx := chromium.Browser(t)
	base, owner, cfg := oauthHubEnv(t, serveEnv{})
	body, err := os.ReadFile("testdata/assistants/claude-ai-register.json")
	if err != nil {
		t.Fatal(err)
	}
	a := &hosted{t: t, bctx: bctx, owner: owner, mcpURL: base + "/mcp", redirect: "https://claude.ai/api/mcp/auth_callback",
		header: http.Header{"User-Agent": {"python-httpx/0.28.1"}, "Mcp-Protocol-Version": {"2025-11-25"}}}
	connect := func() map[string]any {
		prmURL, scope := a.challenge()
		meta := a.discover(prmURL)
		reg := a.register(meta, body)
		if reg["token_endpoint_auth_method"] != "none" || reg["client_secret"] != nil || reg["registration_client_uri"] == nil {
			t.Fatalf("registration %v: want the method the hub uses (none, no secret) and a registration_client_uri", reg)
		}
		if scope == "" {
			scope = joinList(a.getJSON(prmURL)["scopes_supported"])
		}
		a.signIn(meta, url.Values{"response_type": {"code"}, "scope": {scope}, "resource": {a.mcpURL}}, url.Values{"resource": {a.mcpURL}})
		a.useHub()
		return meta
	}
	meta := connect()
	revokeAll(t, cfg)
	status, tok := a.token(meta, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {a.refresh}, "client_id": {a.clientID}})
	if status != http.StatusUnauthorized || tok["error"] != "invalid_client" {
		t.Fatalf("a refresh after the revoke: %d %v; want 401 invalid_client", status, tok)
	}
	connect()
}

// docServer serves recorded Client ID Metadata Documents over TLS on
// loopback, at the path of their client_id, each naming its own URL
// there as client_id (a document must).
func recordedDocs(t *testing.T, files ...string) (*clientDocs, map[string]string) {
	docs := map[string][]byte{}
	ids := map[string]string{}
	d := &clientDocs{}
	d.Server = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d.fetched.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Write(docs[r.URL.Path])
	}))
	t.Cleanup(d.Close)
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		json.Unmarshal(raw, &doc)
		u, _ := url.Parse(fmt.Sprint(doc["client_id"]))
		doc["client_id"] = d.URL + u.Path
		docs[u.Path], _ = json.Marshal(doc)
		ids[f] = d.URL + u.Path
	}
	return d, ids
}

// TestChatGPTSignsIn replays ChatGPT's connector: it names itself by its
// Client ID Metadata Document (preferring private_key_jwt, listing none),
// the global one with the older redirect URI and the authorization
// request captured in logto-io/logto#9627 (scope "openid email
// offline_access profile", resource, ui_locales), and a connector's own
// with its per-connector redirect URI asking for the hub's scopes. Each
// is approved with alerts, gets offline_access and a refresh token,
// refreshes, calls get_climate and create_alert; after a revoke its
// refresh is refused with invalid_grant (a document client has no
// registration to throw away, and the answer must not tell strangers
// whether the owner approved it) and it signs in again.
func TestChatGPTSignsIn(t *testing.T) {
	bctx := chromium.Browser(t)
	docs, ids := recordedDocs(t, "testdata/assistants/chatgpt-client.json", "testdata/assistants/chatgpt-connector-client.json")
	base, owner, cfg := oauthHubEnv(t, serveEnv{oauth: docs.trust})
	for _, c := range []struct{ doc, redirect, scope string }{
		{"testdata/assistants/chatgpt-client.json", "https://chatgpt.com/connector_platform_oauth_redirect", "openid email offline_access profile"},
		{"testdata/assistants/chatgpt-connector-client.json", "https://chatgpt.com/connector/oauth/kDmjx77UnKOM", ""},
	} {
		a := &hosted{t: t, bctx: bctx, owner: owner, mcpURL: base + "/mcp", redirect: c.redirect, clientID: ids[c.doc]}
		prmURL, _ := a.challenge()
		meta := a.discover(prmURL)
		if meta["client_id_metadata_document_supported"] != true {
			t.Fatalf("server metadata %v: ChatGPT would register instead", meta)
		}
		scope := c.scope
		if scope == "" {
			scope = joinList(meta["scopes_supported"])
		}
		signIn := func() {
			a.signIn(meta, url.Values{"response_type": {"code"}, "scope": {scope}, "resource": {a.mcpURL}, "ui_locales": {"en-US"}},
				url.Values{"resource": {a.mcpURL}})
			status, tok := a.token(meta, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {a.refresh}, "client_id": {a.clientID}, "resource": {a.mcpURL}})
			if status != http.StatusOK || !strings.Contains(fmt.Sprint(tok["scope"]), "offline_access") {
				t.Fatalf("%s: refresh: %d %v; want a new pair with offline_access granted", c.doc, status, tok)
			}
			a.useHub()
		}
		signIn()
		revokeAll(t, cfg)
		status, tok := a.token(meta, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {a.refresh}, "client_id": {a.clientID}, "resource": {a.mcpURL}})
		if status != http.StatusBadRequest || tok["error"] != "invalid_grant" {
			t.Fatalf("%s: a refresh after the revoke: %d %v; want 400 invalid_grant", c.doc, status, tok)
		}
		signIn()
	}
}
