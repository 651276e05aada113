package front

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/oauth"
	"github.com/climated/climated/history/hub"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/mcp"
	"github.com/climated/climated/sensors"
)

// oauthHub is a hub with a static token and the authorization server on
// one history file, the front and the oauth handler on one listener.
func oauthHub(t *testing.T, token string) (*httptest.Server, *oauth.Server) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "h.db")
	store, err := hub.Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	store.Record(context.Background(), sensors.Batch{Readings: []sensors.Reading{{Zone: "Indoor", Measurement: sensors.Temperature, Value: 21.5, Time: time.Now(), Source: "test"}}})
	ts := httptest.NewUnstartedServer(nil)
	base := "http://" + ts.Listener.Addr().String()
	as, err := oauth.Open(context.Background(), path, oauth.Options{Issuer: base, Resource: base + "/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	srv := mcp.New(t.Context(), store, &mcp.Options{Version: "test"})
	f := New(Routes{MCP: srv.Handler(), Climate: func() []byte { return store.Snapshot().JSON }}, &Options{Token: token, OAuth: as, ToolScope: mcp.ToolScope})
	f.Mount("/", as.Handler())
	ts.Config.Handler = f
	ts.Start()
	t.Cleanup(func() { ts.Close(); srv.Close(); as.Close(); store.Close(context.Background()) })
	return ts, as
}

// TestOAuthOnMCP: with OAuth on, /mcp answers a request without a token
// 401 naming the resource metadata; the static token still opens it, and
// an access token of the hub's does too.
func TestOAuthOnMCP(t *testing.T) {
	const token = "s3cret-token-of-the-hub"
	ts, as := oauthHub(t, token)
	init := testutil.Request{Method: "POST", Path: "/mcp", Body: initBody}
	code, hdr, _ := testutil.Do(t, ts.URL, init)
	want := `resource_metadata="` + ts.URL + `/.well-known/oauth-protected-resource/mcp"`
	if code != 401 || !strings.Contains(hdr.Get("WWW-Authenticate"), want) {
		t.Errorf("no token: %d, WWW-Authenticate %q; want 401 with %s", code, hdr.Get("WWW-Authenticate"), want)
	}
	init.Header = map[string]string{"Authorization": "Bearer " + token}
	if code, _, body := testutil.Do(t, ts.URL, init); code != 200 {
		t.Errorf("the static token: %d %s", code, body)
	}
	init.Header = map[string]string{"Authorization": "Bearer " + accessToken(t, ts.URL, as, "")}
	if code, _, body := testutil.Do(t, ts.URL, init); code != 200 {
		t.Errorf("an access token: %d %s", code, body)
	}
	if strings.Contains(hdr.Get("WWW-Authenticate"), "error=") {
		t.Errorf("no token: WWW-Authenticate %q names an error (RFC 6750 §3.1: none when no token came)", hdr.Get("WWW-Authenticate"))
	}
	init.Header = map[string]string{"Authorization": "Bearer not-a-token"}
	// A refused token is named invalid_token (RFC 6750 §3.1), the metadata still there.
	if code, hdr, _ := testutil.Do(t, ts.URL, init); code != 401 || !strings.HasPrefix(hdr.Get("WWW-Authenticate"), `Bearer error="invalid_token", `) ||
		!strings.Contains(hdr.Get("WWW-Authenticate"), want) {
		t.Errorf("a wrong token: %d %q, want 401 with error=\"invalid_token\" and %s", code, hdr.Get("WWW-Authenticate"), want)
	}
	// The SSE transport (protocol 2024-11-05, Home Assistant's fallback)
	// takes the same tokens: without one 401 with the metadata, with an
	// access token its stream opens.
	for _, tok := range []string{"", accessToken(t, ts.URL, as, "")} {
		req, _ := http.NewRequest("GET", ts.URL+"/sse", nil)
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close() // a stream: its body never ends
		if want := map[bool]int{true: 401, false: 200}[tok == ""]; resp.StatusCode != want ||
			tok == "" && !strings.Contains(resp.Header.Get("WWW-Authenticate"), "resource_metadata=") {
			t.Errorf("GET /sse with token %t: %d %q, want %d", tok != "", resp.StatusCode, resp.Header.Get("WWW-Authenticate"), want)
		}
	}
	// The other routes keep the static token only: an access token is for /mcp.
	api := testutil.Request{Method: "GET", Path: "/api/climate", Header: map[string]string{"Authorization": "Bearer " + accessToken(t, ts.URL, as, "")}}
	if code, _, _ := testutil.Do(t, ts.URL, api); code != 401 {
		t.Errorf("/api/climate with an access token: %d, want 401", code)
	}
}

// TestScopeGate: an OAuth token without alerts:write is answered 403
// insufficient_scope when it calls create_alert or delete_alert, alone or
// in a batch, on /mcp and on /message; with the scope, or with the static
// token, the call goes on to the MCP server.
func TestScopeGate(t *testing.T) {
	const token = "s3cret-token-of-the-hub"
	ts, as := oauthHub(t, token)
	readOnly, both := accessToken(t, ts.URL, as, ""), accessToken(t, ts.URL, as, "climate:read alerts:write")
	call := func(tool string) string {
		return `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"` + tool + `","arguments":{}}}`
	}
	for _, c := range []struct {
		path, body, bearer string
		refused            bool
	}{
		{"/mcp", call("create_alert"), readOnly, true},
		{"/mcp", call("delete_alert"), readOnly, true},
		{"/mcp", "[" + call("get_climate") + "," + call("delete_alert") + "]", readOnly, true},
		{"/message?session_id=x", call("create_alert"), readOnly, true},
		{"/mcp", call("get_climate"), readOnly, false},
		{"/mcp", call("create_alert"), both, false},
		{"/mcp", call("create_alert"), token, false},
		// Names the SDK would not read are no call: the gate reads as it does.
		{"/mcp", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"Name":"create_alert"}}`, readOnly, false},
		{"/mcp", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"NAME":"get_climate","name":"create_alert"}}`, readOnly, true},
	} {
		req := testutil.Request{Method: "POST", Path: c.path, Body: c.body, Header: map[string]string{"Authorization": "Bearer " + c.bearer}}
		code, hdr, body := testutil.Do(t, ts.URL, req)
		refused := code == 403 && strings.Contains(hdr.Get("WWW-Authenticate"), `error="insufficient_scope"`) && strings.Contains(body, "insufficient_scope")
		if refused != c.refused {
			t.Errorf("%s %.60s: %d %q %q; want refused %v", c.path, c.body, code, hdr.Get("WWW-Authenticate"), body, c.refused)
		}
	}
}

// TestScopeGateRefusesWhatItCannotDecode: an OAuth token's body the gate
// cannot decode whole, as the SDK would, is answered 400 and not passed
// on, whatever else it holds: the SDK may run what the gate could not read.
func TestScopeGateRefusesWhatItCannotDecode(t *testing.T) {
	ts, as := oauthHub(t, "s3cret-token-of-the-hub")
	readOnly := accessToken(t, ts.URL, as, "")
	getClimate := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_climate","arguments":{}}}`
	for _, body := range []string{
		"not json", "", "[]", `"tools/call"`, `[1]`,
		"[" + getClimate + `,{"jsonrpc":"2.0","id":2,"method":"tools/list","params":"x"}]`,
		"[" + getClimate + `,{"jsonrpc":"2.0","method":"notifications/initialized","params":[1]}]`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"arguments":{}}}`,
		`{"jsonrpc":"2.0","id":2,"method":7,"params":{"name":"create_alert"}}`,
	} {
		for _, path := range []string{"/mcp", "/message?session_id=x"} {
			req := testutil.Request{Method: "POST", Path: path, Body: body, Header: map[string]string{"Authorization": "Bearer " + readOnly}}
			if code, _, resp := testutil.Do(t, ts.URL, req); code != http.StatusBadRequest || !strings.Contains(resp, "no JSON-RPC message the hub can read") {
				t.Errorf("%s %q: %d %q, want 400 from the gate", path, body, code, resp)
			}
		}
	}
}

// TestScopeGateRefusesWhatItCannotRead: a body longer than the gate reads
// is refused, so that a call past the peek cannot slip a tool by it.
func TestScopeGateRefusesWhatItCannotRead(t *testing.T) {
	ts, as := oauthHub(t, "s3cret-token-of-the-hub")
	readOnly := accessToken(t, ts.URL, as, "")
	body := strings.Repeat(" ", maxPeek) + `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"create_alert","arguments":{}}}`
	req := testutil.Request{Method: "POST", Path: "/mcp", Body: body, Header: map[string]string{"Authorization": "Bearer " + readOnly}}
	if code, _, resp := testutil.Do(t, ts.URL, req); code != http.StatusRequestEntityTooLarge {
		t.Errorf("a %d-byte body: %d %.80q, want 413", len(body), code, resp)
	}
}

// accessToken signs a client in through the consent page's checks.
func accessToken(t *testing.T, base string, as *oauth.Server, scope string) string {
	t.Helper()
	const redirect = "http://127.0.0.1:9/cb"
	resp, err := http.Post(base+oauth.PathRegister, "application/json", strings.NewReader(`{"redirect_uris":["`+redirect+`"]}`))
	if err != nil {
		t.Fatal(err)
	}
	var reg struct {
		ClientID string `json:"client_id"`
	}
	decode(t, resp, &reg)
	const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r0wW1gFWFOEjXk-abc"
	ar, err := as.CheckAuthRequest(context.Background(), "", url.Values{"client_id": {reg.ClientID}, "redirect_uri": {redirect}, "response_type": {"code"},
		"code_challenge": {"tqJkRfnFYfROIxzCmyvxuZotQxNblQS9WGKHbA5wLrA"}, "code_challenge_method": {"S256"}, "resource": {base + "/mcp"}, "scope": {scope}})
	if err != nil {
		t.Fatal(err)
	}
	code, err := as.IssueCode(context.Background(), ar)
	if err != nil {
		t.Fatal(err)
	}
	resp, err = http.PostForm(base+oauth.PathToken, url.Values{"grant_type": {"authorization_code"}, "client_id": {reg.ClientID},
		"redirect_uri": {redirect}, "code": {code}, "code_verifier": {verifier}})
	if err != nil {
		t.Fatal(err)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	decode(t, resp, &tok)
	return tok.AccessToken
}

func decode(t *testing.T, resp *http.Response, v any) {
	t.Helper()
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil || resp.StatusCode >= 300 {
		t.Fatalf("%s: %d %v", resp.Request.URL, resp.StatusCode, err)
	}
}
