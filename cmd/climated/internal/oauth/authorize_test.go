package oauth_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/climated/climated/cmd/climated/internal/oauth"
)

const consentRedirect = "https://app.example/cb"

func consentHub(t *testing.T) (*hub, string) {
	h := newHub(t, func(o *oauth.Options) { o.Owner = checkOwner })
	return h, h.register(consentRedirect)
}

// TestConsentApproves: the owner's token approves; the browser goes back
// to the client with a code that redeems, the state unchanged and iss.
func TestConsentApproves(t *testing.T) {
	h, client := consentHub(t)
	q := h.authQuery(client, consentRedirect)
	const state = " a b&c=d/é?%20+ "
	q.Set("state", state)
	resp := newBrowser(t).approve(h, q, ownerToken)
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc.String(), consentRedirect+"?") {
		t.Fatalf("approval: %d to %q", resp.StatusCode, loc)
	}
	got := loc.Query()
	if got.Get("state") != state || got.Get("iss") != h.base {
		t.Errorf("state %q iss %q; want %q and %q", got.Get("state"), got.Get("iss"), state, h.base)
	}
	if status, m := h.token(h.exchange(client, consentRedirect, got.Get("code"))); status != http.StatusOK {
		t.Errorf("redeeming the page's code: %d %v", status, m)
	}
}

// TestConsentWrongOwner: a wrong token re-shows the page, no code.
func TestConsentWrongOwner(t *testing.T) {
	h, client := consentHub(t)
	resp := newBrowser(t).approve(h, h.authQuery(client, consentRedirect), "guess")
	if resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("Location") != "" {
		t.Errorf("a wrong owner token: %d to %q, want 401 and no redirect", resp.StatusCode, resp.Header.Get("Location"))
	}
}

// TestConsentNoOwnerConfigured: with no owner check nobody can approve.
func TestConsentNoOwnerConfigured(t *testing.T) {
	h := newHub(t, nil)
	client := h.register(consentRedirect)
	resp := newBrowser(t).approve(h, h.authQuery(client, consentRedirect), "")
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("approval without an owner check: %d, want 401", resp.StatusCode)
	}
}

// TestConsentDenied: Deny sends access_denied with the state.
func TestConsentDenied(t *testing.T) {
	h, client := consentHub(t)
	b := newBrowser(t)
	_, page := b.get(h.base + oauth.PathAuthorize + "?" + h.authQuery(client, consentRedirect).Encode())
	form := formOf(page)
	form.Set("action", "deny")
	resp, _ := b.post(h.base+oauth.PathAuthorize, form)
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if q := loc.Query(); q.Get("error") != "access_denied" || q.Get("state") != "st" || q.Get("code") != "" {
		t.Errorf("denial went to %q", loc)
	}
}

// TestConsentCSRF: the form is refused without its CSRF token, with
// another one, or without the cookie that carries it.
func TestConsentCSRF(t *testing.T) {
	h, client := consentHub(t)
	b := newBrowser(t)
	_, page := b.get(h.base + oauth.PathAuthorize + "?" + h.authQuery(client, consentRedirect).Encode())
	good := formOf(page)
	good.Set("owner", ownerToken)
	good.Set("action", "approve")
	for name, change := range map[string]func(url.Values) *browser{
		"no token":    func(f url.Values) *browser { f.Del("csrf"); return b },
		"empty token": func(f url.Values) *browser { f.Set("csrf", ""); return b },
		"other token": func(f url.Values) *browser { f.Set("csrf", strings.Repeat("A", 43)); return b },
		"no cookie":   func(url.Values) *browser { return newBrowser(t) },
	} {
		f := url.Values{}
		for k, v := range good {
			f[k] = v
		}
		resp, _ := change(f).post(h.base+oauth.PathAuthorize, f)
		if resp.StatusCode != http.StatusForbidden || resp.Header.Get("Location") != "" {
			t.Errorf("%s: %d to %q, want 403", name, resp.StatusCode, resp.Header.Get("Location"))
		}
	}
	if resp, _ := b.post(h.base+oauth.PathAuthorize, good); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("the intact form: %d, want 303", resp.StatusCode)
	}
}

// TestConsentEmptyCSRF: an empty cookie and an empty field are equal,
// and refused: neither a denial nor an approval goes through.
func TestConsentEmptyCSRF(t *testing.T) {
	h, client := consentHub(t)
	b := newBrowser(t)
	_, page := b.get(h.base + oauth.PathAuthorize + "?" + h.authQuery(client, consentRedirect).Encode())
	for _, action := range []string{"deny", "approve"} {
		f := formOf(page)
		f.Set("csrf", "")
		f.Set("action", action)
		f.Set("owner", ownerToken)
		req, _ := http.NewRequest(http.MethodPost, h.base+oauth.PathAuthorize, strings.NewReader(f.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Cookie", "climated_oauth_csrf=")
		resp, _ := newBrowser(t).do(req)
		if resp.StatusCode != http.StatusForbidden || resp.Header.Get("Location") != "" {
			t.Errorf("%s with an empty CSRF cookie and field: %d to %q, want 403", action, resp.StatusCode, resp.Header.Get("Location"))
		}
	}
}

// TestConsentNotFramed: the page forbids framing (clickjacking) and caching.
func TestConsentNotFramed(t *testing.T) {
	h, client := consentHub(t)
	resp, _ := newBrowser(t).get(h.base + oauth.PathAuthorize + "?" + h.authQuery(client, consentRedirect).Encode())
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("Content-Security-Policy %q lacks frame-ancestors 'none'", csp)
	}
	if resp.Header.Get("X-Frame-Options") != "DENY" || resp.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("headers %v", resp.Header)
	}
}

// TestConsentUntrustedRedirect: an unregistered redirect URI or client is
// answered on the page, never by sending the browser there; a bad PKCE
// method is answered on the page too while the owner never approved the
// client, and at its (registered) redirect URI once the owner did
// (TestNoOpenRedirectBeforeApproval).
func TestConsentUntrustedRedirect(t *testing.T) {
	h, client := consentHub(t)
	b := newBrowser(t)
	for _, q := range []url.Values{h.authQuery(client, "https://evil.example/cb"), h.authQuery("dcr_nobody", consentRedirect)} {
		resp, page := b.get(h.base + oauth.PathAuthorize + "?" + q.Encode())
		if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("Location") != "" || !strings.Contains(page, "cannot go on") {
			t.Errorf("%v: %d to %q", q, resp.StatusCode, resp.Header.Get("Location"))
		}
	}
	q := h.authQuery(client, consentRedirect)
	q.Set("code_challenge_method", "plain")
	if resp, page := b.get(h.base + oauth.PathAuthorize + "?" + q.Encode()); resp.StatusCode != http.StatusBadRequest || !strings.Contains(page, "cannot go on") {
		t.Errorf("plain PKCE, the client never approved: %d to %q, want the page", resp.StatusCode, resp.Header.Get("Location"))
	}
	if resp := b.approve(h, h.authQuery(client, consentRedirect), ownerToken); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("approval: %d", resp.StatusCode)
	}
	resp, _ := b.get(h.base + oauth.PathAuthorize + "?" + q.Encode())
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusSeeOther || loc.Query().Get("error") != "invalid_request" || loc.Query().Get("iss") != h.base {
		t.Errorf("plain PKCE: %d to %q", resp.StatusCode, loc)
	}
}

// TestConsentEscapes: a client's name cannot inject markup.
func TestConsentEscapes(t *testing.T) {
	h := newHub(t, func(o *oauth.Options) { o.Owner = checkOwner })
	status, body := h.post(oauth.PathRegister, "application/json", `{"client_name":"<script>alert(1)</script>","redirect_uris":["`+consentRedirect+`"]}`)
	if status != http.StatusCreated {
		t.Fatal(body)
	}
	client := body[strings.Index(body, `"client_id":"`)+13:]
	client = client[:strings.Index(client, `"`)]
	_, page := newBrowser(t).get(h.base + oauth.PathAuthorize + "?" + h.authQuery(client, consentRedirect).Encode())
	if strings.Contains(page, "<script>") || !strings.Contains(page, "&lt;script&gt;") {
		t.Errorf("the page holds the name unescaped:\n%s", page)
	}
}

// TestRedirectHostsInASCII: a redirect URI's host must be ASCII. A
// browser maps an internationalised one under IDNA before it goes there
// ("chatgpt.com。evil.example" is chatgpt.com.evil.example to it; found by
// an adversarial pass, where the page showed another ASCII form than the
// one visited), so such a URI is refused at registration and, kept from
// before, again at /authorize, on the hub's own page. Its xn-- form, as
// clients send it, is shown as it is, a look-alike plain in it.
func TestRedirectHostsInASCII(t *testing.T) {
	h := newHub(t, nil)
	for _, uri := range []string{
		"https://аpple.com/cb",                           // a Cyrillic а
		"https://chatgpt.com。evil.example/cb",            // U+3002, a dot to a browser
		"https://chatgpt.com%E3%80%82evil.example/cb",    // the same, percent-escaped
		"https://ｃhatgpt.com/cb",                         // a fullwidth c
		"https://chat\u00adgpt.com/cb",                   // a soft hyphen, gone to a browser
		"https://chatgpt.com\u200b.evil.example:8443/cb", // a zero-width space
	} {
		status, body := h.post(oauth.PathRegister, "application/json", `{"client_name":"Test","redirect_uris":["`+uri+`"]}`)
		if status != http.StatusBadRequest || !strings.Contains(body, "invalid_redirect_uri") || !strings.Contains(body, "xn--") {
			t.Errorf("registering %s: %d %s; want 400 invalid_redirect_uri saying to write the xn-- form", uri, status, body)
		}
	}
	const ascii = "https://xn--pple-43d.com/cb"
	id := h.register(ascii)
	resp, err := http.Get(h.base + oauth.PathAuthorize + "?" + h.authQuery(id, ascii).Encode())
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(page), "xn--pple-43d.com") {
		t.Errorf("consent page %d without the host as registered:\n%s", resp.StatusCode, page)
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "https://xn--pple-43d.com") {
		t.Errorf("Content-Security-Policy %q: want the redirect host, which browsers match", csp)
	}
	const kept = "https://chatgpt.com。evil.example/cb"
	if _, err := h.sql().Exec("UPDATE oauth_clients SET redirect_uris = ? WHERE id = ?", `["`+kept+`"]`, id); err != nil {
		t.Fatal(err)
	}
	resp, err = (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Get(h.base + oauth.PathAuthorize + "?" + h.authQuery(id, kept).Encode())
	if err != nil {
		t.Fatal(err)
	}
	page, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(page), "xn--") {
		t.Errorf("/authorize with a kept redirect URI on a host not in ASCII: %d %s; want 400 on the hub's page", resp.StatusCode, page)
	}
}
