package dash_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/climated/climated/cmd/climated/internal/dash"
	"github.com/climated/climated/cmd/climated/internal/oauth"
	"github.com/climated/climated/internal/testutil"
	"github.com/climated/climated/internal/testutil/chromium"
)

// oauthHub is the dashboard and the authorization server on one origin,
// on a real history file, as climated serves them when public_url is set.
type oauthHub struct {
	t     *testing.T
	base  string
	as    *oauth.Server
	dash  *dash.Handler
	token string           // the hub's token: the owner's secret
	log   *testutil.Buffer // the server's and the dashboard's
}

// newOAuthHub serves them; change (nil: none) adjusts the dashboard's options.
func newOAuthHub(t *testing.T, change func(*dash.Options)) *oauthHub {
	t.Helper()
	store := emptyStore(t)
	mux := http.NewServeMux()
	h := &oauthHub{t: t, base: serve(t, "127.0.0.1", mux), token: "the-hubs-token", log: &testutil.Buffer{}}
	log := slog.New(slog.NewTextHandler(h.log, nil))
	var err error
	h.as, err = oauth.Open(context.Background(), store.Path(), oauth.Options{Issuer: h.base, Resource: h.base + "/mcp",
		Logger: log, Stylesheet: dash.StylesheetPath, Owner: func(r *http.Request, given string) error { return h.dash.CheckOwner(r, given) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.as.Close() })
	opts := &dash.Options{Token: h.token, Apps: h.as, Logger: log}
	if change != nil {
		change(opts)
	}
	h.dash = newDash(t, dash.StoreSource{Store: store}, opts)
	for _, p := range h.dash.Patterns() {
		mux.Handle(p, h.dash)
	}
	mux.Handle("/", h.as.Handler())
	return h
}

// register registers a client by DCR, as Home Assistant does; it returns its id.
func (h *oauthHub) register(name, redirect string) string {
	h.t.Helper()
	body, _ := json.Marshal(map[string]any{"client_name": name, "redirect_uris": []string{redirect}})
	resp, err := http.Post(h.base+oauth.PathRegister, "application/json", strings.NewReader(string(body)))
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	var r struct {
		ClientID string `json:"client_id"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil || resp.StatusCode != http.StatusCreated {
		h.t.Fatalf("register: %d %v", resp.StatusCode, err)
	}
	return r.ClientID
}

// signIn runs a sign-in of client through to its first access token,
// the owner's approval taken as given (the consent page has its own tests).
func (h *oauthHub) signIn(client, redirect string) string {
	h.t.Helper()
	u, _ := url.Parse(h.authURL(client, redirect, oauth.ScopeRead))
	ctx := context.Background()
	ar, err := h.as.CheckAuthRequest(ctx, "", u.Query())
	if err != nil {
		h.t.Fatal(err)
	}
	code, err := h.as.IssueCode(ctx, ar)
	if err != nil {
		h.t.Fatal(err)
	}
	resp, err := http.PostForm(h.base+oauth.PathToken, url.Values{"grant_type": {"authorization_code"}, "client_id": {client},
		"redirect_uri": {redirect}, "code": {code}, "code_verifier": {pkceVerifier}, "resource": {h.base + "/mcp"}})
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&tok); err != nil || tok.AccessToken == "" {
		h.t.Fatalf("token: %d %v", resp.StatusCode, err)
	}
	if !h.works(tok.AccessToken) {
		h.t.Fatal("a fresh access token does not verify")
	}
	return tok.AccessToken
}

// works reports whether the authorization server takes access, as /mcp asks it.
func (h *oauthHub) works(access string) bool {
	_, err := h.as.Verify(context.Background(), access, nil)
	return err == nil
}

const pkceVerifier = "a-verifier-of-at-least-forty-three-characters-long"

// authURL is the consent page's address for a sign-in of client.
func (h *oauthHub) authURL(client, redirect, scope string) string {
	sum := sha256.Sum256([]byte(pkceVerifier))
	q := url.Values{"client_id": {client}, "redirect_uri": {redirect}, "response_type": {"code"}, "state": {"st"},
		"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"},
		"resource": {h.base + "/mcp"}, "scope": {scope}}
	return h.base + oauth.PathAuthorize + "?" + q.Encode()
}

// A name with no place to break, and a long host: what a phone's width
// must wrap rather than scroll sideways.
const (
	longName     = "TheAssistantOfTheHouseholdWithANameFarWiderThanAPhone"
	longRedirect = "https://callbacks.an-assistant-with-a-long-domain-name.example/oauth/callback"
)

// TestBrowserConsentPhone: the consent page on a phone 390 px wide, light
// and dark: the dashboard's stylesheet applied, the client's name, its
// redirect host and a sentence per scope shown, the form's fields there,
// nothing wider than the screen, its text readable, and no console or CSP
// error; the error page likewise.
func TestBrowserConsentPhone(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a browser")
	}
	h := newOAuthHub(t, nil)
	client := h.register(longName, longRedirect)
	tb := newTab(t, chromium.Browser(t))
	phone := views[0]
	dir := artifacts(t)
	for _, theme := range []string{"light", "dark"} {
		phone.apply(t, tb)
		if _, err := chromedp.Call(tb.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: theme}}}); err != nil {
			t.Fatal(err)
		}
		tb.do(t, chromedp.Navigate(h.authURL(client, longRedirect, oauth.ScopeRead+" "+oauth.ScopeAlertsWrite)))
		waitFor(t, tb, `document.querySelector('button[name=action][value=approve]') !== null`, 10*time.Second)
		checkConsentPage(t, tb, theme)
		checkPhoneLayout(t, tb, "consent page "+theme)
		writeScreenshot(t, tb, dir, "consent-phone-"+theme+".png")
	}
	tb.check(t)
	// The error page: its own 400 is expected (as a response and as the
	// log's failed load), nothing else.
	bad := h.base + oauth.PathAuthorize + "?client_id=nobody"
	tb.do(t, chromedp.Navigate(bad))
	waitFor(t, tb, `document.querySelector('.consent .error') !== null`, 10*time.Second)
	checkPhoneLayout(t, tb, "error page")
	writeScreenshot(t, tb, dir, "consent-error-phone.png")
	tb.forgive(bad)
	tb.check(t)
}

// checkConsentPage: what the owner must see and the fields the form posts.
func checkConsentPage(t *testing.T, tb *tab, theme string) {
	t.Helper()
	text := eval[string](t, tb, `document.body.innerText`)
	for _, want := range []string{longName, "callbacks.an-assistant-with-a-long-domain-name.example",
		"Read the climate: every zone's readings, their history and the alerts.", "Create and delete alerts."} {
		if !strings.Contains(text, want) {
			t.Errorf("%s: the page does not say %q:\n%s", theme, want, text)
		}
	}
	fields := eval[[]bool](t, tb, `['input[type=password][name=owner]', 'input[type=hidden][name=csrf]',
		'button[name=action][value=approve]', 'button[name=action][value=deny]'].map(s => document.querySelector(s) !== null)`)
	for i, ok := range fields {
		if !ok {
			t.Errorf("%s: form field %d of owner, csrf, approve, deny is missing", theme, i)
		}
	}
	// The dashboard's stylesheet: its background, the theme's.
	dark := eval[bool](t, tb, `(m => m.slice(0, 3).reduce((a, b) => a + +b, 0) < 200)(getComputedStyle(document.body).backgroundColor.match(/[0-9.]+/g))`)
	styled := eval[bool](t, tb, `getComputedStyle(document.querySelector('.consent .card')).borderTopStyle === 'solid'`)
	if !styled || dark != (theme == "dark") {
		t.Errorf("%s: the dashboard's stylesheet applied %v, dark background %v", theme, styled, dark)
	}
}

// checkPhoneLayout: nothing wider than the phone, text readable (WCAG AA).
func checkPhoneLayout(t *testing.T, tb *tab, what string) {
	t.Helper()
	checkNoOverflow(t, tb, what)
	if worst := eval[[]any](t, tb, contrastJS); len(worst) == 2 && worst[0].(float64) < 4.5 {
		t.Errorf("%s: text contrast %.2f:1 at %v, want at least 4.5:1 (WCAG AA)", what, worst[0], worst[1])
	}
}

func writeScreenshot(t *testing.T, tb *tab, dir, name string) {
	t.Helper()
	png, err := chromedp.Run(tb.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	writeArtifact(t, dir, name, png)
	t.Log(fmt.Sprintf("screenshot %s", filepath.Join(dir, name)))
}
