package oauth_test

import (
	"net/http"
	"strings"
	"testing"

	"golang.org/x/time/rate"

	"github.com/climated/climated/cmd/climated/internal/oauth"
)

const regBody = `{"client_name":"Flood","redirect_uris":["https://app.example/cb"]}`

// TestRegistrationRateLimited: past the burst, /register answers 429
// with Retry-After until the limiter refills.
func TestRegistrationRateLimited(t *testing.T) {
	h := newHub(t, func(o *oauth.Options) { o.RegisterBurst = 3; o.RegisterRate = rate.Limit(1e-6) })
	for i := range 3 {
		if status, body := h.post(oauth.PathRegister, "application/json", regBody); status != http.StatusCreated {
			t.Fatalf("registration %d: %d %s", i+1, status, body)
		}
	}
	resp, err := http.Post(h.base+oauth.PathRegister, "application/json", strings.NewReader(regBody))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Errorf("the 4th registration in a burst of 3: %d, Retry-After %q; want 429 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
}

// TestRegistrationRefusals: what a public client of this hub cannot
// register, each with its RFC 7591 error.
func TestRegistrationRefusals(t *testing.T) {
	h := newHub(t, func(o *oauth.Options) { o.RegisterRate = rate.Inf })
	for _, c := range []struct{ name, body, code string }{
		{"not JSON", `redirect_uris=x`, "invalid_client_metadata"},
		{"no redirect URI", `{"client_name":"x"}`, "invalid_redirect_uri"},
		{"http on a LAN host", `{"redirect_uris":["http://192.168.1.5/cb"]}`, "invalid_redirect_uri"},
		{"javascript", `{"redirect_uris":["javascript:alert(1)"]}`, "invalid_redirect_uri"},
		{"fragment", `{"redirect_uris":["https://a.example/cb#x"]}`, "invalid_redirect_uri"},
		{"six URIs", `{"redirect_uris":["https://a.example/1","https://a.example/2","https://a.example/3","https://a.example/4","https://a.example/5","https://a.example/6"]}`, "invalid_redirect_uri"},
		{"implicit grant", `{"redirect_uris":["https://a.example/cb"],"grant_types":["implicit"]}`, "invalid_client_metadata"},
		{"oversized", `{"redirect_uris":["https://a.example/cb"],"client_name":"` + strings.Repeat("x", 20<<10) + `"}`, "invalid_client_metadata"},
	} {
		t.Run(c.name, func(t *testing.T) {
			status, body := h.post(oauth.PathRegister, "application/json", c.body)
			if status != http.StatusBadRequest || !strings.Contains(body, `"error":"`+c.code+`"`) {
				t.Errorf("got %d %s, want 400 %s", status, body, c.code)
			}
		})
	}
}

// TestRegistrationLimitPerSource: behind the hub's tunnel every request
// comes from loopback; a client flooding /register from one forwarded
// address is refused past its burst, and an assistant at another address
// still registers (before, 50 registrations in 4 minutes refused
// everyone).
func TestRegistrationLimitPerSource(t *testing.T) {
	h := newHub(t, func(o *oauth.Options) { o.RegisterBurst = 3; o.RegisterRate = rate.Limit(1e-6) })
	register := func(forwarded string) int {
		req, _ := http.NewRequest("POST", h.base+oauth.PathRegister, strings.NewReader(regBody))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Forwarded-For", "192.0.2.1, "+forwarded)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for i := range 10 {
		s := register("203.0.113.9")
		if want := map[bool]int{true: http.StatusCreated, false: http.StatusTooManyRequests}[i < 3]; s != want {
			t.Errorf("the flooder's registration %d: %d, want %d", i+1, s, want)
		}
	}
	if s := register("198.51.100.7"); s != http.StatusCreated {
		t.Errorf("another source's registration during the flood: %d, want 201", s)
	}
}
