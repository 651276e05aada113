package main

// Home Assistant's side of the sign-in, as its source does it: the
// authorize URL, the callback, the token requests and what it reads after.

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/climated/climated/internal/testutil"
)

// startAuth is LocalOAuth2Implementation.async_generate_authorize_url
// with PKCE and the flow's extra_authorize_data, in yarl's order and
// quoting; it returns the state and the URL.
func (ha *haSession) startAuth() (string, string) {
	ha.verifier = base64.RawURLEncoding.EncodeToString(randomBytes(ha.t, 96))[:128] // secrets.token_urlsafe(96)[:128]
	sum := sha256.Sum256([]byte(ha.verifier))
	state := haJWT(ha.t, fmt.Sprintf(`{"flow_id":"%x","redirect_uri":%q}`, randomBytes(ha.t, 16), haRedirect))
	q := []string{
		"response_type=code",
		"client_id=" + yarlQuote(ha.clientID),
		"redirect_uri=" + yarlQuote(haRedirect),
		"state=" + yarlQuote(state),
		"code_challenge=" + base64.RawURLEncoding.EncodeToString(sum[:]),
		"code_challenge_method=S256",
		"access_type=offline",
		"prompt=consent",
	}
	if ha.scopes != nil { // the flow adds scope unless discovery found none at all
		q = append(q, "scope="+yarlQuote(strings.Join(ha.scopes, " ")))
	}
	return state, ha.authorizeURL + "?" + strings.Join(q, "&")
}

// yarlQuote quotes a query value as yarl does: unreserved characters and
// ?/:@ as they are, a space as +, the rest %XX.
func yarlQuote(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', strings.IndexByte("-._~?/:@", c) >= 0:
			b.WriteByte(c)
		case c == ' ':
			b.WriteByte('+')
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// haJWT is _encode_jwt: PyJWT's HS256 with HA's secret.
func haJWT(t *testing.T, payload string) string {
	enc := base64.RawURLEncoding
	signed := enc.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`)) + "." + enc.EncodeToString([]byte(payload))
	mac := hmac.New(sha256.New, randomBytes(t, 32))
	mac.Write([]byte(signed))
	return signed + "." + enc.EncodeToString(mac.Sum(nil))
}

// callback is what reaches HA through my.home-assistant.io: the state it
// sent, unchanged, and a code; then async_resolve_external_data redeems
// the code with HA's form.
func (ha *haSession) callback(sent *url.URL, state string) {
	t := ha.t
	q := sent.Query()
	if q.Get("error") != "" {
		t.Fatalf("the hub sent HA an error: %s: %s", q.Get("error"), q.Get("error_description"))
	}
	if got := sent.Scheme + "://" + sent.Host + sent.Path; got != haRedirect || q.Get("state") != state || q.Get("code") == "" {
		t.Fatalf("sent to %s: want %s with the state unchanged and a code", sent, haRedirect)
	}
	ha.tokenRequest([][2]string{
		{"grant_type", "authorization_code"}, {"code", q.Get("code")}, {"redirect_uri", haRedirect},
		{"code_verifier", ha.verifier}, {"client_id", ha.clientID},
	})
}

// ensureTokenValid is OAuth2Session.async_ensure_token_valid: a token
// within 20 s of its end is refreshed with HA's form.
func (ha *haSession) ensureTokenValid() {
	if ha.expiresAt.After(ha.now().Add(haClockSkew)) {
		ha.t.Fatal("HA would not refresh: its token has not expired")
	}
	ha.tokenRequest([][2]string{{"grant_type", "refresh_token"}, {"client_id", ha.clientID}, {"refresh_token", ha.refreshTok}})
}

// tokenRequest is _token_request: the form in HA's order (client_secret
// left out, a public client's being empty); HA needs expires_in.
func (ha *haSession) tokenRequest(form [][2]string) {
	t := ha.t
	var parts []string
	for _, kv := range form {
		parts = append(parts, url.QueryEscape(kv[0])+"="+url.QueryEscape(kv[1]))
	}
	req, _ := http.NewRequest(http.MethodPost, ha.tokenURL, strings.NewReader(strings.Join(parts, "&")))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp := ha.do(req)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var tok struct {
		AccessToken  string       `json:"access_token"`
		RefreshToken string       `json:"refresh_token"`
		ExpiresIn    *json.Number `json:"expires_in"`
	}
	if resp.StatusCode >= 400 || json.Unmarshal(body, &tok) != nil || tok.AccessToken == "" {
		t.Fatalf("token request %s: %d %s", form[0][1], resp.StatusCode, body)
	}
	secs, err := tok.ExpiresIn.Int64() // int(token["expires_in"])
	if tok.ExpiresIn == nil || err != nil {
		t.Fatalf("token request: expires_in %v: HA aborts with oauth_error", tok.ExpiresIn)
	}
	if tok.RefreshToken != "" { // {**token, **new_token}: a missing one keeps the old
		ha.refreshTok = tok.RefreshToken
	}
	ha.accessToken, ha.expiresAt = tok.AccessToken, ha.now().Add(time.Duration(secs)*time.Second)
}

// readClimate calls get_climate over Streamable HTTP with the bearer
// token, as HA's mcp_client does with its token manager.
func (ha *haSession) readClimate() {
	t := ha.t
	hc := &http.Client{Transport: testutil.Bearer{Token: ha.accessToken, Next: http.DefaultTransport}}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "home-assistant"}, nil).Connect(context.Background(),
		&sdk.StreamableClientTransport{Endpoint: ha.mcpURL, HTTPClient: hc}, nil)
	if err != nil {
		t.Fatalf("connect with HA's token: %v", err)
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "get_climate"})
	if err != nil || res.IsError || !strings.Contains(fmt.Sprint(res.StructuredContent), "Indoor") {
		t.Fatalf("get_climate: %v %+v", err, res)
	}
}

func (ha *haSession) mcpStatus(token string) int {
	req, _ := http.NewRequest(http.MethodPost, ha.mcpURL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	resp := ha.do(req)
	resp.Body.Close()
	return resp.StatusCode
}

func (ha *haSession) status(u string) int {
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	resp := ha.do(req)
	resp.Body.Close()
	return resp.StatusCode
}

func (ha *haSession) getJSON(u string, v any) {
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	resp := ha.do(req)
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		ha.t.Fatalf("GET %s: %d", u, resp.StatusCode)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		ha.t.Fatalf("GET %s: %v", u, err)
	}
}

func (ha *haSession) do(req *http.Request) *http.Response {
	ha.t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		ha.t.Fatal(err)
	}
	return resp
}

func randomBytes(t *testing.T, n int) []byte {
	b := make([]byte, n)
	rand.Read(b) // never fails (crypto/rand)
	return b
}
