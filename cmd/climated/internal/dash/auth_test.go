package dash_test

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/climated/climated/cmd/climated/internal/dash"
)

const testToken = "s3cret-token-of-the-hub"

func noRedirect() *http.Client {
	return &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func do(t *testing.T, method, u string, hdr map[string]string, body string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	if h := hdr["Host"]; h != "" {
		req.Host = h
	}
	if body != "" && hdr["Content-Type"] == "" {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	res, err := noRedirect().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

// TestOffLoopback: from another machine nothing but the login form and the
// static files without the token; a wrong token is refused; a login needs
// the page's own origin; the session cookie then opens the data.
func TestOffLoopback(t *testing.T) {
	store, _ := demoStore(t, 3*time.Hour)
	now := time.Now()
	clock := func() time.Time { return now }
	h := newDash(t, dash.StoreSource{Store: store, StaleAfter: time.Hour}, &dash.Options{Token: testToken, IsLoopback: remote, Simulated: true, Now: clock})
	base := serve(t, "127.0.0.2", h)
	for _, p := range []string{"/dash/state", "/dash/history?zone=Indoor&m=Temperature&range=24h&points=100", "/dash/events"} {
		if res, body := do(t, "GET", base+p, nil, ""); res.StatusCode != http.StatusUnauthorized || strings.Contains(body, "Indoor") {
			t.Errorf("GET %s without token: %d %q, want 401 without data", p, res.StatusCode, body)
		}
	}
	res, body := do(t, "GET", base+"/", nil, "")
	if res.StatusCode != http.StatusUnauthorized || !strings.Contains(body, `name="token"`) || strings.Contains(body, "app.js") {
		t.Errorf("GET / without token: %d, want 401 and the login form only:\n%s", res.StatusCode, body)
	}
	// The login page wears the consent page's card and primary button.
	if !strings.Contains(body, `<main class="login consent"><div class="card">`) || !strings.Contains(body, `class="primary"`) {
		t.Errorf("the login page is not styled as the consent page:\n%s", body)
	}
	if res, _ := do(t, "GET", base+"/dash/static/app.css", nil, ""); res.StatusCode != 200 {
		t.Errorf("static file for the login page: %d", res.StatusCode)
	}
	same := map[string]string{"Origin": base}
	form := url.Values{"token": {testToken}}.Encode()
	if res, body := do(t, "POST", base+"/dash/login", same, url.Values{"token": {"guess"}}.Encode()); res.StatusCode != 401 || len(res.Cookies()) > 0 {
		t.Errorf("wrong token: %d %v %q", res.StatusCode, res.Cookies(), body)
	}
	for _, hdr := range []map[string]string{nil, {"Origin": "http://evil.example"}} {
		if res, _ := do(t, "POST", base+"/dash/login", hdr, form); res.StatusCode != http.StatusForbidden || len(res.Cookies()) > 0 {
			t.Errorf("login with Origin %q: %d, want 403", hdr["Origin"], res.StatusCode)
		}
	}
	res, _ = do(t, "POST", base+"/dash/login", map[string]string{"Origin": base, "X-Forwarded-Proto": "https"}, form)
	if res.StatusCode != http.StatusSeeOther || len(res.Cookies()) != 1 {
		t.Fatalf("login: %d %v", res.StatusCode, res.Cookies())
	}
	c := res.Cookies()[0]
	if !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Secure {
		t.Errorf("cookie %+v: want HttpOnly, SameSite=Strict, not Secure over plain HTTP with an untrusted X-Forwarded-Proto", c)
	}
	sessionChecks(t, base, c, func(d time.Duration) { now = now.Add(d) })
}

// sessionChecks: the session opens the data, but not for another origin;
// a forged or expired one does not; the bearer token works as for the API.
func sessionChecks(t *testing.T, base string, c *http.Cookie, advance func(time.Duration)) {
	withCookie := map[string]string{"Cookie": c.Name + "=" + c.Value}
	if res, body := do(t, "GET", base+"/dash/state", withCookie, ""); res.StatusCode != 200 || !strings.Contains(body, `"Indoor"`) {
		t.Errorf("state with the session: %d %.100q", res.StatusCode, body)
	}
	withCookie["Origin"] = "http://evil.example"
	if res, _ := do(t, "GET", base+"/dash/state", withCookie, ""); res.StatusCode != http.StatusForbidden {
		t.Errorf("cross-origin read with the session: %d, want 403", res.StatusCode)
	}
	bad := map[string]string{"Cookie": c.Name + "=" + c.Value[:len(c.Value)-2] + "xx"}
	if res, _ := do(t, "GET", base+"/dash/state", bad, ""); res.StatusCode != 401 {
		t.Errorf("forged session: %d, want 401", res.StatusCode)
	}
	if res, _ := do(t, "GET", base+"/dash/state", map[string]string{"Authorization": "Bearer " + testToken}, ""); res.StatusCode != 200 {
		t.Errorf("bearer token: %d", res.StatusCode)
	}
	if res, _ := do(t, "GET", base+"/dash/state", map[string]string{"Authorization": "Bearer wrong"}, ""); res.StatusCode != 401 {
		t.Errorf("wrong bearer token: %d", res.StatusCode)
	}
	advance(dash.DefaultSessionTTL + time.Minute)
	if res, _ := do(t, "GET", base+"/dash/state", map[string]string{"Cookie": c.Name + "=" + c.Value}, ""); res.StatusCode != 401 {
		t.Errorf("expired session: %d, want 401", res.StatusCode)
	}
}

// TestSecureCookieBehindTrustedProxy: the cookie is Secure when a trusted
// proxy says the browser came over TLS.
func TestSecureCookieBehindTrustedProxy(t *testing.T) {
	store, _ := demoStore(t, time.Hour)
	h := newDash(t, dash.StoreSource{Store: store}, &dash.Options{Token: testToken, IsLoopback: remote, TrustForwardedProto: true})
	base := serve(t, "127.0.0.2", h)
	res, _ := do(t, "POST", base+"/dash/login", map[string]string{"Origin": base, "X-Forwarded-Proto": "https"}, url.Values{"token": {testToken}}.Encode())
	if len(res.Cookies()) != 1 || !res.Cookies()[0].Secure {
		t.Errorf("cookie behind a trusted TLS proxy: %v, want Secure", res.Cookies())
	}
}

// TestLoopback: on loopback the dashboard opens without a token, but a
// foreign Host (DNS rebinding) is refused when the hub has no token.
func TestLoopback(t *testing.T) {
	store, _ := demoStore(t, time.Hour)
	base := serve(t, "127.0.0.1", newDash(t, dash.StoreSource{Store: store}, nil))
	if res, body := do(t, "GET", base+"/", nil, ""); res.StatusCode != 200 || !strings.Contains(body, "app.js") {
		t.Errorf("GET / on loopback: %d", res.StatusCode)
	}
	if res, _ := do(t, "GET", base+"/dash/state", map[string]string{"Host": "evil.example"}, ""); res.StatusCode != http.StatusForbidden {
		t.Errorf("rebound Host: %d, want 403", res.StatusCode)
	}
	if res, _ := do(t, "POST", base+"/dash/login", map[string]string{"Origin": base}, "token=x"); res.StatusCode != http.StatusForbidden {
		t.Errorf("login on a hub without token: %d, want 403", res.StatusCode)
	}
}

// TestWrongLoginsLimited: past MaxWrongLogins wrong tokens in a minute
// from one address, a wrong one from there is answered 429 until the
// minute has passed; the right one always gets in (auth_limit_test.go
// has the other addresses).
func TestWrongLoginsLimited(t *testing.T) {
	store, _ := demoStore(t, time.Hour)
	now := time.Unix(1_800_000_000, 0) // the start of a minute
	h := newDash(t, dash.StoreSource{Store: store}, &dash.Options{Token: testToken, IsLoopback: remote, Now: func() time.Time { return now }})
	base := serve(t, "127.0.0.2", h)
	same := map[string]string{"Origin": base}
	for i := 0; i < dash.MaxWrongLogins; i++ {
		if res, _ := do(t, "POST", base+"/dash/login", same, "token=guess"); res.StatusCode != 401 {
			t.Fatalf("wrong login %d: %d, want 401", i+1, res.StatusCode)
		}
	}
	if res, _ := do(t, "POST", base+"/dash/login", same, "token=guess"); res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") == "" {
		t.Errorf("a wrong login after %d wrong ones: %d, want 429 with Retry-After", dash.MaxWrongLogins, res.StatusCode)
	}
	right := url.Values{"token": {testToken}}.Encode()
	if res, _ := do(t, "POST", base+"/dash/login", same, right); res.StatusCode != http.StatusSeeOther {
		t.Errorf("the right token after %d wrong ones: %d, want 303", dash.MaxWrongLogins, res.StatusCode)
	}
	now = now.Add(time.Minute)
	if res, _ := do(t, "POST", base+"/dash/login", same, "token=guess"); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("a wrong login the next minute: %d, want 401", res.StatusCode)
	}
}

// TestGzip: the assets and large answers are gzipped for a client that
// takes it, and decode to what is embedded.
func TestGzip(t *testing.T) {
	store, _ := demoStore(t, 2*time.Hour)
	base := serve(t, "127.0.0.1", newDash(t, dash.StoreSource{Store: store}, nil))
	plain, _ := do(t, "GET", base+"/dash/static/vendor/uplot/uPlot.iife.min.js", map[string]string{"Accept-Encoding": "identity"}, "")
	for _, p := range []string{"/dash/static/vendor/uplot/uPlot.iife.min.js", "/dash/history?zone=Indoor&m=Temperature&range=24h&points=500"} {
		req, _ := http.NewRequest("GET", base+p, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		res, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(res.Body)
		if res.Header.Get("Content-Encoding") != "gzip" || err != nil {
			t.Fatalf("%s: Content-Encoding %q, %v", p, res.Header.Get("Content-Encoding"), err)
		}
		body, err := io.ReadAll(zr)
		res.Body.Close()
		if err != nil || len(body) == 0 {
			t.Errorf("%s: %d bytes, %v", p, len(body), err)
		}
		if strings.HasSuffix(p, ".js") && int64(len(body)) != plain.ContentLength {
			t.Errorf("%s: %d bytes gunzipped, %d plain", p, len(body), plain.ContentLength)
		}
	}
}
