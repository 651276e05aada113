package oauth_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/oauth"
	"github.com/climated/climated/history"
	"github.com/climated/climated/internal/testutil"
)

// clock is the seam the tests move. It starts at the real time, as
// go-sdk's RequireBearerToken checks expiry against time.Now.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// hub is an authorization server on a real history file, served on
// loopback, with its log in a buffer.
type hub struct {
	t     testing.TB
	srv   *oauth.Server
	http  *httptest.Server
	base  string // the issuer
	clock *clock
	log   *testutil.Buffer
	path  string
}

// newHub starts a hub; change adjusts its options before it opens.
func newHub(t testing.TB, change func(*oauth.Options)) *hub {
	t.Helper()
	return newHubOn(t, filepath.Join(t.TempDir(), "climate.db"), change)
}

// newHubOn starts a hub on the history file at path, which it migrates.
func newHubOn(t testing.TB, path string, change func(*oauth.Options)) *hub {
	t.Helper()
	h := &hub{t: t, clock: &clock{t: time.Now().Truncate(time.Second)}, log: &testutil.Buffer{}, path: path}
	st, err := history.Open(context.Background(), h.path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close(context.Background()) })
	h.http = httptest.NewUnstartedServer(nil)
	h.base = "http://" + h.http.Listener.Addr().String()
	o := oauth.Options{Issuer: h.base, Resource: h.base + "/mcp", Now: h.clock.now,
		Logger: slog.New(slog.NewTextHandler(h.log, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	if change != nil {
		change(&o)
	}
	h.srv = h.open(o)
	h.http.Config.Handler = h.srv.Handler()
	h.http.Start()
	t.Cleanup(h.http.Close)
	return h
}

func (h *hub) open(o oauth.Options) *oauth.Server {
	h.t.Helper()
	s, err := oauth.Open(context.Background(), h.path, o)
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { s.Close() })
	return s
}

func (h *hub) logText() string { return h.log.String() }

// register registers a client with one redirect URI and returns its id.
func (h *hub) register(redirect string) string {
	h.t.Helper()
	status, body := h.post(oauth.PathRegister, "application/json", `{"client_name":"Test","redirect_uris":["`+redirect+`"]}`)
	if status != http.StatusCreated {
		h.t.Fatalf("register: %d %s", status, body)
	}
	var r struct {
		ClientID string `json:"client_id"`
	}
	json.Unmarshal([]byte(body), &r)
	return r.ClientID
}

func (h *hub) post(path, ctype, body string) (int, string) {
	h.t.Helper()
	resp, err := http.Post(h.base+path, ctype, strings.NewReader(body))
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// token posts a /token form; it returns the status and the decoded answer.
func (h *hub) token(form url.Values) (int, map[string]any) {
	h.t.Helper()
	status, body := h.post(oauth.PathToken, "application/x-www-form-urlencoded", form.Encode())
	var m map[string]any
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		h.t.Fatalf("token answer %d is not JSON: %s", status, body)
	}
	return status, m
}

const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r0wW1gFWFOEjXk-abc"

func challenge(v string) string {
	s := sha256.Sum256([]byte(v))
	return base64.RawURLEncoding.EncodeToString(s[:])
}

// authQuery is a valid /authorize query for client and redirect.
func (h *hub) authQuery(client, redirect string) url.Values {
	return url.Values{"client_id": {client}, "redirect_uri": {redirect}, "response_type": {"code"}, "state": {"st"},
		"code_challenge": {challenge(verifier)}, "code_challenge_method": {"S256"}, "resource": {h.base + "/mcp"}, "scope": {"climate:read"}}
}

// code runs an approved authorization request and returns its code.
func (h *hub) code(q url.Values) string {
	h.t.Helper()
	ar, err := h.srv.CheckAuthRequest(context.Background(), "", q)
	if err != nil {
		h.t.Fatal(err)
	}
	code, err := h.srv.IssueCode(context.Background(), ar)
	if err != nil {
		h.t.Fatal(err)
	}
	return code
}

// codeForm is a token form redeeming a fresh code of client's.
func (h *hub) codeForm(client, redirect string) url.Values {
	h.t.Helper()
	return h.exchange(client, redirect, h.code(h.authQuery(client, redirect)))
}

// exchange is the token form that redeems code.
func (h *hub) exchange(client, redirect, code string) url.Values {
	return url.Values{"grant_type": {"authorization_code"}, "client_id": {client}, "redirect_uri": {redirect},
		"code": {code}, "code_verifier": {verifier}, "resource": {h.base + "/mcp"}}
}

// signIn registers a client and runs the code flow to its first tokens.
func (h *hub) signIn() (client, access, refresh string) {
	h.t.Helper()
	const redirect = "http://127.0.0.1:5555/callback"
	client = h.register(redirect)
	status, m := h.token(h.exchange(client, redirect, h.code(h.authQuery(client, redirect))))
	if status != http.StatusOK {
		h.t.Fatalf("exchange: %d %v", status, m)
	}
	return client, m["access_token"].(string), m["refresh_token"].(string)
}

// wantError checks an RFC 6749 §5.2 answer.
func wantError(t *testing.T, status int, m map[string]any, wantStatus int, code string) {
	t.Helper()
	if status != wantStatus || m["error"] != code {
		t.Errorf("got %d %v, want %d error %q", status, m, wantStatus, code)
	}
	if d, _ := m["error_description"].(string); d == "" {
		t.Errorf("error %v has no error_description", m)
	}
}
